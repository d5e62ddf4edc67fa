"""Fixtures shared by the test modules.

Plain helpers live in modules of their own beside this file (``variant_positions``,
``crowded_tables``, ``cli_helpers``, ``tui_helpers``, ``web_helpers``, ``web_clients``,
``browser_harness``); no test module imports another test module.

``make test`` runs the tests in parallel processes (pytest-xdist), so whatever a test
leaves outside its own temporary folders could meet another test's: every test gets
a games folder of its own, servers listen on sockets bound for them alone (see
``web_helpers.listening_socket``), and programs in a pseudo-terminal get its size.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # the web and browser modules load only for the tests that use them
    from playwright.sync_api import Browser

    from tests.web_helpers import Served


@pytest.fixture(autouse=True)
def own_games_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Point XDG_DATA_HOME at a folder of this test's own, so that a game the command
    line saves by default (in ``casino.play.session.games_folder``) never lands in the home
    folder, nor among the games another test running in parallel lists. A test that
    sets XDG_DATA_HOME itself overrides this."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(autouse=True)
def no_inherited_terminal_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drop COLUMNS and LINES, which pytest-xdist's worker processes set to 80 and 24: a
    program a test starts in a pseudo-terminal of its own size (``pexpect.spawn``'s
    dimensions) would take them over, and a 40-line screen would be drawn in 24 lines.
    Without them, output that goes to no terminal is 80 columns wide as before."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Speak English in the commands a test starts, whatever the machine's locale
    (LANGUAGE comes first where gettext looks, casino.i18n.from_environment): the tests
    assert English words unless they choose a language (--lang, or their own
    environment)."""
    monkeypatch.setenv("LANGUAGE", "en")


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A real server in a subprocess with the default limits, as ``casino serve`` runs
    (but with computers answering at once), for the hostile clients of a module."""
    from casino.web.limits import Limits
    from tests.web_clients import serve

    with serve(tmp_path_factory.mktemp("live"), Limits()) as served:
        yield served


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Debian Chromium for a module's browser tests (which call
    ``browser_harness.skip_without_browser`` first)."""
    from tests.browser_harness import chromium

    with chromium() as b:
        yield b
