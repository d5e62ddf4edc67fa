"""The game page in Finnish and in Swedish, as the server renders it: the language comes
from ``Accept-Language`` or the ``lang`` cookie, the page's own words are translated, the
catalog embedded for its scripts holds the words they write (game.js, chat.js,
clocks.js), and English is as it was."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web_helpers import TestClient, web  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with web(tmp_path_factory.mktemp("i18n-game")) as c:
        yield c


@pytest.fixture(scope="module")
def game_path(client: TestClient) -> str:
    r = client.post("/api/games", json={"rules": "casino", "mode": "friends", "players": 2})
    assert r.status_code == 201, r.text
    return f"/game/{r.json()['game']}"


def _page(client: TestClient, path: str, lang_cookie: str | None = None,
          **headers: str) -> str:
    client.cookies.delete("lang")  # the other cookies keep the room's seat
    if lang_cookie:
        client.cookies.set("lang", lang_cookie)
    response = client.get(path, headers=headers)
    assert response.status_code == 200, response.text
    return str(response.text)


def _catalog(page: str) -> dict[str, object]:
    match = re.search(r'<script type="application/json" id="catalog">(.*?)</script>', page,
                      re.S)
    assert match
    messages: dict[str, object] = json.loads(match.group(1))["messages"]
    return messages


def _phrases(page: str) -> dict[str, str]:
    """The chat's quick phrases the page carries (``data-phrases``)."""
    match = re.search(r'data-phrases="([^"]*)"', page)
    assert match
    phrases: dict[str, str] = json.loads(html.unescape(match.group(1)))
    return phrases


def test_the_game_page_in_finnish_from_the_browsers_language(client: TestClient,
                                                              game_path: str) -> None:
    page = _page(client, game_path, **{"Accept-Language": "fi-FI,fi;q=0.9"})
    assert '<html lang="fi">' in page
    for words in ("Vihje", "Peru", "Tyhjennä", "Luovuta", "Pisteet", "Otetut", "Siirrot",
                  "Keskustelu", "Kutsulinkki", "Odotetaan ystäviäsi.", "Pakka –",
                  "Kierros –", "Yhdistetään peliin…", "Näppäimet:"):
        assert words in page, words
    shown = re.sub(r'id="catalog">.*?</script>', "", page, flags=re.S)  # ids are English
    for english in ("Hint", "Undo", "Resign", "Captured", "Waiting for your friends"):
        assert english not in shown, english
    catalog = _catalog(page)
    assert catalog["Your turn: pick a card."] == "Sinun vuorosi: valitse kortti."  # game.js
    assert catalog["Spectators' chat"] == "Katsojien keskustelu"  # chat.js
    assert catalog["Clock: %(words)s"] == "Kello: %(words)s"  # clocks.js
    assert catalog["Sweeps"] == "Mökit"
    assert _phrases(page)["gg"] == "Hyvä peli!"  # the chat's quick phrases


def test_the_game_page_in_swedish_from_the_cookie(client: TestClient, game_path: str) -> None:
    page = _page(client, game_path, lang_cookie="sv", **{"Accept-Language": "fi"})
    assert '<html lang="sv">' in page
    for words in ("Tips", "Ångra", "Rensa", "Ge upp", "Poäng", "Tagna", "Drag", "Chatt",
                  "Väntar på dina vänner.", "Talong –", "Omgång –"):
        assert words in page, words
    catalog = _catalog(page)
    assert catalog["Your turn: pick a card."] == "Din tur: välj ett kort."
    assert catalog["Sweeps"] == "Tabbar"
    assert _phrases(page)["gg"] == "Bra spelat!"


def test_the_game_page_in_english_is_unchanged(client: TestClient, game_path: str) -> None:
    page = _page(client, game_path)
    assert '<html lang="en">' in page
    assert ('<p><strong>Waiting for your friends.</strong> Send them this link; the game '
            'starts when every seat is taken.</p>') in page
    assert ('title="Suggest a move (?)">Hint <kbd>?</kbd></button>') in page
    assert _catalog(page) == {}
    assert _phrases(page)["gg"] == "Good game!"


@pytest.mark.parametrize("script", ["game.js", "chat.js", "clocks.js"])
def test_every_message_of_the_game_pages_scripts_is_extracted(script: str) -> None:
    """Babel's JavaScript extraction misses a ``_("...")`` inside a template literal or
    inside another call's arguments: such a message would stay English on the page. Every
    message a script asks for must be among the extracted ones (embedded in the page)."""
    root = Path(__file__).resolve().parent.parent / "src" / "casino"
    source = (root / "web" / "static" / script).read_text(encoding="utf-8")
    extracted = set(json.loads((root / "locale" / "script_messages.json").read_text(
        encoding="utf-8")))
    asked = {json.loads(m) for m in re.findall(r'\b_\(("(?:[^"\\]|\\.)*")', source)}
    assert asked and asked <= extracted, sorted(asked - extracted)
