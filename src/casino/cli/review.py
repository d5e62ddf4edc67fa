"""``casino review RECORD``: a finished game's decisions of one seat, judged and graded.

``casino review game.rec --seat 0`` prints each judged decision of the seat (its move,
the grade, what it cost against the preferred move with the spread over the sampled
deals, the expected round margin after it with the big swings marked, and the cost
in hindsight on the true deal), then the three costliest decisions in words and the
totals by kind of move. A progress bar goes to standard error; ``--json`` prints the
review as JSON (``casino-review/1``) instead. All the work is
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

if TYPE_CHECKING:
    from casino.engine.record import Record
    from casino.teach.review import Progress, Review

#: The defaults, repeated here so that ``--help`` imports no engine (tests/test_review.py
#: checks they are the review's own).
SAMPLES = 8
DEPTH = 8
NODES = 1500


def default_seat(record: Record) -> int:
    """The seat reviewed when none is given (:func:`casino.teach.review.default_seat`,
    which the web replay page uses too)."""
    from casino.teach.review import default_seat as reviewed_seat

    return reviewed_seat(record)


def review_command(
    record_file: Annotated[Path, typer.Argument(metavar="RECORD",
                                                help="A casino-record/1 file of a "
                                                     "finished game.")],
    seat: Annotated[int | None, typer.Option(
        "--seat", help="The seat to review (default: the one person at the table, "
                       "else seat 0).")] = None,
    samples: Annotated[int, typer.Option(
        "--samples", min=1, help="Deals of the hidden cards each decision is judged "
                                 "on.")] = SAMPLES,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sampled deals (the same "
                                                     "seed gives the same review).")] = 0,
    depth: Annotated[int, typer.Option(
        "--depth", min=1, help="Plies the judge searches at most (to the deal's end).")] = DEPTH,
    nodes: Annotated[int, typer.Option(
        "--nodes", min=1, help="The judge's work per search, in nodes: more is deeper "
                               "and slower.")] = NODES,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress",
        help="Show a progress bar (default: when standard error is a terminal).")] = None,
) -> None:
    """Review a finished game: each decision of a seat judged from what that seat saw,
    graded, with the better move, the margin across the game and the hindsight."""
    import json

    from casino.cli import fail, fail_file
    from casino.engine.errors import InvalidRecord
    from casino.engine.record import load_record
    from casino.teach.judge import Budget
    from casino.teach.review import ReviewError, review

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

    bar = progress_bar("judging decisions", transient=True)
    task = bar.add_task("review", total=None)

    def tick(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield tick


#: The marks of a big swing of the expected margin (up, down).
UP, DOWN = "▲", "▼"


def report_lines(r: Review, record: Record) -> list[str]:
    """The review as the terminal shows it."""
    from casino.engine.wording import plural
    from casino.teach.review import BIG_SWING

    counts = r.grade_counts()
    who = r.name if r.name == f"seat {r.seat}" else f"{r.name} (seat {r.seat})"
    lines = [
        f"Review of {who}, {r.rules}, "
        f"{plural(len(record.rounds), 'round')}: {plural(len(r.decisions), 'decision')} "
        f"judged, {plural(r.forced, 'forced move')} not judged.",
        f"Each decision is judged from what seat {r.seat} saw then: {r.samples} deals of "
        f"the hidden cards consistent with it, each searched {r.depth} plies at most "
        f"({r.nodes} nodes), seed {r.seed}.",
        f"Grades: {counts['good']} good, "
        f"{plural(counts['inaccuracy'], 'inaccuracy', 'inaccuracies')}, "
        f"{plural(counts['mistake'], 'mistake')}, {plural(counts['blunder'], 'blunder')}; "
        f"{r.cost:.1f} expected points lost in all.",
    ]
    width = max((len(d.move) for d in r.decisions), default=4)
    better = max((len(d.preferred) for d in r.decisions if d.cost > 0), default=6)
    head = (f"  {'move':>4} {'deal':>4}  {'played':<{width}}  {'grade':<10} {'cost':>5} "
            f"{'±':>4}  {'better':<{better}}  {'margin':>6}    {'hindsight':>9}")
    current = None
    for d in r.decisions:
        if d.round != current:
            current = d.round
            lines += ["", f"Round {d.round}", head]
        mark = (UP if d.swing > 0 else DOWN) if d.big_swing else " "
        pref = d.preferred if d.cost > 0 else ""
        flags = " (computer)" if d.by_computer else " (hint)" if d.hinted else ""
        lines.append(f"  {d.ply + 1:>4} {d.deal:>4}  {d.move:<{width}}  {d.grade:<10} "
                     f"{d.cost:>5.2f} {d.spread:>4.1f}  {pref:<{better}}  "
                     f"{d.margin:>+6.1f} {mark}  {d.hindsight.cost:>9.2f}{flags}")
    if r.advice:
        lines += ["", "The costliest decisions:"]
        lines += [f"  {k}. {a}" for k, a in enumerate(r.advice, start=1)]
    lines += ["", "By kind of move (the last deal's moves apart):"]
    for t in r.totals:
        lines.append(f"  {t.kind:<10} {plural(t.decisions, 'decision'):>13}, "
                     f"{t.cost:5.2f} points lost")
    lines += ["", f"cost: expected round points lost against the preferred move (± its "
                  f"spread over the deals); margin: the seat's expected round margin "
                  f"after its move, {UP}{DOWN} a swing of {BIG_SWING:.0f} points or more since "
                  f"its previous decision; hindsight: the cost on the true deal, which "
                  f"the seat could not see."]
    return lines

