"""The web server's one settings model (``casino.web.settings``): the database named by
``CASINO_DATABASE_URL`` for ``casino serve``, ``create_app`` and the migrations alike,
the older ``DATABASE_URL`` still read with one warning, and nothing else taken from the
environment."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from casino.web import settings as web_settings
from casino.web.settings import (
    DATABASE_ENV,
    DEPRECATED_DATABASE_ENV,
    ServerSettings,
    database_from_environment,
)
from casino.web.store import DEFAULT_DATABASE_URL, database_url
from tests.web_helpers import db_url


@pytest.fixture(autouse=True)
def no_database_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with neither variable set and the warning not yet given."""
    monkeypatch.delenv(DATABASE_ENV, raising=False)
    monkeypatch.delenv(DEPRECATED_DATABASE_ENV, raising=False)
    monkeypatch.setattr(web_settings._DatabaseFromEnvironment, "warned", False)


def test_the_database_is_named_by_casino_database_url(monkeypatch: pytest.MonkeyPatch,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    assert DATABASE_ENV == "CASINO_DATABASE_URL"
    assert database_from_environment() == DEFAULT_DATABASE_URL
    monkeypatch.setenv(DATABASE_ENV, "sqlite:///new.db")
    monkeypatch.setenv(DEPRECATED_DATABASE_ENV, "sqlite:///old.db")
    with caplog.at_level(logging.WARNING, logger="casino.web.settings"):
        assert database_from_environment() == "sqlite:///new.db"  # the new name wins
    assert caplog.records == []  # and the old one, unused, is not warned of


def test_database_url_still_works_and_warns_once(monkeypatch: pytest.MonkeyPatch,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv(DEPRECATED_DATABASE_ENV, "sqlite:///old.db")
    with caplog.at_level(logging.WARNING, logger="casino.web.settings"):
        assert database_from_environment() == "sqlite:///old.db"
        assert database_from_environment() == "sqlite:///old.db"
    warnings = [r.getMessage() for r in caplog.records]
    assert warnings == ["DATABASE_URL is deprecated: name the database with "
                        "CASINO_DATABASE_URL instead"]


def test_an_empty_variable_counts_as_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATABASE_ENV, "")
    monkeypatch.setenv(DEPRECATED_DATABASE_ENV, "sqlite:///old.db")
    assert database_from_environment() == "sqlite:///old.db"
    monkeypatch.setenv(DEPRECATED_DATABASE_ENV, "")
    assert database_from_environment() == DEFAULT_DATABASE_URL


def test_a_given_database_wins_and_is_not_warned_of(monkeypatch: pytest.MonkeyPatch,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv(DEPRECATED_DATABASE_ENV, "sqlite:///old.db")
    with caplog.at_level(logging.WARNING, logger="casino.web.settings"):
        assert ServerSettings(database_url="sqlite:///given.db").database_url == \
            "sqlite:///given.db"
    assert caplog.records == []


def test_only_the_database_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASINO_POOL_WORKERS", "not a number")
    monkeypatch.setenv("CASINO_LIMITS", "{not json")
    monkeypatch.setenv("CASINO_BOT_PAUSE", "9")
    settings = ServerSettings()
    assert (settings.pool_workers, settings.bot_pause) == (1, 0.6)


@pytest.mark.parametrize(("given", "field"), [({"pool_workers": -1}, "pool_workers"),
                                              ({"bot_pause": float("inf")}, "bot_pause"),
                                              ({"no_such_setting": 1}, "no_such_setting")])
def test_a_bad_setting_is_refused_by_its_name(given: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        ServerSettings.model_validate(given)


def test_create_app_reads_casino_database_url(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from casino.web import create_app

    url = db_url(tmp_path, "new.db")
    monkeypatch.setenv(DATABASE_ENV, url)
    app = create_app(pool_workers=0)
    assert app.state.store.url == database_url(url)
    app.state.store.close()


def test_the_migrations_read_the_same_variables(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``alembic`` command's env.py upgrades the database ``casino serve`` would open,
    the deprecated name included."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from casino.web import migrations

    url = db_url(tmp_path, "old-name.db")
    monkeypatch.setenv(DEPRECATED_DATABASE_ENV, url)
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations.HERE))
    command.upgrade(cfg, "head")
    engine = create_engine(database_url(url))
    assert migrations.current(engine) == migrations.head()
    engine.dispose()
