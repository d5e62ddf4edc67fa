"""The translation catalogs' tool: extract, update, compile, check (Babel, a test tool).

``python tests/i18n_catalogs.py update`` (``make i18n``) extracts every message marked in
the Python code, the web's templates and its scripts (babel.cfg says where) into
``src/casino/locale/casino.pot``, brings each language's ``.po`` up to it (new messages
empty, gone ones dropped) and compiles each ``.po`` into the ``.mo`` the package ships.
``check`` (``make lint``, and tests/test_i18n.py) fails on a catalog out of date with the
sources, a message missing, empty or fuzzy, or a ``.mo`` that is not its ``.po`` compiled.

The output is reproducible: the dates in the headers are fixed, the messages sorted, and
the locations name the files without line numbers, so that a run on unchanged sources
changes no byte. The running program needs none of this: it reads the ``.mo`` files
with the standard library's gettext.
"""

from __future__ import annotations

import io
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "casino" / "locale"
TEMPLATE = LOCALE / "casino.pot"
#: The ids of the messages the web's scripts use: the pages embed only these
#: (casino.web.language.script_catalog), not the whole catalog.
SCRIPT_IDS = LOCALE / "script_messages.json"
#: The languages with a catalog (English, the source language, has none).
LANGS = ("fi", "sv")
#: The marks extraction looks for: gettext's own, and pN_ (a constant marked within a
#: context, translated where it is shown).
KEYWORDS = {**DEFAULT_KEYWORDS, "pN_": ((1, "c"), 2)}
#: The one date every header carries, so that the files change only when messages do.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
HEADER = "# The casino project's messages (see docs/translation.md).\n#"


def _fresh(locale: str | None) -> Catalog:
    """An empty catalog with the fixed header."""
    return Catalog(locale=locale, project="casino", version="1", header_comment=HEADER,
                   copyright_holder="the casino project", creation_date=FIXED_DATE,
                   revision_date=FIXED_DATE, charset="utf-8", fuzzy=False)


def extracted() -> Catalog:
    """Every message marked in the sources now, as a template catalog."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)  # type: ignore[no-untyped-call]
    catalog = _fresh(None)
    for filename, _line, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS,
            strip_comment_tags=True):
        catalog.add(message, None, [(filename, 0)], auto_comments=comments, context=context)
    return catalog


def _written(catalog: Catalog) -> bytes:
    """``catalog`` as a ``.po`` (or ``.pot``) file's bytes, sorted, without line numbers."""
    out = io.BytesIO()
    write_po(out, catalog, width=88, sort_output=True, include_lineno=False,
             ignore_obsolete=True)
    return out.getvalue()


def _compiled(catalog: Catalog) -> bytes:
    """``catalog`` as a ``.mo`` file's bytes (fuzzy entries left out)."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def po_path(lang: str) -> Path:
    """The ``.po`` file of ``lang``."""
    return LOCALE / lang / "LC_MESSAGES" / "casino.po"


def read(path: Path, lang: str | None = None) -> Catalog:
    """The catalog in ``path`` (empty for ``lang`` when there is none yet)."""
    if not path.exists():
        return _fresh(lang)
    with open(path, "rb") as handle:
        return read_po(handle, locale=lang)


def updated(template: Catalog, lang: str) -> Catalog:
    """The catalog of ``lang`` brought up to ``template``."""
    catalog = read(po_path(lang), lang)
    catalog.update(template, no_fuzzy_matching=True)
    catalog.creation_date = FIXED_DATE
    catalog.revision_date = FIXED_DATE
    catalog.header_comment = HEADER
    catalog.fuzzy = False
    return catalog


def script_ids(template: Catalog) -> bytes:
    """The file :data:`SCRIPT_IDS`: the sorted ids of the messages found in a script."""
    ids = sorted({m.id if isinstance(m.id, str) else m.id[0] for m in template
                  if m.id and any(path.endswith(".js") for path, _line in m.locations)})
    return (json.dumps(ids, ensure_ascii=False, indent=0) + "\n").encode()


def update() -> None:
    """Extract, update each language's catalog, compile."""
    template = extracted()
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_bytes(_written(template))
    SCRIPT_IDS.write_bytes(script_ids(template))
    for lang in LANGS:
        catalog = updated(template, lang)
        po_path(lang).parent.mkdir(parents=True, exist_ok=True)
        po_path(lang).write_bytes(_written(catalog))
        po_path(lang).with_suffix(".mo").write_bytes(_compiled(read(po_path(lang), lang)))


def _shown(path: Path) -> str:
    """``path`` as a message names it: from the checkout's root when it is inside."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def problems() -> list[str]:
    """What is wrong with the catalogs, one line each; empty when they are complete and
    up to date."""
    found: list[str] = []
    template = extracted()
    wanted = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
    if not TEMPLATE.exists() or TEMPLATE.read_bytes() != _written(template):
        found.append(f"{_shown(TEMPLATE)} is out of date with the sources: make i18n")
    if not SCRIPT_IDS.exists() or SCRIPT_IDS.read_bytes() != script_ids(template):
        found.append(f"{_shown(SCRIPT_IDS)} is out of date with the sources: make i18n")
    for lang in LANGS:
        catalog = read(po_path(lang), lang)
        have = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalog if m.id}
        found += [f"{lang}: missing {key[0]!r}" for key in sorted(wanted - have, key=str)]
        found += [f"{lang}: not in the sources {key[0]!r}"
                  for key in sorted(have - wanted, key=str)]
        for message in catalog:
            if not message.id:
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy or not all(strings):
                found.append(f"{lang}: fuzzy or empty {message.id!r}")
        mo = po_path(lang).with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != _compiled(catalog):
            found.append(f"{_shown(mo)} is not its .po compiled: make i18n")
    return found


def main(argv: list[str]) -> int:
    """``update`` or ``check``; 1 when the check finds anything."""
    if argv[1:] == ["update"]:
        update()
        return 0
    if argv[1:] == ["check"]:
        found = problems()
        for line in found:
            print(line, file=sys.stderr)
        return 1 if found else 0
    print("usage: i18n_catalogs.py update|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
