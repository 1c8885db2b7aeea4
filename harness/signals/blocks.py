"""What a page section is made of, neutral to HTML and Markdown (sections.py renders neither)."""
import dataclasses
from collections.abc import Callable, Mapping
from typing import Any


@dataclasses.dataclass(frozen=True)
class Table:
    header: list[str]
    rows: list[list[Any]]


@dataclasses.dataclass(frozen=True)
class Subheading:
    text: str


Block = Table | Subheading | str        # a sentence, under a table or alone


def seconds(value: float | None) -> str:
    """A time in a section's table: '12.34 s', or '—' when there is none."""
    return "—" if value is None else f"{value:.2f} s"


def cell_rows(summary: Mapping[str, Any], key: str,
              row: Callable[[Mapping[str, Any], Any], list[Any]]) -> list[list[Any]]:
    """row(cell, its part) for each cell whose summary has a part under `key`."""
    return [row(cell, cell[key]) for cell in summary.get("cells", []) if cell.get(key) is not None]


def table_and_note(header: list[str], rows: list[list[Any]], note: str) -> list[Block]:
    """A section's blocks: its table and the sentence under it, or nothing without rows."""
    return [Table(header, rows), note] if rows else []
