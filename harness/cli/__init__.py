"""The command line's subcommands, a module per group; harness/__main__.py puts them together."""


def add(commands, name, handler, help_text, *options):
    """A subcommand calling handler(args), with the shared options named."""
    command = commands.add_parser(name, help=help_text, description=help_text)
    for option in options:
        option(command)
    command.set_defaults(handler=handler)
    return command
