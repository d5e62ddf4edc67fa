"""The command line in Finnish and Swedish: ``--help`` of every command, typer's own
words (``Usage:``, ``Options``, the errors), the messages of the commands, the score pad.

The language is the last ``--lang`` typed (read before the help is drawn), else the
terminal's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``). English, the default,
is asserted word for word by tests/test_cli.py and tests/test_scorepad.py; here it is
checked to come back unchanged after a run in another language in the same process.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from casino import i18n
from casino.cli import app
from casino.cli.language import error_words, language_of

runner = CliRunner()

#: Environment variables for a terminal in ``lang`` (the others that could decide, unset).
ENV = {"fi": {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None,
              "LANG": "fi_FI.UTF-8", "COLUMNS": "300"},
       "sv": {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None,
              "LANG": "sv_SE.UTF-8", "COLUMNS": "300"}}

#: Words of a help page in each language (typer's headings and usage, and ours), and the
#: English they replace.
HELP_WORDS = {"fi": ("Käyttö: ", "Valitsimet", "Näytä tämä ohje ja lopeta."),
              "sv": ("Användning: ", "Flaggor", "Visa den här hjälpen och avsluta.")}
ENGLISH_HELP = ("Usage: ", "Options", "Show this message and exit.", "[OPTIONS]")

COMMANDS = ("rules", "glossary", "moves", "replay", "demo", "play", "learn", "arena",
            "score", "helper", "review", "serve")


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """A command's ``--lang`` sets the language of the test's thread: English again."""
    yield
    i18n.set_language(i18n.DEFAULT)


def _run(args: list[str], env: dict[str, str | None] | None = None,
         input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, args, env={"COLUMNS": "300", **(env or {})}, input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _helps(command: typer.core.TyperCommand) -> list[str]:
    """The English help texts of ``command`` and of its options (as declared)."""
    texts = [command.help or ""]
    texts += [p.help for p in command.params if getattr(p, "help", None)]  # type: ignore
    return [t for t in texts if t]


def _english_help_texts(name: str) -> list[str]:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    return _helps(group.commands[name])  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["fi", "sv"])
@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_every_help_is_in_the_language_of_lang(lang: str, command: str) -> None:
    """``--help`` of every command in the language: typer's headings and usage, the
    command's own description and each option's help; none of the English left."""
    args = [command] if command else []
    # casino --lang xx CMD --help: the option of the group, for every command.
    code, out, _ = _run(["--lang", lang, *args, "--help"])
    assert code == 0
    for words in HELP_WORDS[lang]:
        assert words in out, (words, out)
    for english in ENGLISH_HELP:
        assert english not in out, (english, out)
    if command:
        for english in _english_help_texts(command):
            first_line = english.splitlines()[0]
            assert first_line not in out, first_line
            with i18n.using(lang):
                translated = i18n._(english)
            assert translated != english, english
            assert translated.splitlines()[0][:40] in out, translated


@pytest.mark.parametrize("lang", ["fi", "sv"])
@pytest.mark.parametrize("command", [[], ["play"], ["score"]])
def test_the_help_follows_the_terminal_language(lang: str, command: list[str]) -> None:
    """Without --lang, LANG=fi_FI.UTF-8 (or sv_SE) chooses the help's language."""
    code, out, _ = _run([*command, "--help"], env=ENV[lang])
    assert code == 0
    for words in HELP_WORDS[lang]:
        assert words in out
    assert "Usage: " not in out


def test_lang_typed_wins_over_the_terminal_and_the_last_one_counts() -> None:
    code, out, _ = _run(["play", "--lang", "sv", "--help"], env=ENV["fi"])
    assert code == 0 and "Användning: " in out and "Käyttö: " not in out
    code, out, _ = _run(["--lang", "fi", "play", "--lang=sv", "-h"])
    assert code == 0 and "Spela mot datorn i terminalen" in out


def test_language_of_reads_the_words_typed_before_the_parser() -> None:
    env: dict[str, str] = {"LANG": "sv_SE.UTF-8"}
    assert language_of(["play", "--lang", "fi", "--help"], env) == "fi"
    assert language_of(["play", "--lang=sv_SE", "-h"], {}) == "sv"
    assert language_of(["play", "-h"], env) == "sv"
    assert language_of(["play", "--lang", "de", "-h"], env) == "sv"  # refused by --lang
    assert language_of(["score", "--", "--lang", "fi"], {}) == "en"


@pytest.mark.parametrize(("lang", "args", "words"), [
    ("fi", ["play", "--players", "x"],
     ("Käyttö: ", "Virhe", "Virheellinen arvo valitsimelle '--players' / '-p': anna "
                           "kokonaisluku.")),
    ("sv", ["play", "--players", "x"],
     ("Användning: ", "Fel", "Ogiltigt värde för '--players' / '-p': ett heltal behövs.")),
    ("fi", ["nocmd"], ("Komentoa ei ole: 'nocmd'.", "Ohje: 'casino -h'")),
    ("sv", ["play", "--nope"], ("Ingen sådan flagga: --nope", "Hjälp: 'casino play -h'")),
    ("fi", ["rules"], ("Argumentti 'RULESET' puuttuu.",)),
    ("sv", ["play", "--pause", "-1"], ("Ogiltigt värde för '--pause': det är minst 0.",)),
])
def test_typers_own_errors_are_in_the_language(lang: str, args: list[str],
                                                words: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*args, "--lang", lang], prog_name="casino",
                           env={"COLUMNS": "300"})
    assert result.exit_code == 2
    for word in words:
        assert word in result.stderr, (word, result.stderr)
    assert "Usage: " not in result.stderr and "Error" not in result.stderr


def test_an_error_typer_does_not_know_keeps_its_words() -> None:
    assert error_words("Something new happened") == "Something new happened"
    with i18n.using("fi"):
        assert error_words("No such option: --x") == "Valitsinta ei ole: --x"


def test_english_comes_back_after_a_run_in_another_language() -> None:
    """The same command objects answer every run: the help, the help option and typer's
    words are English again after a Finnish run."""
    _run(["play", "--lang", "fi", "--help"])
    _run(["--lang", "fi", "--nope"])
    i18n.set_language(i18n.DEFAULT)
    code, out, _ = _run(["play", "--help"], env={"LANG": "C", "LANGUAGE": None,
                                                 "LC_ALL": None, "LC_MESSAGES": None})
    assert code == 0
    for english in ("Usage: ", "Options", "Show this message and exit.",
                    "Play against the computer in the terminal"):
        assert english in out
    result = runner.invoke(app, ["--nope"], env={"LANG": "C", "LANGUAGE": None,
                                                 "LC_ALL": None, "LC_MESSAGES": None})
    assert "No such option: --nope" in result.stderr and "Error" in result.stderr


def test_an_unknown_language_is_refused_in_the_terminal_s_language() -> None:
    code, _, err = _run(["score", "--lang", "de"], env=ENV["fi"])
    assert code == 2
    assert "'de' ei ole mikään kielistä: en, fi, sv" in err


GAME = "\n".join(["round", "30 22", "6 7", "Td As Ac Ah", "Ann Bob Bob", "show", "help",
                  "round", "30 23", "20 32", "Bob", "Td 2s As Ac Ah Ad", "", "quit", ""])


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Ann vastaan Bob", "Kirjoita 'round' jokaisen kierroksen jälkeen",
            "Kierros 1: 'back' keskeyttää.", "Otetut kortit: luvut pelaajille Ann, Bob "
            "(yhteensä 52), tai kenellä oli eniten", "Pistekortit, jotka Ann otti",
            "  Bob sai loput: 2♠ A♦", "Mökit: kuka teki kunkin", "Kierros 1 laskujärjestyksessä:",
            "Yhteensä: Ann 9, Bob 5; pelataan 21 pisteeseen.", "Komennot:",
            "  undo           peru viimeisin muutos",
            "  Ei käy: otetut kortit: yhteensä 53, enemmän kuin säännöillä casino on (52)",
            "Pistelista on tallennettu tiedostoon")),
    ("sv", ("Ann mot Bob", "Skriv 'round' efter varje omgång", "Omgång 1: skriv 'back'",
            "Tagna kort: tal för Ann, Bob (de blir 52 tillsammans), eller vem som hade flest",
            "Poängkort som Ann tog", "  Bob tog resten: 2♠ A♦", "Tabbar: vem som gjorde",
            "Omgång 1, i räkneordning:", "Totalt: Ann 9, Bob 5; spelar till 21.",
            "Kommandon:", "  undo           ångra den senaste ändringen",
            "  Nekat: tagna kort blir 53, fler än de 52 som finns i casino",
            "Blocket är sparat i")),
])
def test_a_score_pad_session_in_the_language(tmp_path: Path, lang: str,
                                              words: tuple[str, ...]) -> None:
    """A family keeping score in Finnish (or Swedish): the prompts, the tables, the
    help and the refusals of an impossible answer in the language; the commands typed
    stay English, and the file saved is the same as in English."""
    code, out, err = _run(["score", "--lang", lang, "--rules", "casino", "--names",
                           "Ann,Bob", "--file", str(tmp_path / "pad.json")], input=GAME)
    assert code == 0, err
    for word in words:
        assert word in out, (word, out)
    for english in ("Type 'round' after each round", "Cards captured:", "took the rest",
                    "in counting order", "Totals:", "Commands:", "Refused:",
                    "The pad is saved"):
        assert english not in out, english
    english_file = tmp_path / "en.json"
    _run(["score", "--lang", "en", "--rules", "casino", "--names", "Ann,Bob", "--file",
          str(english_file)], input=GAME)
    assert (tmp_path / "pad.json").read_bytes() == english_file.read_bytes()


def test_the_score_pad_sheet_in_finnish(tmp_path: Path) -> None:
    path = tmp_path / "pad.json"
    _run(["score", "--rules", "casino", "--names", "Ann,Bob", "--file", str(path)],
         input=GAME)
    code, out, _ = _run(["score", "--lang", "fi", "--file", str(path), "--print"])
    assert code == 0
    assert "Pelaajat: Ann vastaan Bob" in out and "Säännöt: casino, 2 pelaajaa" in out
    assert out.splitlines()[4].startswith("Kierros  ")


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Pöytä: 9♣ 4♣ 5♥", "Kätesi: 2♠ 9♦; paikalla 1 on 2; pakassa", "sallittua siirtoa:")),
    ("sv", ("Bordet: 9♣ 4♣ 5♥", "Din hand: 2♠ 9♦; plats 1 har 2; talongen",
            "tillåtna drag:")),
])
def test_casino_helper_in_the_language(lang: str, words: tuple[str, ...]) -> None:
    code, out, err = _run(["helper", "--lang", lang, "--table", "9c 4c 5h", "--hand",
                           "9d 2s", "--no-bot", "--no-judge"])
    assert code == 0, err
    for word in words:
        assert word in out, (word, out)
    assert "legal plays" not in out and "Your hand" not in out


def test_the_helper_counts_one_play_in_the_singular() -> None:
    with i18n.using("fi"):
        one = i18n.ngettext("%(n)s legal play%(whose)s:", "%(n)s legal plays%(whose)s:", 1)
        many = i18n.ngettext("%(n)s legal play%(whose)s:", "%(n)s legal plays%(whose)s:", 3)
    assert one % {"n": 1, "whose": ""} == "1 sallittu siirto:"
    assert many % {"n": 3, "whose": ""} == "3 sallittua siirtoa:"


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", "--save ja --no-save ovat ristiriidassa"),
    ("sv", "--save och --no-save motsäger varandra"),
])
def test_a_refusal_of_casino_play_in_the_language(lang: str, words: str) -> None:
    code, _, err = _run(["play", "--lang", lang, "--plain", "--save", "x.rec", "--no-save"])
    assert code == 2
    assert err.strip() == f"casino: {words}"


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("paikka 0 (Ann), paikka 1 (Bob); ", "=== Kierros 1, jakaja paikka ",
            "Tulos (kierros 1) laskujärjestyksessä:", "Yhteensä: Ann ", "Voittaja: ")),
    ("sv", ("plats 0 (Ann), plats 1 (Bob); ", "=== Omgång 1, givare plats ",
            "Resultat för omgång 1, i räkneordning:", "Totalt: Ann ", "Vinnare: ")),
])
def test_casino_replay_plain_in_the_language(tmp_path: Path, lang: str,
                                             words: tuple[str, ...]) -> None:
    """The plain replay (a pipe's): its frame in the language, the record unchanged."""
    import random

    from casino.engine.match import Match
    from casino.engine.record import write_record

    match = Match("casino", seed=4)
    rng = random.Random(4)
    match.play_out(lambda p: rng.choice(p.legal_moves()))
    path = tmp_path / "g.rec"
    path.write_text(write_record(match, names=("Ann", "Bob")), encoding="utf-8")
    before = path.read_bytes()
    code, out, err = _run(["replay", "--lang", lang, "--plain", str(path)])
    assert code == 0, err
    for word in words:
        assert word in out, (word, out[:2000])
    for english in ("=== Round", "in counting order", "Winner:"):  # (the positions: the engine)
        assert english not in out, english
    assert path.read_bytes() == before


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("siemen 1; 1 peilipari paria kohden", "Parit (peiliparit; 95%:n välit)",
            "ratkeamatta", "Miettimisaika päätöstä kohden")),
    ("sv", ("frö 1; 1 speglat par per parning", "Parningar (speglade par; 95%-intervall)",
            "oavgjorda", "Betänketid per beslut")),
])
def test_casino_arena_s_report_in_the_language(lang: str, words: tuple[str, ...]) -> None:
    code, out, err = _run(["arena", "random", "greedy", "--games", "1", "--seed", "1",
                           "--lang", lang, "--no-progress"])
    assert code == 0, err
    for word in words:
        assert word in out, (word, out)
    assert "Pairings" not in out and "undecided" not in out
