"""haproxy.cfg's layout as HAProxy reads it (its configuration manual, sections 2 and 4): sections
in the file's order with their lines, a section's `from` (the named defaults it takes), and the
conditional blocks (`.if` ... `.endif`, section 2.4) followed where the lab can decide them."""
import dataclasses
import re
from collections.abc import Sequence

from ..errors import InvalidInput

SECTIONS = {"global", "defaults", "frontend", "backend", "listen", "peers", "resolvers", "userlist", "program",
            "cache", "mailers", "http-errors", "ring"}


Block = tuple[bool | None, str, str]    # a conditional block: (taken: True, False or None for unknown, history, where)


@dataclasses.dataclass
class Line:
    where: str
    words: tuple[str, ...]
    condition: str | None = None       # the `.if` line it sits under whose outcome the lab cannot know


@dataclasses.dataclass
class Section:
    keyword: str
    name: str
    lines: list[Line]
    where: str
    parent: str | None = None          # `from NAME`: the named defaults section it takes its defaults from


def sections(text: str, source: str) -> list[Section]:
    """[Section] in the file's order. HAProxy's conditional blocks (`.if`/`.elif`/`.else`/`.endif`,
    its manual's section 2.4) are followed where their condition is a number (0 is false); a line
    under any other condition keeps it (Line.condition): which way it goes depends on the operator's
    HAProxy, its environment and build, which the lab does not have."""
    found: list[Section] = []
    blocks: list[Block] = []     # the conditional blocks open here, innermost last
    for number, raw in enumerate(text.splitlines(), start=1):
        words = tuple(raw.split("#", 1)[0].split())
        if not words:
            continue
        where = f"{source}:{number}"
        if words[0].startswith("."):
            _conditional(words, where, blocks)
            continue
        if any(taken is False for taken, _, _ in blocks):
            continue
        condition = next((w for taken, _, w in reversed(blocks) if taken is None), None)
        if words[0] in SECTIONS:
            if condition:
                raise InvalidInput(f"{where}: {words[0]} {' '.join(words[1:2])}: a section under {condition}: the lab "
                                   "cannot tell whether your HAProxy has it: keep the branch it takes, drop the .if")
            name, parent = _section_name(words, where)
            found.append(Section(words[0], name, [], where, parent))
        elif not found:
            raise InvalidInput(f"{where}: {words[0]}: outside any section")
        else:
            found[-1].lines.append(Line(where, words, condition))
    if blocks:
        raise InvalidInput(f"{blocks[-1][2]}: .if without its .endif")
    return found


def _section_name(words: Sequence[str], where: str) -> tuple[str, str | None]:
    """(name, the `from` defaults it names) of a section's first line."""
    rest = list(words[1:])
    parent = None
    if "from" in rest:
        at = rest.index("from")
        if at + 1 >= len(rest):
            raise InvalidInput(f"{where}: {' '.join(words)}: `from` names no defaults section")
        parent = rest[at + 1]
        del rest[at:at + 2]
    return (rest[0] if rest else ""), parent


def _decided(condition: Sequence[str]) -> bool | None:
    """True/False for a condition that is a number, None for any other (a predicate of the
    operator's HAProxy: defined(), feature(), version_atleast(), streq(), ...)."""
    text = " ".join(condition).strip().strip('"')
    if re.fullmatch(r"-?\d+", text):
        return int(text) != 0
    return None


def _conditional(words: Sequence[str], where: str, blocks: list[Block]) -> None:
    """blocks: a stack of (taken: True, False or None for unknown, history, where) with history
    'taken' (a branch of this block was), 'none' (none yet) or 'unknown' (one may have been)."""
    keyword, said = words[0], f"{where} ({' '.join(words)})"
    if keyword == ".if":
        decided = _decided(words[1:])
        blocks.append((decided, {True: "taken", False: "none", None: "unknown"}[decided], said))
    elif keyword in (".elif", ".else"):
        if not blocks:
            raise InvalidInput(f"{where}: {keyword} without an .if")
        _, history, _ = blocks.pop()
        decided = True if keyword == ".else" else _decided(words[1:])
        if history == "taken":
            blocks.append((False, "taken", said))
        elif history == "none":
            blocks.append((decided, {True: "taken", False: "none", None: "unknown"}[decided], said))
        else:
            blocks.append((None if decided is not False else False, "unknown", said))
    elif keyword == ".endif":
        if not blocks:
            raise InvalidInput(f"{where}: .endif without an .if")
        blocks.pop()
    elif keyword not in (".diag", ".notice", ".warning", ".alert"):
        raise InvalidInput(f"{where}: {keyword}: not one of HAProxy's conditional directives "
                           "(.if, .elif, .else, .endif, .diag, .notice, .warning, .alert)")
