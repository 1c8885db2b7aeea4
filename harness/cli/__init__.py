"""The command line's subcommands, a module per group; harness/__main__.py puts them together."""
