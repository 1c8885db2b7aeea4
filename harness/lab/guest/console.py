"""What a guest's serial console says about its kernel: whether it died (an Oops or a panic)."""
import re

# x86's die header: "int3: 0000 [#1] SMP NOPTI" up to 6.9, "Oops: int3: 0000 [#1] PREEMPT SMP NOPTI"
# since; a panic: "Kernel panic - not syncing: ...".
_DEATH = re.compile(r"(?:\b[0-9a-f]{4} \[#\d+\]|Kernel panic - not syncing)")
_STAMP = re.compile(r"^\[\s*\d+\.\d+\]\s*")


def kernel_death(console_text: str) -> str | None:
    """The console's first line saying the kernel Oopsed or panicked (its timestamp kept), or None.
    With the function it died in when the console names one (a "RIP:" line after it)."""
    lines = console_text.splitlines()
    for index, line in enumerate(lines):
        if _DEATH.search(line):
            where = next((_STAMP.sub("", later).strip() for later in lines[index + 1:index + 12]
                          if "RIP:" in later), None)
            return line.strip() + (f" ({where})" if where else "")
    return None
