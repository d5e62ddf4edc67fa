"""Words for a file that cannot be read or written, the same in every command.

Python's own text for an ``OSError`` ("[Errno 2] No such file or directory:
'games/x.json.tmp'") names an errno and, for an atomic write, the temporary
file the person never asked for. :func:`file_error` says instead what went
wrong with the path the person gave, and what to do about it when that is
clear: ``no such file: games/x.txt``, ``cannot write games/x.txt: the folder
games/ does not exist``. Every command that reads or writes a file turns its
``OSError`` (and a read's ``UnicodeDecodeError``) into words here, and only here.

The module imports nothing beyond the standard library, so the command line can
use it without loading the engine.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Literal

Action = Literal["read", "write"]


def _folder(path: Path) -> str:
    """A folder as the person would type it: ``games/``, ``./`` for the current one."""
    text = str(path)
    return "./" if text in ("", ".") else text.rstrip("/") + "/"


def _missing_folder(path: Path) -> Path | None:
    """The first folder on the way to ``path`` that does not exist (None: all exist)."""
    parent = path.parent
    missing = None
    while not parent.exists() and parent != parent.parent:
        missing = parent
        parent = parent.parent
    return missing


def _file_in_the_way(path: Path) -> Path | None:
    """A plain file standing where ``path`` needs a folder, if there is one."""
    for parent in path.parents:
        if parent.exists():
            return parent if not parent.is_dir() else None
    return None


def file_error(exc: OSError | UnicodeDecodeError, path: str | os.PathLike[str],
               action: Action = "read") -> str:
    """What went wrong reading or writing ``path``, in words (without "casino: ").

    ``path`` is the file the person named, not the temporary file an atomic write
    may have been writing when it failed: the words never mention ``.tmp`` files or
    errno numbers.
    """
    p = Path(path)
    shown = str(path)
    if isinstance(exc, UnicodeDecodeError):
        return f"cannot read {shown}: it is not a text file (UTF-8)"
    code = exc.errno
    if action == "read":
        if code == errno.ENOENT or isinstance(exc, FileNotFoundError):
            missing = _missing_folder(p)
            if missing is not None:
                return f"no such file: {shown} (the folder {_folder(missing)} does not exist)"
            return f"no such file: {shown}"
        if code == errno.EISDIR or isinstance(exc, IsADirectoryError) or p.is_dir():
            return f"cannot read {shown}: it is a folder, not a file"
        if code == errno.ENOTDIR or isinstance(exc, NotADirectoryError):
            blocker = _file_in_the_way(p)
            if blocker is not None:
                return f"no such file: {shown} ({blocker} is a file, not a folder)"
            return f"no such file: {shown}"
        if code in (errno.EACCES, errno.EPERM) or isinstance(exc, PermissionError):
            return f"cannot read {shown}: permission denied"
    else:
        return f"cannot write {shown}: {write_reason(exc, p)}"
    reason = (exc.strerror or str(exc)).strip()
    reason = reason[:1].lower() + reason[1:]
    return f"cannot {action} {shown}: {reason}"


def write_reason(exc: OSError, path: str | os.PathLike[str]) -> str:
    """Why ``exc`` kept ``path`` from being written, in a few plain words: what
    :func:`file_error` says after "cannot write PATH: ", and what a record's
    :class:`~casino.engine.record.SaveError` says."""
    p = Path(path)
    code = exc.errno
    if code == errno.ENOENT or isinstance(exc, FileNotFoundError):
        missing = _missing_folder(p)
        folder = missing if missing is not None else p.parent
        return f"the folder {_folder(folder)} does not exist"
    if code == errno.EISDIR or isinstance(exc, IsADirectoryError) or p.is_dir():
        return "it is a folder; name a file inside it"
    # ENOTDIR, or EEXIST from making the folders first (mkdir(parents=True)).
    if code in (errno.ENOTDIR, errno.EEXIST) or isinstance(exc, NotADirectoryError):
        blocker = _file_in_the_way(p)
        if blocker is not None:
            return f"{blocker} is a file, not a folder"
    if code in (errno.EACCES, errno.EPERM) or isinstance(exc, PermissionError):
        return "permission denied"
    if code == errno.ENOSPC:
        return "the disk is full"
    if code == errno.EROFS:
        return "the disk is read-only"
    reason = (exc.strerror or str(exc)).strip()
    return reason[:1].lower() + reason[1:]
