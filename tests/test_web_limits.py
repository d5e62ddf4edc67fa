"""The server's limits as named settings: ``casino serve --limit NAME=VALUE``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from casino.web.limits import Limits, address_key, limits_from, network_key


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
