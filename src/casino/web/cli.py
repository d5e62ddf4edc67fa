"""The ``casino serve`` command, ready to register on the main typer app.

``casino/cli/__init__.py`` registers it with ``app.command("serve")(serve_command)``; it
lives here so that the command's options sit next to the server they start,
and FastAPI, uvicorn and SQLAlchemy are imported only when it runs.
"""

from __future__ import annotations

from typing import Annotated

import typer

from casino.i18n import N_

#: Exit code for input the command cannot use (as casino.cli's ``fail``).
EXIT_BAD_INPUT = 2


#: ``casino serve``'s help (translated where it is shown).
HELP = N_(
    "Serve the web game at http://HOST:PORT (FastAPI + uvicorn; see docs/server.md).")


def serve_command(
    host: Annotated[str, typer.Option(
        "--host", help=N_("Address to listen on (127.0.0.1: this machine only)."))] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help=N_("TCP port."))] = 8000,
    database: Annotated[str | None, typer.Option(
        "--database",
        help=N_("SQLAlchemy URL of the games database (default: $CASINO_DATABASE_URL, "
                "else the deprecated $DATABASE_URL, else sqlite:///casino.db in "
                "the current folder)."))] = None,
    workers_pool: Annotated[int, typer.Option(
        "--workers-pool", min=0, help=N_("Processes that think for the computer players "
                                         "(0: a thread in the server)."))] = 1,
    workers: Annotated[int, typer.Option(
        "--workers", min=1, help=N_("Server processes sharing the port (more than 1 needs a "
                                    "PostgreSQL database: docs/server.md)."))] = 1,
    computer_pause: Annotated[float, typer.Option(
        "--computer-pause", min=0.0, metavar="SECONDS",
        help=N_("The least time a computer's move takes, so people can follow it."))] = 0.6,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        "--forwarded-allow-ips", metavar="ADDRESSES",
        help=N_("Reverse proxies whose X-Forwarded-For (the client's address) and "
                "X-Forwarded-Proto are believed, as 127.0.0.1 or 10.0.0.0/8,::1 "
                "(default: none)."))] = None,
    limit: Annotated[list[str] | None, typer.Option(
        "--limit", metavar="NAME=VALUE",
        help=N_("Set one of the server's limits, as rooms_per_address=5 or "
                "rooms.rooms_per_address=5 (repeatable; docs/server.md lists them)."))] = None,
    admin: Annotated[list[str] | None, typer.Option(
        "--admin", metavar="NAME", envvar="CASINO_ADMINS",
        help=N_("An account that may read the chat's reports at /admin/reports "
                "(repeatable; $CASINO_ADMINS: names separated by spaces)."))] = None,
) -> None:
    """``casino serve`` (what it does for a person is its help, :data:`HELP`)."""
    from casino.web.app import serve
    from casino.web.settings import limits_from

    try:
        serve(host, port, database, workers_pool, limits_from(limit or []), workers=workers,
              bot_pause=computer_pause, forwarded_allow_ips=forwarded_allow_ips,
              admins=admin or [])
    except ValueError as exc:
        typer.echo(f"casino: {exc}", err=True)
        raise typer.Exit(EXIT_BAD_INPUT) from None
