"""A lossy copy: `?` (or U+FFFD) where the publisher's file had ’, “ or a dash.

The copy is stored as it is, flagged `lost_characters` in `crkb versions`; diffs and histories do
not report a rule as changed where its texts differ only where a copy lost characters, and
still report every real change, beside lost characters or not.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from crkb.diff.compare import diff_rules, diff_summary
from crkb.diff.lost import only_lost
from crkb.model import Rule
from crkb.numbers import kind_of, parent_of
from crkb.sources.reader import lost_characters
from tests.conftest import Ran

# Rules that hold a ’ (twenty of them), a rule the releases change, and filler to look official.
APOSTROPHES = {
    f"100.{i}": f"A player can’t do thing {i} unless that player’s turn." for i in range(3, 23)
}
FILLER = {f"101.{i}": f"Filler rule number {i}." for i in range(1, 50)}
CHANGED_BEFORE = "A player can’t draw a card during the cleanup step."
CHANGED_AFTER = "A player can’t draw two cards during the cleanup step."


def release(date: str, rules: dict[str, str]) -> str:
    """One English release in the official layout."""
    body = "".join(f"{n}. {t}\n\n" for n, t in rules.items())
    return (
        "Magic: The Gathering Comprehensive Rules\n\n"
        f"These rules are effective as of {date}.\n\n"
        "Introduction\n\nThis document is the ultimate authority.\n\n"
        "Contents\n\n1. Game Concepts\n100. General\n101. More\n\nGlossary\n\nCredits\n\n"
        "1. Game Concepts\n\n100. General\n\n100.1. These rules apply to any game.\n\n"
        + body
        + "Glossary\n\nAbility\n1. Text on an object.\nSee rule 100.1.\n\n"
        "Credits\n\nDesign: Someone\n"
    )


def rules(changed: str) -> dict[str, str]:
    return {"100.2": changed, **APOSTROPHES, "101": "More", **FILLER}


def lossy(text: str) -> str:
    """What a copy that could not hold ’ made of a text."""
    return text.replace("’", "?")


@pytest.fixture(scope="module")
def lossy_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """January: the publisher's text. February: the copy that lost every ’ (and the one real
    change of rule 100.2). March: the publisher's text again, 100.2 as February has it."""
    from crkb.build import build

    corpus = tmp_path_factory.mktemp("lossy-corpus")
    en = corpus / "en" / "txt"
    en.mkdir(parents=True)
    en.joinpath("2024-01-01.txt").write_text(
        release("January 1, 2024", rules(CHANGED_BEFORE)), "utf-8"
    )
    february = lossy(release("February 1, 2024", rules(CHANGED_AFTER)))
    en.joinpath("2024-02-01.txt").write_text(february, "ascii")
    en.joinpath("2024-03-01.txt").write_text(
        release("March 1, 2024", rules(CHANGED_AFTER)), "utf-8"
    )
    data = tmp_path_factory.mktemp("lossy-data")
    build([corpus], data, progress=lambda _msg: None)
    return data


def run_json(runner: Callable[..., Ran], *argv: str, data: Path) -> dict:
    ran = runner(*argv, "--json", data=data)
    assert ran.code == 0, ran.err
    out: dict = json.loads(ran.out)
    return out


def test_the_copy_is_flagged_with_the_characters_it_lost(
    lossy_build: Path, runner: Callable[..., Ran]
) -> None:
    versions = run_json(runner, "versions", data=lossy_build)["versions"]
    flags = {v["id"]: v["flags"] for v in versions}
    # two per rule with a ’, and the changed rule's one
    assert flags["2024-02-01"]["lost_characters"] == 2 * len(APOSTROPHES) + 1
    assert "lost_characters" not in flags["2024-01-01"]
    assert "lost_characters" not in flags["2024-03-01"]


def test_the_copy_is_stored_as_it_is(lossy_build: Path, runner: Callable[..., Ran]) -> None:
    shown = run_json(runner, "show", "100.3", "--version", "2024-02-01", data=lossy_build)
    assert shown["text"] == lossy(APOSTROPHES["100.3"])


def test_a_diff_lists_the_real_change_and_counts_the_lost_characters_apart(
    lossy_build: Path, runner: Callable[..., Ran]
) -> None:
    d = run_json(runner, "diff", "2024-01-01", "2024-02-01", data=lossy_build)
    assert [(c["kind"], c["new_number"]) for c in d["changes"]] == [("changed", "100.2")]
    assert d["changes"][0]["new_text"] == lossy(CHANGED_AFTER)  # the copy's text, as it is
    assert d["summary"]["changed"] == 1
    assert d["summary"]["lost_only"] == len(APOSTROPHES)
    assert sorted(d["lost_only"]) == sorted(APOSTROPHES)

    back = run_json(runner, "diff", "2024-02-01", "2024-03-01", data=lossy_build)
    assert back["changes"] == []
    assert back["summary"]["lost_only"] == len(APOSTROPHES) + 1

    whole = run_json(runner, "diff", "2024-01-01", "2024-03-01", data=lossy_build)
    assert [(c["kind"], c["new_number"]) for c in whole["changes"]] == [("changed", "100.2")]
    assert whole["summary"]["lost_only"] == 0

    text = runner("diff", "2024-01-01", "2024-02-01", data=lossy_build).out
    assert f"{len(APOSTROPHES)} rules differ only where a copy lost characters" in text
    assert "changed 100.2" in text and "100.3" not in text


def test_a_history_marks_no_change_where_a_copy_lost_characters(
    lossy_build: Path, runner: Callable[..., Ran]
) -> None:
    h = run_json(runner, "history", "100.3", data=lossy_build)["history"]
    assert [r["text"] for r in h] == [APOSTROPHES["100.3"], lossy(APOSTROPHES["100.3"])] + [
        APOSTROPHES["100.3"]
    ]
    assert [r["text_changed"] for r in h] == [False, False, False]
    assert "text changed" not in runner("history", "100.3", data=lossy_build).out

    changed = run_json(runner, "history", "100.2", data=lossy_build)["history"]
    assert [r["text_changed"] for r in changed] == [False, True, False]
    lines = runner("history", "100.2", data=lossy_build).out.splitlines()
    releases = [ln for ln in lines if not ln.startswith("    ")]
    assert [ln.endswith("(text changed)") for ln in releases] == [False, True, False]
    # each wording is shown once, under the release it begins in
    assert [ln.strip() for ln in lines if ln.startswith("    ")] == [r["text"] for r in changed[:2]]


def test_the_pages_leave_out_what_a_copy_lost(lossy_build: Path) -> None:
    from crkb.web import create_app

    client = create_app({"DATA": str(lossy_build), "TESTING": True}).test_client()
    page = client.get("/diff/2024-01-01/2024-02-01").get_data(as_text=True)
    assert f"{len(APOSTROPHES)} rules differ only where a copy lost characters" in page
    assert "100.2" in page and ">100.3<" not in page
    api = client.get("/api/diff?from=2024-01-01&to=2024-02-01").get_json()
    assert api["summary"]["lost_only"] == len(APOSTROPHES) and len(api["changes"]) == 1
    # the history page: one run of three releases, the copy's among them
    history = client.get("/rules/100.3/history").get_data(as_text=True)
    assert "the same in 2 later releases, through 2024-03-01" in history
    changed = BeautifulSoup(client.get("/rules/100.2/history").data, "html.parser")
    # each run is dated where its change took effect, the releases that kept it after that
    metas = [m.get_text(" ", strip=True) for m in changed.select(".history .meta")]
    assert metas == ["2024-02-01 · 100.2 text changed", "2024-01-01 · 100.2"]
    assert "the same in 1 later release, through 2024-03-01" in changed.get_text()
    # a rule page of the lossy copy says what the copy lost; the sound releases' say nothing
    page = BeautifulSoup(client.get("/v/2024-02-01/rules/100.3").data, "html.parser")
    note = page.select_one(".damaged").get_text()
    count = lost_characters(lossy(release("February 1, 2024", rules(CHANGED_AFTER))))
    assert note.startswith(f"The copy of release 2024-02-01 that crkb holds lost {count} ")
    assert lossy(APOSTROPHES["100.3"]) in page.select_one(".col").get_text()
    sound = BeautifulSoup(client.get("/v/2024-03-01/rules/100.3").data, "html.parser")
    assert sound.select_one(".damaged") is None


def test_only_the_in_word_question_marks_of_a_pattern_flag_a_copy() -> None:
    assert lost_characters("A player can?t; it?s that player?s turn.") == 3
    # a question, a web address's query: no loss
    assert lost_characters("Is it? See www.wizards.com/default.asp?x=magic/rules.") == 0
    # a word beside an address is judged on its own; any space ends a word; only Latin letters
    assert lost_characters("http://x.com/a?b can?t") == 1
    assert lost_characters("can?t\u3000www.x.com/a?b\nit?s") == 2
    assert lost_characters("?a a? é?e 规?则 a?1") == 0


def rule(number: str, text: str) -> Rule:
    return Rule(number, kind_of(number), text, parent=parent_of(number))


def test_a_renumbered_rule_whose_copy_lost_characters_is_moved_not_moved_changed() -> None:
    old = [rule("100.1", "The player’s library."), rule("100.2", "Another rule’s text here.")]
    new = [rule("100.2", "The player?s library."), rule("100.3", "Another rule?s text here.")]
    changes = diff_rules(old, new, {"100.1": "100.2", "100.2": "100.3"})
    assert [(c.kind, c.text_changed) for c in changes] == [("moved", False), ("moved", False)]
    assert diff_summary(changes)["lost_only"] == 0


def test_a_real_change_beside_lost_characters_is_still_a_change() -> None:
    old = [rule("100.1", "A player can’t draw a card.")]
    new = [rule("100.1", "A player can?t draw two cards.")]
    (c,) = diff_rules(old, new, {"100.1": "100.1"})
    assert c.kind == "changed" and c.text_changed and not c.lost_only


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("can’t", "can?t"),
        ("can't", "can?t"),  # the releases around a copy may be plain ASCII
        ("the “big” one", "the ?big? one"),
        ("cards -- even", "cards?even"),
        ("409.1f-h", "409.1f?h"),
        ("Creature - Minotaur", "Creature \ufffd Minotaur"),
        ("Gathering(R)", "Gathering\ufffd"),
    ],
)
def test_a_lost_character_against_what_it_stood_for_is_no_change(a: str, b: str) -> None:
    assert only_lost(a, b) and only_lost(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("can’t", "can’t"),  # equal: nothing lost
        ("can’t", "cannot"),
        ("Is it?", "Is it."),  # a question mark is not a lost dash
        ("409.1f-h", "409.2e?g"),  # a lost dash beside a real renumbering
        ("rule 7", "rule ?"),  # a lost mark does not stand for a digit
        ("can’t draw", "can?t draw a card"),
        ("Creature - Minotaur", "Creature \ufffd Minotaur Legend"),
        ("the \ufffd one", "the first of many long words one"),
    ],
)
def test_a_real_difference_is_not_taken_for_a_lost_character(a: str, b: str) -> None:
    assert not only_lost(a, b) and not only_lost(b, a)


@pytest.mark.archive
def test_the_archive_copy_of_2008_05_01_is_flagged_and_its_diffs_show_real_changes(
    archive_build: Path, runner: Callable[..., Ran]
) -> None:
    flags = {
        v["id"]: v["flags"] for v in run_json(runner, "versions", data=archive_build)["versions"]
    }
    assert flags["2008-05-01"]["lost_characters"] > 1000
    for neighbour in ("2008-02-01", "2008-07-15", "2024-04-12"):
        assert "lost_characters" not in flags[neighbour]
    before = run_json(runner, "diff", "2008-02-01", "2008-05-01", data=archive_build)
    after = run_json(runner, "diff", "2008-05-01", "2008-07-15", data=archive_build)
    across = run_json(runner, "diff", "2008-02-01", "2008-07-15", data=archive_build)
    for d in (before, after):
        assert d["summary"]["changed"] < 150 < 600 < d["summary"]["lost_only"]  # 709, 720 before
    assert across["summary"]["lost_only"] == 0
    h = run_json(runner, "history", "702.19b", data=archive_build)["history"]
    marked = {r["version"] for r in h if r["text_changed"]}
    assert not marked & {"2008-05-01", "2008-07-15"}
