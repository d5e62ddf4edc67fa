"""The language kept in the account (docs/server.md, "Languages"): the switch, signed in,
keeps the choice in the account; a browser without the ``lang`` cookie that signs in is
answered in the account's language and given the cookie; a cookie set on a browser wins;
a guest's switch keeps nothing. The WebSocket's handshake gets the same answer from
:func:`casino.web.language.request_language`. On PostgreSQL too, with
``CASINO_TEST_POSTGRES`` (tests/web_helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from starlette.requests import HTTPConnection
from starlette.testclient import TestClient

from casino.web.accounts.store import Account, AccountRow
from casino.web.language import LANG_COOKIE, request_language
from tests.web_helpers import ACCOUNTS, browser, sign_in, sign_up, web

PASSWORD = "correct horse battery"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=ACCOUNTS) as client:
        yield client


def kept(client: TestClient, name: str) -> str | None:
    """The language kept in the account ``name``."""
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        language: str | None = conn.scalar(select(AccountRow.language)
                                           .where(AccountRow.name == name))
        return language


def test_a_signed_in_choice_follows_its_owner_to_a_fresh_browser(app: TestClient) -> None:
    home = browser(app)
    assert sign_up(home, "Ann", PASSWORD).status_code == 201
    assert kept(app, "Ann") is None
    switched = home.get("/language/fi?next=/account")
    assert switched.status_code == 303 and switched.cookies.get(LANG_COOKIE) == "fi"
    assert kept(app, "Ann") == "fi"
    # A fresh browser whose own language is Swedish: signed in, it is answered in Finnish
    # and given the cookie, so that its later pages need not ask the account.
    away = browser(app)
    away.headers["Accept-Language"] = "sv-SE,sv;q=0.9"
    assert '<html lang="sv">' in away.get("/signin").text  # a guest still: its own
    assert sign_in(away, "Ann", PASSWORD).status_code == 303
    page = away.get("/account")
    assert '<html lang="fi">' in page.text
    assert page.cookies.get(LANG_COOKIE) == "fi"
    assert "Kirjaudu ulos" in page.text  # "Sign out"


def test_a_cookie_set_on_the_browser_wins_over_the_account(app: TestClient) -> None:
    home = browser(app)
    sign_up(home, "Ann", PASSWORD)
    home.get("/language/sv")
    assert kept(app, "Ann") == "sv"
    other = browser(app)
    other.cookies.set(LANG_COOKIE, "fi")
    sign_in(other, "Ann", PASSWORD)
    page = other.get("/account")
    assert '<html lang="fi">' in page.text and LANG_COOKIE not in page.cookies
    assert kept(app, "Ann") == "sv"  # reading a page changes no choice
    # Switching there is a new choice, kept for the account's next browser.
    other.get("/language/en")
    assert kept(app, "Ann") == "en"
    third = browser(app)
    third.headers["Accept-Language"] = "fi"
    sign_in(third, "Ann", PASSWORD)
    assert '<html lang="en">' in third.get("/account").text


def test_an_account_without_a_choice_reads_its_browsers_language(app: TestClient) -> None:
    home = browser(app)
    home.headers["Accept-Language"] = "sv"
    sign_up(home, "Ann", PASSWORD)
    page = home.get("/account")
    assert '<html lang="sv">' in page.text and LANG_COOKIE not in page.cookies


def test_a_guests_switch_keeps_nothing_but_the_cookie(app: TestClient) -> None:
    sign_up(browser(app), "Ann", PASSWORD)
    guest = browser(app)
    assert guest.get("/language/fi").cookies.get(LANG_COOKIE) == "fi"
    assert kept(app, "Ann") is None
    assert guest.get("/language/xx").cookies.get(LANG_COOKIE) is None  # unknown: nothing


def _handshake(cookie: str | None, accept: str | None,
               account: Account | bool | None = False) -> HTTPConnection:
    """A WebSocket's handshake with these cookie and header; ``account`` as looked up
    (False: not looked up)."""
    headers = []
    if cookie:
        headers.append((b"cookie", f"{LANG_COOKIE}={cookie}".encode()))
    if accept:
        headers.append((b"accept-language", accept.encode()))
    scope = {"type": "websocket", "path": "/ws/x", "headers": headers, "state": {}}
    connection = HTTPConnection(scope)
    if account is not False:
        connection.state.casino_account = (account,)
    return connection


def test_a_websockets_language_is_chosen_in_the_same_order() -> None:
    ann = Account("a1", "Ann", "sv")
    assert request_language(_handshake("fi", "sv", ann)) == "fi"  # the cookie first
    assert request_language(_handshake(None, "fi", ann)) == "sv"  # then the account's
    assert request_language(_handshake(None, "fi", None)) == "fi"  # then the header
    assert request_language(_handshake(None, "fi")) == "fi"  # nobody looked: the header
    assert request_language(_handshake(None, None, Account("b2", "Bo"))) == "en"


def test_a_websocket_without_the_cookie_speaks_the_accounts_language(app: TestClient) -> None:
    home = browser(app)
    sign_up(home, "Ann", PASSWORD)
    home.get("/language/sv")
    away = browser(app)
    away.headers["Accept-Language"] = "fi"
    sign_in(away, "Ann", PASSWORD)
    assert LANG_COOKIE not in away.cookies  # no page read yet: the handshake decides
    with away.websocket_connect("/ws/nosuchgame") as ws:
        refusal = ws.receive_json()
    assert refusal["type"] == "error" and "finns inget sådant parti" in refusal["message"]
