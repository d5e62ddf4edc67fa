"""Words a person reads that are not marked for translation: the scanner behind
tests/test_i18n_literals.py.

Three kinds of source, each read for what it shows a person:

- a template (``web/templates/*.html``): its text and its ``title``, ``placeholder``,
  ``aria-label`` and ``alt`` attributes (and the ``value`` of a button's input), once
  Jinja's expressions, tags, ``{% trans %}`` blocks and comments, and the scripts and
  styles, are taken out;
- a script (``web/static/*.js``, read by tests/i18n_script_literals.py): each string
  literal that becomes words on the page (given to ``textContent``, ``title``,
  ``placeholder``, ``aria-label``, ``alt``, the text of ``CasinoDom.el``/``fill``/``add``,
  ``showStatus``, ``toast``, an alert), and any literal that reads as an English
  sentence wherever it is, unless it is inside ``CasinoI18n``'s ``_()`` or ``ngettext()``;
- a Python module: each string literal holding two English words or more (or one, when
  it is given to a widget, a title or a printed line), unless it is inside a gettext
  mark (``_``, ``ngettext``, ``pgettext``, ``npgettext``, ``pN_``, ``N_``), a docstring,
  a logging call, an exception meant for developers, an ``assert``, a dict's key, a
  comparison or an index; or the HTTP API's own documentation, English like its schema
  (``docs/api.schema.json``): a pydantic ``Field``'s ``description=`` and a body's
  ``WHAT``. A literal of markup (an SVG drawing: it opens with a tag) is read as a
  template is, for its text and its read attributes only.

A finding is a :class:`Literal`: the file, the line, the words and why they count.
The scanner is a fence, not a proof: it reads literals, not what the program does with
them; its allowlist (tests/test_i18n_literals.py) names each literal that is notation
or an identifier rather than words.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

#: A word of English: two letters or more (a lone "x" is notation: ``Td x 5h``).
WORD = re.compile(r"[A-Za-z][a-z]+(?:'[a-z]+)?")
#: Two words with only spaces or punctuation between: a phrase, not an identifier.
TWO_WORDS = re.compile(r"\b[A-Za-z][a-z]+[,;:]? +(?:[a-z]+ +)*[A-Za-z][a-z]+\b")


@dataclass(frozen=True)
class Literal:
    """Words found outside the catalog: where, what and why they count as words."""

    path: str
    line: int
    text: str
    why: str


def has_words(text: str) -> bool:
    """True when ``text`` holds a word of English (two letters or more)."""
    return WORD.search(text) is not None


# ----------------------------------------------------------------------
# Templates


#: The attributes a person reads (or hears): their words are words of the page.
READ_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
#: Inputs whose ``value`` is the words on the button.
BUTTON_INPUTS = ("button", "submit", "reset")
_JINJA = re.compile(r"{%-?\s*trans\b.*?endtrans\s*-?%}|{{.*?}}|{%.*?%}|{#.*?#}", re.S)
#: A block holding a class name or an identifier, not words (``{% block body_class %}``).
_NAME_BLOCK = re.compile(r"{%-?\s*block\s+\w*(?:class|id)\s*-?%}.*?{%-?\s*endblock\s*-?%}",
                         re.S)


class _Reader(HTMLParser):
    """Collects a template's text and read attributes, line by line."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str, str]] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note the read attributes; enter a script or style, whose text is not words."""
        values = dict(attrs)
        for name in READ_ATTRIBUTES:
            if values.get(name):
                self.found.append((self.getpos()[0], str(values[name]), f"{name} attribute"))
        if tag == "input" and values.get("type") in BUTTON_INPUTS and values.get("value"):
            self.found.append((self.getpos()[0], str(values["value"]), "a button's value"))
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        """Leave a script or style."""
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        """Note text outside scripts and styles."""
        if not self._skip and data.strip():
            self.found.append((self.getpos()[0], data.strip(), "text"))


def _blank(match: re.Match[str]) -> str:
    """A Jinja construct replaced by spaces, its newlines kept (the lines stay right)."""
    return " " + "\n" * match.group(0).count("\n")


#: Jinja's expressions and tags (not its comments, nor a translated block).
_JINJA_CODE = re.compile(r"{{.*?}}|{%(?!-?\s*(?:end)?trans\b).*?%}", re.S)
#: A call of a translation mark inside Jinja code, its arguments included.
_JINJA_MARK = re.compile(r"\b(?:_|gettext|ngettext|pgettext|npgettext)\("
                         r"(?:\"[^\"]*\"|'[^']*'|[^()\"']|\([^()]*\))*\)")
_JINJA_STRING = re.compile(r"\"([^\"]*)\"|'([^']*)'")


def _jinja_strings(source: str) -> list[tuple[int, str]]:
    """The string literals of the template's Jinja code outside translation marks that
    hold two English words (``plural(n, "rated game")``), with their lines."""
    found: list[tuple[int, str]] = []
    for match in _JINJA_CODE.finditer(source):
        code = _JINJA_MARK.sub(" ", match.group(0))
        line = source.count("\n", 0, match.start()) + 1
        for string in _JINJA_STRING.finditer(code):
            words = string.group(1) if string.group(1) is not None else string.group(2)
            if TWO_WORDS.search(words):
                found.append((line, words))
    return found


def template_literals(path: str, source: str) -> list[Literal]:
    """The words of a template that are outside its translation marks."""
    text = _NAME_BLOCK.sub(_blank, source)
    strings = [Literal(path, line, words, "a string in Jinja code")
               for line, words in _jinja_strings(text)]
    text = _JINJA.sub(_blank, text)
    reader = _Reader()
    reader.feed(text)
    reader.close()
    return [Literal(path, line, words, why) for line, words, why in reader.found
            if has_words(words)] + strings


# ----------------------------------------------------------------------
# Python


#: The translation marks of the Python code.
PY_MARKS = {"_", "gettext", "ngettext", "pgettext", "npgettext", "pN_", "N_"}
#: Calls whose words are a developer's: logging, warnings.
PY_DEVELOPER_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "warn",
                      "log"}
#: A regular expression (a named group, an escaped stop, bracket or class: ``\S+``):
#: the text it matches is another program's (typer's English errors, matched to be said
#: again in the language), never shown as it is.
PATTERN = re.compile(r"\(\?P<|\\[.()sSdw]")
#: A style sheet's rule (Textual's ``DEFAULT_CSS``): ``name: value;`` inside braces.
CSS_RULE = re.compile(r"{\s*\n?[^{}]*[-\w]+:\s*[^;{}]+;")
#: One word of a Rich or Textual style: an attribute, ``on``, a colour by hex or by one
#: of the standard colour names (``red``, ``bright_blue``, ``grey50``).
_STYLE_WORD = (r"(?:(?:not )?(?:bold|dim|italic|underline|reverse|strike|blink)|on|"
               r"#[0-9a-fA-F]{6}|(?:bright_)?(?:black|red|green|yellow|blue|magenta|cyan|"
               r"white)|grey\d{0,3}|default)")
#: A style of Rich or Textual (``"dim italic"``, ``"bold #ff7b72"``, ``"bold red"``), not
#: words.
STYLE = re.compile(rf"^{_STYLE_WORD}(?: {_STYLE_WORD})*$")
#: Exceptions whose message is a developer's, not a player's.
PY_DEVELOPER_ERRORS = {"ValueError", "TypeError", "KeyError", "RuntimeError",
                       "AssertionError", "NotImplementedError", "LookupError", "IndexError",
                       "AttributeError", "OSError", "ImportError"}
#: Calls whose arguments at these places (None: all) are shown to a person even as one
#: word: a widget's words, a key's description, a printed line, the game's messages.
PY_TEXT_CALLS: dict[str, tuple[int, ...] | None] = {
    "Static": (0,), "Label": (0,), "Button": (0,), "notify": (0,), "print": None,
    "write": (0,), "Option": (0,), "update": (0,), "Content": (0,), "styled": (0,),
    "Text": (0,), "Binding": (2,), "say": (0,)}
#: The web's error page (``web.pages.error(message, status, title)``): its message and
#: title are a person's, though the call is named as logging's ``error`` is.
PY_PAGE_ERROR = ("pages", "error", (0, 2))
PY_TEXT_KEYWORDS = {"title", "placeholder", "label", "description", "tooltip", "prompt",
                    "sub_title", "border_title", "help"}
PY_TEXT_ATTRIBUTES = {"title", "sub_title", "border_title", "border_subtitle", "tooltip"}
#: The HTTP API's documentation, English as its schema is: a pydantic ``Field``'s
#: ``description=`` keyword (the schema's words, and the English half of a refusal of a
#: request body, :func:`casino.web.messages.explain`), and the ``WHAT`` a body is named by.
PY_API_CALL, PY_API_KEYWORD, PY_API_NAME = "Field", "description", "WHAT"


#: A literal that is markup (an SVG drawing, an HTML comment): it opens with a tag.
MARKUP = re.compile(r"\s*<[A-Za-z!/]")


def markup_words(markup: str) -> list[tuple[str, str]]:
    """The words a person reads in a literal of markup, read as a template's are: its
    text and its read attributes (``title``, ``aria-label``, ...), not its tags, the other
    attributes (a path, a transform, a font list) nor its comments; each with why."""
    reader = _Reader()
    reader.feed(markup)
    reader.close()
    return [(words, why) for _line, words, why in reader.found if has_words(words)]


def _name_of(node: ast.expr) -> str:
    """A call's function's last name (``self.log.info`` -> ``info``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstrings' nodes."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


class _PyScanner(ast.NodeVisitor):
    """Walks a module noting each string literal with words outside the marks."""

    def __init__(self, path: str, skip: set[int]) -> None:
        self.path = path
        self.skip = skip
        self.found: list[Literal] = []
        self._sink: list[str] = []

    def _note(self, node: ast.AST, text: str, shown: str | None = None) -> None:
        """Note ``text`` (reported as ``shown``) when it reads as words: two words, or
        any at a sink (a style sheet's rules are not words; markup is read as a
        template is, :func:`markup_words`)."""
        line = getattr(node, "lineno", 0)
        if CSS_RULE.search(text) or STYLE.match(text) or PATTERN.search(text):
            return
        if MARKUP.match(shown or text):
            self.found += [Literal(self.path, line, words, f"markup's {why}")
                           for words, why in markup_words(shown or text)]
            return
        if self._sink and self._sink[-1] and has_words(text):
            why = f"given to {self._sink[-1]}"
        elif TWO_WORDS.search(text):
            why = "English words"
        else:
            return
        self.found.append(Literal(self.path, line, shown or text, why))

    def visit_Constant(self, node: ast.Constant) -> None:
        """A string literal: noted unless it is a docstring."""
        if isinstance(node.value, str) and id(node) not in self.skip:
            self._note(node, node.value)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        """An f-string: its fixed parts, with each ``{...}`` as a word (a name, a number,
        a card: ``f"{n} players"`` is two words), shown as ``{…}``."""
        text = "".join(str(v.value) if isinstance(v, ast.Constant) else "Thing"
                       for v in node.values)
        parts = [v for v in node.values if isinstance(v, ast.Constant)]
        if any(has_words(str(v.value)) for v in parts):
            self._note(node, text, text.replace("Thing", "{…}"))
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                self.visit(value.value)

    def visit_Call(self, node: ast.Call) -> None:
        """A call: skipped when a mark or a developer's; a sink when it shows words."""
        name = _name_of(node.func)
        places = PY_TEXT_CALLS.get(name, ())
        if isinstance(node.func, ast.Attribute) and (_name_of(node.func.value), name) \
                == PY_PAGE_ERROR[:2]:
            name, places = "pages.error", PY_PAGE_ERROR[2]
        if name in PY_MARKS or name in PY_DEVELOPER_CALLS or name in PY_DEVELOPER_ERRORS:
            for keyword in node.keywords if name not in PY_MARKS else []:
                self.visit(keyword.value)
            return
        self.visit(node.func)
        for index, arg in enumerate(node.args):
            shown = places is None or index in places
            self._visit_as(arg, f"{name}()" if shown else None)
        for keyword in node.keywords:
            if name == PY_API_CALL and keyword.arg == PY_API_KEYWORD:
                continue
            shown = keyword.arg in PY_TEXT_KEYWORDS
            self._visit_as(keyword.value, f"{keyword.arg}=" if shown else None)

    def _visit_as(self, node: ast.AST, sink: str | None) -> None:
        """Visit ``node`` as the words of ``sink`` (None: as no words, whatever the call
        it is given to: ``Static(Content.styled(text, "bold"))``'s style)."""
        self._sink.append(sink or "")
        try:
            self.visit(node)
        finally:
            self._sink.pop()

    def visit_Assign(self, node: ast.Assign) -> None:
        """An assignment to a title is a sink."""
        shown = any(isinstance(t, ast.Attribute) and t.attr in PY_TEXT_ATTRIBUTES
                    for t in node.targets)
        self._visit_as(node.value, "a title" if shown else None)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        """A body's ``WHAT`` is the API's documentation; any other value is read."""
        if node.value is not None and not (isinstance(node.target, ast.Name)
                                           and node.target.id == PY_API_NAME):
            self.visit(node.value)

    def visit_Raise(self, node: ast.Raise) -> None:
        """A developer's exception is skipped (its message is for the code's readers)."""
        exc = node.exc
        if isinstance(exc, ast.Call) and _name_of(exc.func) in PY_DEVELOPER_ERRORS:
            return
        self.generic_visit(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        """An assertion's message is a developer's."""
        self.visit(node.test)

    def visit_Dict(self, node: ast.Dict) -> None:
        """A dict's keys are identifiers; its values are read."""
        for value in node.values:
            self.visit(value)

    def visit_Compare(self, node: ast.Compare) -> None:
        """A comparison's strings are identifiers (``state == "turn"``)."""

    def visit_Subscript(self, node: ast.Subscript) -> None:
        """An index is an identifier (``words["sweep"]``)."""
        self.visit(node.value)


def python_literals(path: str, source: str) -> list[Literal]:
    """The words of a Python module that are outside its translation marks."""
    tree = ast.parse(source)
    scanner = _PyScanner(path, _docstrings(tree))
    scanner.visit(tree)
    return scanner.found


def literals(path: Path, shown_as: str) -> list[Literal]:
    """The unmarked words of the file at ``path`` (named ``shown_as`` in findings), read
    by its kind."""
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".html":
        return template_literals(shown_as, source)
    if path.suffix == ".js":
        from tests.i18n_script_literals import script_literals  # it builds on this module

        return script_literals(shown_as, source)
    return python_literals(shown_as, source)
