"""No word a person reads is left outside the catalogs: the templates, the scripts and the
modules that make words are scanned for English literals not marked for translation
(tests/i18n_literals.py says how each kind is read).

Every file of :data:`SCANNED` is scanned strictly. A finding is either a real miss (mark
it and translate it) or notation, an identifier or a name that is the same in every
language (add it to :data:`ALLOWED`, with the reason).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from casino.words.glossary import SECTIONS, TERMS
from tests.i18n_literals import (
    TWO_WORDS,
    Literal,
    literals,
    python_literals,
    template_literals,
)
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


#: Why the move helper's rewording of the position codec's reasons stays English.
POSITION_WORDS = ("the move helper's rewording of the position codec's English reason (its "
                  "JSON keys put in words); the codec's reasons are English, and the "
                  "helper's own checks, translated, come before it")

#: Why the English glossary document's own words stay English.
GLOSSARY_DOC = ("docs/glossary.md, the English glossary, generated in English (its words "
                "in the three languages are under each entry)")

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
    ("cli/language.py", "command line", "the catalog's context of typer's own words, an "
     "identifier"),
    ("web/phrases.py", "chat phrase", "the catalog's context of the quick phrases, an "
     "identifier"),
    ("web/language.py", "Accept-Language, Cookie", "HTTP header names (Vary)"),
    ("tui/plain.py", "log all", "a command typed at the prompt: commands stay English"),
    ("play/console.py", "tab: complete", "a readline key binding, not words"),
    ("play/console.py", "set enable-bracketed-paste off", "a readline setting, not words"),
    ("words/svg.py", "'DejaVu Sans','Liberation Sans',Arial,Helvetica,sans-serif",
     "the cards' drawings' font list (CSS font names), not words"),
    ("words/svg.py", "translate({…} {…}) rotate(180) translate({…} {…}) scale({…})",
     "an SVG transform of a drawn suit, not words"),
    ("words/svg.py", "translate({…} {…}) scale({…})", "an SVG transform of a drawn suit, "
     "not words"),
    ("words/svg.py", "{…} is not a card id (0..51)", "a developer's message: a card id out "
     "of range is the program's mistake (the drawings' route reads the card's text first)"),
    ("teach/lesson.py", "take build", "a lesson's kind of step, a code (its words: "
     "_kind_name, the step's title)"),
    ("teach/lesson.py", "free play", "a lesson's kind of step, a code (its words: the "
     "step's title)"),
    ("teach/lesson.py", "    {…}: lesson_seed {…}", "a developer's tool (``python -m "
     "casino.teach.lesson``) printing the presets' seeds for the code"),
    ("teach/review.py", "about as good", "a review's verdict, a code kept in the stored "
     "review (its words: grade_words)"),
    ("teach/review.py", "last deal", "a review's kind, a code kept in the stored review "
     "(its words: the report's pN_('review kind', ...))"),
    ("engine/explain.py", "{…} is not a move", "a developer's message: why_illegal given "
     "something that is not a Move is the program's mistake"),
    ("words/narrate.py", "point cards", "the English default of a Tally made by hand; "
     "tally() gives the translated point_cards_label"),
    ("words/guide.py", "Qd x Ts+2s", "a worked deal's move in notation, the same in every "
     "language"),
    ("words/guide.py", " --lang {…}", "the generated guide's header comment: the command "
     "that made it"),
    ("words/guide.py", "`casino rules {…}` · `casino play --rules {…}`", "commands typed at "
     "the terminal, which stay English"),
    ("words/glossary.py", "The words players meet in the games here, in plain words. Each "
     "entry says which rulesets use the word, and under what name, and links to the section "
     "of [rules.md](rules.md) that states the rule; under each word are its Finnish and "
     "Swedish names. `casino glossary WORD` prints an entry (`--lang fi` or `sv`: in "
     "Finnish or Swedish), the web game serves this list at `/glossary`, and the terminal "
     "game shows the words of the ruleset being played on its help screen (F1).",
     GLOSSARY_DOC),
    ("words/glossary.py", "Used in: {…}.", GLOSSARY_DOC),
    *(("words/glossary.py", word, "the glossary's English word of an entry, a key to "
       "find it (BY_WORD) for the web game's labels; shown by shown_own_name")
      for word in ("last capture", "most cards", "most spades", "big casino",
                   "little casino")),
    *(("words/glossary.py", heading, "a heading of docs/rules.md (English), whose words "
       "make the anchor a glossary entry links to") for heading in SECTIONS.values()
      if TWO_WORDS.search(heading)),
    *(("words/glossary.py", form, "an English spelling of a glossary word: it finds the "
       "entry in English text and in a word typed to `casino glossary` (translated text "
       "is matched by the translated words)") for term in TERMS for form in term.forms
      if TWO_WORDS.search(form)),
    ("tools/helper.py", "your hand", POSITION_WORDS),
    ("tools/helper.py", "table item {…}", POSITION_WORDS),
    ("tools/helper.py", "you own", POSITION_WORDS),
    ("tools/helper.py", " but holds no ", POSITION_WORDS),
    ("tools/helper.py", " but hold no ", POSITION_WORDS),
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
    *(("web/messages.py", text, "the API's refusal of a request body, English as its schema "
       "(or a pattern of pydantic's English it rewords)") for text in (
        " or instance of [A-Za-z]+", "the request",
        "{…} is a JSON object, as docs/api.schema.json says", "a valid dictionary",
        "The messages a client sends over the game WebSocket (/ws/<id>)",
        "The messages the server sends over the game WebSocket (/ws/<id>)")),
    *((path, text, "an HTTP header's value or a page's markup, not words") for path, text in (
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
    ("tools/scorepad.py", "{…}.takers: {…}", "a JSON field's path (language-neutral) before "
     "the card reader's own translated refusal"),
    ("tools/scorepad.py", "rules: {…}", "a JSON key (language-neutral) before the rules "
     "reader's own refusal"),
    ("tools/scorepad.py", "a round must be a RoundEntry, not {…}", "a developer's message: "
     "a round of another type passed by code is the program's mistake"),
    ("tools/scorepad.py", "rules must be a Rules value", "a developer's message: rules of "
     "another type passed by code is the program's mistake"),
    ("play/session.py", "Player {…}", "a default name as the record keeps it (English in "
     "every record); shown translated by casino.play.names.shown_name"),
    *((path, "casino: {…}", "the program's name before its message (the message is "
       "translated)") for path in ("cli/__init__.py", "cli/helper.py", "cli/scorepad.py")),
    ("cli/__init__.py", "casino {…}", "the program's name and its version number"),
    ("cli/__init__.py", "--name: {…}", "an option's name, typed as it is, before the "
     "translated refusal"),
    ("cli/__init__.py", "{…} ms", "a time with its SI unit's symbol, the same in every "
     "language"),
    ("tools/scorepad.py", "a score pad", "what the engine's JSON reader (engine/codec.py) "
     "names in its own refusals, which are English"),
)


def scanned_files() -> list[str]:
    """Each file of :data:`SCANNED`, by its path under ``src/casino``."""
    return sorted({str(p.relative_to(SRC)) for pattern in SCANNED for p in SRC.glob(pattern)
                   if p.name != "__init__.py" or p.read_text(encoding="utf-8").strip()})


def allowed(found: Literal) -> bool:
    """True when ``found`` is on :data:`ALLOWED`."""
    return any(where in ("*", found.path) and text == found.text
               for where, text, _why in ALLOWED)


@pytest.mark.parametrize("name", scanned_files())
def test_no_unmarked_words(name: str) -> None:
    """Each word a person reads in a translated file is marked for translation."""
    found = [f for f in literals(SRC / name, name) if not allowed(f)]
    assert found == [], "\n".join(f"{f.path}:{f.line}: {f.text!r} ({f.why})" for f in found)


def test_every_allowance_is_used() -> None:
    """An allowance nothing needs any more is taken out (it would hide a later miss)."""
    found = [f for name in scanned_files() for f in literals(SRC / name, name)]
    unused = [(where, text) for where, text, _why in ALLOWED
              if not any(where in ("*", f.path) and text == f.text for f in found)]
    assert unused == []


def test_every_place_that_makes_words_is_scanned() -> None:
    """Each kind of source a person's words come from is in the scan: every template and
    script, the terminal's, the command line's, the lessons', the engine's wording and
    the web server's modules (a glob that matched nothing would scan nothing)."""
    files = scanned_files()
    for name in ("web/templates/game.html", "web/templates/scorepad.html",
                 "web/static/game.js", "web/static/replay.js", "tui/plain.py",
                 "tui/viewer.py", "cli/__init__.py", "teach/hint.py", "words/narrate.py",
                 "engine/explain.py", "tools/scorepad.py", "web/rooms.py",
                 "web/accounts/service.py", "web/routes/socket.py"):
        assert name in files, name
    assert len(files) > 150, len(files)


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


def test_the_scanner_skips_a_regular_expression_but_not_words_beside_it() -> None:
    """A pattern matching another program's English (``No such option: (?P<name>\\S+)``)
    is not words to translate; a sentence is, even with a stop at its end."""
    source = ('''ERRORS = ((r"No such option: (?P<name>\\S+)", 1), (r"Missing command\\.", 2))\n'''
              '''SAID = "No such option here."\n''')
    found = [(f.line, f.text) for f in python_literals("m.py", source)]
    assert found == [(2, "No such option here.")]


def test_the_scanner_reads_markup_for_its_words_only() -> None:
    """A literal of markup (an SVG drawing) is read for its text and its read attributes
    (a title, an ``aria-label``), not for its tags, its drawing's attributes or its
    comments; a ``{…}`` filled in is no word."""
    source = '''
def draw(name: str, label: str) -> str:
    back = ('<svg viewBox="0 0 10 10" role="img" aria-label="back of a card">'
            '<title>back of a card</title><path transform="rotate(180) scale(2)"/></svg>')
    face = (f'<svg role="img" aria-label="{name}"><title>{name}</title>'
            f'<text font-family="DejaVu Sans, sans-serif">{label}</text></svg>')
    note = "<!-- Generated from this file: edit it, not that one. -->"
    return back + face + note
'''
    found = [(f.line, f.text, f.why) for f in python_literals("m.py", source)]
    assert found == [(3, "back of a card", "markup's aria-label attribute"),
                     (3, "back of a card", "markup's text")]


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
