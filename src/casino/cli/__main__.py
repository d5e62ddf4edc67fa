"""``python -m casino.cli``: the ``casino`` command's commands, run directly."""

from casino.cli import main

main()
