"""The examples people read run as written: every ``>>>`` example in a docstring of
src/casino (doctest), and the README's Python blocks (executed in order, in one
namespace, as a reader would type them into one session)."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "casino"
README = ROOT / "README.md"


def _modules_with_examples() -> list[str]:
    """The dotted names of the package's modules whose text holds a ``>>>`` prompt
    (found by reading, so a module whose front end is not installed is not imported
    until its test runs)."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = _modules_with_examples()


def test_the_package_has_examples_to_run() -> None:
    assert "casino.engine.partition" in MODULES  # the search found the ones known today


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    source = Path(module.__file__ or "").read_text(encoding="utf-8")
    tests = doctest.DocTestFinder().find(module, name)
    # Every prompt in the file is an example doctest runs: one in a comment, a string or
    # a nested function's docstring would be read by people and never checked.
    prompts = len(re.findall(r"^\s*>>>", source, re.M))
    assert sum(len(t.examples) for t in tests) == prompts, \
        f"{name}: doctest sees fewer examples than the {prompts} '>>>' lines of the file"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"


def _readme_blocks() -> list[tuple[int, str]]:
    """Each ```python block of the README with the number of its first code line."""
    text = README.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1))
            for m in re.finditer(r"^```python\n(.*?)^```", text, re.M | re.S)]


def test_the_readme_has_python_examples() -> None:
    assert len(_readme_blocks()) >= 3  # the engine, the bots, the research environment


def test_the_readme_python_blocks_run_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    namespace: dict[str, object] = {}
    for line, code in _readme_blocks():
        # Named README.md:<line> so a traceback points at the block.
        exec(compile(code, f"{README}:{line}", "exec"), namespace)
    out = capsys.readouterr().out
    # What the first block's comments promise it prints: the position and a refusal in words.
    assert "table:" in out and "you do not hold the K♦" in out
