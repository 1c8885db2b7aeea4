"""What a page section is made of, neutral to HTML and Markdown (sections.py renders neither)."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class Table:
    header: list
    rows: list


@dataclasses.dataclass(frozen=True)
class Subheading:
    text: str
