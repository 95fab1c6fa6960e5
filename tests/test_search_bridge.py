"""The English bridge: a Chinese question also asked of the English text of the same release,
through a word table the build learns from the two texts (crkb/search/bridge.py)."""

from __future__ import annotations

import pytest

from crkb.search import bridge
from crkb.search.engine import Searcher
from crkb.search.index import build_index
from tests.documents import document, numbers, toy_searcher

# Two texts of one release. 300.3's Chinese says 开始时 (at the start) and 血量 where the other
# rules say 起始 (starting) and 生命 (life); its English says "starting life total" as they do.
EN = [
    ("300", "section", "Starting the Game", "Starting the Game"),
    ("300.1", "rule", "The starting player takes the first turn.", None),
    ("300.2", "rule", "Each player has a starting life total.", None),
    ("300.3", "rule", "In a duel, each player's starting life total is 20.", None),
    ("300.4", "rule", "Each player shuffles their deck.", None),
    ("300.5", "rule", "A player's life total can't go above 99.", None),
]
ZH = [
    ("300", "section", "开始游戏", "开始游戏"),
    ("300.1", "rule", "起始牌手进行第一个回合。", None),
    ("300.2", "rule", "每位牌手都有起始总生命。", None),
    ("300.3", "rule", "在对决中，每位牌手开始时的血量为20。", None),
    ("300.4", "rule", "每位牌手将其套牌洗牌。", None),
    ("300.5", "rule", "牌手的总生命不能超过99。", None),
]


@pytest.fixture(scope="module")
def s(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    d = tmp_path_factory.mktemp("bridge") / "index"
    build_index(d, [document("en", EN, []), document("zh", ZH, [])], {})
    return toy_searcher(d)


def test_the_word_table_is_learned_from_rules_that_say_the_same_thing() -> None:
    pairs = [
        (["生物", "战场"], ["creature", "battlefield"]),
        (["生物"], ["creature"]),
        (["战场", "区域"], ["battlefield", "zone"]),
        (["区域"], ["zone"]),
    ]
    table = bridge.table(bridge.learn(pairs))
    assert table["生物"][0] == "creature"
    assert table["战场"][0] == "battlefield"
    assert table["区域"][0] == "zone"
    assert bridge.learn([]) == {}


def test_a_chinese_questions_words_are_put_into_english_and_numbers_kept() -> None:
    table = {"起始": ["starting"], "生命": ["life", "total"]}
    assert bridge.translate(["起始", "生命", "20", "血量"], table) == "starting life total 20"
    assert bridge.translate(["血量"], table) == ""


def test_fusion_lifts_a_rule_both_rankings_hold_over_one_only_its_own_holds() -> None:
    fused = [n for n, _s in bridge.fuse(["1.1", "1.2", "1.3"], ["1.2", "9.9"])]
    assert fused[0] == "1.2"
    # a rule only the English ranking holds still comes in, behind the first of the own
    assert fused.index("9.9") > fused.index("1.1")


def test_the_build_learns_the_table_from_the_parallel_text(s: Searcher) -> None:
    assert s.bridge["起始"][0] == "starting"


def test_a_chinese_question_finds_a_rule_worded_otherwise_through_its_english(
    s: Searcher,
) -> None:
    q = "起始生命是多少"
    found = numbers(s.search(q, lang="zh"))
    assert "300.3" in found
    # without the bridge the Chinese words alone never reach it
    s.bridge, kept = {}, s.bridge
    try:
        assert "300.3" not in numbers(s.search(q, lang="zh"))
    finally:
        s.bridge = kept


def test_a_chinese_keyword_search_is_not_bridged(s: Searcher) -> None:
    # keywords name what is looked for: their own words decide (no question, no bridge)
    assert "300.3" not in numbers(s.search("起始 生命", lang="zh"))
