"""A Chinese query typing a game term's English name finds the rule in the translation's term."""

from __future__ import annotations

import pytest

from crkb.search.engine import Searcher
from crkb.search.index import build_index
from crkb.search.mixed import chinese_terms_en, english_terms_zh
from tests.documents import document, numbers, toy_searcher

TERMS = {
    "flying": "飞行",
    "first strike": "先攻",
    "poison counter": "中毒指示物",
    "upkeep step": "维持步骤",
}


def test_an_english_term_in_a_chinese_query_is_read_as_the_translations_term() -> None:
    assert english_terms_zh("有flying的生物能被什么阻挡", TERMS) == "有飞行的生物能被什么阻挡"
    # the longest term first, a plural as its term, and a word no term names as typed
    assert english_terms_zh("first strike和double strike", TERMS) == "先攻和double strike"
    assert english_terms_zh("10个poison counters会输吗", TERMS) == "10个中毒指示物会输吗"
    assert english_terms_zh("Banisher Priest的触发", TERMS) == "Banisher Priest的触发"
    assert english_terms_zh("Flying和FIRST STRIKE", TERMS) == "飞行和先攻"
    assert english_terms_zh("upkeep的时候", TERMS) == "维持步骤的时候"  # a step by its name
    fixed = {"flyng": "flying"}.get  # a slip is put right before the term is looked up
    assert english_terms_zh("flyng的生物，Priest", TERMS, fixed) == "飞行的生物，Priest"
    # counter is mostly the noun among Chinese words, the verb where the words around say so
    senses = {"counter": "反击"}
    assert english_terms_zh("身上的+1/+1 counter", senses) == "身上的+1/+1 指示物"
    assert english_terms_zh("把counter移走", senses) == "把指示物移走"
    assert english_terms_zh("咒语被我counter掉了", senses) == "咒语被我反击掉了"
    assert english_terms_zh("被counter的咒语", senses) == "被反击的咒语"
    assert english_terms_zh("counter target spell", senses).startswith("反击")
    # a search of the Chinese rules for an English term alone is a search for its translation
    assert english_terms_zh("flying", TERMS) == "飞行"


@pytest.fixture(scope="module")
def s(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    zh = [
        ("100", "section", "小器具", "小器具"),
        ("100.1", "rule", "小器具只能于夜晚被转动。", None),
        ("100.2", "rule", "齿轮只能于白昼被转动。", None),
        ("101", "section", "曲柄玩法", "曲柄玩法"),
        ("101.1", "rule", "曲柄玩法中，每位牌手于其回合开始时摇动一次。", None),
    ]
    en = [
        ("100", "section", "Gadgets", "Gadgets"),
        ("100.1", "rule", "A widget can be turned only at night.", None),
        ("100.2", "rule", "A sprocket can be turned only during the day.", None),
        ("101", "section", "Crank Variant", "Crank Variant"),
        ("101.1", "rule", "In the Crank variant, each player cranks as their turn begins.", None),
    ]
    d = tmp_path_factory.mktemp("mixed") / "index"
    build_index(d, [document("en", en, []), document("zh", zh, [])], {"Widget": "小器具"})
    return toy_searcher(d)


def test_a_chinese_question_with_an_english_term_finds_the_rule(s: Searcher) -> None:
    got = s.search("widget什么时候能转动", lang="zh")
    assert numbers(got)[0] == "100.1" and got["did_you_mean"] is None
    assert numbers(s.search("Widgets能转动吗", lang="zh"))[0] == "100.1"
    assert numbers(s.search("widgit能转动吗", lang="zh"))[0] == "100.1"  # a slip of English
    assert numbers(s.search("widget", lang="zh"))[0] == "100"  # the section titled 小器具


def test_a_title_the_term_dictionary_lacks_is_read_by_the_same_rules_chinese_title(
    s: Searcher,
) -> None:
    # the dictionary has no crank: the English and Chinese texts title rule 101 alike
    for query in ("crank variant是什么", "Crank怎么玩"):  # with or without "variant"
        assert numbers(s.search(query, lang="zh"))[0].startswith("101"), query


def test_a_chinese_term_asked_of_the_english_rules_is_read_as_its_english_name(
    s: Searcher,
) -> None:
    """The English rules chosen, a term typed in Chinese (or Traditional characters): the rules
    its English name finds, not nothing; Chinese words that name no term are left out."""
    to_en = {"小器具": "widget", "飞行": "flying"}
    assert chinese_terms_en("小器具 night", to_en, list) == "widget night"
    assert chinese_terms_en("飞行和小器具", to_en, lambda run: ["飞行", "和", "小器具"]) == (
        "flying widget"
    )
    assert chinese_terms_en("什么", to_en, list) == ""
    english = numbers(s.search("widget", lang="en"))
    assert english and numbers(s.search("小器具", lang="en")) == english
    got = s.search("小器具 night", lang="en")
    assert numbers(got)[0] == "100.1" and got["query"] == "小器具 night"
