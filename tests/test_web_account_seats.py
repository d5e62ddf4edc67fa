"""Who is signed in, shown in every page's header (docs/server.md, "Accounts")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.web_helpers import ACCOUNTS, browser, csrf_of, sign_up, web

PASSWORD = "correct horse battery"
#: What the header shows, signed in and to a guest.
SIGNED_IN = 'id="signed-in-as" title="Your account">{name}</a>'
GUEST_LINKS = ('id="sign-in"', 'href="/signup"')


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=ACCOUNTS) as client:
        yield client


def test_every_page_header_shows_who_is_signed_in(app: TestClient) -> None:
    ann = browser(app)
    pages = ["/", "/rules/casino", "/glossary", "/guide/casino", "/game/nosuchgame"]
    for path in pages:  # a guest is offered to sign in or up, and pages work as before
        page = ann.get(path)
        assert page.status_code in (200, 404), path
        assert all(link in page.text for link in GUEST_LINKS), path
        assert "signed-in-as" not in page.text, path
    assert sign_up(ann, "Ann", PASSWORD).status_code == 201
    for path in [*pages, "/account"]:
        page = ann.get(path).text
        assert SIGNED_IN.format(name="Ann") in page, path
        assert 'action="/signout"' in page and 'id="sign-in"' not in page, path
    # The header's sign-out form signs out; the header then offers to sign in again.
    out = ann.post("/signout", data={"csrf": csrf_of(ann.get("/").text)})
    assert out.status_code == 303
    lobby = ann.get("/").text
    assert "signed-in-as" not in lobby and all(link in lobby for link in GUEST_LINKS)
    # Another browser never sees Ann's name in its header.
    assert "Ann" not in browser(app).get("/").text
