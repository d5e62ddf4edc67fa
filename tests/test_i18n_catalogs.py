"""The catalogs' check itself (tests/i18n_catalogs.py, run by ``make lint``): it must fail
on each thing it is there to find, and its extraction must be reproducible.

tests/test_i18n.py holds the check's verdict on the real catalogs and its finding of an
emptied translation; these give it a fuzzy entry, a message gone from a catalog, and a
second ``update`` that must change no byte.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests import i18n_catalogs


def _copied_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the catalogs in ``tmp_path`` that the tool reads and writes in place of
    the real ones (the sources it extracts from stay the checkout's)."""
    locale = tmp_path / "locale"
    shutil.copytree(i18n_catalogs.LOCALE, locale)
    monkeypatch.setattr(i18n_catalogs, "TEMPLATE", locale / "casino.pot")
    monkeypatch.setattr(i18n_catalogs, "SCRIPT_IDS", locale / "script_messages.json")
    monkeypatch.setattr(i18n_catalogs, "po_path",
                        lambda lang: locale / lang / "LC_MESSAGES" / "casino.po")
    return locale


def _edit_fi(locale: Path, old: str, new: str) -> None:
    """Replace ``old`` (which must be there) by ``new`` in the Finnish ``.po``."""
    po = locale / "fi" / "LC_MESSAGES" / "casino.po"
    text = po.read_text(encoding="utf-8")
    assert old in text
    po.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_copy_passes_as_the_real_catalogs_do(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests below start from a copy the check finds nothing in."""
    _copied_locale(tmp_path, monkeypatch)
    assert i18n_catalogs.problems() == []


def test_the_check_fails_on_a_fuzzy_entry(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    locale = _copied_locale(tmp_path, monkeypatch)
    _edit_fi(locale, '\nmsgid "Lobby"\n', '\n#, fuzzy\nmsgid "Lobby"\n')
    found = i18n_catalogs.problems()
    assert "fi: fuzzy or empty 'Lobby'" in found, found
    # A fuzzy translation is left out of the compiled catalog: the .mo no longer matches.
    assert any(line.endswith("is not its .po compiled: make i18n") for line in found), found
    assert not any(line.startswith("sv:") for line in found), found


def test_the_check_fails_on_a_message_missing_from_a_catalog(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locale = _copied_locale(tmp_path, monkeypatch)
    _edit_fi(locale, '\nmsgid "Lobby"\nmsgstr "Aula"\n', "\n")
    found = i18n_catalogs.problems()
    assert "fi: missing 'Lobby'" in found, found


def test_the_check_fails_on_a_stale_template(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    locale = _copied_locale(tmp_path, monkeypatch)
    pot = locale / "casino.pot"
    pot.write_text(pot.read_text(encoding="utf-8").replace('msgid "Lobby"', 'msgid "Lobbby"'),
                   encoding="utf-8")
    found = i18n_catalogs.problems()
    assert any("casino.pot is out of date with the sources" in line for line in found), found


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its path there, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_extraction_is_reproducible(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``update`` on unchanged sources writes the committed files again, byte for byte,
    and a second run changes nothing either (fixed dates, sorted messages, no line
    numbers): a catalog differs only when messages do."""
    locale = _copied_locale(tmp_path, monkeypatch)
    committed = _snapshot(locale)
    i18n_catalogs.update()
    first = _snapshot(locale)
    i18n_catalogs.update()
    second = _snapshot(locale)
    assert first == second
    assert first == committed
    assert {"casino.pot", "script_messages.json", "fi/LC_MESSAGES/casino.po",
            "fi/LC_MESSAGES/casino.mo", "sv/LC_MESSAGES/casino.po",
            "sv/LC_MESSAGES/casino.mo"} <= set(first)
