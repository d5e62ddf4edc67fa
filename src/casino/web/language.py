"""The language of each web request: chosen, switched, and given to the pages and scripts.

A request's language is, in this order:

1. its browser's ``lang`` cookie, when it names a known language: what was chosen on
   this browser wins;
2. else the language kept in the account signed in there (chosen with the switch on
   any browser), and the answer sets the cookie to it, so that signing in on a new
   browser brings the account's language along;
3. else the best of its ``Accept-Language`` (:func:`casino.i18n.negotiate`).

The middleware :func:`choose_language` sets it in :mod:`casino.i18n`'s context variable
for the request's own task, so the templates (Jinja's i18n extension, whose callables
read that variable) and any engine words translate into it; :func:`connection_language`
gives the same answer for a WebSocket's handshake. ``GET /language/{lang}`` sets the
cookie, keeps the choice in the account when one is signed in, and sends the browser
back to the page it came from (a path of this site only, never another site). The pages
carry the JavaScript's words of that language as a JSON catalog (:func:`script_catalog`)
that ``static/i18n.js`` reads.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import HTTPConnection, Request
from starlette.responses import RedirectResponse, Response

from casino import i18n
from casino.web.phrases import phrases_shown
from casino.web.who import account_of, looked_up, session_token

#: The cookie remembering the language a browser chose with the switch.
LANG_COOKIE = "lang"
#: How long the choice is remembered: a year.
LANG_COOKIE_AGE = 365 * 24 * 3600

#: The paths whose answers never look the account up for its language: the static
#: files and the cards' drawings (a page's first answer gives the browser the cookie).
_NO_LOOKUP = ("/static/", "/svg/")

#: The path of the page being made, for the switch's links back to it.
_PATH: ContextVar[str] = ContextVar("casino_page_path", default="/")

#: The plural rule the script applies: English, Finnish and Swedish all have one form
#: for 1 and another for every other count.
PLURAL_RULE = "one-other"

router = APIRouter()


def request_language(connection: HTTPConnection) -> str:
    """The language ``connection`` (a request, or a WebSocket's handshake) is answered
    in: its ``lang`` cookie's, else its account's (when the account was looked up:
    :func:`casino.web.who.account_of`; :func:`connection_language` looks it up first),
    else its Accept-Language's. The one place that decides the order."""
    known = looked_up(connection)
    account = known[0] if known else None
    return (i18n.known(connection.cookies.get(LANG_COOKIE))
            or i18n.known(account.language if account else None)
            or i18n.negotiate(connection.headers.get("accept-language")))


async def connection_language(connection: HTTPConnection) -> str:
    """:func:`request_language` of ``connection``, the account looked up first when it
    may decide (no ``lang`` cookie, a session cookie): what a WebSocket's handshake
    calls, as the HTTP middleware does."""
    if (i18n.known(connection.cookies.get(LANG_COOKIE)) is None
            and session_token(connection)):
        await account_of(connection)
    return request_language(connection)


async def choose_language(request: Request,
                          call_next: Callable[[Request], Awaitable[Response]]) -> Response:
    """HTTP middleware: answer ``request`` in its language (:func:`request_language`),
    and tell caches that the answer varies with what chose it (the header and the
    cookie: a card's cached drawing is titled in a language), except for the static
    files, which are the same in every language. A browser without the cookie, signed
    in to an account that chose a language, is given the cookie of that language."""
    static = request.url.path.startswith("/static/")
    cookie = i18n.known(request.cookies.get(LANG_COOKIE))
    lang = i18n.set_language(request_language(request)
                             if request.url.path.startswith(_NO_LOOKUP)
                             else await connection_language(request))
    _PATH.set(same_site(request.url.path + (f"?{request.url.query}" if request.url.query
                                            else "")))
    response = await call_next(request)
    if not static:
        response.headers.append("Vary", "Accept-Language, Cookie")
    if cookie is None and _from_account(request, lang) and not _sets_language(response):
        _remember(response, lang)
    return response


def _from_account(connection: HTTPConnection, lang: str) -> bool:
    """Whether ``lang`` is the language kept in the account signed in on ``connection``."""
    known = looked_up(connection)
    return bool(known and known[0] and i18n.known(known[0].language) == lang)


def _sets_language(response: Response) -> bool:
    """Whether ``response`` sets the language's cookie itself (the switch)."""
    return any(value.startswith(f"{LANG_COOKIE}=")
               for value in response.headers.getlist("set-cookie"))


def _remember(response: Response, code: str) -> None:
    """Have the browser keep ``code`` as its language for :data:`LANG_COOKIE_AGE`."""
    response.set_cookie(LANG_COOKIE, code, max_age=LANG_COOKIE_AGE, samesite="lax",
                        httponly=False, path="/")


def same_site(target: str | None) -> str:
    """``target`` if it is a path on this site (``/`` then anything but another slash or
    a backslash, no scheme, no control characters), else ``/``: the switch never sends
    a browser to another site."""
    if (not target or len(target) > 2000 or not target.startswith("/")
            or target[1:2] in ("/", "\\") or any(ord(c) < 32 or c == "\\" for c in target)):
        return "/"
    return target


@router.get("/language/{lang}")
async def switch_language(request: Request, lang: str, next: str = "/") -> Response:
    """Remember ``lang`` in the browser's cookie, and in the account signed in there (so
    that it follows its owner to another browser), and go back to ``next`` (a path of
    this site; the lobby otherwise). An unknown language changes nothing."""
    response = RedirectResponse(same_site(next), status_code=303)
    code = i18n.known(lang)
    if code is not None:
        _remember(response, code)
        account = await account_of(request)
        if account is not None and account.language != code:
            await request.app.state.accounts.choose_language(account, code)
    return response


def script_catalog(lang: str) -> str:
    """The JavaScript's words in ``lang`` as JSON: ``{"lang", "plural", "messages"}``,
    each message's id (the English, or ``singular\\u0000plural``) mapped to its
    translation (a list of forms for a plural). Safe to put inside a ``<script>``
    element: ``<``, ``>`` and ``&`` are escaped."""
    catalog: dict[Any, Any] = getattr(i18n.translation(lang), "_catalog", {})
    wanted = script_ids()
    messages: dict[str, Any] = {}
    for key, text in sorted(catalog.items(), key=str):
        singular = key[0] if isinstance(key, tuple) else key
        if singular not in wanted or not text:
            continue
        if isinstance(key, tuple):
            messages.setdefault(singular, []).append(text)
        else:
            messages[key] = text
    body = json.dumps({"lang": lang, "plural": PLURAL_RULE, "messages": messages},
                      ensure_ascii=False, sort_keys=True)
    return body.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")



@cache
def script_ids() -> frozenset[str]:
    """The ids of the messages the scripts use (``casino/locale/script_messages.json``,
    written by ``make i18n`` beside the catalogs)."""
    try:
        text = (resources.files(i18n.PACKAGE) / "locale" / "script_messages.json").read_text(
            encoding="utf-8")
    except FileNotFoundError:
        return frozenset()
    return frozenset(json.loads(text))


def page_language() -> dict[str, Any]:
    """The base template's variables for the language: its code, the switch's choices,
    the path to come back to, and the scripts' catalog."""
    lang = i18n.current()
    return {"lang": lang, "languages": i18n.LANGUAGES, "page_path": _PATH.get(),
            "script_catalog": script_catalog(lang)}


def environment(folder: Path) -> Environment:
    """The templates' Jinja environment: autoescaped, with the i18n extension whose
    ``_``, ``gettext`` and ``ngettext`` translate into the request's language (new
    style: each formats its own ``%(name)s`` placeholders and escapes what it is given)."""
    env = Environment(loader=FileSystemLoader(folder), extensions=["jinja2.ext.i18n"],
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=i18n.gettext, ngettext=i18n.ngettext, newstyle=True,
        pgettext=i18n.pgettext, npgettext=i18n.npgettext)
    env.globals["chat_phrases"] = phrases_shown
    return env
