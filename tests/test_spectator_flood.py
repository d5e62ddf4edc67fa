"""benchmarks/spectator_flood.py runs: a room played alone, then under a small flood of
spectators asking for the state again and again, and both timed (issue 47)."""

from __future__ import annotations

import json

import pytest

from tests.benchmark_scripts import load


def test_the_spectator_flood_benchmark_plays_both_games(
        capsys: pytest.CaptureFixture[str]) -> None:
    flood = load("spectator_flood")
    code = flood.main(["--moves", "12", "--spectators", "4", "--hellos", "5"])
    figures = json.loads(capsys.readouterr().out)
    assert code in (0, 1) and (code == 0) == (figures["p99_ratio"] <= 2)
    assert figures["alone"]["moves"] == figures["flooded"]["moves"] == 12
    assert figures["alone"]["spectator_frames"] == 0
    # Each spectator got states and answers to its hellos.
    assert figures["flooded"]["spectator_frames"] >= 4 * 2
