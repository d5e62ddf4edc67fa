"""The progress bar of long measurements (the arena's pairs, a review's decisions).

On standard error, so that what a command prints on standard output stays clean for a
pipe or a file; ``rich`` is imported only when a bar is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress


def progress_bar(label: str, *, transient: bool) -> Progress:
    """A bar of ``label``: done of total, time taken and time left. ``transient``: it
    disappears when done (else it stays as a record of the run)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TimeRemainingColumn(),
                    console=Console(stderr=True), transient=transient)
