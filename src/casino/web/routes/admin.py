"""The operators' page of chat reports: ``/admin/reports`` lists the reports nobody has
resolved, each with the lines of its room before it, and marks one resolved
(docs/server.md, "Chat").

Operators are accounts named by ``casino serve --admin NAME`` (or ``CASINO_ADMINS``):
anyone else, a guest or another account, is refused with 403 and shown nothing.
Resolving is a POSTed form carrying the page's CSRF token, as the accounts' forms.
Every word on the page came from people and is escaped by the templates.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.responses import Response

from casino.i18n import _, pgettext, pN_
from casino.web.accounts.forms import Form, form_fields
from casino.web.accounts.passwords import csrf_ok, csrf_token
from casino.web.accounts.store import Account
from casino.web.bodies import BodyError, read
from casino.web.chatstore import ChatStore
from casino.web.messages import MAX_ID
from casino.web.routes.context import Player, Web, signed_in
from casino.web.who import session_token

router = APIRouter(dependencies=[Depends(signed_in)])

#: The refusal of anyone not an operator.
NOT_AN_OPERATOR = pN_("admin", "the chat's reports are for the server's operators: sign in "
                              "with an operator's account")
#: The most reports the page lists at once (the oldest first).
REPORTS_SHOWN = 100


def is_admin(request: Request, account: Account | None) -> bool:
    """Whether ``account`` is one of the server's operators (``casino serve --admin``)."""
    admins: frozenset[str] = getattr(request.app.state, "admins", frozenset())
    return account is not None and account.name.casefold() in admins


@router.get("/admin/reports", response_class=HTMLResponse)
async def reports_page(request: Request, web: Web, player: Player) -> Response:
    """The open reports, oldest first, for an operator; 403 for anyone else."""
    if not is_admin(request, player):
        return web.pages.error(pgettext("admin", NOT_AN_OPERATOR), 403, _("Operators only"))
    reports = await web.service.live.db(ChatStore(web.store).open_reports, REPORTS_SHOWN)
    return web.pages.render("admin_reports.html", reports=reports,
                            csrf=csrf_token(session_token(request) or ""))


@router.post("/admin/reports/{report_id}/resolve")
async def resolve(request: Request, report_id: int, web: Web, player: Player) -> Response:
    """Mark a report resolved (its page's form, with its CSRF token); back to the list."""
    if not is_admin(request, player):
        return web.pages.error(pgettext("admin", NOT_AN_OPERATOR), 403, _("Operators only"))
    try:
        form = read(Form, await form_fields(request))
    except BodyError as e:
        return web.pages.error(e.message, 400)
    if not csrf_ok(session_token(request), form.csrf):
        return web.pages.error(_("the form's token is not this page's: reload the page and "
                                 "send it again (nothing was changed)"), 403)
    if (not 0 <= report_id <= MAX_ID  # no report has it (nor may the database see it)
            or not await web.service.live.db(ChatStore(web.store).resolve, report_id)):
        return web.pages.error(_("there is no such open report (resolved already?)"), 404)
    return RedirectResponse("/admin/reports", 303)
