"""The languages a person can read the project in, and the words in each.

English is the source language: every message is written in English in the code, the
templates and the scripts, and that English is the message's id. Finnish and Swedish
come from gettext catalogs shipped in the package
(``casino/locale/<lang>/LC_MESSAGES/casino.mo``, compiled from the ``.po`` beside them
by ``make i18n``); English has no catalog, so its words are the ids themselves.

The language in force is a context variable: each asyncio task (so each web request)
and each thread has its own, set by :func:`using` or :func:`set_language`. The
functions :func:`_`, :func:`ngettext` and :func:`pgettext` translate into it. Only the
standard library is used, so that the engine may mark its words too without a
dependency; Babel is a tool of the developers (extraction and compiling), never of the
running program.
"""

from __future__ import annotations

import gettext as _gettext
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources

#: The source language, the default, and the one whose words are the messages' ids.
DEFAULT = "en"

#: Each language's code and its own name for itself, as the language switch shows it.
LANGUAGES: dict[str, str] = {"en": "English", "fi": "Suomi", "sv": "Svenska"}

#: The package holding the catalogs (``<package>/locale/``), and the gettext domain, the
#: catalogs' file name: the package's own name, whatever it is installed as.
PACKAGE = __name__.partition(".")[0]
DOMAIN = PACKAGE

_CURRENT: ContextVar[str] = ContextVar("casino_language", default=DEFAULT)


def known(lang: str | None) -> str | None:
    """``lang``'s code if it is one of :data:`LANGUAGES` (its region and case ignored:
    ``fi-FI``, ``sv_SE.UTF-8``, ``FI``), else None."""
    if not lang:
        return None
    code = re.split(r"[-_.@]", lang.strip(), maxsplit=1)[0].lower()
    return code if code in LANGUAGES else None


@cache
def translation(lang: str) -> _gettext.NullTranslations:
    """The catalog of ``lang``, read once from the package; for English (and a language
    without a catalog) the null translation, which gives every message its id."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return _gettext.NullTranslations()
    path = resources.files(PACKAGE) / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with path.open("rb") as handle:
            return _gettext.GNUTranslations(handle)
    except FileNotFoundError:
        return _gettext.NullTranslations()


def current() -> str:
    """The language in force in this task or thread."""
    return _CURRENT.get()


def set_language(lang: str | None) -> str:
    """Make ``lang`` (English when unknown) the language of this task or thread from now
    on; returns the code set. A request or a command sets it once at its start."""
    code = known(lang) or DEFAULT
    _CURRENT.set(code)
    return code


@contextmanager
def using(lang: str | None) -> Iterator[str]:
    """Translate into ``lang`` inside the ``with`` block, then back to what was in force."""
    token = _CURRENT.set(known(lang) or DEFAULT)
    try:
        yield _CURRENT.get()
    finally:
        _CURRENT.reset(token)


def _(message: str) -> str:
    """``message`` in the language in force."""
    return translation(_CURRENT.get()).gettext(message)


def gettext(message: str) -> str:
    """:func:`_` by its long name, for Jinja's i18n extension."""
    return _(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the count ``n`` in the language in force
    (each catalog's own plural rule)."""
    return translation(_CURRENT.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in force, as meant in ``context`` (one English word
    that two languages say differently)."""
    return translation(_CURRENT.get()).pgettext(context, message)


def pN_(context: str, message: str) -> str:
    """``message`` unchanged: marks a constant for extraction within ``context``, to be
    translated where it is shown (``pgettext(context, message)``)."""
    del context
    return message


def N_(message: str) -> str:
    """``message`` unchanged: marks a constant for extraction (no context), to be
    translated where it is shown (``_(message)``): a command line's help, declared at
    import before any language is chosen."""
    return message


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` within ``context``."""
    return translation(_CURRENT.get()).npgettext(context, singular, plural, n)


_RANGE = re.compile(r"^\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*"
                    r"(?:;\s*q\s*=\s*([0-9.]+))?\s*$")


def negotiate(accept_language: str | None) -> str:
    """The language to answer in for an ``Accept-Language`` header (RFC 9110, 12.5.4):
    the known language of the highest quality, the earlier one among equals; English for
    none, an empty or a malformed header, or ``*``."""
    best, best_q = DEFAULT, 0.0
    for part in (accept_language or "")[:1000].split(",")[:50]:
        match = _RANGE.match(part)
        if not match:
            continue
        try:
            quality = float(match.group(2)) if match.group(2) else 1.0
        except ValueError:
            continue
        code = known(match.group(1))
        if code and 0 < quality <= 1 and quality > best_q:
            best, best_q = code, quality
    return best


def from_environment(environ: dict[str, str] | None = None) -> str:
    """The language of the terminal, looked for as gettext looks: ``LANGUAGE`` (a
    colon-separated list of preferences: its first known one), then the first of
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set, which decides (English for
    ``C``, ``POSIX`` or a language without a catalog). A ``LANGUAGE`` naming no known
    language is passed over, as GNU gettext passes over languages it has no catalog for."""
    import os

    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if not value:
            continue
        for item in value.split(":"):
            code = known(item)
            if code:
                return code
        if name != "LANGUAGE":
            return DEFAULT
    return DEFAULT


#: Each language's decimal sign and thousands separator (Finnish and Swedish: a comma,
#: and a no-break space that keeps the number on one line).
_NUMBERS: dict[str, tuple[str, str]] = {"en": (".", ","), "fi": (",", "\u00a0"),
                                        "sv": (",", "\u00a0")}


def format_number(value: float, decimals: int = 0, lang: str | None = None) -> str:
    """``value`` with ``decimals`` decimals, written as ``lang`` (the language in force
    when None) writes numbers: ``1,234.5`` in English, ``1 234,5`` in Finnish and
    Swedish; a minus sign stays a hyphen-minus, as people type it."""
    point, group = _NUMBERS[known(lang) or _CURRENT.get()]
    text = f"{value:,.{decimals}f}"
    return text.replace(",", "\0").replace(".", point).replace("\0", group)
