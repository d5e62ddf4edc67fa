"""The accounts' forms as pydantic models, and how a form's body is read.

A form is read once into its model, as every request body is
(:func:`casino.web.bodies.read`): a field missing, extra, given twice, of the wrong type
(a JSON body may send the same fields), too long or holding a control character is
refused with words naming the field, and nothing changes. The rules of a name and a
password are :mod:`~casino.web.accounts.names`' and
:mod:`~casino.web.accounts.passwords`', worded there once.

Each form carries ``csrf``, the token of the page that showed it
(:func:`casino.web.accounts.passwords.csrf_token`), checked by the route before anything
changes.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal
from urllib.parse import parse_qsl

from pydantic import Field, field_validator
from starlette.requests import ClientDisconnect, Request

from casino.i18n import _, pN_
from casino.web.accounts.names import NAME_MAX, why_not
from casino.web.accounts.passwords import PASSWORD_MAX, why_not_password
from casino.web.bodies import BodyError
from casino.web.body import Body
from casino.web.limits import declared_length, json_object, size_words

#: The largest form body read, in bytes (a name, a password twice over, a code, a token).
FORM_BYTES = 4096
#: The fields' words: their descriptions, and the second half of an error about them.
NAME = "\"name\" is the account's name"
PASSWORD = "\"password\" is the account's password"
CODE = "\"code\" is one of the account's recovery codes, as abcd-efgh-jkmn-pqrs"
CSRF = "\"csrf\" is the form's token: send the form from this site's page"
CLAIM = "\"claim\" is \"on\" to make this browser's games the account's"
#: The forms' fields as a refusal names them to a reader (``account_form.html`` shows
#: ``pgettext("form field", field)``).
FIELD_WORDS = (pN_("form field", "name"), pN_("form field", "password"),
               pN_("form field", "code"), pN_("form field", "csrf"),
               pN_("form field", "claim"))


def _name(name: str) -> str:
    words = why_not(name)
    if words is not None:
        raise ValueError(words)
    return name


def _password(password: str) -> str:
    words = why_not_password(password)
    if words is not None:
        raise ValueError(words)
    return password


def _no_control(text: str) -> str:
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise ValueError(_("it has a control character"))
    return text


class Form(Body):
    """What every account form carries: its page's CSRF token."""

    csrf: str = Field(max_length=64, description=CSRF)


class SignUp(Form):
    """``POST /signup``: a new account's name and password; ``claim`` to make this
    browser's games the account's."""

    WHAT: ClassVar[str] = "the sign-up form"
    name: str = Field(description=NAME)
    password: str = Field(description=PASSWORD)
    claim: Literal["on"] | None = Field(None, description=CLAIM)

    _a_name = field_validator("name")(_name)
    _a_password = field_validator("password")(_password)


class SignIn(Form):
    """``POST /signin``: a name and its password."""

    WHAT: ClassVar[str] = "the sign-in form"
    name: str = Field(max_length=4 * NAME_MAX, description=NAME)
    password: str = Field(max_length=PASSWORD_MAX, description=PASSWORD)

    _plain_name = field_validator("name")(_no_control)


class Recover(Form):
    """``POST /recover``: a name, one of its recovery codes, and the new password."""

    WHAT: ClassVar[str] = "the recovery form"
    name: str = Field(max_length=4 * NAME_MAX, description=NAME)
    code: str = Field(max_length=64, description=CODE)
    password: str = Field(description=PASSWORD)

    _plain_name = field_validator("name")(_no_control)
    _plain_code = field_validator("code")(_no_control)
    _a_password = field_validator("password")(_password)


class Confirmed(Form):
    """A change that needs the password again: new recovery codes, or deletion."""

    WHAT: ClassVar[str] = "the form"
    password: str = Field(max_length=PASSWORD_MAX, description=PASSWORD)


async def form_fields(request: Request) -> dict[str, Any]:
    """The fields of a form's body (URL-encoded, as a browser sends it, or a JSON
    object), read within :data:`FORM_BYTES`; :class:`BodyError` otherwise."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()

    def refuse(words: str, _status: int) -> BodyError:
        """A JSON body's refusal, as a form's (the page shows it; no field is at fault)."""
        return BodyError(words, None)

    if kind == "application/json":
        return await json_object(request, FORM_BYTES, refuse)
    if kind not in ("application/x-www-form-urlencoded", ""):  # none: an empty form
        raise BodyError(_("a form is sent as application/x-www-form-urlencoded"), None)
    too_big = BodyError(_("the form is too big (at most %(size)s)")
                        % {"size": size_words(FORM_BYTES)}, None)
    declared = declared_length(request.headers)
    if declared is not None and declared > FORM_BYTES:
        raise too_big
    raw = bytearray()
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > FORM_BYTES:
                raise too_big
    except ClientDisconnect:
        raise BodyError(_("the form was cut off before its end"), None) from None
    try:
        pairs = parse_qsl(bytes(raw).decode("utf-8"), keep_blank_values=True,
                          errors="strict", max_num_fields=16)
    except (UnicodeDecodeError, ValueError):
        raise BodyError(_("the form is not valid URL-encoded UTF-8 text"), None) from None
    fields: dict[str, Any] = {}
    for key, value in pairs:
        if key in fields:
            raise BodyError(_("\"%(field)s\" is given twice in the form: send it once")
                            % {"field": key[:30]}, key[:30])
        fields[key] = value
    return fields
