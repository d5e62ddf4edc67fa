"""The scripts' part of the unmarked words' scan (tests/i18n_literals.py): a small
tokenizer of JavaScript, and the reading of each string literal for what it is to the
page.

A literal is words when it is given to something that shows words (``textContent``, a
title, a placeholder, an ``aria-label``, ``alt``, the text of ``CasinoDom.el``/``fill``/
``add``, ``showStatus``, ``toast``, an alert), found by walking back from it to the
start of its expression; or, wherever it is, when it reads as an English sentence. A
literal inside ``CasinoI18n``'s ``_()`` or ``ngettext()`` is marked, a compared one or an
object's key an identifier.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.i18n_literals import Literal, has_words


@dataclass(frozen=True)
class _Token:
    """A token of a script: ``kind`` is "str" (a string or template literal, ``text``
    its words with each ``${...}`` as a space), "name", "punct" or "num"."""

    kind: str
    text: str
    line: int


_PUNCT = ("=>", "===", "!==", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "...",
          "+=", "-=", "*=", "/=", "++", "--")
#: After these a ``/`` starts a regular expression, not a division.
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {"return", "typeof", "case", "of", "in", "=>",
                                              "&&", "||", "??", "===", "!==", "==", "!="}


def _string_end(src: str, i: int, quote: str) -> int:
    """The index after the string literal starting at ``i`` (quote ``'`` or ``"``)."""
    j = i + 1
    while j < len(src) and src[j] != quote:
        j += 2 if src[j] == "\\" else 1
    return j + 1


def _template_end(src: str, i: int) -> tuple[int, str]:
    """The index after the template literal starting at ``i``, and its text with each
    ``${...}`` as a space."""
    j, depth = i + 1, 0
    out: list[str] = []
    while j < len(src):
        c = src[j]
        if depth == 0 and c == "`":
            return j + 1, "".join(out)
        if c == "\\":
            out.append(src[j:j + 2] if depth == 0 else "")
            j += 2
            continue
        if depth == 0 and src.startswith("${", j):
            depth, j = 1, j + 2
            out.append(" ")
            continue
        if depth:
            depth += {"{": 1, "}": -1}.get(c, 0)
        else:
            out.append(c)
        j += 1
    return j, "".join(out)


def _regex_end(src: str, i: int) -> int:
    """The index after the regular expression literal starting at ``i``."""
    j, in_class = i + 1, False
    while j < len(src) and src[j] != "\n":
        c = src[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            j += 1
            while j < len(src) and src[j].isalpha():
                j += 1
            return j
        j += 1
    return j


def tokens(src: str) -> list[_Token]:
    """The tokens of a script (comments dropped, regular expressions skipped)."""
    out: list[_Token] = []
    i, line = 0, 1
    while i < len(src):
        c = src[i]
        start_line = line
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif src.startswith("//", i):
            i = src.find("\n", i) if "\n" in src[i:] else len(src)
        elif src.startswith("/*", i):
            end = src.find("*/", i + 2) + 2
            line += src.count("\n", i, end)
            i = end
        elif c in "'\"":
            end = _string_end(src, i, c)
            out.append(_Token("str", src[i + 1:end - 1], start_line))
            i = end
        elif c == "`":
            end, text = _template_end(src, i)
            line += src.count("\n", i, end)
            out.append(_Token("str", text, start_line))
            i = end
        elif c == "/" and (not out or out[-1].text in _REGEX_AFTER):
            i = _regex_end(src, i)
        elif c.isalpha() or c in "_$":
            j = i
            while j < len(src) and (src[j].isalnum() or src[j] in "_$"):
                j += 1
            out.append(_Token("name", src[i:j], line))
            i = j
        elif c.isdigit():
            j = i
            while j < len(src) and (src[j].isalnum() or src[j] in "._"):
                j += 1
            out.append(_Token("num", src[i:j], line))
            i = j
        else:
            op = next((p for p in _PUNCT if src.startswith(p, i)), c)
            out.append(_Token("punct", op, line))
            i += len(op)
    return out


#: The translation marks of the scripts (``CasinoI18n._``, ``ngettext``).
JS_MARKS = {"_", "ngettext"}
#: Object keys and properties whose value is words on the page.
JS_TEXT_KEYS = {"text", "textContent", "innerText", "title", "placeholder", "aria-label",
                "alt", "ariaLabel", "label"}
#: Calls whose arguments from the first index to the last (None: to the end) are words:
#: ``el(tag, attrs, ...text)``, ``showStatus(text, kind)``, ``setConn(state, text)``.
JS_TEXT_CALLS: dict[str, tuple[int, int | None]] = {
    "el": (2, None), "fill": (1, None), "add": (1, None), "append": (0, None),
    "prepend": (0, None), "replaceChildren": (0, None), "alert": (0, 0), "confirm": (0, 0),
    "prompt": (0, 0), "showStatus": (0, 0), "toast": (0, 0), "createTextNode": (0, 0),
    "alertLine": (0, 0), "setConn": (1, 1), "wordTitle": (1, 1)}
#: Calls that give their argument's words back (changed, or as they are): a literal
#: given to one is words when the call's answer is.
JS_PASSING_CALLS = {"String", "capital", "optText", "trim", "toUpperCase", "toLowerCase",
                    "concat", "slice"}
#: Comparisons: a literal compared is an identifier (``status === "over"``).
JS_COMPARISONS = {"===", "!==", "==", "!="}
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {v: k for k, v in _OPEN.items()}
#: Tokens that end an expression going backwards (its start is just after).
_STOP = {";", "=", "return", "=>", "+=", "case", "throw", "const", "let", "var", "of", "in",
         "if", "else", "while", "for"}
#: An English sentence: a capital then a word and a space, or words ending in a stop.
_SENTENCE = re.compile(r"^\W*[A-Z][a-z']+[ ,][^<>{}=]*[a-z]|[a-z]{2,}[^<>{}=#.]* [a-z]+[.!?…:]$")


def _back_over_group(toks: list[_Token], k: int) -> int:
    """``toks[k]`` closes a group: the index of the token opening it."""
    depth = 0
    while k >= 0:
        t = toks[k].text
        if toks[k].kind == "punct" and t in _CLOSE:
            depth += 1
        elif toks[k].kind == "punct" and t in _OPEN:
            depth -= 1
            if depth == 0:
                return k
        k -= 1
    return 0


def _callee(toks: list[_Token], k: int) -> str | None:
    """The called function's name when ``toks[k]`` is a call's ``(``, else None."""
    if k > 0 and toks[k - 1].kind == "name" and toks[k - 1].text not in (
            "if", "while", "for", "switch", "return", "typeof", "catch", "function"):
        return toks[k - 1].text
    return None


def _argument_index(toks: list[_Token], opening: int, k: int) -> int:
    """How many commas at the call's own depth come between ``opening`` and ``k``."""
    index, j = 0, opening + 1
    while j < k:
        if toks[j].kind == "punct" and toks[j].text in _OPEN:
            close = _forward_over_group(toks, j)
            if close >= k:
                return index
            j = close
        elif toks[j].text == "," and toks[j].kind == "punct":
            index += 1
        j += 1
    return index


def _forward_over_group(toks: list[_Token], k: int) -> int:
    """``toks[k]`` opens a group: the index of the token closing it."""
    depth = 0
    for j in range(k, len(toks)):
        if toks[j].kind == "punct" and toks[j].text in _OPEN:
            depth += 1
        elif toks[j].kind == "punct" and toks[j].text in _CLOSE:
            depth -= 1
            if depth == 0:
                return j
    return len(toks)


def _object_key(toks: list[_Token], k: int) -> str | None:
    """``toks[k]`` is a ``:``: the object's key before it, or None (a ternary's ``:``)."""
    if k >= 2 and toks[k - 1].kind in ("name", "str") and toks[k - 2].text in ("{", ","):
        return toks[k - 1].text
    return None


def _js_role(toks: list[_Token], k: int) -> str | None:
    """What the literal ``toks[k]`` is to the page: "marked" (inside a translation mark),
    a sink's name when it becomes words on the page, or None."""
    j = k - 1
    while j >= 0:
        t = toks[j]
        if t.kind == "punct" and t.text in _CLOSE:
            j = _back_over_group(toks, j) - 1
            continue
        if t.kind == "punct" and t.text == ":":
            key = _object_key(toks, j)
            if key is not None:
                return f"{key}:" if key in JS_TEXT_KEYS else None
        elif t.kind == "punct" and t.text == "=" and j > 0:
            prop = toks[j - 1].text
            dotted = j > 1 and toks[j - 2].text == "."
            return f".{prop} =" if dotted and prop in JS_TEXT_KEYS else None
        elif t.text in _STOP or (t.kind == "punct" and t.text == "{"):
            return None
        elif t.kind == "punct" and t.text in ("(", "[", ","):
            opening = j if t.text != "," else _enclosing(toks, j)
            if opening < 0 or toks[opening].text == "{":
                return None
            if toks[opening].text == "[":
                if opening > 0 and (toks[opening - 1].kind in ("name", "str")
                                    or toks[opening - 1].text in (")", "]")):
                    return None  # an index: obj["key"]
                j = opening - 1  # an array: its items are what the array is
                continue
            name = _callee(toks, opening)
            if name in JS_MARKS:
                return "marked"
            if name in JS_TEXT_CALLS:
                first, last = JS_TEXT_CALLS[name]
                index = _argument_index(toks, opening, k)
                shown = index >= first and (last is None or index <= last)
                return f"{name}()" if shown else None
            if name == "setAttribute":
                attr = toks[opening + 1]
                text_attr = attr.kind == "str" and attr.text in JS_TEXT_KEYS
                return "setAttribute()" if text_attr and _argument_index(
                    toks, opening, k) == 1 else None
            if name is not None and name not in JS_PASSING_CALLS:
                return None  # another function's argument: what it is to it is unknown
            j = opening - 1  # a grouping, or a call giving its words back
            continue
        j -= 1
    return None


def _enclosing(toks: list[_Token], k: int) -> int:
    """The index of the bracket enclosing ``toks[k]`` (-1 at the top)."""
    j = k - 1
    while j >= 0:
        t = toks[j]
        if t.kind == "punct" and t.text in _CLOSE:
            j = _back_over_group(toks, j) - 1
            continue
        if t.kind == "punct" and t.text in _OPEN:
            return j
        j -= 1
    return -1


def _inside_mark(toks: list[_Token], k: int) -> bool:
    """True when some enclosing call of ``toks[k]`` is a translation mark."""
    j = _enclosing(toks, k)
    while j >= 0:
        if toks[j].text == "(" and _callee(toks, j) in JS_MARKS:
            return True
        j = _enclosing(toks, j)
    return False


def script_literals(path: str, source: str) -> list[Literal]:
    """The words of a script that are outside its translation marks."""
    toks = tokens(source)
    found: list[Literal] = []
    for k, tok in enumerate(toks):
        if tok.kind != "str" or not has_words(tok.text) or _inside_mark(toks, k):
            continue
        if k + 1 < len(toks) and toks[k + 1].text == ":" and toks[k - 1].text in ("{", ","):
            continue  # an object's key
        if {toks[k - 1].text, toks[min(k + 1, len(toks) - 1)].text} & JS_COMPARISONS:
            continue  # compared: an identifier
        role = _js_role(toks, k)
        if role == "marked":
            continue
        if role is not None:
            found.append(Literal(path, tok.line, tok.text, f"given to {role}"))
        elif _SENTENCE.search(tok.text):
            found.append(Literal(path, tok.line, tok.text, "an English sentence"))
    return found
