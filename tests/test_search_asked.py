"""Players' questions written for each rule (crkb/search/asked.py): read, attached to the rule's
texts, and asked of by a search whose words the rule's own text lacks."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from crkb.search import asked, candidates
from crkb.search.asked import Asked
from crkb.search.engine import Searcher
from crkb.search.index import build_index
from tests.documents import document, numbers, toy_searcher

ROOT = Path(__file__).resolve().parent.parent

HAND = "A player's hand holds the cards they have drawn and not yet played."
DISCARD = "At the end of each turn, the active player discards down to seven cards."
EN = [
    ("100", "section", "Cards", "Cards"),
    ("100.1", "rule", HAND, None),
    ("100.2", "rule", DISCARD, None),
    ("100.3", "rule", "Each player starts the game with seven cards in hand.", None),
]
WRITTEN = Asked("2030-01-01", {"100.2": ("most cards a player may hold in hand after a turn",)})
ASKING = "how many cards can a player hold in hand"  # the words of 100.1 and 100.3


def test_a_file_reads_as_its_release_and_each_rules_questions() -> None:
    got = asked.parse(
        "# Players' questions (a note)\n# written for: 2025-07-25\n"
        "702.19b\tdoes trample go over a chump\n\n702.19b\tis extra damage dealt to the player\n"
        "702.2c\tdeathtouch plus trample how much to the blocker\n"
    )
    assert got.version == "2025-07-25"
    assert got.questions == {
        "702.19b": ("does trample go over a chump", "is extra damage dealt to the player"),
        "702.2c": ("deathtouch plus trample how much to the blocker",),
    }


def test_questions_follow_their_rules_text_not_its_number() -> None:
    written = {
        "100.2": DISCARD,
        "100.3": "Each player starts the game with seven cards in hand.",
        "100": "Cards",
        "101": "General",
        "102": "General",
    }
    mine = Asked("v", {"100.2": ("q2",), "100.3": ("q3",), "100": ("q0",), "101": ("g",)})
    got = asked.attach(
        "en",
        mine,
        written,
        [
            ("100.2", DISCARD),  # the text written for
            ("100.2", DISCARD.replace("seven", "eight")),  # a word changed in another release
            ("100.2", HAND),  # the number once held another rule
            ("101.7", "Each player starts the game with seven cards in hand."),  # renumbered
            ("200", "Cards"),  # a title renumbered
            ("300", "General"),  # a title many sections have
            ("101.9", DISCARD.replace("seven", "eight")),  # renumbered and a word changed
            ("101.8", "At the end of each turn, the active player untaps a land."),  # another
        ],
    )
    assert got == [("q2",), ("q2",), (), ("q3",), ("q0",), (), ("q2",), ()]


def test_chinese_texts_are_compared_by_their_characters() -> None:
    a = "每位牌手在回合结束时将手牌弃到七张。"
    assert asked.same_rule("zh", a, a.replace("七", "八"))
    assert not asked.same_rule("zh", a, "生物的防御力为0时会被置入坟墓场。")


def _index(tmp: Path, questions: dict[str, Asked]) -> Searcher:
    build_index(tmp / "index", [document("en", EN, [])], {}, asked=questions)
    return toy_searcher(tmp / "index")


def test_a_search_in_players_words_finds_the_rule_they_were_written_for(tmp_path: Path) -> None:
    without = _index(tmp_path / "without", {})
    assert numbers(without.search(ASKING, lang="en"))[0] != "100.2"
    with_them = _index(tmp_path / "with", {"en": WRITTEN})
    assert numbers(with_them.search(ASKING, lang="en"))[0] == "100.2"
    # the hit shows the rule's own text, never the questions
    hit = with_them.search(ASKING, lang="en")["hits"][0]
    assert hit["text"] == DISCARD and "hold" not in hit["highlight"]


def test_questions_are_read_in_the_rules_words_as_a_query_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a query's "bounced" is searched as "returned to hand" and its "guy" as "creature"
    # (crkb/search/players.py), so a question that says them is indexed in those words too
    new_object = "A permanent that leaves the battlefield becomes a new object."
    rules = [*EN, ("100.4", "rule", new_object, None)]
    written = Asked("2030-01-01", {"100.4": ("my guy got bounced, is it the same one",)})
    query = "what happens when my guy gets bounced"

    def search(where: Path) -> str:
        build_index(where, [document("en", rules, [])], {}, asked={"en": written})
        return numbers(toy_searcher(where).search(query, lang="en"))[0]

    assert asked.as_query("en", "my guy got bounced") == "my creature got returned to hand"
    assert asked.as_query("zh", "能回应横地吗") == "能响应横置地吗"
    assert search(tmp_path / "read") == "100.4"
    monkeypatch.setattr(asked, "as_query", lambda lang, question: question)
    assert search(tmp_path / "as typed") != "100.4"


def test_questions_for_a_release_the_build_lacks_are_left_out(tmp_path: Path) -> None:
    other = Asked("2029-01-01", WRITTEN.questions)
    s = _index(tmp_path, {"en": other})
    assert numbers(s.search(ASKING, lang="en"))[0] != "100.2"


# -- the shipped questions and the real archive --------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_archive_every_rule_of_the_release_written_for_has_questions(
    lang: str, archive_build: Path
) -> None:
    from crkb.store.db import DB_NAME, Store
    from crkb.store.location import current_build

    shipped = asked.load(lang)
    assert shipped is not None
    store = Store(current_build(archive_build) / DB_NAME)
    try:
        rules = [
            r.number
            for r in store.document(shipped.version, lang).rules
            if re.fullmatch(r"\d{3}\.\d+[a-z]*", r.number)
        ]
    finally:
        store.close()
    assert len(rules) > 2500
    missing = [n for n in rules if n not in shipped.questions]
    assert missing == []
    unknown = sorted(set(shipped.questions) - set(rules))
    assert all(re.fullmatch(r"\d{3}", n) for n in unknown), unknown[:5]  # sections only


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_archive_the_newest_rules_are_indexed_with_their_questions(
    lang: str, archive_build: Path
) -> None:
    from crkb.store.location import current_build

    s = Searcher(current_build(archive_build) / "index")
    field = "asked" if lang == "en" else "zasked"
    lengths = s.scorer.postings.lengths[field]
    # the four newest releases: the questions follow a rule renumbered, reworded a little, or
    # both (English 2025-04-04 renumbered the keyword actions from 701.8 on), and a title
    for version in s.versions[lang][-4:]:
        _vid, o = s.resolve_version(lang, version)
        assert o is not None
        in_scope = np.flatnonzero(s._scope(lang, o))
        with_questions = int((lengths[in_scope] > 0).sum())
        assert with_questions / len(in_scope) > 0.99, version


def test_the_rule_players_ask_in_the_querys_words_is_reranked_beside_many_that_say_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # thirty rules say the query's words; the one it asks about says none of them, and only its
    # players' question does: it is among the candidates re-ranked, not left behind the thirty
    said = [
        (f"100.{i}", "rule", f"How many cards a player can hold in hand: {i} cards in hand.", None)
        for i in range(4, 34)
    ]
    other = [(f"200.{i}", "rule", f"Each opponent untaps {i} lands.", None) for i in range(1, 300)]
    asked_about = ("100.40", "rule", "Each opponent reveals their graveyard.", None)
    rules = [*EN, *said, *other, asked_about]
    written = Asked("2030-01-01", {"100.40": ("how many cards can a player hold in hand",)})
    build_index(tmp_path / "index", [document("en", rules, [])], {}, asked={"en": written})

    def reranked() -> list[str]:
        return [n for n, _f in toy_searcher(tmp_path / "index").candidates(ASKING, "en").scored]

    got = reranked()
    assert len(got) == candidates.POOL + 1 and got[-1] == "100.40"
    monkeypatch.setattr(candidates, "ASKED_TOP", 0)
    got = reranked()
    assert len(got) == candidates.POOL and "100.40" not in got
