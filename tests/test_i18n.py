"""The languages: choosing one, the catalogs' completeness, and the translated pages.

casino.i18n (the language in force, negotiation, the environment, numbers, plurals),
the catalogs' check (tests/i18n_catalogs.py: complete, not fuzzy, up to date with the
sources, the .mo their .po compiled), the web's choice and switch of language, and the
command line's --lang.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from casino import i18n
from casino.engine.cards import card_name, parse_card
from tests import i18n_catalogs

# web_helpers imports Starlette's TestClient without its deprecation warning
from tests.web_helpers import TestClient, web  # type: ignore[attr-defined]

ROOT = Path(__file__).resolve().parent.parent


# ----------------------------------------------------------------------
# casino.i18n


@pytest.mark.parametrize(("header", "lang"), [
    (None, "en"), ("", "en"), ("fi", "fi"), ("fi-FI,fi;q=0.9,en;q=0.8", "fi"),
    ("de-DE, sv;q=0.5, fi;q=0.4", "sv"), ("en;q=0.1, sv", "sv"), ("*", "en"),
    ("de, fr;q=0.9", "en"), ("fi;q=0, sv;q=0.2", "sv"), ("sv;q=1.5", "en"),
    ("fi;q=abc, sv;q=0.3", "sv"), ("SV-se", "sv"), ("fi;q=0.5, sv;q=0.5", "fi"),
    (";;,,q=1", "en"),
])
def test_negotiate_follows_q_values(header: str | None, lang: str) -> None:
    assert i18n.negotiate(header) == lang


@pytest.mark.parametrize(("environ", "lang"), [
    ({}, "en"), ({"LANG": "fi_FI.UTF-8"}, "fi"), ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_MESSAGES": "sv_SE.UTF-8", "LANG": "fi_FI.UTF-8"}, "sv"),
    ({"LC_ALL": "C", "LC_MESSAGES": "sv_SE"}, "en"),
    ({"LANGUAGE": "de:sv:fi", "LC_ALL": "fi_FI"}, "sv"),
    ({"LANGUAGE": "de", "LANG": "fi_FI.UTF-8"}, "fi"),
    ({"LANGUAGE": "", "LC_ALL": "", "LANG": "sv_FI@euro"}, "sv"),
])
def test_from_environment_looks_as_gettext_does(environ: dict[str, str], lang: str) -> None:
    assert i18n.from_environment(environ) == lang


def test_numbers_are_written_as_each_language_writes_them() -> None:
    assert i18n.format_number(1234567.25, 2, "en") == "1,234,567.25"
    assert i18n.format_number(1234567.25, 2, "fi") == "1\u00a0234\u00a0567,25"
    assert i18n.format_number(-1500, 0, "sv") == "-1\u00a0500"
    with i18n.using("fi"):
        assert i18n.format_number(0.5, 1) == "0,5"


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_plural_forms_of_each_catalog(lang: str) -> None:
    with i18n.using(lang):
        one = i18n.ngettext("%(num)s move late", "%(num)s moves late", 1)
        many = i18n.ngettext("%(num)s move late", "%(num)s moves late", 3)
    assert "move" not in one + many
    assert {"fi": ("siirron", "siirron"), "sv": ("drags", "drags")}[lang] == (
        one.split()[1], many.split()[1])
    with i18n.using(lang):
        seat = i18n.ngettext("The computer plays one seat.", "The computer plays %(n)s seats.", 1)
        seats = i18n.ngettext("The computer plays one seat.", "The computer plays %(n)s seats.", 2)
    assert seat != seats and "%(n)s" in seats and "%(n)s" not in seat


def test_card_names_are_the_players_words() -> None:
    ten, two = parse_card("Td"), parse_card("2s")
    assert (card_name(ten), card_name(two)) == ("10 of diamonds", "2 of spades")
    with i18n.using("fi"):
        assert (card_name(ten), card_name(two)) == ("ruutukymppi", "patakakkonen")
    with i18n.using("sv"):
        assert (card_name(ten), card_name(two)) == ("ruter tia", "spader tvåa")
    assert i18n.current() == "en"


def test_each_task_and_thread_has_its_own_language() -> None:
    async def speak(lang: str, ready: asyncio.Event, other: asyncio.Event) -> str:
        i18n.set_language(lang)
        ready.set()
        await other.wait()  # the other task has set its own language meanwhile
        return i18n.pgettext("rank", "Jack")

    async def both() -> list[str]:
        a, b = asyncio.Event(), asyncio.Event()
        return list(await asyncio.gather(speak("fi", a, b), speak("sv", b, a)))

    assert asyncio.run(both()) == ["sotamies", "knekt"]
    assert i18n.current() == "en"
    seen: list[str] = []
    thread = threading.Thread(target=lambda: seen.append(i18n.set_language("sv")))
    thread.start()
    thread.join()
    assert seen == ["sv"] and i18n.current() == "en"


def test_unknown_language_is_english() -> None:
    with i18n.using("xx"):
        assert i18n.current() == "en"
        assert i18n._("Lobby") == "Lobby"
    assert i18n.known("fi_FI.UTF-8") == "fi" and i18n.known("C") is None
    assert set(i18n.LANGUAGES.values()) == {"English", "Suomi", "Svenska"}


# ----------------------------------------------------------------------
# The catalogs


def test_catalogs_are_complete_and_up_to_date() -> None:
    """Every msgid translated, none fuzzy, the .pot and .po as extraction makes them now,
    each .mo its .po compiled: `make i18n` mends all but the translations themselves."""
    assert i18n_catalogs.problems() == []


def test_catalog_check_finds_a_missing_translation(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    po = i18n_catalogs.po_path("fi").read_text(encoding="utf-8")
    emptied = po.replace('msgstr "Aula"', 'msgstr ""')
    assert emptied != po
    copy = tmp_path / "fi" / "LC_MESSAGES" / "casino.po"
    copy.parent.mkdir(parents=True)
    copy.write_text(emptied, encoding="utf-8")
    monkeypatch.setattr(i18n_catalogs, "po_path", lambda lang: (
        copy if lang == "fi" else ROOT / "src/casino/locale" / lang / "LC_MESSAGES/casino.po"))
    found = i18n_catalogs.problems()
    assert any("fuzzy or empty 'Lobby'" in line for line in found)
    assert any("fi/LC_MESSAGES/casino.mo" in line or "casino.mo" in line for line in found)


#: The templates translated so far, whole: no word of theirs is left outside the
#: catalog. The others follow (docs/translation.md).
TRANSLATED_TEMPLATES = ("base.html", "lobby.html", "error.html", "game.html")
#: Words that are the same in every language: the brand, the protocol's name, and the
#: names of keys on the keyboard (the game page's shortcuts).
SAME_IN_EVERY_LANGUAGE = {"Casino", "HTTP", "Esc", "u"}


def _bare_words(template: str) -> list[str]:
    """The words of ``template`` a person reads that are not marked for translation:
    its text and its title, placeholder, aria-label and alt attributes, with Jinja's
    expressions, tags, translated blocks and comments taken out."""
    text = re.sub(r"{%-? *trans\b.*?endtrans *-?%}", " ", template, flags=re.S)
    text = re.sub(r"{% block body_class %}.*?{% endblock %}", " ", text)  # a class name
    text = re.sub(r"{{.*?}}|{%.*?%}|{#.*?#}", " ", text, flags=re.S)
    text = re.sub(r"<script\b.*?</script>", " ", text, flags=re.S)
    said = re.findall(r'\b(?:title|placeholder|aria-label|alt)="([^"]*)"', text)
    text = re.sub(r"<[^>]*>", " ", text) + " " + " ".join(said)
    text = re.sub(r"&#?\w+;", " ", text)
    return [word for word in re.findall(r"[A-Za-z][A-Za-z'-]*", text)
            if word not in SAME_IN_EVERY_LANGUAGE]


@pytest.mark.parametrize("name", TRANSLATED_TEMPLATES)
def test_translated_templates_leave_no_word_outside_the_catalog(name: str) -> None:
    folder = ROOT / "src" / "casino" / "web" / "templates"
    assert _bare_words((folder / name).read_text(encoding="utf-8")) == []
    assert _bare_words('<p title="Go home">Lobby {{ _("x") }}</p>') == ["Lobby", "Go", "home"]


# ----------------------------------------------------------------------
# The web


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with web(tmp_path_factory.mktemp("i18n")) as c:
        yield c


def _lobby(client: TestClient, **headers: str) -> str:
    client.cookies.clear()
    response = client.get("/", headers=headers)
    assert response.status_code == 200
    return str(response.text)


def test_lobby_in_the_browsers_language(client: TestClient) -> None:
    assert "New game" in _lobby(client) and '<html lang="en">' in _lobby(client)
    finnish = _lobby(client, **{"Accept-Language": "fi-FI,fi;q=0.9,en;q=0.5"})
    assert '<html lang="fi">' in finnish
    assert "Uusi peli" in finnish and "Aloita peli" in finnish and "Aula" in finnish
    assert "New game" not in finnish
    swedish = _lobby(client, **{"Accept-Language": "sv"})
    assert '<html lang="sv">' in swedish and "Nytt parti" in swedish


def test_a_cards_drawing_is_titled_in_the_language_and_varies_with_it(
        client: TestClient) -> None:
    client.cookies.clear()
    drawing = client.get("/svg/card/Td.svg", headers={"Accept-Language": "fi"})
    assert "<title>ruutukymppi</title>" in drawing.text
    assert "Accept-Language, Cookie" in drawing.headers["vary"]
    assert "<title>10 of diamonds</title>" in client.get("/svg/card/Td.svg").text
    assert "Cookie" not in client.get("/static/i18n.js").headers.get("vary", "")


def test_an_error_pages_frame_is_translated(client: TestClient) -> None:
    client.cookies.clear()
    page = client.get("/records/no-such-game", headers={"Accept-Language": "sv"})
    assert page.status_code == 404
    assert '<html lang="sv">' in page.text and "Tillbaka till lobbyn" in page.text


def test_cookie_overrides_the_header(client: TestClient) -> None:
    client.cookies.clear()
    client.cookies.set("lang", "sv")
    page = client.get("/", headers={"Accept-Language": "fi"}).text
    assert '<html lang="sv">' in page and "Nytt parti" in page
    client.cookies.clear()


def test_switch_sets_the_cookie_and_goes_back_on_this_site_only(client: TestClient) -> None:
    client.cookies.clear()
    response = client.get("/language/fi", params={"next": "/rules/casino?x=1"},
                          follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/rules/casino?x=1"
    assert re.search(r"lang=fi;.*Max-Age", response.headers["set-cookie"])
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example",
                   "javascript:alert(1)", "", "/\nSet-Cookie:x"):
        away = client.get("/language/sv", params={"next": target}, follow_redirects=False)
        assert away.headers["location"] == "/", target
    unknown = client.get("/language/xx", follow_redirects=False)
    assert unknown.status_code == 303 and "set-cookie" not in unknown.headers
    client.cookies.clear()


def test_every_page_has_the_switch_back_to_itself(client: TestClient) -> None:
    page = _lobby(client, **{"Accept-Language": "fi"})
    assert '<strong lang="fi" aria-current="true">Suomi</strong>' in page
    assert 'href="/language/sv?next=/"' in page and ">Svenska</a>" in page
    assert 'href="/language/en?next=/"' in page and ">English</a>" in page
    client.cookies.clear()
    rules = client.get("/rules/casino", headers={"Accept-Language": "sv"}).text
    assert 'href="/language/fi?next=/rules/casino"' in rules
    assert '<html lang="sv">' in rules


def test_the_scripts_catalog_is_embedded(client: TestClient) -> None:
    page = _lobby(client, **{"Accept-Language": "fi"})
    match = re.search(r'<script type="application/json" id="catalog">(.*?)</script>', page,
                      re.S)
    assert match
    catalog = json.loads(match.group(1))
    assert catalog["lang"] == "fi"
    assert catalog["messages"]["Start the lesson"] == "Aloita opastus"
    seats = catalog["messages"]["The computer plays one seat."]
    assert seats == ["Tietokone pelaa yhdellä paikalla.", "Tietokone pelaa %(n)s paikalla."]
    english = _lobby(client)
    match = re.search(r'id="catalog">(.*?)</script>', english, re.S)
    assert match and json.loads(match.group(1))["messages"] == {}
    assert '<script src="/static/i18n.js" defer></script>' in page


# ----------------------------------------------------------------------
# The command line


def _casino(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run([sys.executable, "-m", "casino", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, **(env or {})})


def test_rules_in_finnish_from_the_command_line() -> None:
    finnish = _casino("rules", "casino", "--lang", "fi")
    assert finnish.returncode == 0
    assert "Sanasto: casino glossary [SANA]" in finnish.stdout
    assert "The words explained" not in finnish.stdout
    english = _casino("rules", "casino")
    assert "The words explained: casino glossary [WORD]" in english.stdout


def test_command_line_language_from_the_environment_or_the_top() -> None:
    swedish = _casino("rules", "casino", env={"LANGUAGE": "", "LC_ALL": "",
                                              "LC_MESSAGES": "", "LANG": "sv_SE.UTF-8"})
    assert "Orden förklarade" in swedish.stdout
    assert "Orden förklarade" in _casino("--lang", "sv", "rules", "casino").stdout
    unknown = _casino("rules", "casino", "--lang", "de")
    assert unknown.returncode != 0 and "'de' is not one of the languages" in unknown.stderr
