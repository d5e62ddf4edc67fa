"""The scripts of examples/ still run: each with a tiny episode count (so they never rot)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

ROOT = Path(__file__).resolve().parent.parent


def run(script: str, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, str(ROOT / "examples" / script), *args],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_random_agent_example_prints_its_mean_reward() -> None:
    out = run("random_vs_beginner.py", "--episodes", "3")
    assert "mean reward" in out and "95% interval" in out


def test_reinforce_example_prints_its_curve_and_verdict_and_draws_it(tmp_path: Path) -> None:
    png = tmp_path / "curve.png"
    out = run("reinforce_vs_beginner.py", "--episodes", "8", "--plot", str(png))
    assert "learning curve" in out and "paired difference" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
