"""What a sampler wrote (harness/load/sampling.py): blocks of a command's output, each headed
'@ <unix time>'."""


def blocks(text, parse):
    """[(t, parse(the block's text)), ...]."""
    samples: list[tuple[float, object]] = []
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
