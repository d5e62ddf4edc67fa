"""The project's documents stand on their own: every reference points into the repository.

The rules, the position contract and the architecture live in docs/ (rules.md,
position.md, architecture.md). Code, tests and docs cite them by section
(``docs/rules.md §2.5``, ``docs/rules.md K2``), so these tests check that:

- nothing names a specification file that is not in the repository, or a path
  outside it;
- every section or decision cited exists in the document cited, and no ``§``
  in code, tests or benchmarks is left without naming its document;
- every relative link in docs/, research/ and README.md reaches an existing file (and
  heading, when it names one);
- the JSON example and the Python example of docs/position.md still work.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from casino import Position
from tests.doc_helpers import FENCE, HEADING, anchors, read, slug

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: Names of documents kept outside the repository, and the way out of it. Spelled in
#: pieces so that this file does not match its own check.
FOREIGN = ("RULES" + ".md", "POSITION" + ".md", "DESIGN" + ".md", "RULES" + "-SOURCES",
           ".." + "/shared")

#: Text files of the repository that may cite a document.
TEXT_SUFFIXES = {".py", ".md", ".txt", ".toml", ".cfg", ".ini", ".html", ".js", ".css",
                 ".json", ".svg", ".tcss", ".sql", ".yaml", ".yml"}

#: One reference: a section (``§2.5``, ``§3``, a range ``§2.4-2.5`` or ``§3-§6``) or,
#: in rules.md, a decision label (``K2``, a range ``K1-K9``).
_REF = (r"(?:§\d+(?:\.\d+)?(?:\s*[-–]\s*§?\d+(?:\.\d+)?)?"
        r"|[A-HKNP]\d{1,2}(?:\s*[-–]\s*[A-HKNP]?\d{1,2})?)(?![\w.]\w)")
#: A citation: the document's name, then one or more references separated by commas,
#: semicolons, "and" or white space (line breaks included, as in a wrapped docstring).
CITATION = re.compile(
    r"(?P<doc>rules|position)\.md(?P<run>(?:(?:\s*[,;]\s*|\s+and\s+|\s+)" + _REF + r")+)")
_ONE_REF = re.compile(_REF)
SECTION = re.compile(r"^(\d+(?:\.\d+)?)\.?\s")
LABEL = re.compile(r"\*\*([A-HKNP]\d{1,2})\.")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")

#: Where a bare ``§`` in a document points: its own sections, except architecture.md,
#: whose section references are all to rules.md (it says so).
BARE_TARGET = {"rules.md": "rules.md", "position.md": "position.md",
               "architecture.md": "rules.md"}


def project_files() -> Iterator[Path]:
    """The text files of src/, tests/, docs/, benchmarks/, research/, examples/ and
    README.md."""
    yield ROOT / "README.md"
    for top in ("src", "tests", "docs", "benchmarks", "research", "examples"):
        for path in sorted((ROOT / top).rglob("*")):
            if (path.is_file() and path.suffix in TEXT_SUFFIXES
                    and "__pycache__" not in path.parts):
                yield path


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def sections(doc: str) -> set[str]:
    """The numbers of a document's numbered headings: ``## 2. ...`` gives ``2``,
    ``### 2.5 ...`` gives ``2.5``."""
    out = set()
    for line in read(DOCS / doc).splitlines():
        m = HEADING.match(line)
        if m:
            s = SECTION.match(m.group(2))
            if s:
                out.add(s.group(1))
    return out


def labels() -> set[str]:
    """The decision labels of rules.md (``**K2.``)."""
    return set(LABEL.findall(read(DOCS / "rules.md")))


def _expand(ref: str) -> list[str]:
    """The sections or labels one reference names: both ends of a section range, every
    label of a label range."""
    ref = ref.replace("–", "-").replace(" ", "")
    if ref.startswith("§"):
        return [part.lstrip("§") for part in ref.split("-")]
    m = re.fullmatch(r"([A-HKNP])(\d+)(?:-[A-HKNP]?(\d+))?", ref)
    assert m, ref
    first = int(m.group(2))
    last = int(m.group(3)) if m.group(3) else first
    return [f"{m.group(1)}{n}" for n in range(first, last + 1)]


def line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


# ----------------------------------------------------------------------
# Nothing points outside the repository


def test_no_reference_to_documents_outside_the_repository() -> None:
    found = []
    for path in project_files():
        text = read(path)
        for name in FOREIGN:
            at = text.find(name)
            if at >= 0:
                found.append(f"{rel(path)}:{line_of(text, at)}: {name}")
    assert not found, "references to documents the repository lacks:\n" + "\n".join(found)


# ----------------------------------------------------------------------
# Every citation resolves


def test_the_citation_pattern_reads_the_forms_in_use() -> None:
    """The forms the code uses, so that a change to the pattern is noticed."""
    def refs(text: str) -> list[str]:
        return [r for m in CITATION.finditer(text)
                for one in _ONE_REF.findall(m.group("run")) for r in _expand(one)]
    assert refs("(docs/rules.md §2.4-2.5, §3)") == ["2.4", "2.5", "3"]
    assert refs("docs/rules.md §2.7, §3-§6 plus") == ["2.7", "3", "6"]
    assert refs("(docs/rules.md §4, N1-N3)") == ["4", "N1", "N2", "N3"]
    assert refs("docs/rules.md\n    §2.6, §4, F2).") == ["2.6", "4", "F2"]
    assert refs("[rules.md §9.21](rules.md#921-x)") == ["9.21"]
    assert refs("docs/position.md §2.5 and §1.3") == ["2.5", "1.3"]
    assert refs("docs/rules.md. Then") == []


def test_every_cited_section_and_decision_exists() -> None:
    known = {"rules.md": sections("rules.md") | labels(), "position.md": sections("position.md")}
    assert {"1", "2.5", "9.21"} <= known["rules.md"] and {"K2", "A1", "P5"} <= known["rules.md"]
    missing = []
    for path in project_files():
        text = read(path)
        for m in CITATION.finditer(text):
            doc = m.group("doc") + ".md"
            for one in _ONE_REF.findall(m.group("run")):
                for ref in _expand(one):
                    if ref not in known[doc]:
                        missing.append(f"{rel(path)}:{line_of(text, m.start())}: {doc} {ref}")
    assert not missing, "citations of sections that do not exist:\n" + "\n".join(missing)


def test_no_section_sign_without_its_document() -> None:
    """A ``§`` outside docs/ is part of a citation naming its document; in docs/, a bare
    ``§`` is allowed only where the document says what it refers to, and it exists."""
    known = {doc: sections(doc) for doc in ("rules.md", "position.md")}
    bad = []
    for path in project_files():
        if path == Path(__file__).resolve():
            continue  # the examples of this file's own pattern
        text = read(path)
        covered: set[int] = set()
        for m in CITATION.finditer(text):
            covered.update(range(m.start(), m.end()))
        target = BARE_TARGET.get(path.name) if path.parent == DOCS else None
        for m in re.finditer(r"§(\d+(?:\.\d+)?)", text):
            if m.start() in covered:
                continue
            where = f"{rel(path)}:{line_of(text, m.start())}"
            if target is None:
                bad.append(f"{where}: {m.group(0)} names no document")
            elif m.group(1) not in known[target]:
                bad.append(f"{where}: {m.group(0)} is not a section of {target}")
    assert not bad, "\n".join(bad)


# ----------------------------------------------------------------------
# Links


def test_slug_follows_github() -> None:
    assert slug("9.21 An owner without a card of the build's value") == (
        "921-an-owner-without-a-card-of-the-builds-value")
    assert slug("6.5 Tablić `tablic`") == "65-tablić-tablic"
    assert slug("1. The JSON form, `casino-position/1`") == "1-the-json-form-casino-position1"


@pytest.mark.parametrize("path", [ROOT / "README.md", *sorted(DOCS.glob("*.md")),
                                  *sorted((ROOT / "research").glob("*.md"))],
                         ids=lambda p: rel(p))
def test_relative_links_resolve(path: Path) -> None:
    broken = []
    text = FENCE.sub("", read(path))
    for m in LINK.finditer(text):
        target = m.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue  # http:, https:, mailto:
        file_part, _, fragment = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(f"{target}: no heading #{fragment} in {rel(dest)}")
    assert not broken, f"{rel(path)}:\n" + "\n".join(broken)


# ----------------------------------------------------------------------
# The examples of docs/position.md


def _blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.M | re.S)


def test_position_md_json_examples_are_what_the_engine_reads() -> None:
    position, result = _blocks(read(DOCS / "position.md"), "json")
    obj = json.loads(position)
    pos = Position.from_json(obj)
    assert Position.from_json(json.dumps(pos.to_json())) == pos
    assert pos.observation(pos.to_move) == pos.to_json()  # it is that seat's view
    items = json.loads(result)["items"]
    assert all(set(i) == {"item", "seat", "points"} for i in items)
    assert sum(i["points"] for i in items) == 11  # a house round without sweeps


def test_position_md_python_example_runs() -> None:
    (code,) = _blocks(read(DOCS / "position.md"), "python")
    exec(compile(code, str(DOCS / "position.md"), "exec"), {})
