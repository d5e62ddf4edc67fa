"""casino.engine.files: the words for a file that cannot be read or written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from casino.engine.files import file_error


def _error(action: str, path: Path) -> OSError:
    try:
        if action == "read":
            path.read_text(encoding="utf-8")
        else:
            tmp = path.with_name(path.name + ".tmp")  # as an atomic write does
            tmp.write_text("x", encoding="utf-8")
    except OSError as exc:
        return exc
    raise AssertionError("no error")


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    assert file_error(_error("read", path), path) == f"no such file: {path}"


def test_missing_folder_when_reading(tmp_path: Path) -> None:
    path = tmp_path / "games" / "x.txt"
    assert file_error(_error("read", path), path) == (
        f"no such file: {path} (the folder {tmp_path / 'games'}/ does not exist)")


def test_missing_folder_when_writing_names_the_folder_not_the_tmp_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = Path("games/x.txt")
    words = file_error(_error("write", path), path, "write")
    assert words == "cannot write games/x.txt: the folder games/ does not exist"
    assert ".tmp" not in words and "Errno" not in words


def test_folder_instead_of_file(tmp_path: Path) -> None:
    assert file_error(_error("read", tmp_path), tmp_path) == (
        f"cannot read {tmp_path}: it is a folder, not a file")


def test_file_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "games").write_text("", encoding="utf-8")
    path = tmp_path / "games" / "x.txt"
    assert file_error(_error("write", path), path, "write") == (
        f"cannot write {path}: {tmp_path / 'games'} is a file, not a folder")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads everything")
def test_permission(tmp_path: Path) -> None:
    path = tmp_path / "secret.txt"
    path.write_text("x", encoding="utf-8")
    path.chmod(0)
    assert file_error(_error("read", path), path) == f"cannot read {path}: permission denied"


def test_not_text(tmp_path: Path) -> None:
    path = tmp_path / "bin"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(UnicodeDecodeError) as info:
        path.read_text(encoding="utf-8")
    assert file_error(info.value, path) == f"cannot read {path}: it is not a text file (UTF-8)"
