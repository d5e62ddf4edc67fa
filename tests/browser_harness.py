"""What the browser tests share: Debian's Chromium, and a real server in a thread.

Chromium comes from Debian (``/usr/bin/chromium``, installed by ``make test``),
never from ``playwright install``, which cannot download here. Without it the
browser tests are skipped, except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.web_helpers import listening_socket

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Page

CHROMIUM = "/usr/bin/chromium"
IN_CI = os.environ.get("CI") == "true"


def skip_without_browser() -> None:
    """Skip the calling test module when Chromium or Playwright is missing (not in CI)."""
    if not Path(CHROMIUM).exists() and not IN_CI:
        pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM} (apt install "
                    "chromium)", allow_module_level=True)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:  # pragma: no cover - playwright is a test dependency
        if IN_CI:
            raise
        pytest.skip("browser tests need the playwright package", allow_module_level=True)


@contextmanager
def serving(app: Any) -> Iterator[tuple[str, asyncio.AbstractEventLoop]]:
    """Run ``app`` with uvicorn on 127.0.0.1 in a thread: its base URL and event loop.

    The server listens on a socket bound before it starts (see ``listening_socket``),
    so tests running in parallel never share a port."""
    import uvicorn

    sock = listening_socket()
    port = int(sock.getsockname()[1])
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    loop = asyncio.new_event_loop()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(srv.serve(sockets=[sock]))

    thread = threading.Thread(target=run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", loop
    finally:
        srv.should_exit = True
        thread.join(15)
        loop.close()
        sock.close()


@dataclass
class LiveServer:
    """A server :func:`serving` runs: its address, its app and the event loop it runs on
    (the browser tests' module fixtures add what each needs)."""

    base: str
    app: Any
    loop: asyncio.AbstractEventLoop

    def run(self, coro: Any) -> Any:
        """Run ``coro`` on the server's loop and wait for its answer."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(60)


@contextmanager
def live_server(folder: Path, **options: Any) -> Iterator[LiveServer]:
    """The web game on a new SQLite database in ``folder``, served by :func:`serving`:
    computers think in threads at the beginner's level unless ``options`` (``create_app``'s
    keywords) say otherwise."""
    from casino.web.app import create_app

    app = create_app(f"sqlite:///{folder / 'casino.db'}",
                     **{"pool_workers": 0, "hint_level": "beginner", **options})
    with serving(app) as (base, loop):
        yield LiveServer(base, app, loop)


@contextmanager
def chromium() -> Iterator[Browser]:
    """Headless Debian Chromium driven by Playwright."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"CI=true but there is no chromium at {CHROMIUM}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def watch(page: Page) -> list[str]:
    """Collect the page's script errors and Content-Security-Policy refusals, so a test
    can assert there were none (a refused inline script or style only shows in the
    console, as "... violates the following Content Security Policy directive ...")."""
    errors: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            errors.append(message.text)

    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", console)
    return errors
