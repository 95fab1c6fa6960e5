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


def numbered(date: str, rules: list[str], *, chapter_2: bool = True) -> str:
    """`release` with these texts as rules 100.1, 100.2 … (a rule inserted renumbers those after
    it)."""
    chapter_1 = "".join(f"100.{i}. {t}\n\n" for i, t in enumerate(rules, start=1))
    return release(date, chapter_2=chapter_2).replace(
        "100.1. These rules apply to any game.\n\n", chapter_1
    )


RULE_X = "Each player keeps their library face down in a single stack at all times."
NEW_1 = "A player who would draw from an empty library loses the next time they could."
NEW_2 = "Tokens are created on the battlefield under the control of the player who made them."


@pytest.fixture(scope="module")
def renumbered_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy lacking chapter 2 between two releases, numbered as neither: a rule was inserted
    before 100.2 in the copy, and another one before it in the release after."""
    from crkb.build import build

    corpus = tmp_path_factory.mktemp("renumbered-corpus")
    en = corpus / "en" / "txt"
    en.mkdir(parents=True)
    first = ["These rules apply to any game.", RULE_X]
    en.joinpath("2024-01-01.txt").write_text(numbered("January 1, 2024", first), "utf-8")
    copy = ["These rules apply to any game.", NEW_1, RULE_X]
    text = numbered("February 1, 2024", copy, chapter_2=False)
    en.joinpath("2024-02-01.txt").write_text(text, "utf-8")
    last = ["These rules apply to any game.", NEW_2, NEW_1, RULE_X]
    en.joinpath("2024-03-01.txt").write_text(numbered("March 1, 2024", last), "utf-8")
    data = tmp_path_factory.mktemp("renumbered-data")
    build([corpus], data, progress=lambda _msg: None)
    return data


def test_a_copy_numbered_as_neither_neighbour_shows_its_own_number(
    renumbered_build: Path, runner: Callable[..., Ran]
) -> None:
    ran = runner("history", "100.4", "--json", data=renumbered_build)
    rows = [(r["version"], r["number"]) for r in json.loads(ran.out)["history"]]
    assert rows == [("2024-01-01", "100.2"), ("2024-02-01", "100.3"), ("2024-03-01", "100.4")]


def test_the_release_selector_follows_a_rule_into_and_out_of_a_copy(
    renumbered_build: Path,
) -> None:
    from crkb.web import create_app

    client = create_app({"DATA": str(renumbered_build), "TESTING": True}).test_client()
    for number, origin, vid, there in (
        ("100.4", "2024-03-01", "2024-02-01", "/v/2024-02-01/rules/100.3"),
        ("100.2", "2024-01-01", "2024-02-01", "/v/2024-02-01/rules/100.3"),
        ("100.3", "2024-02-01", "2024-03-01", "/rules/100.4"),
        ("100.3", "2024-02-01", "2024-01-01", "/v/2024-01-01/rules/100.2"),
    ):
        r = client.get(f"/rules/{number}?version={vid}&from={origin}")
        assert r.status_code == 302 and r.headers["Location"].endswith(there), (number, vid)


def test_references_of_pages_merged_into_a_copy_are_resolved_against_the_whole_copy() -> None:
    """A copy in pages (one per chapter): a page citing another page's rule does not dangle."""
    from crkb.build.pipeline import _merge
    from crkb.graph.references import link_document

    one = doc("2024-02-01", ["100.1"])
    one.rules[0].text = "See rule 200.1 and rule 300.1."
    two = doc("2024-02-01", ["200.1"])
    two.rules[0].text = "The parts of a card."
    merged = _merge([link_document(one), link_document(two)])
    assert [(r.target, r.dangling) for r in merged.references] == [
        ("200.1", False),
        ("300.1", True),
    ]
