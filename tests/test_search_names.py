"""A card's name in an English question is left out when the rules do not know it."""

from __future__ import annotations

from pathlib import Path

from crkb.search.names import without_card_names
from tests.documents import english_searcher, numbers

KNOWN = {"siege", "mind", "phyrexian", "two", "headed", "giant", "coat", "arms", "time", "stop"}


def test_a_run_of_capitalised_words_the_rules_do_not_know_is_a_cards_name() -> None:
    known = KNOWN.__contains__
    assert without_card_names("Outpost Siege makes me pick", known) == "  makes me pick"
    assert without_card_names("can I use Sleight of Mind on it", known) == "can I use   on it"
    assert without_card_names("If I Clone a Phyrexian Fleshgorger", known) == "If I Clone a  "
    # names the rules know, a single capital, an opening word and a sentence's end stay
    for kept in (
        "Two-Headed Giant shared life",
        "If Time Stop ends the turn",
        "Can I block with Fleshgorger",
        "I control Coat of Arms. Does it count",
        "What is MDFC Rules",
        "Sleight of Mind",  # a name alone is searched as typed
    ):
        assert without_card_names(kept, known) == kept


def test_a_question_naming_a_card_finds_the_rule_not_the_words_of_its_name(tmp_path: Path) -> None:
    s = english_searcher(
        tmp_path / "index",
        [
            ("100", "section", "Permanents", "Permanents"),
            ("100.1", "rule", "As a siege enters, its controller chooses a protector.", None),
            ("100.2", "rule", "Some permanents enter with a choice of one of two modes.", None),
        ],
    )
    assert (
        numbers(s.search("Outpost Siege enters, which mode do I choose", lang="en"))[0] == "100.2"
    )
