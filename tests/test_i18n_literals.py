"""No word a person reads is left outside the catalogs: the templates, the scripts and the
modules that make words are scanned for English literals not marked for translation
(tests/i18n_literals.py says how each kind is read).

Every file of :data:`SCANNED` is scanned strictly, except those in :data:`PENDING`, the
ones whose translation is still to come. A finding is either a real miss (mark it and
translate it) or notation, an identifier or a name that is the same in every language
(add it to :data:`ALLOWED`, with the reason).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.i18n_literals import Literal, literals, python_literals, template_literals
from tests.i18n_script_literals import script_literals

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "casino"

#: The files whose words reach a person: the web's templates and scripts, and the
#: modules that make the words of the terminal, the command line, the lessons, the
#: engine's explanations and the web's pages (the rest of the code speaks to developers).
SCANNED = (
    "web/templates/*.html", "web/static/*.js",
    "words/*.py", "tui/*.py", "teach/*.py", "play/*.py", "cli/*.py", "tools/*.py",
    "engine/wording.py", "engine/cards.py", "engine/explain.py", "engine/rules.py",
    "engine/presets.py", "bots/levels.py",
    "web/table_words.py", "web/phrases.py", "web/language.py", "web/views.py",
    "web/errors.py", "web/routes/*.py", "web/*.py", "web/accounts/*.py",
)

#: The files not yet translated, so not yet scanned. THIS LIST MUST SHRINK TO EMPTY:
#: when a file's words are translated, take it out of here, and this test then holds
#: it to it (each finding marked, or allowlisted with a reason).
PENDING = frozenset({
    # The rules, the guide, the glossary and the narration of moves.
    "words/glossary.py", "words/guide.py", "words/narrate.py",
    "words/svg.py", "engine/rules.py", "engine/explain.py",
    # The engine's refusals (a card that is not one).
    "engine/cards.py",
    # The lessons, the hints and the review.
    "teach/lesson.py", "teach/review.py",
    "tui/review.py", "tui/replay.py", "tui/viewer.py",
    # The command line, the score pad and the helper, the computer's levels.
    "cli/__init__.py", "cli/helper.py", "cli/scorepad.py", "cli/scorepad_term.py",
    "tools/helper.py", "tools/scorepad.py", "play/session.py",
})

#: Why a body's field's words stay English (tests/i18n_literals.py skips the rest).
API_DOCUMENTATION = ("the HTTP API's documentation of a body's field, English as its schema "
                     "(the refusal of a request body is worded in English)")
#: Literals that are not words to translate: (file, or "*" for any, the literal as the
#: scanner reports it, why it stays as it is).
ALLOWED: tuple[tuple[str, str, str], ...] = (
    ("*", "Casino", "the game's and the site's name, the same in every language"),
    ("*", "♠ Casino", "the site's name with its mark"),
    ("*", "· Casino", "the site's name after a page's title"),
    ("web/static/game.js", "   · Casino", "the site's name after the title the script sets"),
    ("web/templates/game.html", "Esc", "the name of a key on the keyboard"),
    ("web/phrases.py", "chat phrase", "the catalog's context of the quick phrases, an "
     "identifier"),
    ("tui/screens.py", "keys help", "the catalog's context of the keys' help lines, an "
     "identifier"),
    ("web/language.py", "Accept-Language, Cookie", "HTTP header names (Vary)"),
    ("tui/plain.py", "log all", "a command typed at the prompt: commands stay English"),
    ("play/console.py", "tab: complete", "a readline key binding, not words"),
    ("play/console.py", "set enable-bracketed-paste off", "a readline setting, not words"),
    ("tui/start.py", "You", "the player's default name, kept in the record as it is"),
    ("web/timecontrol.py", "{…} min", "a time's unit symbol, the same in Finnish and Swedish"),
    *((path, text, "a seat's default name, kept in the record (and told to every reader) "
       "as it is") for path, text in (
        ("web/rooms.py", "Player {…}"), ("web/rooms.py", "Computer {…}"),
        ("web/chat.py", "Guest {…}"), ("web/accounts/store.py", "Former player"))),
    *((path, text, "an identifier: the kind of a counted, hashed or logged key, never shown")
      for path, text in (
        ("web/rooms.py", "every room"), ("web/rooms.py", "new games"),
        ("web/chat.py", "chat name"), ("web/chat.py", "chat reports"),
        ("web/chat.py", "chat settings"), ("web/chatstore.py", "chat game"),
        ("web/pairing.py", "pairing asks"), ("web/tools.py", "score pads"),
        ("web/turns.py", "turn {…}"),
        ("web/reviews.py", "samples={…} seed={…} depth={…} nodes={…} review={…}"),
        ("web/daily.py", "account {…}"), ("web/daily.py", "guest {…}"),
        ("web/accounts/service.py", "host {…}"), ("web/accounts/service.py", "account {…}"),
        ("web/accounts/service.py", "network {…}"), ("web/accounts/service.py", "signup {…}"),
        ("web/accounts/passwords.py", "casino recovery "), ("web/limits.py", "network of {…}"),
        ("web/slow.py", "WebSocket handshakes refused"))),
    *(("web/accounts/profiles.py", text, "the rating graph's SVG markup: its words (the "
       "aria-label) are translated apart; a point's title is a date and numbers")
      for text in (
        '<circle class="rating-point" cx="{…}" cy="{…}" r="3"><title>{…}: {…} ± {…}</title>'
        '</circle>',
        '<svg class="rating-graph" viewBox="0 0 {…} {…}" role="img" aria-label="{…}">'
        '<polygon class="rating-band" points="{…}"/><polyline class="rating-line" '
        'points="{…}" fill="none"/>{…}<text class="rating-axis" x="2" y="{…}">{…}</text>'
        '<text class="rating-axis" x="2" y="{…}">{…}</text></svg>')),
    *(("web/messages.py", text, "the API's refusal of a request body, English as its schema "
       "(or a pattern of pydantic's English it rewords)") for text in (
        " or instance of [A-Za-z]+", "the request",
        "{…} is a JSON object, as docs/api.schema.json says", "a valid dictionary",
        "The messages a client sends over the game WebSocket (/ws/<id>)",
        "The messages the server sends over the game WebSocket (/ws/<id>)")),
    *((path, text, "an HTTP header's value or a page's markup, not words") for path, text in (
        ("web/routes/context.py", "<!doctype html><meta charset=utf-8><title>Casino</title>"),
        ("web/routes/drawings.py", "public, max-age=86400"),
        ("web/routes/pages.py", "text/plain; charset=utf-8"),
        ("web/routes/pages.py", "attachment; filename=\"casino-{…}.rec\""))),
    *(("web/guard.py", text, "a Content-Security-Policy's directive, not words")
      for text in (" ws://{…} wss://{…}", "connect-src {…}")),
    *((path, text, "the program's name (before its words on the command line), the same in "
       "every language") for path, text in (
        ("web/app.py", "casino"), ("web/app.py", "casino: "), ("web/cli.py", "casino: {…}"))),
    *((path, text, "a developer's words: an internal exception's message, never shown")
      for path, text in (
        ("web/serving.py", "the whole"),
        ("web/store.py", "game {…} is no longer at version {…}"),
        ("web/fairqueue.py", "{…} running or waiting"))),
    *((path, text, API_DOCUMENTATION) for path, text in (
    ("web/bodies.py", "\"rules\" is a preset's name (or an alias): choose the rules among {…}"),
    ("web/bodies.py", "\"players\" is how many seats the table has: a whole number, 2 to {…}"),
    ("web/bodies.py", "\"level\" is the computer's: the levels are {…}"),
    ("web/bodies.py", "\"pad\" is the score pad: its JSON object (format casino-scorepad/1)"),
    ("web/bodies.py", "The bodies of the web game's JSON API (/api/)"),
    ("web/bodies.py", "Each route's request body (null: none) and answer, in routes; the "
     "models in $defs. Requests refuse any other field."),
    ("web/accounts/forms.py", "\"name\" is the account's name"),
    ("web/accounts/forms.py", "\"password\" is the account's password"),
    ("web/accounts/forms.py", "\"code\" is one of the account's recovery codes, as "
     "abcd-efgh-jkmn-pqrs"),
    ("web/accounts/forms.py", "\"csrf\" is the form's token: send the form from this "
     "site's page"),
    ("web/accounts/forms.py", "\"claim\" is \"on\" to make this browser's games the "
     "account's"),
    )),
)


def scanned_files() -> list[str]:
    """Each file of :data:`SCANNED`, by its path under ``src/casino``."""
    return sorted({str(p.relative_to(SRC)) for pattern in SCANNED for p in SRC.glob(pattern)
                   if p.name != "__init__.py" or p.read_text(encoding="utf-8").strip()})


def allowed(found: Literal) -> bool:
    """True when ``found`` is on :data:`ALLOWED`."""
    return any(where in ("*", found.path) and text == found.text
               for where, text, _why in ALLOWED)


STRICT = [name for name in scanned_files() if name not in PENDING]


@pytest.mark.parametrize("name", STRICT)
def test_no_unmarked_words(name: str) -> None:
    """Each word a person reads in a translated file is marked for translation."""
    found = [f for f in literals(SRC / name, name) if not allowed(f)]
    assert found == [], "\n".join(f"{f.path}:{f.line}: {f.text!r} ({f.why})" for f in found)


def test_the_pending_list_names_only_files_that_are_scanned() -> None:
    """A file gone or renamed leaves the list: it cannot shelter a file by a stale name."""
    assert sorted(PENDING - set(scanned_files())) == []


def test_every_pending_file_still_has_words_to_translate() -> None:
    """A file whose words are all marked now is taken off :data:`PENDING` (so that the
    list shrinks as the translations arrive, and the file is held to them)."""
    done = [name for name in sorted(PENDING)
            if not [f for f in literals(SRC / name, name) if not allowed(f)]]
    assert done == [], f"translated, take off PENDING: {done}"


def test_every_allowance_is_used() -> None:
    """An allowance nothing needs any more is taken out (it would hide a later miss)."""
    found = [f for name in STRICT for f in literals(SRC / name, name)]
    unused = [(where, text) for where, text, _why in ALLOWED
              if not any(where in ("*", f.path) and text == f.text for f in found)]
    assert unused == []


def test_the_translated_files_are_a_good_part_of_the_whole() -> None:
    """The strict part holds the pages and terminal screens translated so far."""
    for name in ("web/templates/game.html", "web/templates/lobby.html",
                 "web/templates/base.html", "web/static/game.js", "web/static/chat.js",
                 "web/static/lobby.js", "tui/plain.py", "tui/start.py", "web/phrases.py"):
        assert name in STRICT, name


# ----------------------------------------------------------------------
# The scanner itself: it finds what is unmarked and passes what is marked.


def test_the_scanner_finds_unmarked_words_in_a_template() -> None:
    source = """{% extends "base.html" %}{% block body_class %}game wide{% endblock %}
<h1>{{ _("Lobby") }}</h1><p title="Go home">Play now {{ name }}</p>
<input type="submit" value="Send it"><input type="text" value="ann">
{% trans %}Marked words{% endtrans %}<script>const s = "not words";</script>
<button aria-label="{{ _('Close') }}">×</button>
<p>{{ plural(n, "rated game") }} {{ _("%(n)s more games", n=count) }} {{ x or "the rest" }}</p>
{{ _("The messages before it (%(count)s)", count=r.context | length) }}"""
    found = [(f.line, f.text) for f in template_literals("t.html", source)]
    assert found == [(2, "Go home"), (2, "Play now"), (3, "Send it"), (6, "rated game"),
                     (6, "the rest")]


def test_the_scanner_finds_unmarked_words_in_a_script() -> None:
    source = """
const { _ } = window.CasinoI18n;
$("status").textContent = "Your turn";
$("status").textContent = _("Your turn");
el("button", { class: "button primary", text: "Rematch", title: _("Play again") });
add(box, el("p", { class: "muted" }, "No points", _("Marked")));
showStatus(ok ? _("Saved.") : "Not saved.", "error");
if (state === "round over") toast(_("Over"), "error");
const sentence = "The game is over.";
const marked = _("The game is over.");
node.title = label + " taken";
fill(list, ngettext("one card", "%(n)s cards", n));
button.setAttribute("aria-label", "Close the dialog");
const selector = "#hand .hand-card:not(.blocked)";
"""
    found = [(f.line, f.text) for f in script_literals("t.js", source)]
    assert found == [(3, "Your turn"), (5, "Rematch"), (6, "No points"),
                     (7, "Not saved."), (9, "The game is over."), (11, " taken"),
                     (13, "Close the dialog")]


def test_the_scanner_finds_unmarked_words_in_python() -> None:
    source = '''"""A module's docstring: never words to translate."""
import logging
from casino.i18n import _, pN_

LABEL = pN_("key", "Start a new game")
KINDS = {"sweep": "taken all", "trail": 1}


def show(n: int) -> str:
    """Its docstring."""
    logging.getLogger(__name__).warning("a developer reads this")
    if n < 0:
        raise ValueError("n must not be negative here")
    assert n < 100, "far too many cards"
    if KINDS["a key"] == "the state name":
        print(_("Marked words: %(n)s") % {"n": n})
    yield Static(Content.styled(_("A new game"), "bold"), classes="start-heading")
    yield Button("Quit")
    log.error("a developer's error")
    web.pages.error("there is no such game", 404, "Not found")
    return f"{n} cards left in the stock"
'''
    found = [(f.line, f.text) for f in python_literals("m.py", source)]
    assert found == [(6, "taken all"), (18, "Quit"), (20, "there is no such game"),
                     (20, "Not found"), (21, "{…} cards left in the stock")]


def test_the_scanner_leaves_the_http_apis_documentation_in_english() -> None:
    source = '''
class NewGame(Body):
    WHAT: ClassVar[str] = "the new game request"
    LABEL: ClassVar[str] = "the shown label"
    mode: str = Field("computer", description="mode: computer or friends")
    name: str = Field(None, title="the player's name")
    other = Widget(description="a shown description")
'''
    found = [(f.line, f.text) for f in python_literals("m.py", source)]
    assert found == [(4, "the shown label"), (6, "the player's name"),
                     (7, "a shown description")]
