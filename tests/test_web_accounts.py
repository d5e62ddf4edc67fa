"""Accounts, optional (docs/server.md, "Accounts"): signing up, in and out, sessions
revoked here or everywhere, the forms' CSRF tokens, and refusals that name the field and
change nothing. Guests play as before (every other web test is a guest)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from casino.web.accounts.store import AccountRow, AccountSessionRow
from casino.web.routes.accounts import SESSION_COOKIE
from tests.web_helpers import ACCOUNTS, browser, csrf_of, recovery_codes, sign_in, sign_up, web

PASSWORD = "correct horse battery"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=ACCOUNTS) as client:
        yield client


def accounts(client: TestClient) -> int:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return int(conn.scalar(select(func.count()).select_from(AccountRow)) or 0)


def sessions(client: TestClient) -> int:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return int(conn.scalar(select(func.count()).select_from(AccountSessionRow)) or 0)


def test_a_player_signs_up_and_is_shown_eight_codes_once(app: TestClient) -> None:
    ann = browser(app)
    r = sign_up(ann, "Ann", PASSWORD)
    assert r.status_code == 201, r.text
    assert r.headers["cache-control"] == "no-store"
    codes = recovery_codes(r.text)
    assert len(codes) == 8 and len(set(codes)) == 8
    assert all(re.fullmatch(r"[a-z0-9]{4}(-[a-z0-9]{4}){3}", c) for c in codes)
    assert ann.cookies.get(SESSION_COOKIE)
    page = ann.get("/account")
    assert page.status_code == 200 and '<h1 id="account-name">Ann</h1>' in page.text
    assert 'id="signed-in-as" title="Your account">Ann</a>' in page.text  # in the header
    assert "8 recovery codes left" in page.text
    assert not recovery_codes(page.text)  # shown once, never again
    assert ann.get("/signup").headers["location"] == "/account"


def test_signing_in_with_the_right_password_and_refusing_a_wrong_one(app: TestClient) -> None:
    sign_up(browser(app), "Ann", PASSWORD)
    other = browser(app)
    wrong = sign_in(other, "Ann", PASSWORD + "!")
    assert wrong.status_code == 400
    assert "password: that name and password do not match an account" in wrong.text
    assert SESSION_COOKIE not in other.cookies and sessions(app) == 1
    nobody = sign_in(other, "Nobody", PASSWORD)
    assert nobody.status_code == 400 and "do not match an account" in nobody.text
    right = sign_in(other, "ann", PASSWORD)  # a name is found whatever its case
    assert right.status_code == 303 and right.headers["location"] == "/account"
    assert other.get("/account").status_code == 200 and sessions(app) == 2


def test_signing_out_revokes_the_session_and_a_copy_of_its_cookie(app: TestClient) -> None:
    ann = browser(app)
    sign_up(ann, "Ann", PASSWORD)
    thief = browser(app)
    thief.cookies.set(SESSION_COOKIE, ann.cookies[SESSION_COOKIE])
    assert thief.get("/account").status_code == 200
    page = ann.get("/account").text
    out = ann.post("/signout", data={"csrf": csrf_of(page)})
    assert out.status_code == 303 and out.headers["location"] == "/"
    assert thief.get("/account").headers["location"] == "/signin"
    assert sessions(app) == 0


def test_signing_out_everywhere_revokes_every_session(app: TestClient) -> None:
    ann = browser(app)
    sign_up(ann, "Ann", PASSWORD)
    laptop, thief = browser(app), browser(app)
    assert sign_in(laptop, "Ann", PASSWORD).status_code == 303
    thief.cookies.set(SESSION_COOKIE, ann.cookies[SESSION_COOKIE])  # a leaked cookie
    assert thief.get("/account").status_code == 200
    page = laptop.get("/account").text
    r = laptop.post("/account/everywhere", data={"csrf": csrf_of(page)})
    assert r.status_code == 200 and "2 sign-ins of Ann ended" in r.text
    for b in (ann, laptop, thief):
        assert b.get("/account").headers["location"] == "/signin"
    assert sessions(app) == 0


def test_forms_without_their_token_are_refused_and_change_nothing(app: TestClient) -> None:
    ann = browser(app)
    sign_up(ann, "Ann", PASSWORD)
    missing = ann.post("/account/everywhere", data={})
    assert missing.status_code == 400 and "&#34;csrf&#34;" in missing.text
    forged = ann.post("/account/everywhere", data={"csrf": "0" * 32})
    assert forged.status_code == 403 and "the form&#39;s token is missing" in forged.text
    # Another browser's token is not this one's either.
    other = browser(app)
    theirs = csrf_of(other.get("/signin").text)
    assert ann.post("/signout", data={"csrf": theirs}).status_code == 403
    assert sessions(app) == 1 and ann.get("/account").status_code == 200
    # A signed-out form is bound to its browser's cookie: a page fetched elsewhere
    # does not give its token to another browser.
    stranger = browser(app)
    stranger.get("/signin")
    r = stranger.post("/signin", data={"name": "Ann", "password": PASSWORD, "csrf": theirs})
    assert r.status_code == 403 and sessions(app) == 1
    # The guard's Origin rule holds for the forms as for every change.
    cross = ann.post("/account/everywhere", data={"csrf": csrf_of(ann.get("/account").text)},
                     headers={"origin": "https://evil.example"})
    assert cross.status_code == 403 and sessions(app) == 1


@pytest.mark.parametrize("name", ["ann lee", "ANN-LEE", "Аnn_Lee", "Ann_1ee", "Ann_Iee",
                                  "AnnLee", "Ann_Lée", "Ａｎｎ_Ｌｅｅ"])
def test_look_alike_names_are_refused(app: TestClient, name: str) -> None:
    assert sign_up(browser(app), "Ann_Lee", PASSWORD).status_code == 201
    r = sign_up(browser(app), name, PASSWORD)
    assert r.status_code == 409, name
    assert "name: the name" in r.text and "is taken, or looks too much like" in r.text
    assert accounts(app) == 1


def test_digits_drawn_like_letters_are_one_name(app: TestClient) -> None:
    assert sign_up(browser(app), "Oscar", PASSWORD).status_code == 201
    assert sign_up(browser(app), "0scar", PASSWORD).status_code == 409
    assert sign_up(browser(app), "Oskar", PASSWORD).status_code == 201


@pytest.mark.parametrize(("fields", "field", "words"), [
    ({"name": "A" * 25}, "name", "the name is too long (25 characters)"),
    ({"name": "Al"}, "name", "the name is too short"),
    ({"name": "Ann\x07"}, "name", "a character that is not allowed (U+0007"),
    ({"name": "Ann\u202eLee"}, "name", "a character that is not allowed (U+202E"),
    ({"name": "Ann  Lee"}, "name", "two separators in a row"),
    ({"password": "short"}, "password", "the password is too short"),
    ({"password": "x" * 257}, "password", "the password is too long"),
    ({"password": "tab\there and more"}, "password", "a control character"),
    ({"claim": "yes"}, "claim", "\"claim\""),
    ({"colour": "red"}, "colour", "has no such field"),
])
def test_hostile_sign_up_fields_are_refused_by_name(app: TestClient, fields: dict[str, str],
                                                    field: str, words: str) -> None:
    from html import unescape

    r = sign_up(browser(app), **{"name": "Ann", "password": PASSWORD, **fields})
    assert r.status_code == 400, r.text
    text = unescape(r.text)
    assert f'"{field}"' in text and words in text, text
    assert accounts(app) == 0 and sessions(app) == 0


def test_a_json_form_of_the_wrong_type_or_a_field_twice_is_refused(app: TestClient) -> None:
    from html import unescape

    ann = browser(app)
    token = csrf_of(ann.get("/signup").text)
    typed = ann.post("/signup", json={"name": 5, "password": PASSWORD, "csrf": token})
    assert typed.status_code == 400 and '"name"' in unescape(typed.text)
    assert "valid string" in unescape(typed.text)
    twice = ann.post("/signup", content=f"name=Ann&name=Bob&password=x&csrf={token}",
                     headers={"content-type": "application/x-www-form-urlencoded"})
    assert twice.status_code == 400
    assert '"name" is given twice' in unescape(twice.text)
    big = ann.post("/signup", content="name=" + "A" * 5000,
                   headers={"content-type": "application/x-www-form-urlencoded"})
    assert big.status_code == 400 and "the form is too big" in unescape(big.text)
    assert accounts(app) == 0
    good = ann.post("/signup", json={"name": "Ann", "password": PASSWORD, "csrf": token})
    assert good.status_code == 201 and accounts(app) == 1
