"""Partial copies: a copy that lacks a whole chapter the releases around it hold.

The 2021-09-24 DokuWiki pages lack chapter 4; an official text can lack one too (a copy cut
short in the middle). Followed as a release, such a copy reads as the chapter removed and, a
release later, added back, and every rule of the chapter loses its history there.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from crkb.model import Document, Rule
from crkb.numbers import kind_of, parent_of
from crkb.sources.completeness import missing_chapters
from tests.conftest import Ran

FILLER = "".join(f"100.{i}. Filler rule number {i}.\n\n" for i in range(10, 70))
CHAPTER_2 = (
    "2. Parts of a Card\n\n200. General\n\n"
    "200.1. The parts of a card are name, mana cost, illustration and text box.\n\n"
)


def release(date: str, *, chapter_2: bool = True) -> str:
    """One English release in the official layout, with or without its chapter 2."""
    return (
        "Magic: The Gathering Comprehensive Rules\n\n"
        f"These rules are effective as of {date}.\n\n"
        "Introduction\n\nThis document is the ultimate authority.\n\n"
        "Contents\n\n1. Game Concepts\n100. General\n2. Parts of a Card\n200. General\n\n"
        "Glossary\n\nCredits\n\n"
        "1. Game Concepts\n\n100. General\n\n100.1. These rules apply to any game.\n\n"
        + FILLER
        + (CHAPTER_2 if chapter_2 else "")
        + "Glossary\n\nAbility\n1. Text on an object.\nSee rule 100.1.\n\n"
        "Credits\n\nDesign: Someone\n"
    )


def doc(version: str, numbers: list[str], lang: str = "en") -> Document:
    rules = [Rule(n, kind_of(n), f"Rule {n}.", parent=parent_of(n)) for n in numbers]
    return Document(lang, version, f"{lang}/{version}.txt", "txt", rules=rules)


def test_a_copy_lacking_a_chapter_held_before_and_after_it_is_partial():
    docs = {
        ("2020-01-01", "en"): doc("2020-01-01", ["100.1", "200.1"]),
        ("2020-06-01", "en"): doc("2020-06-01", ["100.1"]),
        ("2020-06-01", "zh"): doc("2020-06-01", ["100.1", "200.1"], "zh"),
        ("2021-01-01", "en"): doc("2021-01-01", ["100.1", "200.1", "900.1"]),
        ("2021-06-01", "zh"): doc("2021-06-01", ["900.1"], "zh"),  # a web copy of chapter 9
        ("2022-01-01", "en"): doc("2022-01-01", ["100.1", "200.1", "900.1"]),
    }
    assert missing_chapters(docs) == {("2020-06-01", "en"): ["2"], ("2021-06-01", "zh"): ["1", "2"]}
    # a chapter first held by a later release is new there, not missing before it
    assert ("2020-01-01", "en") not in missing_chapters(docs)


@pytest.fixture(scope="module")
def gap_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from crkb.build import build

    corpus = tmp_path_factory.mktemp("gap-corpus")
    en = corpus / "en" / "txt"
    en.mkdir(parents=True)
    en.joinpath("2024-01-01.txt").write_text(release("January 1, 2024"), "utf-8")
    en.joinpath("2024-02-01.txt").write_text(release("February 1, 2024", chapter_2=False), "utf-8")
    en.joinpath("2024-03-01.txt").write_text(release("March 1, 2024"), "utf-8")
    data = tmp_path_factory.mktemp("gap-data")
    build([corpus], data, progress=lambda _msg: None)
    return data


def test_a_chapter_a_copy_lacks_keeps_its_history_past_the_copy(
    gap_build: Path, runner: Callable[..., Ran]
) -> None:
    ran = runner("history", "200.1", "--version", "2024-03-01", "--json", data=gap_build)
    assert ran.code == 0
    rows = [(r["version"], r["number"]) for r in json.loads(ran.out)["history"]]
    assert rows == [("2024-01-01", "200.1"), ("2024-03-01", "200.1")]


def test_a_rule_the_copy_holds_shows_the_copy_in_its_history(
    gap_build: Path, runner: Callable[..., Ran]
) -> None:
    ran = runner("history", "100.1", "--json", data=gap_build)
    versions = [r["version"] for r in json.loads(ran.out)["history"]]
    assert versions == ["2024-01-01", "2024-02-01", "2024-03-01"]


def test_the_copy_is_flagged_partial_naming_the_chapter_it_lacks(
    gap_build: Path, runner: Callable[..., Ran]
) -> None:
    ran = runner("versions", "--json", data=gap_build)
    flags = {v["id"]: v["flags"] for v in json.loads(ran.out)["versions"]}
    assert flags["2024-02-01"]["partial"] == {"en": ["2"]}
    assert "partial" not in flags["2024-01-01"] and "partial" not in flags["2024-03-01"]


def test_a_diff_with_the_copy_reports_no_chapter_removed_nor_added_back(
    gap_build: Path, runner: Callable[..., Ran]
) -> None:
    for a, b in (("2024-01-01", "2024-02-01"), ("2024-02-01", "2024-03-01")):
        ran = runner("diff", a, b, "--json", data=gap_build)
        assert ran.code == 0
        assert json.loads(ran.out)["changes"] == []
    ran = runner("diff", "2024-01-01", "2024-03-01", "--json", data=gap_build)
    assert json.loads(ran.out)["changes"] == []


@pytest.mark.archive
def test_the_dokuwiki_copy_without_chapter_4_is_partial_and_diffs_leave_the_chapter_alone(
    archive_build: Path, runner: Callable[..., Ran]
) -> None:
    ran = runner("versions", "--json", data=archive_build)
    flags = {v["id"]: v["flags"] for v in json.loads(ran.out)["versions"]}
    assert flags["2021-09-24"]["partial"] == {"en": ["4"], "zh": ["4"]}
    for a, b in (("2021-07-23", "2021-09-24"), ("2021-09-24", "2021-11-19")):
        changes = json.loads(runner("diff", a, b, "--json", data=archive_build).out)["changes"]
        touched = {(c["old_number"] or c["new_number"])[0] for c in changes}
        assert changes and "4" not in touched
