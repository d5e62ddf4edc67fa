"""The tools' routes: the score pad's and the move helper's pages, the score pad's
calculator, the pads kept on the server, and the move helper's answers (what each one
does, and the limits they keep, are :mod:`casino.web.tools`'s)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from casino import i18n
from casino.bots.levels import LEVELS
from casino.engine.cards import card_name, card_text
from casino.engine.errors import CasinoError, RulesError
from casino.engine.presets import DEFAULT
from casino.engine.rules import preset
from casino.i18n import _
from casino.tools.helper import HelperError, check_request
from casino.tools.scorepad import ScorePad, ScorePadError, apply_action, setup_choices
from casino.web import tools
from casino.web.bodies import (
    B,
    BodyError,
    HelperRequest,
    NewPad,
    PadBody,
    PadChange,
    PadSaved,
    PadStored,
    read,
)
from casino.web.language import environment, page_language
from casino.web.limits import json_object
from casino.web.requester import requester
from casino.web.routes.context import Web, page_header, signed_in
from casino.web.store import now, token_hash
from casino.web.tools import (
    MAX_APPLY,
    MAX_HELPER,
    MAX_STORED,
    PAD_ID,
    TEMPLATES,
    ScorePadRow,
    ToolError,
    check_secret,
    helper_request,
    pad_answer,
    pad_error,
    stored_text,
)

#: The tools' pages show who is signed in, as every page does (:func:`signed_in`).
router = APIRouter(dependencies=[Depends(signed_in)])
_env = environment(TEMPLATES)


# ----------------------------------------------------------------------
# Pages


def _page(name: str, **context: Any) -> HTMLResponse:
    page = _env.get_template(name).render(**{**page_header(), **page_language(), **context})
    return HTMLResponse(page)


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
    return _page("scorepad.html", choices=setup_choices(), rules_name=DEFAULT.name)


@router.get("/scorepad/{pad_id}", response_class=HTMLResponse)
async def shared_scorepad_page(pad_id: str) -> Response:
    """A stored pad: the same page, which reads the id from the path and the secret
    from the link's fragment (never sent to the server in the URL)."""
    return _page("scorepad.html", choices=setup_choices(), rules_name=DEFAULT.name,
                 pad_id=pad_id if PAD_ID.fullmatch(pad_id) else None)


@router.get("/helper", response_class=HTMLResponse)
async def helper_page() -> Response:
    """The move helper's page, with every preset's set-up and the levels to pick the best
    play with."""
    return _page("helper.html", presets=_presets(), levels=list(LEVELS), rules_name=DEFAULT.name,
                 card_names=_card_names())


def _card_names() -> dict[str, str]:
    """Each card's name in the request's language by its notation (``Td``: ``10 of
    diamonds``, ``ruutukymppi``), for the helper's pictures' titles."""
    return {card_text(c): card_name(c) for c in range(52)}




# ----------------------------------------------------------------------
# Reading requests


async def _body(request: Request, limit: int, model: type[B]) -> B:
    """The request's JSON object (at most ``limit`` bytes), read once into ``model``;
    ToolError otherwise (a body not of its model: the words and the field)."""
    try:
        return read(model, await json_object(request, limit, ToolError))
    except BodyError as exc:
        raise ToolError(exc.message, field=exc.field) from None


async def _respond(request: Request, limit: int, model: type[B],
                   work: Callable[[B], dict[str, Any]], status: int = 200) -> Response:
    """Read the request's body (:func:`_body`), then do ``work(body)`` in a worker
    thread: its answer as JSON, or any refusal as a clear error."""
    try:
        body = await _body(request, limit, model)
    except ToolError as exc:
        return exc.response()
    return await run_in_threadpool(_handle, lambda: work(body), status)


def _handle(work: Callable[[], dict[str, Any]], status: int = 200) -> Response:
    try:
        return JSONResponse(work(), status_code=status)
    except ToolError as exc:
        return exc.response()
    except ScorePadError as exc:
        return pad_error(exc).response()



# ----------------------------------------------------------------------
# The score pad's calculator (stateless)


@router.get("/api/scorepad/setup")
async def scorepad_setup() -> dict[str, Any]:
    """The choices of a new pad: each preset with its player counts."""
    return {"choices": setup_choices()}


@router.post("/api/scorepad/new")
async def scorepad_new(request: Request) -> Response:
    """``{"rules": "classic", "names": ["Ann", "Bob", "Cy", "Di"]}`` -> a blank pad."""
    def work(body: NewPad) -> dict[str, Any]:
        """Make the blank pad (whether the rules take that many players, and the names
        are fit, is the score pad's to say)."""
        try:
            return pad_answer(ScorePad.new(body.rules, body.names))
        except RulesError as exc:
            raise ToolError(str(exc), field="names") from None

    return await _respond(request, MAX_APPLY, NewPad, work)


@router.post("/api/scorepad/view")
async def scorepad_view(request: Request) -> Response:
    """``{"pad": PAD}`` -> the pad checked, with its view (a reload, an import)."""
    return await _respond(request, MAX_APPLY, PadBody,
                          lambda body: pad_answer(ScorePad.from_json(body.pad)))


@router.post("/api/scorepad/apply")
async def scorepad_apply(request: Request) -> Response:
    """``{"pad": PAD, "action": {"op": "add"|"replace"|"remove"|"undo", ...}}`` -> the
    new pad and its view, or 400 with the reason (the page keeps its pad)."""
    def work(body: PadChange) -> dict[str, Any]:
        """Check the pad sent back, and apply the action to it."""
        pad = ScorePad.from_json(body.pad)
        return pad_answer(apply_action(pad, body.action.model_dump(exclude_none=True)))

    return await _respond(request, MAX_APPLY, PadChange, work)




# ----------------------------------------------------------------------
# Pads kept on the server




@router.post("/api/scorepads")
async def scorepad_store(request: Request, web: Web) -> Response:
    """``{"pad": PAD}`` -> 201 ``{"id", "secret", "url"}``."""
    engine = web.store.engine  # its table is made with the others by the migrations
    client = request.client.host if request.client else ""

    def work(body: PadBody) -> dict[str, Any]:
        """Store the checked pad under a new id and secret, unless this address made too
        many pads lately or the server keeps as many as it will."""
        text = stored_text(body.pad)
        if not web.service.allowances.take(tools.new_pads, client):
            raise ToolError(_("too many new score pads from here: wait a minute"), 429)
        pad_id = secrets.token_urlsafe(12)
        secret = secrets.token_urlsafe(24)
        with Session(engine) as s, s.begin():
            count = s.scalar(select(func.count()).select_from(ScorePadRow)) or 0
            if count >= tools.MAX_PADS:
                raise ToolError(_("the server keeps no more score pads: export yours as "
                                  "a file instead"), 507)
            s.add(ScorePadRow(id=pad_id, secret=token_hash(secret), pad=text))
        return PadStored(id=pad_id, secret=secret,
                         url=f"/scorepad/{pad_id}#{secret}").model_dump()

    return await _respond(request, MAX_STORED + 1024, PadBody, work, 201)


@router.put("/api/scorepads/{pad_id}")
async def scorepad_save(pad_id: str, request: Request, web: Web) -> Response:
    """``{"pad": PAD}`` with the secret header: the stored pad replaced."""
    engine = web.store.engine

    def work(body: PadBody) -> dict[str, Any]:
        """Replace the stored pad, if the secret is its own."""
        text = stored_text(body.pad)
        with Session(engine) as s, s.begin():
            row = check_secret(s.get(ScorePadRow, pad_id) if PAD_ID.fullmatch(pad_id)
                                else None, request)
            row.pad = text
            row.updated = now()
        return PadSaved(id=pad_id, saved=True).model_dump()

    return await _respond(request, MAX_STORED + 1024, PadBody, work)


@router.get("/api/scorepads/{pad_id}")
async def scorepad_load(pad_id: str, request: Request, web: Web) -> Response:
    """The stored pad and its view, with the secret header."""
    engine = web.store.engine

    def work() -> dict[str, Any]:
        """The stored pad, if the secret is its own."""
        with Session(engine) as s:
            row = check_secret(s.get(ScorePadRow, pad_id) if PAD_ID.fullmatch(pad_id)
                                else None, request)
            text = row.pad
        return {"id": pad_id, **pad_answer(ScorePad.from_json(text))}

    return await run_in_threadpool(_handle, work)




# ----------------------------------------------------------------------
# The move helper




@router.post("/api/helper")
async def helper(request: Request, web: Web) -> Response:
    """A described table and hand (and optionally one ``card`` of it, with table items
    ``using``) -> the legal plays in words, best first by the judge with each one's
    reason (``"judge": false``: the biggest captures first, unjudged) and capped, with
    ``more`` and ``complete`` saying what is left out; the bot's pick marked. The
    workers answer askers in turn, each counted as their account or network
    (:func:`~casino.web.requester.requester`)."""
    try:
        body = await _body(request, MAX_HELPER, HelperRequest)
        req = await run_in_threadpool(_checked, body)
        req["lang"] = i18n.current()  # the worker writes the reasons in the asker's language
        return JSONResponse(await web.helpers.analyse(req, await requester(request)))
    except ToolError as exc:
        return exc.response()


def _checked(body: HelperRequest) -> dict[str, Any]:
    """The helper's request, checked here so that a mistake is answered without a
    worker (ToolError)."""
    req = helper_request(body)
    try:
        # "judge" is the page's, not the set-up's.
        check_request({k: v for k, v in req.items() if k != "judge"})
    except (HelperError, CasinoError, ValueError) as exc:
        raise ToolError(str(exc)) from None
    return req
