"""Tools for a real table: the score pad (``/scorepad``) and the move helper (``/helper``).

This module is what they do and the limits they keep; their routes are
:mod:`casino.web.routes.tools`.

Both are for people playing with a real deck, and neither keeps a second copy
of the rules in the browser: the pages send what the players entered and the
server answers with what the engine's own code makes of it.

**Score pad.** The browser holds the pad (its ``casino-scorepad/1`` JSON, in
``localStorage``, so it survives a reload and a closed tab). Every change is a
``POST /api/scorepad/apply`` of the pad and an action; the server checks the
whole pad, applies the action with :func:`casino.tools.scorepad.apply_action` and
answers the new pad with its view (every round's items in counting order, the
running totals, the winner), or a 400 ``{"error": words, "field": name,
"round": n}`` and the browser keeps what it had (nothing typed is lost). The
server itself stores nothing of it, which keeps these calls stateless.

A pad may also be kept **on the server** to share it or open it on another
device: ``POST /api/scorepads`` stores it and answers an id and a secret, the
link ``/scorepad/<id>#<secret>`` opens it (the secret stays in the fragment,
which browsers never send). Loading and saving need the secret in the
``X-Scorepad-Secret`` header; only its SHA-256 is stored, as for seat tokens.
A stored pad is at most :data:`MAX_STORED` bytes and there are at most
:data:`MAX_PADS` of them.

**Move helper.** ``POST /api/helper`` takes a described table and hand
(:func:`casino.tools.helper.setup_from_json`) and answers the legal plays in words,
the strongest first, with the strongest bot's pick marked
(:func:`casino.tools.helper.helper_json`): at most :data:`~casino.words.shortlist.MAX_SHOWN`
of them, with ``more`` (plays found but not shown) and ``complete`` (whether the
plays found are every legal play: on a crowded table they are a selection).
``card`` (and ``using``: indices of table items) asks for one card's plays, the
way to reach those a capped list leaves out. The engine answers without listing
every move, so even a crowded Finnish Kasino table is answered at once and the
answer stays under :data:`MAX_HELPER_ANSWER` bytes. The work still runs in the
helper's own stoppable worker processes (:class:`Helpers`, a
:class:`~casino.web.workers.WorkerPool` sized by the app's
:class:`~casino.web.limits.Limits`), a safety net for whatever a table or a bot
might cost: past ``helper_seconds`` its worker is killed and the asker told the
table is too crowded, and a worker past ``helper_memory_mb`` answers the same.
The requests waiting for a worker are answered by asker in turn
(:class:`~casino.web.fairqueue.FairLine`; the asker is the account when signed in,
else the guest's network: :mod:`casino.web.requester`), so a newcomer's question goes
before the second of an asker already served: at most ``helper_per_player`` of one
asker's run or wait, and ``helper_waiting`` across the server. Beyond these the next
is told to try again at once, unless an asker holds at least two more places than
the newcomer: then the newest of theirs is answered "set aside" and the newcomer takes
its place. The request is checked in the server first, so a mistake is answered
without a worker.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hmac
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse
from sqlalchemy import DateTime, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from casino import i18n
from casino.engine.cards import card_text
from casino.engine.errors import CasinoError, RulesError
from casino.engine.presets import DEFAULT
from casino.engine.rules import preset
from casino.i18n import _, ngettext, pgettext, pN_
from casino.tools.helper import HelperError
from casino.tools.scorepad import (
    ScorePad,
    ScorePadError,
    scoring_cards,
)
from casino.web.allowances import Rate
from casino.web.bodies import HelperRequest
from casino.web.fairqueue import FairLine, LineFull, TooMany
from casino.web.helper_job import judged_helper_json
from casino.web.limits import Limits
from casino.web.requester import holder_words
from casino.web.store import Base, now, token_hash
from casino.web.workers import (
    WorkerBusy,
    WorkerError,
    WorkerMemory,
    WorkerPool,
    WorkerTimeout,
)

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"

#: Largest request the score pad's calculator takes (a pad with its undo history; the
#: core reads pads up to the same size).
MAX_APPLY = 2_000_000
#: Largest pad stored on the server, in bytes of JSON (the page trims old undo states).
MAX_STORED = 64 * 1024
#: Pads stored on the server at most (across everybody).
MAX_PADS = 10_000
#: Largest move helper request.
MAX_HELPER = 16 * 1024
#: Largest move helper answer, in bytes of JSON: the list is capped, and any plays
#: beyond this are left out (and counted in ``more``) however long their words.
MAX_HELPER_ANSWER = 64 * 1024
#: The header that carries a stored pad's secret.
SECRET_HEADER = "X-Scorepad-Secret"
#: New stored pads one address may make per minute (and the burst above that).
PADS_PER_MINUTE = 10.0
PADS_BURST = 20

#: The form of a stored pad's id (anything else is no pad, without a look at the
#: database).
PAD_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")

#: New stored pads by address (:data:`PADS_PER_MINUTE`, :data:`PADS_BURST`), counted
#: across the processes (:mod:`casino.web.allowances`).
new_pads = Rate("score pads", PADS_PER_MINUTE, PADS_BURST)
#: Modules a helper worker imports before its first job, so no deadline pays for them.
HELPER_MODULES = ("casino.web.helper_job", "casino.bots.levels")
#: The helper's refusals, each worded once (English; translated where told).
HELPER_BUSY = pN_("helper", "the helper is busy: try again in a moment")
HELPER_CLOSING = pN_("helper", "the server is shutting down: try again in a moment")
HELPER_SET_ASIDE = pN_("helper", "the helper set this question aside for another player's "
                                 "(%(holder)s the most waiting): try again in a moment")


def helper_too_many(holder: str, count: int) -> str:
    """The refusal of one more question to ``holder`` (:func:`holder_words`), who has
    ``count`` being answered or waiting, in the language in force."""
    return ngettext("%(holder)s %(n)s question for the helper being answered or waiting "
                    "already: wait for an answer before asking another",
                    "%(holder)s %(n)s questions for the helper being answered or waiting "
                    "already: wait for an answer before asking another", count) % {
        "holder": holder, "n": count}


class ScorePadRow(Base):
    """A score pad kept on the server: its JSON and the hash of its secret."""

    __tablename__ = "scorepads"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    secret: Mapped[str] = mapped_column(String(64))
    pad: Mapped[str] = mapped_column(Text)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)


class ToolError(Exception):
    """A refused request: words, the HTTP status, and the field of the form at fault."""

    def __init__(self, message: str, status: int = 400, field: str | None = None,
                 round: int | None = None, told: Callable[[], str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field
        self.round = round
        #: The words made when the asker is told, in the language in force then (a
        #: refusal made in a background task, which has no asker's language).
        self.told = told

    @classmethod
    def later(cls, words: Callable[[], str], status: int = 400,
              field: str | None = None) -> ToolError:
        """A refusal made away from its asker: ``message`` in English, ``words`` told in
        the asker's language when answered (:meth:`response`)."""
        with i18n.using(i18n.DEFAULT):
            return cls(words(), status, field, told=words)

    def response(self) -> JSONResponse:
        """The refusal as JSON: the words, and the field (and round) it is about, so that
        the page marks the box to correct."""
        body: dict[str, Any] = {"error": self.message if self.told is None else self.told()}
        if self.field is not None:
            body["field"] = self.field
        if self.round is not None:
            body["round"] = self.round
        return JSONResponse(body, status_code=self.status)


def pad_error(exc: ScorePadError) -> ToolError:
    """The score pad's refusal as the tools' own, with the field and round it is about."""
    return ToolError(str(exc), 400, exc.field, exc.round)


def _view(pad: ScorePad) -> dict[str, Any]:
    """The pad's view for the page, with each scoring card's text beside its symbol
    (the form sends ``Td``; the view shows ``10♦``)."""
    view = pad.view_json()
    codes = [card_text(c) for c in scoring_cards(pad.rules)]
    for f in view["fields"]:
        if f["kind"] == "takers":
            f["codes"] = codes
    view["seats"] = [{"seat": s, "name": n} for s, n in enumerate(pad.names)]
    view["rounds_entered"] = len(pad.rounds)
    # Krypkasino counts a double sweep (10 on, 10 off) as its seat twice: the form
    # offers a button for it.
    view["double_sweeps"] = pad.rules.double_sweep
    return view


def pad_answer(pad: ScorePad) -> dict[str, Any]:
    """What the calculator answers: the pad, and its view for the page."""
    return {"pad": pad.to_json(), "view": _view(pad)}


def stored_text(obj: dict[str, Any]) -> str:
    """The pad ``obj`` to store, checked, as compact JSON within :data:`MAX_STORED`."""
    pad = ScorePad.from_json(obj)
    text = json.dumps(pad.to_json(), ensure_ascii=False, separators=(",", ":"))
    if len(text.encode("utf-8")) > MAX_STORED:
        raise ToolError(_("the pad is too big to keep on the server (at most %(kib)s KiB): "
                          "drop its undo history") % {"kib": MAX_STORED // 1024}, 413)
    return text


def check_secret(row: ScorePadRow | None, request: Request) -> ScorePadRow:
    """The stored pad ``row``, if the request's secret header is its own; ToolError
    otherwise (404 for no such pad, 403 for a wrong secret)."""
    secret = request.headers.get(SECRET_HEADER, "")
    if row is None:
        raise ToolError(_("there is no such score pad on the server"), 404)
    if not secret or not hmac.compare_digest(row.secret, token_hash(secret)):
        raise ToolError(_("that is not this score pad's secret: open the pad from its full "
                          "link"), 403)
    return row



def helper_request(body: HelperRequest) -> dict[str, Any]:
    """The page's request for :func:`helper_json`, its form checked by its model: the
    fields it gave, with ``rules`` made the preset's JSON for ``players`` when both are
    given (ToolError naming ``players`` when the preset does not take that many)."""
    req = body.model_dump(exclude_unset=True)
    players = req.pop("players", None)
    rules = req.get("rules", DEFAULT.name)
    if isinstance(rules, str) and players is not None:
        try:
            req["rules"] = preset(rules, players=players).to_json()
        except RulesError as exc:
            raise ToolError(str(exc), field="players") from None
    return req


@dataclass(eq=False)
class _Question:
    """A helper request in line: its checked request, and the answer its asker awaits."""

    req: dict[str, Any]
    answer: asyncio.Future[dict[str, Any]]


class Helpers:
    """The move helper's worker pool: made on the first request from the app's limits,
    killed with the app (its lifespan calls :meth:`close`); and its fair line in front
    of the workers (see the module)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._pool: WorkerPool | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.line: FairLine[_Question] = FairLine(max(1, limits.helper_workers),
                                                 waiting=limits.helper_waiting,
                                                 each=limits.helper_per_player)
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None  # the one the askers wait on
        #: The job a worker runs: a top-level function, so the workers can import
        #: it (tests put a slower one here to exercise the deadline).
        self.job: Callable[[dict[str, Any]], dict[str, Any]] = judged_helper_json

    @property
    def pool(self) -> WorkerPool:
        """The worker pool, made on the first use (a server whose helper nobody uses starts
        no process); refused once the server is closing. The line waits here, so the
        pool is handed a job only when a worker is free."""
        with self._lock:
            if self._closed:
                raise ToolError.later(lambda: pgettext("helper", HELPER_CLOSING), 503)
            if self._pool is None:
                self._pool = WorkerPool(self.limits.helper_workers, waiting=0,
                                        memory_mb=self.limits.helper_memory_mb,
                                        preload=HELPER_MODULES, name="casino-helper")
            return self._pool

    def close(self) -> None:
        """Stop the workers, answer the questions waiting, and refuse any later request
        (the app's lifespan calls this at shutdown; a test may, from its own thread)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._refuse_waiting)
        if pool is not None:
            pool.close()

    def _refuse_waiting(self) -> None:
        """Tell every question still waiting that the server is shutting down."""
        while (popped := self.line.queue.pop()) is not None:
            _settle(popped[1], ToolError.later(lambda: pgettext("helper", HELPER_CLOSING), 503))

    async def analyse(self, req: dict[str, Any], owner: str) -> dict[str, Any]:
        """:func:`helper_json` in a worker, when ``owner``'s turn comes (``owner``: the
        asker's identity, :func:`casino.web.requester.requester`); each way it can fail
        answered in words (:class:`ToolError`)."""
        if self._closed:
            raise ToolError(pgettext("helper", HELPER_CLOSING), 503)
        self._loop = asyncio.get_running_loop()
        question = _Question(req, self._loop.create_future())
        try:
            displaced = self.line.admit(owner, question)
        except TooMany as e:
            raise ToolError(helper_too_many(holder_words(owner), e.held), 429) from None
        except LineFull:
            raise ToolError(pgettext("helper", HELPER_BUSY), 503) from None
        if displaced is not None:
            set_aside = displaced[0]
            _settle(displaced[1], ToolError.later(lambda: pgettext("helper", HELPER_SET_ASIDE)
                                                  % {"holder": holder_words(set_aside)}, 503))
        self._dispatch()
        try:
            return await asyncio.shield(question.answer)
        finally:
            if not question.answer.done():  # the asker went away: not run for nobody
                self.line.withdraw(question)
                question.answer.cancel()

    def _dispatch(self) -> None:
        """Start the questions next in line while a worker is free."""
        loop = asyncio.get_running_loop()
        while (popped := self.line.next()) is not None:
            task = loop.create_task(self._answer(*popped))
            self._tasks.add(task)  # the loop keeps only a weak reference to a task
            task.add_done_callback(self._tasks.discard)

    async def _answer(self, owner: str, question: _Question) -> None:
        try:
            result = await self._run(question.req)
        except ToolError as e:
            _settle(question, e)
        else:
            if not question.answer.done():
                question.answer.set_result(result)
        finally:
            self.line.done(owner)
            if not self._closed:
                self._dispatch()

    async def _run(self, req: dict[str, Any]) -> dict[str, Any]:
        """:func:`helper_json` in a worker now, each way it can fail said in words."""
        seconds = self.limits.helper_seconds
        try:
            result: dict[str, Any] = await self.pool.run(self.job, req, deadline=seconds)
            return fit_answer(result)
        except (HelperError, CasinoError, ValueError) as exc:
            raise ToolError(str(exc)) from None
        except WorkerBusy:
            raise ToolError.later(lambda: pgettext("helper", HELPER_BUSY), 503) from None
        except WorkerTimeout:
            raise ToolError.later(lambda: _("that table is too crowded for the helper to "
                                            "finish in %(n)s seconds") % {"n": f"{seconds:g}"},
                                  422, "table") from None
        except WorkerMemory:
            mb = self.limits.helper_memory_mb
            raise ToolError.later(lambda: _("that table is too crowded for the helper: it "
                                            "needs more than %(mb)s MB") % {"mb": mb},
                                  422, "table") from None
        except WorkerError:
            raise ToolError.later(lambda: _("the helper stopped unexpectedly: try again"),
                                  503) from None


def _settle(question: _Question, error: ToolError) -> None:
    """Answer ``question``'s asker with ``error``, unless they were answered or left."""
    if not question.answer.done():
        question.answer.set_exception(error)


def fit_answer(answer: dict[str, Any], limit: int = MAX_HELPER_ANSWER) -> dict[str, Any]:
    """``answer`` within ``limit`` bytes of JSON: the weakest plays (never the bot's
    pick) left out, and counted in ``more``, until it fits. The list is capped
    already, so this only guards against unusually long words."""
    def size() -> int:
        return len(json.dumps(answer, ensure_ascii=False).encode("utf-8"))

    moves = answer.get("moves")
    while isinstance(moves, list) and size() > limit:
        drop = next((i for i in range(len(moves) - 1, -1, -1) if not moves[i].get("best")),
                    None)
        if drop is None:
            break
        moves.pop(drop)
        answer["more"] = answer.get("more", 0) + 1
    return answer
