"""Tools for a real table: the score pad (``/scorepad``) and the move helper (``/helper``).

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
table is too crowded, a worker past ``helper_memory_mb`` answers the same, and
when every worker is busy and ``helper_waiting`` requests wait already, the next
is told to try again at once. The request is checked in the server first, so a
mistake is answered without a worker.
"""

from __future__ import annotations

import datetime as dt
import hmac
import json
import re
import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from sqlalchemy import DateTime, String, Text, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, Session, mapped_column
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from casino.bots.levels import LEVELS
from casino.engine.cards import card_text
from casino.engine.errors import CasinoError, RulesError
from casino.engine.rules import PRESET_NAMES, preset
from casino.tools.helper import HelperError, check_request
from casino.tools.scorepad import (
    ScorePad,
    ScorePadError,
    apply_action,
    scoring_cards,
    setup_choices,
)
from casino.web.helper_job import judged_helper_json
from casino.web.limits import BucketsByKey, Limits, json_object
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

_PAD_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")

router = APIRouter()
_env = Environment(loader=FileSystemLoader(TEMPLATES),
                   autoescape=select_autoescape(default=True, default_for_string=True))
_new_pads = BucketsByKey(PADS_PER_MINUTE / 60.0, PADS_BURST)
#: Modules a helper worker imports before its first job, so no deadline pays for them.
HELPER_MODULES = ("casino.web.helper_job", "casino.bots.levels")


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
                 round: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field
        self.round = round

    def response(self) -> JSONResponse:
        """The refusal as JSON: the words, and the field (and round) it is about, so that
        the page marks the box to correct."""
        body: dict[str, Any] = {"error": self.message}
        if self.field is not None:
            body["field"] = self.field
        if self.round is not None:
            body["round"] = self.round
        return JSONResponse(body, status_code=self.status)


def _from_pad_error(exc: ScorePadError) -> ToolError:
    return ToolError(str(exc), 400, exc.field, exc.round)


# ----------------------------------------------------------------------
# Pages


def _page(name: str, **context: Any) -> HTMLResponse:
    return HTMLResponse(_env.get_template(name).render(**context))


def _presets() -> list[dict[str, Any]]:
    """Every preset for the helper's menu: name, title, player counts, decks, and whether
    picture cards are set aside (Krypkasino), so the page offers a place for them."""
    out = []
    for choice in setup_choices():
        rules = preset(choice["name"])
        out.append({**choice, "decks": rules.decks, "set_aside": rules.set_aside_pictures})
    return out


@router.get("/scorepad", response_class=HTMLResponse)
async def scorepad_page() -> Response:
    """The score pad's page: it keeps its pad in the browser and asks the server only to
    calculate."""
    return _page("scorepad.html", choices=setup_choices(), rules_name="casino")


@router.get("/scorepad/{pad_id}", response_class=HTMLResponse)
async def shared_scorepad_page(pad_id: str) -> Response:
    """A stored pad: the same page, which reads the id from the path and the secret
    from the link's fragment (never sent to the server in the URL)."""
    return _page("scorepad.html", choices=setup_choices(), rules_name="casino",
                 pad_id=pad_id if _PAD_ID.fullmatch(pad_id) else None)


@router.get("/helper", response_class=HTMLResponse)
async def helper_page() -> Response:
    """The move helper's page, with every preset's set-up and the levels to pick the best
    play with."""
    return _page("helper.html", presets=_presets(), levels=list(LEVELS), rules_name="casino")


# ----------------------------------------------------------------------
# Reading requests


async def _respond(request: Request, limit: int, work: Callable[[dict[str, Any]], dict[str, Any]],
                   status: int = 200) -> Response:
    """Read the request's JSON object (at most ``limit`` bytes), then do ``work(body)``
    in a worker thread: its answer as JSON, or any refusal as a clear error."""
    try:
        body = await json_object(request, limit, ToolError)
    except ToolError as exc:
        return exc.response()
    return await run_in_threadpool(_handle, lambda: work(body), status)


def _handle(work: Callable[[], dict[str, Any]], status: int = 200) -> Response:
    try:
        return JSONResponse(work(), status_code=status)
    except ToolError as exc:
        return exc.response()
    except ScorePadError as exc:
        return _from_pad_error(exc).response()


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
    view["double_sweeps"] = pad.rules.scoring == "krypkasino"
    return view


def _answer(pad: ScorePad) -> dict[str, Any]:
    return {"pad": pad.to_json(), "view": _view(pad)}


def _read_pad(obj: Any) -> ScorePad:
    if obj is None:
        raise ToolError('send the pad as "pad"')
    return ScorePad.from_json(obj)


# ----------------------------------------------------------------------
# The score pad's calculator (stateless)


@router.get("/api/scorepad/setup")
async def scorepad_setup() -> dict[str, Any]:
    """The choices of a new pad: each preset with its player counts."""
    return {"choices": setup_choices()}


@router.post("/api/scorepad/new")
async def scorepad_new(request: Request) -> Response:
    """``{"rules": "classic", "names": ["Ann", "Bob", "Cy", "Di"]}`` -> a blank pad."""
    def work(body: dict[str, Any]) -> dict[str, Any]:
        """Check the rules and the names, and make the blank pad."""
        rules = body.get("rules", "casino")
        names = body.get("names")
        if not isinstance(rules, str) or rules not in PRESET_NAMES:
            raise ToolError(f"choose the rules among {', '.join(PRESET_NAMES)}", field="rules")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ToolError("give the players' names as a list", field="names")
        if not 2 <= len(names) <= 4:
            raise ToolError("a game has 2, 3 or 4 players", field="names")
        try:
            return _answer(ScorePad.new(rules, names))
        except RulesError as exc:
            raise ToolError(str(exc), field="names") from None

    return await _respond(request, MAX_APPLY, work)


@router.post("/api/scorepad/view")
async def scorepad_view(request: Request) -> Response:
    """``{"pad": PAD}`` -> the pad checked, with its view (a reload, an import)."""
    return await _respond(request, MAX_APPLY, lambda body: _answer(_read_pad(body.get("pad"))))


@router.post("/api/scorepad/apply")
async def scorepad_apply(request: Request) -> Response:
    """``{"pad": PAD, "action": {"op": "add"|"replace"|"remove"|"undo", ...}}`` -> the
    new pad and its view, or 400 with the reason (the page keeps its pad)."""
    def work(body: dict[str, Any]) -> dict[str, Any]:
        """Check the pad sent back, and apply the action to it."""
        pad = _read_pad(body.get("pad"))
        return _answer(apply_action(pad, body.get("action")))

    return await _respond(request, MAX_APPLY, work)


# ----------------------------------------------------------------------
# Pads kept on the server


def _engine(request: Request) -> Engine:
    # The score pads' table is made with the others by the schema's migrations.
    engine: Engine = request.app.state.store.engine
    return engine


def _stored_text(body: dict[str, Any]) -> str:
    """The pad to store, checked, as compact JSON within :data:`MAX_STORED`."""
    pad = _read_pad(body.get("pad"))
    text = json.dumps(pad.to_json(), ensure_ascii=False, separators=(",", ":"))
    if len(text.encode("utf-8")) > MAX_STORED:
        raise ToolError(f"the pad is too big to keep on the server (at most "
                        f"{MAX_STORED // 1024} KiB): drop its undo history", 413)
    return text


def _check_secret(row: ScorePadRow | None, request: Request) -> ScorePadRow:
    secret = request.headers.get(SECRET_HEADER, "")
    if row is None:
        raise ToolError("there is no such score pad on the server", 404)
    if not secret or not hmac.compare_digest(row.secret, token_hash(secret)):
        raise ToolError("that is not this score pad's secret: open the pad from its full "
                        "link", 403)
    return row


@router.post("/api/scorepads")
async def scorepad_store(request: Request) -> Response:
    """``{"pad": PAD}`` -> 201 ``{"id", "secret", "url"}``."""
    engine = _engine(request)
    client = request.client.host if request.client else ""

    def work(body: dict[str, Any]) -> dict[str, Any]:
        """Store the checked pad under a new id and secret, unless this address made too
        many pads lately or the server keeps as many as it will."""
        text = _stored_text(body)
        if not _new_pads.take(client):
            raise ToolError("too many new score pads from here: wait a minute", 429)
        pad_id = secrets.token_urlsafe(12)
        secret = secrets.token_urlsafe(24)
        with Session(engine) as s, s.begin():
            count = s.scalar(select(func.count()).select_from(ScorePadRow)) or 0
            if count >= MAX_PADS:
                raise ToolError("the server keeps no more score pads: export yours as a "
                                "file instead", 507)
            s.add(ScorePadRow(id=pad_id, secret=token_hash(secret), pad=text))
        return {"id": pad_id, "secret": secret, "url": f"/scorepad/{pad_id}#{secret}"}

    return await _respond(request, MAX_STORED + 1024, work, 201)


@router.put("/api/scorepads/{pad_id}")
async def scorepad_save(pad_id: str, request: Request) -> Response:
    """``{"pad": PAD}`` with the secret header: the stored pad replaced."""
    engine = _engine(request)

    def work(body: dict[str, Any]) -> dict[str, Any]:
        """Replace the stored pad, if the secret is its own."""
        text = _stored_text(body)
        with Session(engine) as s, s.begin():
            row = _check_secret(s.get(ScorePadRow, pad_id) if _PAD_ID.fullmatch(pad_id)
                                else None, request)
            row.pad = text
            row.updated = now()
        return {"id": pad_id, "saved": True}

    return await _respond(request, MAX_STORED + 1024, work)


@router.get("/api/scorepads/{pad_id}")
async def scorepad_load(pad_id: str, request: Request) -> Response:
    """The stored pad and its view, with the secret header."""
    engine = _engine(request)

    def work() -> dict[str, Any]:
        """The stored pad, if the secret is its own."""
        with Session(engine) as s:
            row = _check_secret(s.get(ScorePadRow, pad_id) if _PAD_ID.fullmatch(pad_id)
                                else None, request)
            text = row.pad
        return {"id": pad_id, **_answer(ScorePad.from_json(text))}

    return await run_in_threadpool(_handle, work)


# ----------------------------------------------------------------------
# The move helper


def _helper_request(body: dict[str, Any]) -> dict[str, Any]:
    """The page's request for :func:`helper_json`: ``rules`` may be a preset name with
    ``players`` beside it; ``level`` must be one of the levels (or null)."""
    req = dict(body)
    players = req.pop("players", None)
    rules = req.get("rules", "casino")
    if isinstance(rules, str):
        if rules not in PRESET_NAMES:
            raise ToolError(f"choose the rules among {', '.join(PRESET_NAMES)}", field="rules")
        if players is not None:
            if not isinstance(players, int) or isinstance(players, bool):
                raise ToolError("players: a whole number", field="players")
            try:
                req["rules"] = preset(rules, players=players).to_json()
            except RulesError as exc:
                raise ToolError(str(exc), field="players") from None
    level = req.get("level", "expert")
    if level is not None and level not in LEVELS:
        raise ToolError(f"level: one of {', '.join(LEVELS)}", field="level")
    if not isinstance(req.get("judge", True), bool):
        raise ToolError("judge: true or false", field="judge")
    return req


class Helpers:
    """The move helper's worker pool: made on the first request from the app's limits,
    killed with the app (its lifespan calls :meth:`close`)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._pool: WorkerPool | None = None
        self._lock = threading.Lock()
        self._closed = False
        #: The job a worker runs: a top-level function, so the workers can import
        #: it (tests put a slower one here to exercise the deadline).
        self.job: Callable[[dict[str, Any]], dict[str, Any]] = judged_helper_json

    @property
    def pool(self) -> WorkerPool:
        """The worker pool, made on the first use (a server whose helper nobody uses starts
        no process); refused once the server is closing."""
        with self._lock:
            if self._closed:
                raise ToolError("the server is shutting down: try again in a moment", 503)
            if self._pool is None:
                self._pool = WorkerPool(self.limits.helper_workers,
                                        waiting=self.limits.helper_waiting,
                                        memory_mb=self.limits.helper_memory_mb,
                                        preload=HELPER_MODULES, name="casino-helper")
            return self._pool

    def close(self) -> None:
        """Stop the workers, and refuse any later request (the app's lifespan calls this at
        shutdown)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    def analyse(self, req: dict[str, Any]) -> dict[str, Any]:
        """:func:`helper_json` in a worker, each way it can fail answered in words."""
        seconds = self.limits.helper_seconds
        try:
            result: dict[str, Any] = self.pool.call(self.job, req, deadline=seconds)
            return fit_answer(result)
        except (HelperError, CasinoError, ValueError) as exc:
            raise ToolError(str(exc)) from None
        except WorkerBusy:
            raise ToolError("the helper is busy: try again in a moment", 503) from None
        except WorkerTimeout:
            raise ToolError(f"that table is too crowded for the helper to finish in "
                            f"{seconds:g} seconds", 422, "table") from None
        except WorkerMemory:
            raise ToolError(f"that table is too crowded for the helper: it needs more than "
                            f"{self.limits.helper_memory_mb} MB", 422, "table") from None
        except WorkerError:
            raise ToolError("the helper stopped unexpectedly: try again", 503) from None


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


def _helpers(request: Request) -> Helpers:
    """The app's :class:`Helpers` (:func:`casino.web.app.create_app` makes it)."""
    helpers: Helpers = request.app.state.helpers
    return helpers


@router.post("/api/helper")
async def helper(request: Request) -> Response:
    """A described table and hand (and optionally one ``card`` of it, with table items
    ``using``) -> the legal plays in words, best first by the judge with each one's
    reason (``"judge": false``: the biggest captures first, unjudged) and capped, with
    ``more`` and ``complete`` saying what is left out; the bot's pick marked."""
    helpers = _helpers(request)

    def work(body: dict[str, Any]) -> dict[str, Any]:
        """Check the request here, so that a mistake is answered without a worker, then
        analyse it in one."""
        req = _helper_request(body)
        try:
            # A mistake is answered without a worker ("judge" is the page's, not the set-up's).
            check_request({k: v for k, v in req.items() if k != "judge"})
        except (HelperError, CasinoError, ValueError) as exc:
            raise ToolError(str(exc)) from None
        return helpers.analyse(req)

    return await _respond(request, MAX_HELPER, work)
