"""What the command line prints of an operator's files, safe for a terminal: a control byte (an
escape sequence, a carriage return, a bell, a binary file's bytes) is printed as its \\xNN escape,
never sent to the terminal to act on. Newlines and tabs stay."""
import re

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escaped(text: object) -> str:
    return CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))
