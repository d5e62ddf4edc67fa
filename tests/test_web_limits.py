"""The server's limits as named settings: ``casino serve --limit NAME=VALUE``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from casino.web.limits import Limits, address_key, network_key
from casino.web.settings import GROUP_OF, GROUPS, LimitGroups, limits_from


def test_settings_change_only_the_limits_they_name() -> None:
    limits = limits_from(["rooms_per_address=5", "hint_wait = 2.5", "room_lifetime=60"])
    assert (limits.rooms_per_address, limits.hint_wait, limits.room_lifetime) == (5, 2.5, 60)
    assert limits.waiting_rooms == Limits().waiting_rooms
    assert limits_from([]) == Limits()


@pytest.mark.parametrize(("setting", "words"), [
    ("rooms", "a limit is NAME=VALUE"),
    ("rooms=3", "there is no limit 'rooms'; the limits are abandon_after, body_bytes"),
    ("rooms_per_address=2.5", "rooms_per_address takes a whole number, not '2.5'"),
    ("hint_wait=soon", "hint_wait takes a number, not 'soon'"),
    ("hint_wait=0", "must be more than 0"),
    ("hint_wait=nan", "must be more than 0"),
    ("hint_wait=inf", "must be more than 0"),
    ("waiting_rooms=-4", "must be more than 0, not -4"),
])
def test_a_bad_setting_says_what_is_wrong(setting: str, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace(".", r"\.")):
        limits_from([setting])


@pytest.mark.parametrize("setting", ["rooms_per_address=5.0", "body_bytes=1e6",
                                     "message_burst=true"])
def test_a_whole_number_limit_refuses_what_int_refused(setting: str) -> None:
    name = setting.partition("=")[0]
    with pytest.raises(ValueError, match=f"the limit {name} takes a whole number"):
        limits_from([setting])


def test_a_limit_may_be_named_under_its_group() -> None:
    assert limits_from(["rooms.rooms_per_address=5", "thinking.hint_wait=2.5"]) == \
        limits_from(["rooms_per_address=5", "hint_wait=2.5"])
    with pytest.raises(ValueError, match=r"there is no limit 'moves\.rooms_per_address'"):
        limits_from(["moves.rooms_per_address=5"])  # a limit under another group is not it


def test_every_limit_is_in_exactly_one_group_with_its_default() -> None:
    flat = [f for f in Limits.__dataclass_fields__]
    assert sorted(GROUP_OF) == sorted(flat)  # every flat name, each in one group
    assert set(GROUP_OF.values()) == set(GROUPS)
    assert LimitGroups().flat() == Limits()  # the same defaults


def test_the_grouped_limits_round_trip() -> None:
    limits = limits_from(["rooms_per_address=7", "think_seconds=12.5", "db_threads=2",
                          "body_bytes=4096"])
    groups = LimitGroups.from_flat(limits)
    assert (groups.rooms.rooms_per_address, groups.thinking.think_seconds,
            groups.storage.db_threads, groups.connections.body_bytes) == (7, 12.5, 2, 4096)
    assert groups.flat() == limits
    assert LimitGroups.model_validate_json(groups.model_dump_json()) == groups
    with pytest.raises(ValueError, match="hint_wait"):
        LimitGroups.from_flat(Limits(hint_wait=0))  # a flat Limits is checked too
    with pytest.raises(ValueError, match="no_such_limit"):
        LimitGroups.model_validate({"rooms": {"no_such_limit": 1}})


def test_casino_serve_refuses_a_bad_limit_before_it_listens(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("casino")
    done = subprocess.run([str(script), "serve", "--database", f"sqlite:///{tmp_path}/x.db",
                           "--limit", "rooms_per_address=many"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "the limit rooms_per_address takes a whole number, not 'many'" in done.stderr
    assert not (tmp_path / "x.db").exists()  # refused before anything was opened


@pytest.mark.parametrize(("host", "key"), [
    ("203.0.113.7", "203.0.113.7"),
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff:1:2:3", "2001:db8:1:2::/64"),  # the same subscriber's /64
    ("::ffff:203.0.113.7", "203.0.113.7"),
    ("testclient", "testclient"),
])
def test_limits_count_an_ipv6_subscriber_by_its_network(host: str, key: str) -> None:
    assert address_key(host) == key


@pytest.mark.parametrize(("host", "key"), [
    ("203.0.113.7", "203.0.113.0/24"),
    ("::ffff:203.0.113.99", "203.0.113.0/24"),
    ("2001:db8:1:2:aaaa::1", "2001:db8:1::/48"),
    ("2001:db8:1:ffff::9", "2001:db8:1::/48"),  # another /64 of the same /48
    ("testclient", "network of testclient"),  # never the same key as the address's
])
def test_a_network_is_an_ipv4_24_or_an_ipv6_48(host: str, key: str) -> None:
    assert network_key(host) == key
