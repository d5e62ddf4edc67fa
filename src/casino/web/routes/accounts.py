"""The accounts' pages: sign up, sign in, recover, sign out, and the account's own page
(sign out everywhere, new recovery codes, claim this browser's games, delete).

Every change is a POSTed form carrying its page's CSRF token, and the guard's Origin rule
(:mod:`casino.web.guard`) applies to them as to every change. The token is worked out
from the browser's session cookie (signed in) or its ``casino`` cookie (signed out:
the sign-up, sign-in and recovery forms), which another site cannot read; a form without
it, or with another, is refused with 403 before anything is looked at. There is no JSON
API for accounts: the forms are the only way in (they take a JSON object too, for
scripts and tests, with the same fields and the same checks).

A session is its cookie ``casino_session`` (HttpOnly, SameSite=Lax, Secure over HTTPS),
holding a random token whose SHA-256 alone the database keeps.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.requests import HTTPConnection
from starlette.responses import Response

from casino.i18n import _, ngettext, pN_
from casino.web import seats
from casino.web.accounts.forms import Confirmed, Form, Recover, SignIn, SignUp, form_fields
from casino.web.accounts.names import NAME_MAX, rule
from casino.web.accounts.passwords import (
    PASSWORD_MAX,
    csrf_ok,
    csrf_token,
    password_rule,
)
from casino.web.accounts.passwords import (
    SESSION_COOKIE as SESSION_COOKIE,  # the accounts' pages' cookie, named here too
)
from casino.web.accounts.profiles import player_url
from casino.web.accounts.ratings import Ratings
from casino.web.accounts.service import AccountError, Accounts, SignedIn
from casino.web.accounts.store import Account
from casino.web.bodies import B, BodyError, read
from casino.web.routes.context import Web, show_viewer, signed_in

#: Every page's header shows who is signed in (:func:`signed_in`, looked up once).
router = APIRouter(dependencies=[Depends(signed_in)])

#: How long a browser keeps its session's cookie, :data:`SESSION_COOKIE` (the server
#: forgets a session unused for ``session_days`` anyway).
SESSION_AGE = 365 * 24 * 3600
#: The refusal of a form without its page's token.
BAD_CSRF = pN_("account", "the form's token is missing or is not this page's: reload the "
                          "page and send the form again (nothing was changed)")


async def _accounts(connection: HTTPConnection) -> Accounts:
    """The :class:`Accounts` of the app serving ``connection``."""
    accounts: Accounts = connection.app.state.accounts
    return accounts


#: A route's parameter annotated ``Users`` is given its app's :class:`Accounts`.
Users = Annotated[Accounts, Depends(_accounts)]


def _session(request: Request) -> str | None:
    token = request.cookies.get(SESSION_COOKIE)
    return token if token and len(token) <= 200 else None


def _host(request: Request) -> str:
    return request.client.host if request.client else ""


def _sentence(words: str) -> str:
    """``words`` begun with a capital, as a sentence of the page."""
    return words[:1].upper() + words[1:]


def _page(web: Web, template: str, status: int = 200, **context: Any) -> Response:
    """An account page: never kept by a cache (it may show codes or a token)."""
    response = web.pages.render(template, name_max=NAME_MAX, password_max=PASSWORD_MAX,
                                name_rule=_sentence(rule()),
                                password_rule=_sentence(password_rule()),
                                **context)
    response.status_code = status
    response.headers["cache-control"] = "no-store"
    return response


def _signed_in(response: Response, request: Request, signed: SignedIn) -> Response:
    response.set_cookie(SESSION_COOKIE, signed.token, max_age=SESSION_AGE, path="/",
                        httponly=True, samesite="lax", secure=request.url.scheme == "https")
    return response


def _signed_out(response: Response) -> Response:
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


def _guest_page(request: Request, web: Web, template: str, status: int = 200,
                **context: Any) -> Response:
    """A signed-out form's page, its token worked out from the browser's cookie (given
    one here if it has none, so that the form can be checked when it comes back)."""
    browser = seats.browser_token(request)
    fresh = browser is None
    if browser is None:
        browser = seats.new_token()
    response = _page(web, template, status, csrf=csrf_token(browser), **context)
    if fresh:
        seats.set_token(response, request, browser)
    return response


async def _form(request: Request, model: type[B], secret: str | None) -> B:
    """The form of ``model``, read once, with its CSRF token checked against the one of
    ``secret``; BodyError (400) or AccountError (403) otherwise, nothing changed."""
    body = read(model, await form_fields(request))
    assert isinstance(body, Form)
    if not csrf_ok(secret, body.csrf):
        raise AccountError(BAD_CSRF, 403, "csrf")
    return body


def _refused(e: BodyError | AccountError) -> tuple[str, int, str | None]:
    if isinstance(e, BodyError):
        return e.message, 400, e.field
    return e.message, e.status, e.field


@router.get("/signup", response_class=HTMLResponse)
async def signup_page(request: Request, web: Web, users: Users) -> Response:
    """The sign-up form (the account's page for a browser signed in already)."""
    if await users.who(_session(request)) is not None:
        return RedirectResponse("/account", 303)
    return _guest_page(request, web, "signup.html")


@router.post("/signup")
async def signup(request: Request, web: Web, users: Users) -> Response:
    """A new account, signed in here, and its recovery codes, shown once."""
    browser = seats.browser_token(request)
    try:
        form = await _form(request, SignUp, browser)
        signed = await users.sign_up(form.name, form.password, browser, form.claim == "on",
                                     _host(request))
    except (BodyError, AccountError) as e:
        error, status, field = _refused(e)
        return _guest_page(request, web, "signup.html", status, error=error, field=field)
    show_viewer(signed.account, signed.token)  # signed in from this page on
    page = _page(web, "codes.html", 201, account=signed.account, codes=signed.codes,
                 claimed=signed.claimed, new_account=True)
    return _signed_in(page, request, signed)


@router.get("/signin", response_class=HTMLResponse)
async def signin_page(request: Request, web: Web) -> Response:
    """The sign-in form."""
    return _guest_page(request, web, "signin.html")


@router.post("/signin")
async def signin(request: Request, web: Web, users: Users) -> Response:
    """Sign in: a new session here, then the account's page."""
    try:
        form = await _form(request, SignIn, seats.browser_token(request))
        signed = await users.sign_in(form.name, form.password, _host(request))
    except (BodyError, AccountError) as e:
        error, status, field = _refused(e)
        return _guest_page(request, web, "signin.html", status, error=error, field=field)
    return _signed_in(RedirectResponse("/account", 303), request, signed)


@router.get("/recover", response_class=HTMLResponse)
async def recover_page(request: Request, web: Web) -> Response:
    """The recovery form: a recovery code and a new password."""
    return _guest_page(request, web, "recover.html")


@router.post("/recover")
async def recover(request: Request, web: Web, users: Users) -> Response:
    """Sign in with a recovery code (spent) and set the new password."""
    try:
        form = await _form(request, Recover, seats.browser_token(request))
        signed = await users.recover(form.name, form.code, form.password, _host(request))
    except (BodyError, AccountError) as e:
        error, status, field = _refused(e)
        return _guest_page(request, web, "recover.html", status, error=error, field=field)
    return _signed_in(RedirectResponse("/account", 303), request, signed)


async def _account(request: Request, users: Accounts) -> tuple[Account, str] | None:
    token = _session(request)
    account = await users.who(token)
    return None if account is None or token is None else (account, token)


async def _account_page(web: Web, users: Accounts, account: Account, token: str,
                        status: int = 200, **context: Any) -> Response:
    return _page(web, "account.html", status, account=account, csrf=csrf_token(token),
                 games=await users.games(account), codes_left=await users.codes_left(account),
                 ratings=await web.service.live.db(Ratings(web.store).of, account.id),
                 profile=player_url(account.name), **context)


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request, web: Web, users: Users) -> Response:
    """The account's page; the sign-in form for a browser not signed in."""
    found = await _account(request, users)
    if found is None:
        return _signed_out(RedirectResponse("/signin", 303))
    return await _account_page(web, users, *found)


@router.post("/signout")
async def signout(request: Request, web: Web, users: Users) -> Response:
    """Sign this browser out (its session is revoked, wherever a copy of it is)."""
    token = _session(request)
    try:
        await _form(request, Form, token)
    except (BodyError, AccountError) as e:
        return web.pages.error(_refused(e)[0], _refused(e)[1])
    if token is not None:
        await users.sign_out(token)
    return _signed_out(RedirectResponse("/", 303))


async def _signed_in_change(request: Request, web: Web, users: Accounts,
                            model: type[B]) -> tuple[Account, str, B] | Response:
    """The account, its session and the form of a change on the account's page; the
    page again with the refusal otherwise."""
    found = await _account(request, users)
    if found is None:
        return _signed_out(web.pages.error(_("you are not signed in (or were signed out "
                                             "elsewhere): sign in again"), 401))
    try:
        form = await _form(request, model, found[1])
    except (BodyError, AccountError) as e:
        error, status, field = _refused(e)
        return await _account_page(web, users, *found, status, error=error, field=field)
    return found[0], found[1], form


@router.post("/account/everywhere")
async def signout_everywhere(request: Request, web: Web, users: Users) -> Response:
    """Sign out every browser signed in to the account, this one too."""
    change = await _signed_in_change(request, web, users, Form)
    if isinstance(change, Response):
        return change
    count = await users.sign_out_everywhere(change[0])
    show_viewer(None, None)
    page = _page(web, "signed_out.html", title=_("Signed out everywhere"),
                 message=ngettext("%(num)s sign-in of %(name)s ended, this browser's too.",
                                  "%(num)s sign-ins of %(name)s ended, this browser's too.",
                                  count) % {"num": count, "name": change[0].name})
    return _signed_out(page)


@router.post("/account/claim")
async def claim(request: Request, web: Web, users: Users) -> Response:
    """Make the games this browser holds seats in the account's."""
    change = await _signed_in_change(request, web, users, Form)
    if isinstance(change, Response):
        return change
    await users.claim(change[0], seats.browser_token(request))
    return RedirectResponse("/account", 303)


@router.post("/account/codes")
async def new_codes(request: Request, web: Web, users: Users) -> Response:
    """New recovery codes (the password confirmed), shown once."""
    change = await _signed_in_change(request, web, users, Confirmed)
    if isinstance(change, Response):
        return change
    account, token, form = change
    try:
        codes = await users.new_codes(account, form.password, _host(request))
    except AccountError as e:
        return await _account_page(web, users, account, token, e.status, error=e.message,
                                   field=e.field)
    return _page(web, "codes.html", account=account, codes=codes, new_account=False)


@router.post("/account/delete")
async def delete(request: Request, web: Web, users: Users) -> Response:
    """Delete the account (the password confirmed): its games stay, its name leaves them."""
    change = await _signed_in_change(request, web, users, Confirmed)
    if isinstance(change, Response):
        return change
    account, token, form = change
    try:
        games = await users.delete(account, form.password, _host(request))
    except AccountError as e:
        return await _account_page(web, users, account, token, e.status, error=e.message,
                                   field=e.field)
    show_viewer(None, None)
    page = _page(web, "signed_out.html", title=_("Account deleted"),
                 message=ngettext("The account %(name)s is gone; its %(num)s game stays, "
                                  "without its name.",
                                  "The account %(name)s is gone; its %(num)s games stay, "
                                  "without its name.", len(games))
                 % {"num": len(games), "name": account.name})
    return _signed_out(page)
