"""What a sampler wrote (harness/load/sampling.py): blocks of a command's output, each headed
'@ <unix time>'."""
from collections.abc import Callable
from typing import TypeVar

Parsed = TypeVar("Parsed")



def blocks(text: str, parse: Callable[[str], Parsed]) -> list[tuple[float, Parsed]]:
    """[(t, parse(the block's text)), ...]."""
    samples: list[tuple[float, Parsed]] = []
    t: float | None = None
    lines: list[str] = []
    for line in text.splitlines() + ["@ end"]:
        if line.startswith("@ "):
            if t is not None:
                samples.append((t, parse("\n".join(lines))))
            t = None if line == "@ end" else float(line[2:])
            lines = []
        else:
            lines.append(line)
    return samples
