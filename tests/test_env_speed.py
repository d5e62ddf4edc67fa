"""benchmarks/env_speed.py's side-by-side figure: the raw env timed with the compiled
core and with the Python move generator in one run, on the same rounds.

Only what the script plays and prints is checked, never how fast anything ran."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

from casino.engine import core, movegen
from casino.engine import position as position_module
from casino.env import raw_env
from tests.benchmark_scripts import load

env_speed = load("env_speed")


def test_the_python_rounds_list_moves_by_the_python_generator_and_play_the_same_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = movegen.generate

    def counted(*args: Any, **kwargs: Any) -> Sequence[object]:
        calls.append(1)
        return real(*args, **kwargs)

    # python_engine() puts movegen.generate where Position finds its generator.
    monkeypatch.setattr(movegen, "generate", counted)
    compiled = getattr(position_module, "generate")  # noqa: B009 (not exported: the name Position calls)
    moves = env_speed.python_round(raw_env("kasino", infos=False))(4)
    assert calls, "the Python generator listed no move"
    assert getattr(position_module, "generate") is compiled  # noqa: B009 (put back after each round)
    calls.clear()
    assert env_speed.env_round(raw_env("kasino", infos=False), 4) == moves
    if core.module() is not None:
        assert not calls  # the core listed every move of the same round


def test_the_table_shows_both_engines_and_their_ratio(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert env_speed.main(["--only", "krypkasino", "--seeds", "1", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert f"engine: {core.engine_name()}" in out
    header, row = (line.split() for line in out.splitlines()[-2:])
    assert header[-2:] == ["py/s", "core"] and row[0] == "krypkasino"
    assert len(row) == 12  # preset, moves, 5 speeds, 3 ratios, raw py, core
    assert float(row[-1]) > 0
