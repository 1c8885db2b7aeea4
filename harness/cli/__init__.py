"""The command line's subcommands, a module per group; harness/__main__.py puts them together."""
import argparse
from collections.abc import Callable
from typing import Any

Commands = argparse._SubParsersAction      # what ArgumentParser.add_subparsers gives: each group adds its commands
Handler = Callable[[argparse.Namespace], None]


def add(commands: Commands, name: str, handler: Handler, help_text: str,
        *options: Callable[[argparse.ArgumentParser], Any]) -> argparse.ArgumentParser:
    """A subcommand calling handler(args), with the shared options named."""
    command = commands.add_parser(name, help=help_text, description=help_text)
    for option in options:
        option(command)
    command.set_defaults(handler=handler)
    return command
