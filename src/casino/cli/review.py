"""``casino review RECORD``: a finished game's decisions of one seat, judged and graded.

``casino review game.rec --seat 0`` prints each judged decision of the seat (its move,
the grade, what it cost against the preferred move with the cost's interval over the
sampled deals, the expected round margin after it with the big swings marked, and the cost
in hindsight on the true deal), then the three costliest decisions in words and the
totals by kind of move. A progress bar goes to standard error; ``--json`` prints the
review as JSON (``casino-review/2``) instead. All the work is
:mod:`casino.teach.review`; docs/review.md says how it judges.

The engine and the review are imported inside the command, so that registering it
(every ``casino`` run, ``--help`` included) stays quick.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from casino.cli.language import LangOption
from casino.i18n import N_, _

if TYPE_CHECKING:
    from casino.teach.review import Progress

#: The defaults, repeated here so that ``--help`` imports no engine (tests/test_review.py
#: checks they are the review's own).
SAMPLES = 64
DEPTH = 8
NODES = 1500


#: ``casino review``'s help (translated where it is shown).
HELP = N_(
    "Review a finished game: each decision of a seat judged from what that seat saw,\n"
    "graded, with the better move, the margin across the game and the hindsight.")


def review_command(
    record_file: Annotated[Path, typer.Argument(metavar="RECORD",
                                                help=N_("A casino-record/1 file of a "
                                                        "finished game."))],
    seat: Annotated[int | None, typer.Option(
        "--seat", help=N_("The seat to review (default: the one person at the table, "
                          "else seat 0)."))] = None,
    samples: Annotated[int, typer.Option(
        "--samples", min=2, help=N_("Deals of the hidden cards each decision is judged "
                                    "on (2 or more: the grades weigh their noise)."))] = SAMPLES,
    seed: Annotated[int, typer.Option("--seed", help=N_("Mixed into each decision's deals, "
                                                        "which are drawn from what the seat "
                                                        "saw: 0 judges the deals a hint "
                                                        "judged there."))] = 0,
    depth: Annotated[int, typer.Option(
        "--depth", min=1,
        help=N_("Plies the judge searches at most (to the deal's end)."))] = DEPTH,
    nodes: Annotated[int, typer.Option(
        "--nodes", min=1, help=N_("The judge's work per search, in nodes: more is deeper "
                                  "and slower."))] = NODES,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the review as JSON."))] = False,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress",
        help=N_("Show a progress bar (default: when standard error is a terminal)."))] = None,
    lang: LangOption = None,
) -> None:
    """``casino review`` (what it does for a person is its help, :data:`HELP`)."""
    from casino.cli import use_language

    use_language(lang)
    import json

    from casino.bots.judge import Budget
    from casino.cli import fail, fail_file
    from casino.engine.errors import InvalidRecord
    from casino.engine.record import load_record
    from casino.teach.report import report_lines
    from casino.teach.review import ReviewError, default_seat, review

    try:
        record = load_record(record_file)
    except InvalidRecord as exc:
        fail(f"{record_file}: {exc}")
    except (OSError, UnicodeDecodeError) as exc:
        fail_file(exc, record_file)
    chosen = default_seat(record) if seat is None else seat
    if progress is None:
        progress = sys.stderr.isatty()
    try:
        with _bar(progress) as tick:
            result = review(record, chosen, samples=samples, seed=seed, progress=tick,
                            limit=Budget(depth=depth, nodes=nodes))
    except ReviewError as exc:
        fail(f"{record_file}: {exc}")
    if as_json:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    for line in report_lines(result, record):
        typer.echo(line)


@contextmanager
def _bar(show: bool) -> Iterator[Progress | None]:
    """A rich progress bar of the judged decisions on standard error, or nothing."""
    if not show:
        yield None
        return
    from casino.measure.progress import progress_bar

    bar = progress_bar(_("judging decisions"), transient=True)
    task = bar.add_task("review", total=None)

    def tick(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield tick
