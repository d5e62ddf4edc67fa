"""One writer per move: a change is stored only against the game's current version (a
compare-and-set in the database), so of two moves made for the same turn by two
servers sharing one database, exactly one is stored; the other is answered "the game
has moved on" and changes nothing, and the game reloads as stored."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from casino.web import create_app
from casino.web.service import MOVED_ON, GameError, GameService, LiveGame
from casino.web.store import MovedOn
from tests.web_helpers import FAST, db_url

with warnings.catch_warnings():  # Starlette would rather use httpx2, which is not pinned
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient


def service_of(client: TestClient) -> GameService:
    return client.app.state.service  # type: ignore[attr-defined,no-any-return]


def test_of_two_moves_for_one_turn_on_two_servers_one_is_stored(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    with TestClient(create_app(url, pool_workers=0, limits=FAST)) as a, \
            TestClient(create_app(url, pool_workers=0, limits=FAST)) as b:
        one, two = service_of(a), service_of(b)

        async def make() -> str:
            created = one.rooms.create(rules="casino", players=2, level="beginner",
                                 mode="friends", name="Ann", seed=4)
            assert created.invite is not None
            await one.rooms.join(created.game, created.invite.rsplit("/", 1)[1], "Bob")
            return str(created.game)

        gid: str = a.portal.call(make)  # type: ignore[union-attr]

        async def both_load() -> tuple[LiveGame, int, list[str]]:
            ga, gb = await one.live.get(gid), await two.live.get(gid)
            assert ga is not None and gb is not None and ga.version == gb.version
            pos = ga.session.match.position
            return ga, pos.to_move, [str(m) for m in pos.legal_moves()[:2]]

        ga, seat, (first, second) = a.portal.call(both_load)  # type: ignore[union-attr]
        # Server a keeps the game as it loaded it: on PostgreSQL it would soon hear of b's
        # move and read the game again, so here it hears nothing (as if b's notice were
        # still on its way when a's player moves).
        if one.live.listener is not None:
            a.portal.call(one.live.listener.close)  # type: ignore[union-attr]

        async def play_on_b() -> int:
            gb = await two.live.get(gid)
            assert gb is not None
            await two.turns.play(gb, seat, first)
            return gb.version

        stored = b.portal.call(play_on_b)  # type: ignore[union-attr]

        async def play_on_a() -> str:
            assert ga.version == stored - 1  # a still has the old turn
            try:
                await one.turns.play(ga, seat, second)
            except GameError as exc:
                assert exc.status == 409
                return exc.message
            raise AssertionError("a second move for the same turn was stored")

        assert a.portal.call(play_on_a) == MOVED_ON  # type: ignore[union-attr]

        async def reloaded() -> tuple[int, str]:
            ga = await one.live.get(gid)  # dropped, so loaded again as stored
            assert ga is not None
            return ga.version, ga.session.record_text()

        version, record = a.portal.call(reloaded)  # type: ignore[union-attr]
        stored_game = one.store.load(gid)
        assert stored_game is not None
        assert version == stored == stored_game.version
        assert record == stored_game.record and f" {first}" in record.replace("\n", " ")


def test_the_store_refuses_a_change_against_an_old_version(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    with TestClient(create_app(url, pool_workers=0, limits=FAST)) as a:
        service = service_of(a)
        created = service.rooms.create(rules="casino", players=2, level="beginner",
                                 mode="computer", name="Ann", seed=4)
        stored = service.store.load(created.game)
        assert stored is not None
        with pytest.raises(MovedOn):
            service.store.save(created.game, record="changed", status=stored.status,
                               version=stored.version + 5, events=[])
        again = service.store.load(created.game)
        assert again is not None and again.record == stored.record
        assert again.version == stored.version
