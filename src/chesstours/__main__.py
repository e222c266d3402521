"""``python -m chesstours``: the command line."""

from .cli import entry

entry()
