"""Accounts' sign-in limits and recovery codes (docs/server.md, "Accounts"): failed
sign-ins counted per name and per network (an IPv4 /24, an IPv6 /64) in the database,
refused before any hashing; a recovery code works once and sets a new password; and no
password is ever logged or stored in clear."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from casino.web.accounts.service import signin_network
from casino.web.routes.accounts import SESSION_COOKIE
from tests.web_helpers import (
    ACCOUNTS,
    browser,
    csrf_of,
    recovery_codes,
    sign_in,
    sign_up,
    web,
)

PASSWORD = "correct horse battery"
LIMITED = dataclasses.replace(ACCOUNTS, signin_failures_per_account=3,
                              signin_failures_per_network=5)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=LIMITED) as client:
        yield client


def test_the_networks_counted_together() -> None:
    assert signin_network("203.0.113.5") == signin_network("203.0.113.250") == "203.0.113.0/24"
    assert signin_network("203.0.114.5") != signin_network("203.0.113.5")
    assert signin_network("2001:db8::1") == signin_network("2001:db8::ffff:1") \
        == "2001:db8::/64"
    assert signin_network("2001:db8:0:1::1") != signin_network("2001:db8::1")
    assert signin_network("::ffff:203.0.113.9") == "203.0.113.0/24"


def test_failed_sign_ins_to_one_account_are_limited(app: TestClient) -> None:
    sign_up(browser(app), "Ann", PASSWORD)
    sign_up(browser(app), "Bob", PASSWORD)
    for n in range(3):  # each from another network: the account's count alone stops them
        r = sign_in(browser(app, f"198.51.{n}.7"), "Ann", "not the password")
        assert r.status_code == 400
    shut = sign_in(browser(app, "192.0.2.1"), "Ann", PASSWORD)  # even the right one
    assert shut.status_code == 429 and "too many failed sign-ins to this account" in shut.text
    assert SESSION_COOKIE not in shut.cookies
    # Another account, from the same network, is not shut.
    assert sign_in(browser(app, "198.51.0.7"), "Bob", PASSWORD).status_code == 303
    # The window passes (its start moved back, not waited for): the account opens again.
    accounts = app.app.state.accounts  # type: ignore[attr-defined]
    accounts.window = accounts.window * 0
    assert sign_in(browser(app, "192.0.2.1"), "Ann", PASSWORD).status_code == 303


def test_failed_sign_ins_from_one_network_are_limited(app: TestClient) -> None:
    sign_up(browser(app), "Ann", PASSWORD)
    # Five names, two guesses each at most, from addresses all over one /24: the
    # network's count reaches its limit though no account's does.
    for n in range(5):
        r = sign_in(browser(app, f"203.0.113.{10 + n}"), f"Guess{n}", "not the password")
        assert r.status_code == 400
    shut = sign_in(browser(app, "203.0.113.200"), "Ann", PASSWORD)
    assert shut.status_code == 429 and "too many failed sign-ins from your network" in shut.text
    # The next /24 is another network.
    assert sign_in(browser(app, "203.0.114.1"), "Ann", PASSWORD).status_code == 303


def test_an_ipv6_network_is_its_64(app: TestClient) -> None:
    sign_up(browser(app), "Ann", PASSWORD)
    for n in range(5):
        sign_in(browser(app, f"2001:db8::{n + 1:x}"), f"Guess{n}", "not the password")
    assert sign_in(browser(app, "2001:db8::ffff"), "Ann", PASSWORD).status_code == 429
    assert sign_in(browser(app, "2001:db8:0:1::1"), "Ann", PASSWORD).status_code == 303


def test_the_limits_hold_for_another_process_on_the_database(tmp_path: Path) -> None:
    """The counts are rows of the database: a second app on it sees them."""
    with web(tmp_path, limits=LIMITED) as first:
        sign_up(browser(first), "Ann", PASSWORD)
        for _ in range(3):
            sign_in(browser(first, "198.51.100.1"), "Ann", "not the password")
    with web(tmp_path, limits=LIMITED) as second:
        assert sign_in(browser(second, "192.0.2.1"), "Ann", PASSWORD).status_code == 429


def test_a_recovery_code_works_once_and_sets_a_new_password(app: TestClient) -> None:
    ann = browser(app)
    codes = recovery_codes(sign_up(ann, "Ann", PASSWORD).text)
    other = browser(app)
    token = csrf_of(other.get("/recover").text)
    new = "a brand new passphrase"
    r = other.post("/recover", data={"name": "Ann", "code": codes[3].upper(),
                                     "password": new, "csrf": token})
    assert r.status_code == 303 and other.get("/account").status_code == 200
    assert "7 recovery codes left" in other.get("/account").text
    # The old session was revoked with the old password; the old password no longer works.
    assert ann.get("/account").headers["location"] == "/signin"
    assert sign_in(browser(app), "Ann", PASSWORD).status_code == 400
    assert sign_in(browser(app), "Ann", new).status_code == 303
    # The code is spent.
    again = browser(app)
    token = csrf_of(again.get("/recover").text)
    r = again.post("/recover", data={"name": "Ann", "code": codes[3], "password": PASSWORD,
                                     "csrf": token})
    assert r.status_code == 400 and "each code works once" in r.text
    assert sign_in(browser(app), "Ann", new).status_code == 303


def test_new_recovery_codes_replace_the_old(app: TestClient) -> None:
    ann = browser(app)
    old = recovery_codes(sign_up(ann, "Ann", PASSWORD).text)
    page = ann.get("/account").text
    wrong = ann.post("/account/codes", data={"password": "not the password",
                                             "csrf": csrf_of(page)})
    assert wrong.status_code == 400 and "not this account" in wrong.text
    r = ann.post("/account/codes", data={"password": PASSWORD, "csrf": csrf_of(page)})
    new = recovery_codes(r.text)
    assert r.status_code == 200 and len(new) == 8 and not set(new) & set(old)
    other = browser(app)
    token = csrf_of(other.get("/recover").text)
    assert other.post("/recover", data={"name": "Ann", "code": old[0], "password": PASSWORD,
                                        "csrf": token}).status_code == 400


def test_passwords_are_never_logged_nor_stored_in_clear(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    secret, wrong, renewed = "Zebra-Quartz-7741-pass", "Zebra-Quartz-7741-typo", \
        "Yak-Umber-5512-newpass"
    caplog.set_level(logging.DEBUG)
    with web(tmp_path, limits=ACCOUNTS) as app:
        ann = browser(app)
        codes = recovery_codes(sign_up(ann, "Ann", secret).text)
        assert sign_in(browser(app), "Ann", wrong).status_code == 400
        assert sign_in(browser(app), "Ann", secret).status_code == 303
        other = browser(app)
        token = csrf_of(other.get("/recover").text)
        assert other.post("/recover", data={"name": "Ann", "code": codes[0],
                                            "password": renewed,
                                            "csrf": token}).status_code == 303
        session = other.cookies[SESSION_COOKIE]
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    for clear in (secret, wrong, renewed, codes[1], session):
        assert clear not in logged
        assert clear.encode() not in stored
        assert clear.replace("-", "").encode() not in stored


def test_hashing_runs_in_its_own_threads_a_bounded_number_at_once() -> None:
    """A sign-in's Argon2 work never holds up the event loop, and a flood of sign-ins
    waits in a bounded queue, the rest told the server is busy."""
    import asyncio
    import threading
    import time

    from casino.web.accounts.passwords import WAITING_PER_THREAD, Busy, Passwords, Profile

    passwords = Passwords(Profile(1, 8, 1), threads=1)
    where: list[str] = []
    gate = threading.Event()

    class SlowHasher:
        def hash(self, password: str) -> str:
            where.append(threading.current_thread().name)
            gate.wait(5)
            return "hashed"

    passwords.hasher = SlowHasher()  # type: ignore[assignment]

    async def flood() -> tuple[int, int, int]:
        ticks = 0
        tasks = [asyncio.create_task(passwords.hash("x" * 12))
                 for _ in range(1 + WAITING_PER_THREAD)]
        await asyncio.sleep(0.05)
        with pytest.raises(Busy):
            await passwords.hash("one too many")
        start = time.monotonic()
        while time.monotonic() - start < 0.2:  # the loop turns while a hash runs
            await asyncio.sleep(0.01)
            ticks += 1
        gate.set()
        done = await asyncio.gather(*tasks)
        return ticks, len(done), len(set(where))

    ticks, done, threads = asyncio.run(flood())
    passwords.close()
    assert ticks >= 5 and done == 1 + WAITING_PER_THREAD and threads == 1
    assert all(name.startswith("casino-argon2") for name in where)


def test_sign_ups_from_one_network_are_limited(tmp_path: Path) -> None:
    limits = dataclasses.replace(ACCOUNTS, signups_per_network=2)
    with web(tmp_path, limits=limits) as app:
        for n in range(2):
            assert sign_up(browser(app, f"203.0.113.{n + 1}"), f"Player{n}",
                           PASSWORD).status_code == 201
        shut = sign_up(browser(app, "203.0.113.99"), "Player9", PASSWORD)
        assert shut.status_code == 429
        assert "too many accounts were signed up from your network" in shut.text
        assert sign_up(browser(app, "203.0.114.1"), "Player9", PASSWORD).status_code == 201
