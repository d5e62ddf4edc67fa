"""The every-ruleset level ladder (benchmarks/ladder.py): a pairing played into its
journal, resumed without playing again, and reported from the journal alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.benchmark_scripts import load

ladder = load("ladder")


def test_a_pairing_is_kept_resumed_and_reported(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--games", "2", "--seed", "5", "--dir", str(tmp_path), "--only", "kasino-2",
            "--pairing", "easy-beginner"]
    assert ladder.main(args) == 0
    path = tmp_path / "kasino-2-easy-beginner.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2  # one line a mirrored pair
    played = capsys.readouterr().out
    assert "| kasino | 2 | `easy` v `beginner` | 4 |" in played

    assert ladder.main(args) == 0  # everything is there: nothing is played again
    assert path.read_text(encoding="utf-8").splitlines() == lines
    capsys.readouterr()

    assert ladder.main(["--seed", "5", "--dir", str(tmp_path), "--report"]) == 0
    report = capsys.readouterr().out.splitlines()
    rows = [r for r in report if r.startswith("| kasino")]
    assert rows == [r for r in played.splitlines() if r.startswith("| kasino")]
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2  # the report plays none


def test_unknown_tables_and_pairings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        ladder.main(["--dir", str(tmp_path), "--only", "kasino-9"])
    with pytest.raises(SystemExit):
        ladder.main(["--dir", str(tmp_path), "--pairing", "expert-beginner"])


def test_the_pairings_are_the_neighbouring_levels() -> None:
    assert ladder.PAIRINGS == (("easy", "beginner"), ("medium", "easy"), ("hard", "medium"),
                               ("expert", "hard"))
