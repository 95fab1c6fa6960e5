"""A corpus with junk beside good files: each bad file named with its reason, the good ones
built, `--strict` refusing, and a build of nothing usable changing nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.archive

GOOD_EN = "2024-04-10.txt"


def crkb(*args: str, data: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "CRKB_DATA": str(data)}
    return subprocess.run(
        [sys.executable, "-m", "crkb", *args], capture_output=True, text=True, env=env, timeout=600
    )


@pytest.fixture(scope="module")
def junk_corpus(archive: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """Two good releases (one in both languages) and one file of every kind of junk."""
    corpus = tmp_path_factory.mktemp("junk-corpus")
    good = (archive / "en" / "txt" / GOOD_EN).read_bytes()
    (corpus / GOOD_EN).write_bytes(good)
    (corpus / "zh-2024-04-10.txt").write_bytes((archive / "zh" / "txt" / GOOD_EN).read_bytes())
    older = (archive / "en" / "txt" / "2023-11-17.txt").read_bytes()
    junk = {
        "empty.txt": (b"", "empty file"),
        "binary.txt": (bytes(range(256)) * 64, "binary"),
        "oneline.txt": (b"702.2a " + b"x" * 5_000_000, "line longer"),
        "notes.txt": (b"Shopping list\n\nMilk\nEggs\nBread\n" * 40, "not a rules document"),
        "copy-of-2024-04-10.txt": (good, "another copy of release 2024-04-12"),
    }
    for name, (content, _reason) in junk.items():
        (corpus / name).write_bytes(content)
    # a truncated release with no whole copy beside it is stored, flagged as truncated
    (corpus / "2023-11-17.txt").write_bytes(older[: len(older) // 2])
    # a bilingual web page of a release whose official texts are here; a site's credits page
    # (in a folder named by the release's date), the same page naming no release at all
    page = (archive / "zh/markdown/2024-04-10/9.md").read_bytes()
    (corpus / "site" / "2024-04-10").mkdir(parents=True)
    (corpus / "site" / "2024-04-10" / "9.md").write_bytes(page)
    (corpus / "site" / "9.md").write_bytes(page)
    credits = (archive / "zh/dokuwiki/2021-09-24/credits.txt").read_bytes()
    (corpus / "site" / "credits.txt").write_bytes(credits)
    return corpus, {name: reason for name, (_c, reason) in junk.items()}


def test_each_junk_file_is_named_with_its_reason_and_the_good_files_are_built(
    junk_corpus: tuple[Path, dict], tmp_path: Path
):
    corpus, reasons = junk_corpus
    out = crkb("build", "--no-bundled", "--corpus", str(corpus), data=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    lines = [ln for ln in out.stderr.splitlines() if ln.startswith(("skipped:", "flagged:"))]
    for name, reason in reasons.items():
        named = [ln for ln in lines if str(corpus / name) in ln]
        assert len(named) == 1 and reason in named[0], (name, named)
    truncated = [ln for ln in lines if "2023-11-17.txt" in ln]
    assert len(truncated) == 1 and truncated[0].startswith("flagged:")
    assert "truncated" in truncated[0]
    page = [ln for ln in lines if str(corpus / "site" / "2024-04-10" / "9.md") in ln]
    assert len(page) == 2 and all(ln.startswith("skipped:") for ln in page)  # en and zh
    assert all("a copy of release 2024-04-12" in ln and "is used" in ln for ln in page)
    undated = [ln for ln in lines if str(corpus / "site" / "9.md:") in ln]
    assert len(undated) == 2 and all("no release date" in ln for ln in undated)
    assert len(lines) == len(reasons) + 5  # nothing else complained about
    credits = [ln for ln in out.stderr.splitlines() if ln.startswith("recognised, not stored:")]
    assert len(credits) == 1 and str(corpus / "site" / "credits.txt") in credits[0]

    versions = json.loads(crkb("versions", "--json", data=tmp_path).stdout)["versions"]
    by_id = {v["id"]: v for v in versions}
    assert set(by_id) == {"2023-11-17", "2024-04-12"}
    assert set(by_id["2024-04-12"]["langs"]) == {"en", "zh"}
    assert by_id["2023-11-17"]["flags"].get("truncated") is True
    shown = json.loads(crkb("show", "702.2c", "--json", data=tmp_path).stdout)
    assert shown["number"] == "702.2c" and shown["version"] == "2024-04-12"
    assert shown["text"].startswith("Any nonzero amount of combat damage")


def test_strict_refuses_any_junk_and_keeps_the_previous_build(
    junk_corpus: tuple[Path, dict], tmp_path: Path
):
    corpus, reasons = junk_corpus
    assert crkb("build", "--no-bundled", "--corpus", str(corpus), data=tmp_path).returncode == 0
    before = crkb("versions", "--json", data=tmp_path).stdout
    link = os.readlink(tmp_path / "current")
    strict = crkb("build", "--no-bundled", "--corpus", str(corpus), "--strict", data=tmp_path)
    assert strict.returncode == 2
    err = strict.stderr.strip().splitlines()
    assert err[-1].startswith("crkb build: --strict:") and "Traceback" not in strict.stderr
    assert os.readlink(tmp_path / "current") == link
    assert crkb("versions", "--json", data=tmp_path).stdout == before

    # each kind alone is enough for --strict to refuse
    for name in [*reasons, "2023-11-17.txt"]:
        single = tmp_path / f"single-{name}"
        single.mkdir()
        (single / GOOD_EN).write_bytes((corpus / GOOD_EN).read_bytes())
        (single / name).write_bytes((corpus / name).read_bytes())
        one = crkb(
            "build", "--no-bundled", "--corpus", str(single), "--strict", data=tmp_path / "strict"
        )
        assert one.returncode == 2 and str(single / name) in one.stderr, name
    assert not (tmp_path / "strict" / "current").exists()


def test_nothing_usable_fails_and_changes_nothing(junk_corpus: tuple[Path, dict], tmp_path: Path):
    corpus, reasons = junk_corpus
    assert crkb("build", "--no-bundled", "--corpus", str(corpus), data=tmp_path).returncode == 0
    before = crkb("versions", "--json", data=tmp_path).stdout
    only_junk = tmp_path / "only-junk"
    only_junk.mkdir()
    for name in reasons:
        if not name.startswith("copy-of"):
            (only_junk / name).write_bytes((corpus / name).read_bytes())
    out = crkb("build", "--no-bundled", "--corpus", str(only_junk), data=tmp_path)
    assert out.returncode == 2 and "no usable rules document" in out.stderr
    assert crkb("versions", "--json", data=tmp_path).stdout == before
    builds = sorted(p.name for p in (tmp_path / "builds").iterdir())
    assert len(builds) == 1  # no half-written build left behind
