"""scripts/eval_search.py on a fresh clone: with no ../shared/corpus it reads the served build."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import eval_search  # noqa: E402


def served_build_argv(
    build: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rows: list[str]
) -> list[str]:
    """Arguments measuring judged `rows` on the served build `build` (no corpus beside it)."""
    judged = tmp_path / "judged.tsv"
    judged.write_text("\n".join(rows) + "\n", encoding="utf-8")
    monkeypatch.setenv("CRKB_DATA", str(build))
    return ["--corpus", str(tmp_path / "none"), "--queries", str(judged), "--no-misses"]


def test_with_no_corpus_and_no_build_it_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CRKB_DATA", str(tmp_path / "data"))
    assert eval_search.main(["--corpus", str(tmp_path / "none"), "--no-misses"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--corpus" in err and "crkb build" in err


def test_with_no_corpus_it_measures_the_served_build(
    archive_build: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = served_build_argv(archive_build, tmp_path, monkeypatch, ["k1\ten\ttrample\t702.19\tk"])
    assert eval_search.main(argv) == 0
    assert "en   n=  1  MRR@10=1.000  recall@5=1.000" in capsys.readouterr().out


def test_batches_are_measured_apart_when_asked(
    archive_build: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = ["a1\ten\ttrample\t702.19\tkeyword", "b1\ten\ttrample\t100.1\tnot the answer"]
    argv = served_build_argv(archive_build, tmp_path, monkeypatch, rows)
    assert eval_search.main([*argv, "--batches"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "en   n=  2  MRR@10=0.500  recall@5=0.500" in lines
    assert lines[-2:] == [
        "a en n=  1  MRR@10=1.000  recall@5=1.000",
        "b en n=  1  MRR@10=0.000  recall@5=0.000",
    ]
    assert eval_search.main(argv) == 0
    assert not any(line.startswith("a en") for line in capsys.readouterr().out.splitlines())
