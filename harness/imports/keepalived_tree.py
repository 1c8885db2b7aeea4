"""keepalived.conf as keepalived.conf(5) writes it -> a tree of statements, each with its file and
line. A statement is a keyword and its words to the end of the line, or to a `{` that opens its
block (closed by a `}`); `#` and `!` start a comment; "..." keeps spaces in one word; `include
GLOB` reads further files (relative to the including file's folder), at any level. Pure: it reads
the files it is given, and nothing else."""
import dataclasses
import glob
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ..errors import InvalidInput

TOKEN = re.compile(r'"[^"]*"|[{}]|[^\s{}"]+')
MAX_INCLUDE_DEPTH = 8


@dataclasses.dataclass(frozen=True)
class Statement:
    keyword: str
    args: tuple[str, ...]
    where: str                        # file:line
    block: "tuple[Statement, ...] | None" = None             # child statements, or None for a plain line

    def find(self, keyword: str) -> list["Statement"]:
        return [child for child in self.block or () if child.keyword == keyword]

    def first(self, keyword: str) -> "Statement | None":
        found = self.find(keyword)
        return found[0] if found else None

    def shape(self) -> tuple[Any, ...]:
        """The statement without where it came from: what two configurations are compared by."""
        return (self.keyword, self.args, None if self.block is None else tuple(c.shape() for c in self.block))


def parse_file(path: str | Path) -> tuple[Statement, ...]:
    """The top-level statements of a keepalived.conf and the files it includes."""
    path = Path(path)
    if not path.is_file():
        raise InvalidInput(f"{path}: no such file")
    return parse_text(path.read_text(errors="replace"), str(path), path.parent)


def parse_text(text: str, source: str = "keepalived.conf", folder: str | Path | None = None,
               depth: int = 0) -> tuple[Statement, ...]:
    root: list[Statement] = []
    stack: list[tuple[Statement | None, list[Statement]]] = [(None, root)]   # the root alone has no statement
    for where, words in _lines(text, source, folder, depth):
        pending: list[str] = []
        for word in words:
            if word == "{":
                if not pending:
                    raise InvalidInput(f"{where}: '{{' with no keyword before it")
                stack.append((Statement(pending[0], tuple(pending[1:]), where), []))
                pending = []
            elif word == "}":
                if pending:
                    stack[-1][1].append(Statement(pending[0], tuple(pending[1:]), where))
                    pending = []
                if len(stack) == 1:
                    raise InvalidInput(f"{where}: '}}' closes no block")
                opened, children = stack.pop()
                assert opened is not None
                stack[-1][1].append(dataclasses.replace(opened, block=tuple(children)))
            else:
                pending.append(word.strip('"') if word.startswith('"') else word)
        if pending:
            stack[-1][1].append(Statement(pending[0], tuple(pending[1:]), where))
    if (unclosed := stack[-1][0]) is not None:
        raise InvalidInput(f"{unclosed.where}: {unclosed.keyword}: its block is never closed")
    return tuple(root)


def _lines(text: str, source: str, folder: str | Path | None, depth: int) -> Iterator[tuple[str, list[str]]]:
    """(file:line, words) of each line, the lines of included files in their place, so that an
    included file's statements join the block its include is in."""
    for number, line in enumerate(text.splitlines(), start=1):
        where, words = f"{source}:{number}", _words(line)
        if words[:1] == ["include"]:
            yield from _included(words, where, folder, depth)
        elif words:
            yield where, words


def included_files(path: str | Path, depth: int = 0) -> set[Path]:
    """The files a keepalived.conf includes, and theirs (resolved paths): an incident's folder
    holds them beside it. A pattern that matches nothing is parse_file's to refuse."""
    found: set[Path] = set()
    for line in Path(path).read_text(errors="replace").splitlines():
        words = _words(line)
        if words[:1] == ["include"] and len(words) == 2 and depth < MAX_INCLUDE_DEPTH:
            for name in _matches(words[1], Path(path).parent):
                found |= {Path(name).resolve()} | included_files(name, depth + 1)
    return found


def _matches(pattern: str, folder: str | Path | None) -> list[str]:
    """The files an include's pattern names, relative to the including file's folder."""
    pattern = pattern.strip('"')
    if "\x00" in pattern:                   # no file is named so: the include matches none
        return []
    pattern = pattern if Path(pattern).is_absolute() or folder is None else str(Path(folder) / pattern)
    return sorted(glob.glob(pattern))


def _words(line: str) -> list[str]:
    words = []
    for token in TOKEN.findall(line):
        if token[0] in "#!":
            break
        words.append(token)
    return words


def _included(words: Sequence[str], where: str, folder: str | Path | None,
              depth: int) -> Iterator[tuple[str, list[str]]]:
    if len(words) != 2:
        raise InvalidInput(f"{where}: include takes one file or pattern")
    if depth >= MAX_INCLUDE_DEPTH:
        raise InvalidInput(f"{where}: include nested deeper than {MAX_INCLUDE_DEPTH} (a loop?)")
    files = _matches(words[1], folder)
    if not files:
        raise InvalidInput(f"{where}: include {words[1]}: no file matches")
    for name in files:
        yield from _lines(Path(name).read_text(errors="replace"), name, Path(name).parent, depth + 1)
