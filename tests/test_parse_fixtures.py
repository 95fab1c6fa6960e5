"""Every parser fixture: `crkb parse FILE --json` on each input gives its expected parse.

The inputs in tests/fixtures/parse are real snippets of the archive and the seeds, one or more per
input shape (official text 1999/2006/2009/2014/2016/2024, Chinese text, bilingual Markdown,
DokuWiki, web copies, HTML), with their ugly cases kept byte for byte: CR-only line endings, a
UTF-8 BOM, UTF-16, cp1252 and MacRoman bytes, `119.1d.`, `901.4.All`. Each `.expected.json` is
the spec of its shape; regenerate them with `python scripts/update_parse_fixtures.py` and read
the diff before committing it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crkb.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path("tests/fixtures/parse")
EXPECTED = ".expected.json"
NOTES = {"README.md", "snippets.json"}
SHAPES = ("en-1999", "en-2009", "en-2024", "zh-", "md-", "doku-", "web-", "html-")


def _inputs() -> list[str]:
    """Every fixture input: the folder's files but the expected parses and the notes."""
    return sorted(
        p.name
        for p in (ROOT / FIXTURES).iterdir()
        if p.is_file() and p.name not in NOTES and not p.name.endswith(EXPECTED)
    )


def test_every_input_shape_has_a_fixture() -> None:
    names = _inputs()
    for shape in SHAPES:
        assert any(n.startswith(shape) for n in names), f"no parser fixture for {shape}"
    for name in names:
        assert (ROOT / FIXTURES / (name + EXPECTED)).is_file(), f"{name} has no expected parse"


@pytest.mark.parametrize("name", _inputs())
def test_parse_matches_expected(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    path = FIXTURES / name
    expected = json.loads((ROOT / FIXTURES / (name + EXPECTED)).read_text(encoding="utf-8"))
    code = main(["parse", str(path), "--json"])
    out, err = capsys.readouterr()
    if "exit" in expected:  # a refused input: its one-line reason
        assert (code, err) == (expected["exit"], expected["stderr"])
        return
    assert code == 0, err
    assert json.loads(out) == expected
