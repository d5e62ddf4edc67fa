"""The web's other pages in Finnish and in Swedish, as the server renders them: the
accounts' pages, the player's page and the leaderboard, the daily deal, the invite,
the score pad and the move helper, the replay, and the frames of the rules, the guide
and the glossary. Each shows known words of its language and none of a list of its
English ones; the words its script writes are in the embedded catalog; the score pad's
fields (its printable sheet's rows) come from the server in the page's language; and
English is as it was."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from casino.web.daily import daily_presets
from tests.web_helpers import (
    ACCOUNTS,
    browser,
    finish_friends_game,
    recovery_codes,
    sign_up,
    web,
)

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with web(tmp_path_factory.mktemp("i18n-pages"), limits=ACCOUNTS) as client:
        yield client


@pytest.fixture(scope="module")
def ann(app: TestClient) -> TestClient:
    """A browser signed in to Ann's account."""
    ann = browser(app)
    assert sign_up(ann, "Ann", PASSWORD).status_code == 201
    return ann


@pytest.fixture(scope="module")
def finished(app: TestClient) -> str:
    """A finished game's id (Ann and Bob, Bob resigned)."""
    service = app.app.state.web.service  # type: ignore[attr-defined]
    game: str = app.portal.call(finish_friends_game, service)  # type: ignore[union-attr]
    return game


@pytest.fixture(scope="module")
def invite(app: TestClient) -> str:
    """A friends' room's invite path."""
    r = app.post("/api/games", json={"rules": "casino", "mode": "friends", "players": 2})
    assert r.status_code == 201, r.text
    url: str = r.json()["invite"]
    return "/" + url.split("/", 3)[3] if url.startswith("http") else url


def shown(client: TestClient, path: str, lang: str) -> str:
    """The page at ``path`` in ``lang`` (by the cookie), without what is never shown
    (the scripts' catalog, whose ids are English, and the pages' JSON for scripts)."""
    client.cookies.set("lang", lang)
    try:
        page = client.get(path)
    finally:
        client.cookies.delete("lang")
    assert page.status_code in (200, 201), (path, page.status_code, page.text[:300])
    assert f'<html lang="{lang}">' in page.text
    return re.sub(r'<script type="application/json"[^>]*>.*?</script>', "", page.text,
                  flags=re.S)


#: Each page: its path (or a fixture's name giving it), its Finnish words, its Swedish
#: words, and English words it must not show in either.
PAGES: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "signin": ("/signin", ("Kirjaudu", "Nimi", "Salasana", "Unohdin salasanani"),
               ("Logga in", "Namn", "Lösenord", "Jag har glömt mitt lösenord"),
               ("Password", "I lost my password", ">Name")),
    "signup": ("/signup", ("Tili on vapaaehtoinen", "Minulla on tili",
                           "Tee tämän selaimen peleistä minun", "Nimessä on 3–24"),
               ("Ett konto är frivilligt", "Jag har ett konto",
                "Gör den här webbläsarens partier till mina", "Ett namn är 3 till 24"),
               ("An account is optional", "I have an account", "letters or digits")),
    "recover": ("/recover", ("Palauta tili", "Palautuskoodi", "Uusi salasana"),
                ("Återställ ett konto", "Återställningskod", "Nytt lösenord"),
                ("Recover an account", "Recovery code", "New password")),
    "leaderboard": ("/leaderboard", ("Tulostaulukko: ", "2 pelaajaa", "Tietokoneen tasot"),
                    ("Topplista: ", "2 spelare", "Datorns nivåer"),
                    ("Leaderboard:", "2 players", "The computer's levels", "Nobody is")),
    "daily": ("/daily", ("Päivän jako: ", "Säännöt", "Pelaa", "Eilisen jaot"),
              ("Dagens giv: ", "Regler", "Spela", "Gårdagens givar"),
              ("The daily deal", "Every day (UTC)", "not played", "Yesterday's")),
    "scorepad": ("/scorepad", ("Pistelista", "Aloita lista", "Tuo pistelista (JSON)",
                               "Tulosta", "Säilytä palvelimella", "Kirjaa kierros"),
                 ("Poängblock", "Starta blocket", "Importera ett poängblock (JSON)",
                  "Skriv ut", "Spara på servern", "För in omgången"),
                 ("Start the pad", "Keep on the server", "Enter the round", ">Print<")),
    "helper": ("/helper", ("Siirtoapuri", "Tyhjennä kaikki", "Kätesi", "Näytä siirrot"),
               ("Draghjälp", "Rensa allt", "Din hand", "Visa dragen"),
               ("Move helper", "Clear everything", "Your hand", "List the plays")),
    "rules": ("/rules/casino", ("Näin pelaat täällä", "esimerkin kera", "Sanasto",
                                "Muut säännöstöt"),
              ("Så spelar du här", "med ett exempel", "Ordlista",
               "Andra regeluppsättningar"),
              ("How to play here", "with an example", "Other rulesets", "Glossary<")),
    "guide": ("/guide/casino", ("Näin pelaat: ", "Säännöt lyhyesti", "Sanasto"),
              ("Så spelar du ", "Reglerna i korthet", "Ordlista"),
              ("How to play", "The rules in brief", "Worked example")),
    "glossary": ("/glossary", ("Sanasto", "Käytössä:"), ("Ordlista", "Används i:"),
                 ("Glossary", "Used in:", "The words players meet")),
    "missing": ("/no/such/page", ("sellaista sivua ei ole",),
                ("det finns ingen sådan sida",), ("there is no such page",)),
}


def _check(page: str, wanted: tuple[str, ...], english: tuple[str, ...]) -> None:
    for words in wanted:
        assert words in page, words
    for words in english:
        assert words not in page, words


@pytest.mark.parametrize("name", sorted(PAGES))
def test_a_guests_page_in_finnish_and_swedish(app: TestClient, name: str) -> None:
    path, fi, sv, english = PAGES[name]
    status_ok = name != "missing"
    if not status_ok:
        app.cookies.set("lang", "fi")
        page = app.get(path).text
        app.cookies.set("lang", "sv")
        swedish = app.get(path).text
        app.cookies.delete("lang")
        _check(page, fi, english)
        _check(swedish, sv, english)
        return
    _check(shown(app, path, "fi"), fi, english)
    _check(shown(app, path, "sv"), sv, english)


def test_the_account_pages_in_finnish_and_swedish(app: TestClient, ann: TestClient) -> None:
    fi = shown(ann, "/account", "fi")
    _check(fi, ("Profiilisi", "0 peliä otettu tilille", "8 palautuskoodia jäljellä",
                "Luokitukset", "Kirjaudu ulos kaikkialta", "Poista tilini"),
           ("Your profile", "recovery codes left", "Sign out everywhere", "Delete my account"))
    sv = shown(ann, "/account", "sv")
    _check(sv, ("Din profil", "0 partier knutna till kontot", "8 återställningskoder kvar",
                "Ratingar", "Logga ut överallt", "Radera mitt konto"),
           ("Your profile", "recovery codes left", "Ratings<"))
    player = shown(ann, "/player/Ann", "fi")
    _check(player, ("Luokitukset", "Ei vielä luokiteltuja pelejä.", "Tulokset"),
           ("No rated games yet", "Results<"))
    player = shown(ann, "/player/Ann", "sv")
    _check(player, ("Ratingar", "Inga rankade partier än."), ("No rated games yet",))


def test_a_new_accounts_codes_and_a_refusal_in_finnish(app: TestClient) -> None:
    bea = browser(app)
    bea.cookies.set("lang", "fi")
    page = sign_up(bea, "Bea", PASSWORD).text
    assert "Tervetuloa, Bea" in page and "Olen tallentanut ne" in page
    assert len(recovery_codes(page)) == 8 and "Keep these recovery codes" not in page
    other = browser(app)
    other.cookies.set("lang", "sv")
    refused = sign_up(other, "Bea", PASSWORD).text  # a name taken
    assert "namn: namnet &#39;Bea&#39; är upptaget" in refused
    short = sign_up(other, "Bo", PASSWORD).text
    assert "namnet är för kort: ett namn är 3 till 24" in short
    everywhere = browser(app)
    everywhere.cookies.set("lang", "fi")
    page = everywhere.get("/account")
    assert page.status_code == 303  # a guest goes to sign in


def test_the_replay_page_and_its_scripts_words(app: TestClient, finished: str) -> None:
    fi = shown(app, f"/records/{finished}", "fi")
    _check(fi, ("Katso uudelleen", "Alku", "Seuraava", "Analyysi", "Analysoi tämä peli",
                "Kalleimmat ratkaisut"),
           ("Review this game", "The costliest decisions", "Every judged decision"))
    sv = shown(app, f"/records/{finished}", "sv")
    _check(sv, ("Spela upp", "Början", "Nästa", "Analysera det här partiet"),
           ("Review this game", "By kind of move"))
    app.cookies.set("lang", "fi")
    catalog = json.loads(re.search(r'id="catalog">(.*?)</script>',
                                   app.get(f"/records/{finished}").text, re.S)
                         .group(1))["messages"]  # type: ignore[union-attr]
    app.cookies.delete("lang")
    assert catalog["The table is empty."] == "Pöytä on tyhjä."  # replay.js
    assert catalog["Round %(round)s · deal %(deal)s · move %(move)s"].startswith("Kierros")
    assert catalog["Round / item"] == "Kierros / kohta"  # scorepad.js
    assert catalog["The position changed: list the plays again."].startswith("Tilanne")


def test_the_invite_page(app: TestClient, invite: str) -> None:
    friend = browser(app)  # not the room's maker, who is seated already
    fi = shown(friend, invite, "fi")
    _check(fi, ("Liity peliin: ", "kutsui sinut 2 pelaajan peliin.", "Ota paikkani",
                "Nimesi"), ("Take my seat", "invited you", "Read the rules"))
    sv = shown(friend, invite, "sv")
    _check(sv, ("Gå med i ett parti", "Ta min plats", "Ditt namn"), ("Take my seat",))


def test_the_daily_deals_results_page(app: TestClient) -> None:
    rules = daily_presets()[0]
    day = app.app.state.web.service.daily.today()  # type: ignore[attr-defined]
    fi = shown(app, f"/daily/{day}/{rules}", "fi")
    _check(fi, ("Päivän jako: ", "Pelaa ensin", "Pelaa päivän jako", "Tämän päivän jaot"),
           ("Play first", "Today's deals", "Play today's deal"))
    sv = shown(app, f"/daily/{day}/{rules}", "sv")
    _check(sv, ("Dagens giv: ", "Spela först", "Dagens givar"), ("Play first",))


@pytest.mark.parametrize(("lang", "labels"), [
    ("fi", {"cards": "Otetut kortit", "takers": "Pistekortit", "sweeps": "Mökit"}),
    ("sv", {"cards": "Tagna kort", "takers": "Poängkort", "sweeps": "Tabbar"}),
    ("en", {"cards": "Cards captured", "takers": "Scoring cards", "sweeps": "Sweeps"}),
])
def test_the_score_pads_fields_in_the_pages_language(app: TestClient, lang: str,
                                                     labels: dict[str, str]) -> None:
    """The printable sheet's rows and the round form's fields are the server's view of
    the pad: in the language of the page that asks."""
    pad = {"format": "casino-scorepad/1", "rules": "casino", "names": ["Ann", "Bob"],
           "rounds": []}
    app.cookies.set("lang", lang)
    try:
        r = app.post("/api/scorepad/view", json={"pad": pad})
    finally:
        app.cookies.delete("lang")
    assert r.status_code == 200, r.text
    fields = {f["key"]: f["label"] for f in r.json()["view"]["fields"]}
    for key, label in labels.items():
        assert fields[key] == label


def test_english_is_unchanged(app: TestClient, ann: TestClient, finished: str) -> None:
    assert "Playing with your own deck" in app.get("/scorepad").text
    assert "Move helper" in app.get("/helper").text
    assert "How to play here" in app.get("/rules/casino").text
    assert "0 games claimed; 8 recovery codes left." in ann.get("/account").text
    assert "Review this game" in app.get(f"/records/{finished}").text
    assert "there is no such page" in app.get("/no/such/page").text
    assert "A name is 3 to 24 letters or digits" in app.get("/signup").text


def test_the_helper_page_carries_the_cards_names(app: TestClient) -> None:
    app.cookies.set("lang", "fi")
    try:
        page = app.get("/helper").text
    finally:
        app.cookies.delete("lang")
    match = re.search(r'id="helper-cards">(.*?)</script>', page, re.S)
    assert match
    names = json.loads(match.group(1))
    assert names["Td"] == "ruutukymppi" and names["2s"] == "patakakkonen" and len(names) == 52


def test_a_refusals_field_is_named_in_the_readers_language() -> None:
    from casino.i18n import pgettext, using
    from casino.web.accounts.forms import FIELD_WORDS

    with using("fi"):
        assert [pgettext("form field", f) for f in FIELD_WORDS[:3]] == ["nimi", "salasana",
                                                                        "koodi"]
    with using("sv"):
        assert [pgettext("form field", f) for f in FIELD_WORDS[:3]] == ["namn", "lösenord",
                                                                        "kod"]


def test_the_lobbys_challenge_refusal_in_the_askers_language(app: TestClient) -> None:
    """A refusal raised in a database thread (sending a challenge) is worded in the
    asker's language, as the lobby shows it."""
    guest = browser(app)
    guest.cookies.set("lang", "fi")
    r = guest.post("/api/challenge", json={"name": "Ann", "rules": "casino", "players": 2})
    assert r.status_code == 403
    assert r.json()["error"].startswith("kirjaudu lähettääksesi haasteen")
    guest.cookies.set("lang", "en")
    r = guest.post("/api/challenge", json={"name": "Ann", "rules": "casino", "players": 2})
    assert r.json()["error"].startswith("sign in to send a challenge")


def test_signing_out_everywhere_and_the_operators_page(tmp_path: Path) -> None:
    from casino.web.app import create_app
    from tests.web_helpers import csrf_of, db_url

    app = create_app(db_url(tmp_path), pool_workers=0, limits=ACCOUNTS,
                     hint_level="beginner", admins=["Olga"])
    with TestClient(app) as client:
        olga = browser(client)
        sign_up(olga, "Olga", PASSWORD)
        reports = shown(olga, "/admin/reports", "sv")
        _check(reports, ("Chattanmälningar", "Inga öppna anmälningar."),
               ("Chat reports", "No open reports"))
        olga.cookies.set("lang", "fi")
        token = csrf_of(olga.get("/account").text)
        page = olga.post("/account/everywhere", data={"csrf": token}).text
        _check(page, ("Kirjattu ulos kaikkialta", "Tilin Olga 1 kirjautuminen päättyi",
                      "Takaisin aulaan"), ("Signed out everywhere", "sign-in of"))
