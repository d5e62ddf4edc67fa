"""The arena: mirrored deals, reproducibility across job counts, what bots are given,
the result file, the plot, think times and the ``casino arena`` command.

Everything here plays ``random`` (or stand-ins for other ladder names) for a
few deals, so the file runs in seconds; the strength runs' commands are in
research/journals/README.md, their results in docs/results.md.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from casino.bots import BOTS, Limit, RandomBot, make_bot
from casino.cli import app
from casino.engine.match import Match
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.rules import preset
from casino.measure import arena
from casino.measure.arena import (
    ArenaResult,
    GameRecord,
    ThinkStats,
    deck_digest,
    game_seeds,
    limit_json,
    play_game,
    rate,
    run_pairing,
    run_round_robin,
)

CASINO = preset("casino")


def _without_times(result: ArenaResult) -> Any:
    """The JSON of a run less what depends on the clock."""
    data = result.to_json(command=["test"])
    for key in ("date", "think", "machine", "settings"):
        data.pop(key)
    for pr in data["pairings"]:
        pr["summary"].pop("think_a")
        pr["summary"].pop("think_b")
        for g in pr["games"]:
            g["think"] = {side: len(ts) for side, ts in g["think"].items()}
    return data


@pytest.fixture(scope="module")
def tiny() -> ArenaResult:
    return run_pairing("random", "random", CASINO, game_seeds(11, 3), jobs=1, bootstrap=100)


# ----------------------------------------------------------------------
# Mirrored deals and reproducibility


def test_jobs_1_and_jobs_2_give_identical_results(tiny: ArenaResult) -> None:
    two = run_pairing("random", "random", CASINO, game_seeds(11, 3), jobs=2, bootstrap=100)
    assert _without_times(tiny) == _without_times(two)


def test_same_seed_reproduces_and_another_seed_differs(tiny: ArenaResult) -> None:
    again = run_pairing("random", "random", CASINO, game_seeds(11, 3), bootstrap=100)
    other = run_pairing("random", "random", CASINO, game_seeds(12, 3), bootstrap=100)
    assert _without_times(again) == _without_times(tiny)
    assert [g.decks for g in other.pairings[0].games] != \
        [g.decks for g in tiny.pairings[0].games]


def test_mirrored_games_share_every_deck_and_swap_seats(tiny: ArenaResult) -> None:
    for g0, g1 in tiny.pairings[0].pairs:
        assert g0.seed == g1.seed and (g0.mirror, g1.mirror) == (0, 1)
        assert g0.first_dealer == g1.first_dealer
        assert g0.seats == ["A", "B"] and g1.seats == ["B", "A"]
        common = min(g0.rounds, g1.rounds)
        assert common >= 1
        assert g0.decks[:common] == g1.decks[:common]
    firsts = [g.decks[0] for g in tiny.pairings[0].games[0::2]]
    assert len(set(firsts)) == len(firsts)


def test_match_decks_depend_only_on_seed_and_dealer_not_on_the_play() -> None:
    # The premise of mirroring: play two matches from one seed differently and
    # compare the decks they deal in the same rounds.
    import random

    decks = []
    for k in (1, 2):
        rng = random.Random(k)
        match = Match(CASINO, seed=99, first_dealer=0)
        for _ in range(3):
            while match.position.result is None:
                match.play(rng.choice(match.legal_moves()))
            if match.is_over:
                break
            match.next_round()
        decks.append([deck_digest(r.deck) for r in match.rounds])
    common = min(map(len, decks))
    assert decks[0][:common] == decks[1][:common]


def test_margins_are_a_minus_b_points_and_the_winner_has_reached_the_target(
        tiny: ArenaResult) -> None:
    for g in tiny.pairings[0].games:
        assert g.margins == [a - b for a, b in g.points]
        assert len(g.points) == g.rounds == len(g.decks)
        assert g.winner is not None
        winner_seat = g.seats.index(g.winner)
        assert g.scores[winner_seat] >= CASINO.target


def test_penalty_scoring_turns_the_margin_so_positive_favours_a() -> None:
    g = play_game(("random", "random"), preset("krypkasino"), 5, 0, (Limit(), Limit()))
    assert g.margins == [b - a for a, b in g.points]


def test_four_player_partnerships_seat_the_bots_alternately() -> None:
    rules = preset("classic", players=4)
    res = run_pairing("random", "random", rules, [3], bootstrap=0)
    g0, g1 = res.pairings[0].games
    assert g0.seats == ["A", "B", "A", "B"] and g1.seats == ["B", "A", "B", "A"]
    assert g0.decks[0] == g1.decks[0]
    assert g0.winner is not None and g1.winner is not None


def test_round_cap_stops_a_game_undecided_and_counts_it_half() -> None:
    res = run_pairing("random", "random", CASINO, game_seeds(2, 4), max_rounds=1, bootstrap=0)
    pr = res.pairings[0]
    assert all(g.rounds == 1 for g in pr.games)
    assert pr.undecided == len(pr.games)  # nobody reaches 21 in one round of Casino
    assert pr.score_a().value == 0.5
    assert pr.games[0].score("A") == pr.games[0].score("B") == 0.5


# ----------------------------------------------------------------------
# What the bots are given


class SpyBot(RandomBot):
    """Records what it is given; Bot.choose already refuses anything but an observation."""

    name = "spy"
    given: list[str] = []  # noqa: RUF012 - shared on purpose: instances are per seat

    def choose(self, observation: dict[str, Any] | Position, limit: Limit | None = None) -> Move:
        assert isinstance(observation, dict)
        SpyBot.given.append("observation")
        return super().choose(observation, limit)


class PeekingBot(RandomBot):
    """A stand-in for an oracle: it must get the full position through choose_full."""

    name = "peeker"
    sees_all = True
    given: list[str] = []  # noqa: RUF012

    def choose_full(self, pos: Position, limit: Limit) -> Move:
        assert all(not isinstance(h, int) for h in pos.hands)
        assert not isinstance(pos.stock, int)
        PeekingBot.given.append("full")
        return self.rng.choice(pos.legal_moves())


def test_bots_get_observations_and_only_oracles_get_the_full_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "spy", SpyBot)
    monkeypatch.setitem(BOTS, "peeker", PeekingBot)
    SpyBot.given.clear()
    PeekingBot.given.clear()
    res = run_pairing("spy", "peeker", CASINO, [4], bootstrap=0)
    moves = sum(g.moves for g in res.pairings[0].games)
    assert SpyBot.given and PeekingBot.given
    assert len(SpyBot.given) + len(PeekingBot.given) == moves


def test_limits_reach_the_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Limit | None] = []

    class LimitSpy(RandomBot):
        def choose(self, observation: dict[str, Any] | Position,
                   limit: Limit | None = None) -> Move:
            seen.append(limit)
            return super().choose(observation, limit)

    monkeypatch.setitem(BOTS, "limitspy", LimitSpy)
    run_pairing("limitspy", "random", CASINO, [1], Limit(seconds=0.25), Limit(iterations=3),
                bootstrap=0)
    assert seen and set(seen) == {Limit(seconds=0.25)}


class BrokenBot(RandomBot):
    def choose(self, observation: dict[str, Any] | Position,
               limit: Limit | None = None) -> Move:
        raise ValueError("boom")


def test_a_failing_bot_stops_the_run_naming_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "broken", BrokenBot)
    with pytest.raises(RuntimeError, match=r"random v broken, seed 5, mirror 0: ValueError: boom"):
        run_pairing("random", "broken", CASINO, [5])


def test_unknown_bot_is_refused_before_any_game() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        run_pairing("random", "nobody", CASINO, [1])


# ----------------------------------------------------------------------
# Round robin and ratings


class AliasBot(RandomBot):
    name = "alias"


def test_round_robin_rates_every_bot_and_anchors_greedy_at_1000(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("greedy", "alias1", "alias2"):
        monkeypatch.setitem(BOTS, name, AliasBot)
    res = run_round_robin(["alias1", "greedy", "alias2"], CASINO, game_seeds(5, 2),
                          bootstrap=50)
    assert [(p.a, p.b) for p in res.pairings] == [
        ("alias1", "greedy"), ("alias1", "alias2"), ("greedy", "alias2")]
    assert res.ratings is not None
    assert res.ratings.elo[1] == 1000.0
    for i in range(3):
        assert res.ratings.low[i] <= res.ratings.elo[i] <= res.ratings.high[i]


def test_neighbour_schedule_pairs_each_bot_with_the_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("alias1", "alias2", "alias3"):
        monkeypatch.setitem(BOTS, name, AliasBot)
    res = run_round_robin(["alias1", "alias2", "alias3"], CASINO, [7], schedule="neighbours",
                          bootstrap=20)
    assert [(p.a, p.b) for p in res.pairings] == [("alias1", "alias2"), ("alias2", "alias3")]
    assert res.ratings is not None and res.ratings.elo[0] == 1000.0  # no greedy: first bot


def test_ratings_follow_the_scores() -> None:
    # A hand-made pairing: A wins 3 of 4 mirrored pairs outright, loses one.
    def game(seed: int, mirror: int, winner: str) -> GameRecord:
        return GameRecord(seed, mirror, 0, ["A", "B"] if mirror == 0 else ["B", "A"],
                          winner, [21, 0], 1, [[21, 0]], [21], ["x"], 10)  # type: ignore[arg-type]

    from casino.measure.arena import PairingResult

    games = []
    for s, w in enumerate("AAAB"):
        games += [game(s, 0, w), game(s, 1, w)]
    pr = PairingResult("x", "y", Limit(), Limit(), games)
    assert pr.score_a().value == 0.75
    ratings = rate(["x", "y"], [pr], lambda p: (p.a, p.b), samples=0)
    assert ratings is not None
    # 6 wins to 2 plus the 0.5 each way prior: 400·log10(6.5/2.5).
    assert ratings.elo[0] - ratings.elo[1] == pytest.approx(165.99, abs=0.01)


# ----------------------------------------------------------------------
# Think time


def test_think_stats_median_p95_max() -> None:
    st = ThinkStats.of([0.1 * k for k in range(1, 21)])  # 0.1 .. 2.0
    assert st.decisions == 20
    assert st.median == pytest.approx(1.05)
    assert st.p95 == pytest.approx(1.905)
    assert st.max == pytest.approx(2.0)
    assert ThinkStats.of([]).decisions == 0


def test_think_times_are_recorded_for_decisions_only(tiny: ArenaResult) -> None:
    for g in tiny.pairings[0].games:
        decisions = len(g.think["A"]) + len(g.think["B"])
        assert 0 < decisions <= g.moves
        assert all(t >= 0 for ts in g.think.values() for t in ts)
    for st in tiny.think().values():
        assert st.decisions > 0
        assert 0 <= st.median <= st.p95 <= st.max


# ----------------------------------------------------------------------
# Files


def test_json_file_holds_every_game_and_the_summaries(tiny: ArenaResult, tmp_path: Path) -> None:
    path = tmp_path / "sub" / "results.json"
    tiny.write_json(path, command=["casino", "arena", "random", "random"])
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "casino-arena/1"
    assert data["command"] == ["casino", "arena", "random", "random"]
    for key in ("date", "python", "machine", "casino", "rules", "seeds", "ratings", "think"):
        assert data[key] is not None
    assert data["rules"] == "casino"
    (pr,) = data["pairings"]
    assert len(pr["games"]) == 2 * len(data["seeds"]) == pr["summary"]["games"]
    g = pr["games"][0]
    for key in ("seed", "mirror", "winner", "scores", "rounds", "points", "margins", "decks",
                "think"):
        assert key in g
    assert isinstance(g["think"]["A"], list)
    s = pr["summary"]
    assert s["wins_a"] + s["wins_b"] + s["undecided"] == s["games"]
    assert 0 <= s["score_a"]["low"] <= s["score_a"]["value"] <= s["score_a"]["high"] <= 1
    assert s["margin_per_round"]["low"] <= s["margin_per_round"]["value"]
    assert set(data["ratings"]["players"]) == {"random (A)", "random (B)"}


def test_json_compact_times_are_summaries(tiny: ArenaResult, tmp_path: Path) -> None:
    path = tmp_path / "compact.json"
    tiny.write_json(path, times=False)
    g = json.loads(path.read_text(encoding="utf-8"))["pairings"][0]["games"][0]
    assert set(g["think"]["A"]) == {"decisions", "total", "max"}


def test_plot_writes_a_png(tiny: ArenaResult, tmp_path: Path) -> None:
    path = tmp_path / "ratings.png"
    tiny.plot(path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ----------------------------------------------------------------------
# The command


runner = CliRunner()


def test_cli_arena_runs_and_writes_json_and_png(tmp_path: Path) -> None:
    out, plot = tmp_path / "r.json", tmp_path / "r.png"
    result = runner.invoke(app, ["arena", "random", "random", "--games", "2", "--seed", "1",
                                 "--out", str(out), "--plot", str(plot), "--bootstrap", "50"])
    assert result.exit_code == 0, result.output
    assert "Pairings" in result.stdout and "Think time" in result.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["seeds"] == game_seeds(1, 2)
    assert data["command"][:4] == ["casino", "arena", "random", "random"]
    assert "--seed" in data["command"]
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_cli_arena_round_robin_prints_ratings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("alias1", "alias2", "alias3"):
        monkeypatch.setitem(BOTS, name, AliasBot)
    result = runner.invoke(app, ["arena", "alias1", "alias2", "alias3", "--games", "1",
                                 "--seed", "3", "--bootstrap", "20"])
    assert result.exit_code == 0, result.output
    assert "Bradley–Terry ratings" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["random"], "at least two bots"),
    (["random", "nobody"], "unknown bot 'nobody'"),
    (["random", "level:pro"], "unknown level 'level:pro'; the levels are level:beginner"),
    (["random", "random", "random"], "distinct bots"),
    (["random", "random", "--rules", "nope"], "nope"),
])
def test_cli_arena_errors_are_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["arena", *args, "--games", "1"])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_cli_arena_plays_a_level_with_its_own_limit(tmp_path: Path) -> None:
    from casino.bots.levels import LEVELS

    out = tmp_path / "levels.json"
    result = runner.invoke(app, ["arena", "level:medium", "greedy", "--games", "1", "--seed", "2",
                                 "--iterations", "3", "--out", str(out), "--bootstrap", "10"])
    assert result.exit_code == 0, result.output
    assert "level:medium" in result.stdout
    pairing = json.loads(out.read_text(encoding="utf-8"))["pairings"][0]
    assert (pairing["a"], pairing["b"]) == ("level:medium", "greedy")
    # The level keeps the limit players meet; --iterations is the plain bot's.
    assert pairing["limit_a"] == limit_json(LEVELS["medium"].limit)
    assert pairing["limit_b"] == {"seconds": None, "iterations": 3}
    # With two decks the level's samples are the ones it plays with there.
    result = runner.invoke(app, ["arena", "level:medium", "greedy", "--games", "1", "--seed", "2",
                                 "--rules", "mulle", "--players", "3", "--max-rounds", "1",
                                 "--out", str(out), "--bootstrap", "10"])
    assert result.exit_code == 0, result.output
    pairing = json.loads(out.read_text(encoding="utf-8"))["pairings"][0]
    assert pairing["limit_a"] == limit_json(LEVELS["medium"].on(preset("mulle", players=3))[1])
    assert pairing["limit_a"]["iterations"] == 6


def test_a_level_name_makes_the_levels_bot() -> None:
    from casino.bots.levels import LEVELS, TablesBot

    for name, level in LEVELS.items():
        bot = make_bot(f"level:{name}", seed=1)
        # By name: the club player's variants are one class configured, and a bot's
        # name is what the journals record.
        if not level.varies:
            assert bot.name == level.bot and level.bot in BOTS
        else:  # it plays otherwise on some tables
            assert isinstance(bot, TablesBot)
            assert bot.bots[level.bot].name == level.bot
            assert {b.name for b in bot.bots.values()} == {
                level.on(preset(p, players=n))[0]
                for p, n in (("kasino", 2), ("kasino", 3), ("kasino", 4), ("mulle", 2),
                             ("mulle", 3), ("mulle", 4), ("krypkasino", 2), ("tablic", 2))}
    with pytest.raises(ValueError, match="unknown level 'level:oracle'"):
        make_bot("level:oracle")


def test_a_game_record_reads_back_what_it_wrote() -> None:
    g = play_game(("greedy", "random"), preset("casino"), 9, 1, (Limit(), Limit()))
    # Think times are written to the microsecond.
    written = dataclasses.replace(g, think={s: [round(t, 6) for t in ts]
                                            for s, ts in g.think.items()})
    assert GameRecord.from_json(json.loads(json.dumps(g.to_json()))) == written
    # Without the think times (kept summarised), everything else still reads back.
    back = GameRecord.from_json(g.to_json(times=False))
    assert back.think == {} and back.margins == g.margins and back.winner == g.winner


# ----------------------------------------------------------------------
# Long runs: a resume file, merged result files, the player levels


class CutBot(RandomBot):
    """Plays randomly until ``CutBot.stop`` decisions have been made, then fails: a run
    cut short (the process killed) after some of its pairs were finished."""

    stop = 0
    made = 0

    def choose(self, observation: dict[str, Any] | Position,
               limit: Limit | None = None) -> Move:
        CutBot.made += 1
        if CutBot.made > CutBot.stop:
            raise OSError("the machine went down")
        return super().choose(observation, limit)


def test_a_cut_run_resumes_from_its_file_and_ends_as_an_uncut_run(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(BOTS, "cut", CutBot)
    seeds = game_seeds(21, 4)
    CutBot.made, CutBot.stop = 0, 10**9
    whole = run_pairing("cut", "random", CASINO, seeds, bootstrap=50)
    CutBot.made = 0
    run_pairing("cut", "random", CASINO, seeds[:2], bootstrap=0)
    journal = tmp_path / "run.jsonl"
    CutBot.made, CutBot.stop = 0, CutBot.made + 5   # dies early in the third pair
    with pytest.raises(RuntimeError, match=r"cut v random.*the machine went down"):
        run_pairing("cut", "random", CASINO, seeds, bootstrap=50, journal=journal)
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 2
    played: list[int] = []
    real = arena._play_pair

    def counting(task: Any) -> Any:
        played.append(task.index)
        return real(task)

    monkeypatch.setattr(arena, "_play_pair", counting)
    CutBot.made, CutBot.stop = 0, 10**9
    resumed = run_pairing("cut", "random", CASINO, seeds, bootstrap=50, journal=journal)
    assert played == [2, 3]
    assert _without_times(resumed) == _without_times(whole)
    # Finished: the same command plays nothing more and reports the same run.
    played.clear()
    again = run_pairing("cut", "random", CASINO, seeds, bootstrap=50, journal=journal)
    assert played == [] and _without_times(again) == _without_times(whole)


def test_a_run_grows_with_more_games_and_shares_its_file_with_other_pairings(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    run_pairing("random", "greedy", CASINO, game_seeds(3, 2), bootstrap=0, journal=journal)
    run_pairing("greedy", "random", CASINO, game_seeds(3, 1), bootstrap=0, journal=journal)
    # A run killed while writing leaves a torn last line: it is ignored.
    with journal.open("a", encoding="utf-8") as f:
        f.write('{"format": "casino-arena-pair/1", "a": "ran')
    played: list[int] = []
    real = arena._play_pair

    def counting(task: Any) -> Any:
        played.append(task.index)
        return real(task)

    monkeypatch.setattr(arena, "_play_pair", counting)
    grown = run_pairing("random", "greedy", CASINO, game_seeds(3, 3), bootstrap=0,
                        journal=journal)
    assert played == [2]   # the first two deals were there; greedy v random is another pairing
    fresh = run_pairing("random", "greedy", CASINO, game_seeds(3, 3), bootstrap=0)
    assert _without_times(grown)["pairings"] == _without_times(fresh)["pairings"]


def test_a_resume_file_played_otherwise_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    run_pairing("random", "greedy", CASINO, [1], bootstrap=0, journal=journal)
    with pytest.raises(ValueError, match="random v greedy was played there with limits"):
        run_pairing("random", "greedy", CASINO, [1], Limit(iterations=3), bootstrap=0,
                    journal=journal)
    with pytest.raises(ValueError, match="rules"):
        run_pairing("random", "greedy", preset("kasino"), [1], bootstrap=0, journal=journal)
    result = runner.invoke(app, ["arena", "random", "greedy", "--games", "1", "--seed", "1",
                                 "--resume", str(journal), "--max-rounds", "3"])
    assert result.exit_code == 2
    assert "max_rounds 50 (now 3)" in result.stderr and "Traceback" not in result.output


def test_a_resume_file_records_a_levels_bot_and_refuses_a_redefined_level(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from casino.bots.levels import LEVELS, Level, Row, anywhere

    monkeypatch.setitem(LEVELS, "easy", Level("easy", "", (Row(anywhere, "random"),)))
    journal = tmp_path / "levels.jsonl"
    run_pairing("level:easy", "greedy", CASINO, [2], bootstrap=0, journal=journal)
    row = json.loads(journal.read_text(encoding="utf-8"))
    assert (row["a"], row["bots"]) == ("level:easy", ["random", "greedy"])
    monkeypatch.setitem(LEVELS, "easy", Level("easy", "", (Row(anywhere, "greedy"),)))
    with pytest.raises(ValueError, match=r"bots \['random', 'greedy'\]"):
        run_pairing("level:easy", "greedy", CASINO, [2], bootstrap=0, journal=journal)


def test_cli_resume_with_two_jobs_plays_only_what_is_missing(tmp_path: Path) -> None:
    journal, out = tmp_path / "run.jsonl", tmp_path / "r.json"
    base = ["arena", "random", "greedy", "--seed", "8", "--resume", str(journal),
            "--bootstrap", "20"]
    assert runner.invoke(app, [*base, "--games", "1"]).exit_code == 0
    result = runner.invoke(app, [*base, "--games", "3", "--jobs", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 3
    data = json.loads(out.read_text(encoding="utf-8"))
    assert "--resume" in data["command"]
    fresh = run_pairing("random", "greedy", CASINO, game_seeds(8, 3), bootstrap=0)
    games = [{**g, "think": None} for g in data["pairings"][0]["games"]]
    assert games == [{**g.to_json(), "think": None} for g in fresh.pairings[0].games]


def test_merged_result_files_add_up_their_games(tmp_path: Path) -> None:
    a, b, merged = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "m.json"
    run_a = run_pairing("random", "greedy", CASINO, game_seeds(1, 2), bootstrap=0)
    run_b = run_pairing("random", "greedy", CASINO, game_seeds(2, 1), bootstrap=0)
    run_a.write_json(a, command=["a"])
    run_b.write_json(b, command=["b"])
    result = arena.merge_results([a, b], bootstrap=20)
    (pr,) = result.pairings
    assert len(pr.games) == 6
    assert [g.margins for g in pr.games[4:]] == [g.margins for g in run_b.pairings[0].games]
    assert result.seeds == game_seeds(1, 2) + game_seeds(2, 1)
    assert pr.points_a == run_a.pairings[0].points_a + run_b.pairings[0].points_a
    assert result.ratings is not None
    with pytest.raises(ValueError, match="again; a deal counted twice"):
        arena.merge_results([a, a])
    kasino = tmp_path / "k.json"
    run_pairing("random", "greedy", preset("kasino"), [1], bootstrap=0).write_json(kasino)
    with pytest.raises(ValueError, match="other rules"):
        arena.merge_results([a, kasino])

    cli = runner.invoke(app, ["arena", "merge", str(a), str(b), "--out", str(merged),
                              "--bootstrap", "20"])
    assert cli.exit_code == 0, cli.output
    assert "2 result files merged" in cli.stdout
    data = json.loads(merged.read_text(encoding="utf-8"))
    assert data["command"][:3] == ["casino", "arena", "merge"]
    assert data["pairings"][0]["summary"]["games"] == 6
    for args, words in ((["--games", "3"], "not --games"), ([], None)):
        bad = runner.invoke(app, ["arena", "merge", str(a), *args] if words else
                            ["arena", "merge", str(tmp_path / "none.json")])
        assert bad.exit_code == 2 and "Traceback" not in bad.output
        assert (words or "no such file") in bad.stderr


def test_cli_levels_plays_each_level_against_the_one_below(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from casino.bots.levels import LEVELS, Level, Row, anywhere

    for name in LEVELS:   # stand-ins that play at once
        monkeypatch.setitem(LEVELS, name, Level(name, "", (Row(anywhere, "random"),)))
    out = tmp_path / "levels.json"
    result = runner.invoke(app, ["arena", "--levels", "--games", "1", "--seed", "4",
                                 "--out", str(out), "--bootstrap", "20"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    names = [f"level:{n}" for n in LEVELS]
    assert [(p["a"], p["b"]) for p in data["pairings"]] == [
        (high, low) for low, high in itertools.pairwise(names)]
    assert "--levels" in data["command"]
    for args, words in ((["--levels", "random", "greedy"], "give no bots"),
                        (["random", "greedy", "careful", "--also", "random"], "A,B"),
                        (["random", "greedy", "careful", "--also", "random,expert"],
                         "'expert' is not one of the bots"),
                        (["random", "greedy", "--also", "random,greedy"], "round robin")):
        bad = runner.invoke(app, ["arena", *args, "--games", "1"])
        assert bad.exit_code == 2, args
        assert words in bad.stderr and "Traceback" not in bad.output


def test_cli_also_adds_a_pairing_to_a_ladder(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    result = runner.invoke(app, ["arena", "random", "greedy", "careful", "--neighbours",
                                 "--also", "careful,random", "--games", "1", "--seed", "2",
                                 "--out", str(out), "--bootstrap", "20"])
    assert result.exit_code == 0, result.output
    pairs = [(p["a"], p["b"]) for p in json.loads(out.read_text())["pairings"]]
    assert pairs == [("random", "greedy"), ("greedy", "careful"), ("careful", "random")]


def test_with_several_jobs_each_pair_is_kept_as_it_finishes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal must hold what an interrupted run played: with several workers the
    first pair to finish is handed on while the others still play. Here the second
    pair waits until the first has been handed on (threads stand in for processes)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    handed = threading.Event()
    real = arena._play_pair

    def play(task: arena._Task) -> tuple[int, int, GameRecord, GameRecord]:
        if task.index == 1:
            # A net against a hang, not a measure: without streaming this never comes.
            assert handed.wait(60), "the first pair was not handed on before the last ended"
        return real(task)

    monkeypatch.setattr(arena, "ProcessPoolExecutor", ThreadPoolExecutor)
    monkeypatch.setattr(arena, "_play_pair", play)
    tasks = [arena._Task(0, i, ("random", "random"), CASINO, s, (Limit(), Limit()), 1)
             for i, s in enumerate(game_seeds(11, 2))]
    kept: list[int] = []

    def keep(pair: arena.PairDone) -> None:
        kept.append(pair[1])
        handed.set()

    out = arena._execute(tasks, 2, False, keep)
    assert kept == [0, 1] and [p[1] for p in out] == [0, 1]
