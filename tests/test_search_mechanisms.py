"""Search mechanisms mined from the rules themselves: topics a query names, former names from
the glossary, and a Chinese question's definition read on the rule's English parallel text."""

from __future__ import annotations

import pytest

from crkb.model import GlossaryEntry
from crkb.search import topics
from crkb.search.analysis import term_key
from crkb.search.engine import Searcher
from crkb.search.index import build_index, without_pointers
from crkb.search.question import CLASS, FORMER, understand_en, understand_zh
from crkb.search.synonyms import classes, former_names_zh
from tests.documents import document, numbers, toy_searcher

EN = [
    ("200", "section", "Widget Boxes", "Widget Boxes"),
    ("200.1", "rule", "Each one holds seven springs.", None),
    ("300", "section", "Springs", "Springs"),
    ("300.1", "rule", "A player may count the springs in a box.", None),
    ("300.2", "rule", "Springs are made of wire.", None),
    ("400", "section", "Gizmos", "Gizmos"),
    ("400.1", "rule", "An object is a gizmo if it has a spring.", None),
    ("400.2", "rule", "A gear is a part and never a gizmo.", None),
    ("500", "section", "Storage", "Storage"),
    ("500.1", "rule", "A container that is dropped breaks open.", None),
    ("500.2", "rule", "A barrel rolls when it is pushed.", None),
    ("313", "section", "Vanguards", "Vanguards"),
    ("313.1", "rule", "A vanguard starts the game in the command zone.", None),
    ("800", "section", "Gadget Fair Variant", "Gadget Fair Variant"),
    ("800.1", "rule", "In a gadget fair, the springs of a team are shared.", None),
]
EN_GLOSSARY = [
    GlossaryEntry("Barrel", "A container. Barrels roll."),
    GlossaryEntry("Crate", "A container, made of wood."),
    GlossaryEntry("Sack", "A container that is soft."),
    GlossaryEntry("Container", "A thing in which springs are kept."),
    GlossaryEntry("Spoon", "A tool."),
    GlossaryEntry("Tool", "A thing used for work."),
    GlossaryEntry("Whirligig", "A gizmo made of wire."),  # a term no rule uses
]
ZH = [
    ("100", "section", "重置步骤", "重置步骤"),
    ("100.1", "rule", "在重置步骤中，没有咒语可以被使用。", None),
    ("100.2", "rule", "在重置步骤中，牌手横置永久物。", None),
    ("400", "section", "小玩意", "小玩意"),
    ("400.1", "rule", "如果一个物件有弹簧，则它是小玩意。", None),
    ("400.2", "rule", "齿轮是零件，永远都不是小玩意。", None),
]
ZH_GLOSSARY = [
    GlossaryEntry(
        "使用", "1. 使用一张地是指将一张地放进战场。\n2. （已废止）施放咒语曾经称为使用咒语。"
    ),
    GlossaryEntry("战场", "一个区域。此区域过去被称为“场上”区域。"),
    GlossaryEntry("阶段异能", "这些异能曾经被称为“阶段异能”。"),
]


@pytest.fixture(scope="module")
def s(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    d = tmp_path_factory.mktemp("mechanisms") / "index"
    docs = [document("en", EN, EN_GLOSSARY), document("zh", ZH, ZH_GLOSSARY)]
    build_index(d, docs, {"Gizmo": "小玩意", "Untap Step": "重置步骤"})
    return toy_searcher(d)


# -- pure pieces -------------------------------------------------------------------------------


def test_former_names_are_read_from_the_glossarys_statements_of_renaming() -> None:
    defs = {g.term: g.text for g in ZH_GLOSSARY}
    # the shared tail (咒语) is what was not renamed; a pronoun stands for the entry itself;
    # "这些异能曾经被称为…" names no word of today
    assert former_names_zh(defs) == {"施放": ("使用",), "战场": ("场上",)}
    assert former_names_zh({"x": "没有改名的说法。"}) == {}


def test_classes_are_read_from_the_glossarys_definitions() -> None:
    defs = {g.term.lower(): g.text for g in EN_GLOSSARY}
    # a container holds three terms; "tool" holds one, too few to be a class of the rules
    assert classes(defs, "en") == {"barrel": "container", "crate": "container", "sack": "container"}
    zh = {"坟墓场": "一个区域。", "牌库": "一个区域。", "手": "1. 一个区域。", "区域": "…"}
    assert classes(zh, "zh") == {"坟墓场": "区域", "牌库": "区域", "手": "区域"}


def test_an_english_word_also_meets_its_class_counted_less() -> None:
    term = understand_en(["barrel"], classes=lambda w: ("contain",)).terms[0]
    assert dict(term.forms) == {"barrel": 1.0, "contain": CLASS}


def test_a_chinese_word_also_meets_its_former_name_counted_less() -> None:
    term = understand_zh(["施放"], former=lambda w: ("使用",) if w == "施放" else ()).terms[0]
    assert dict(term.forms) == {"施放": 1.0, "使用": FORMER}


def test_chinese_asking_words_who_where_when_are_dropped_like_the_english_ones() -> None:
    zh = understand_zh(["谁", "获得", "奖杯"])
    assert zh.question and [t.text for t in zh.terms] == ["获得", "奖杯"]
    assert [t.text for t in understand_zh(["何时", "哪里", "放", "奖杯"]).terms] == ["放", "奖杯"]


def test_a_query_names_the_titles_whose_words_it_holds_in_a_run() -> None:
    titles = {term_key("en", "Widget Boxes"): ["200"], term_key("en", "Springs"): ["300"]}
    named = topics.named_en(["springs", "widget", "boxes"], lambda k: titles.get(k, []))
    assert named == {"300": pytest.approx(1 / 3), "200": pytest.approx(2 / 3)}
    # the title's words apart do not name it
    assert "200" not in topics.named_en(["widget", "springs", "boxes"], lambda k: titles.get(k, []))
    zh = topics.named_zh("重置步骤咒语", topics.zh_index(["重置步骤", "战场"]), lambda k: ["502"])
    assert zh == {"502": pytest.approx(4 / 6)}
    # a variant's or an option's title without its generic last word: 双头巨人 (玩法)
    giant = topics.named_zh("双头巨人每回合", topics.zh_index(["双头巨人玩法"]), lambda k: ["810"])
    assert giant == {"810": pytest.approx(4 / 7)}
    # named whole when both are there: 双头巨人玩法 covers six of the nine characters
    index = topics.zh_index(["双头巨人玩法"])
    whole = topics.named_zh("双头巨人玩法每回合", index, lambda k: ["810"])
    assert whole == {"810": pytest.approx(6 / 9)}


def test_a_rule_lies_under_the_title_of_its_section_or_titled_rule() -> None:
    assert topics.within("903.7", "903") and topics.within("702.7b", "702.7")
    assert topics.within("702.7", "702.7") and not topics.within("702.70a", "702.7")
    assert not topics.within("9030.1", "903") and not topics.within("510.4", "702.7")
    assert topics.share("200.1", {"200": 0.5, "300": 0.25}) == 0.5
    assert topics.share("400.1", {"200": 0.5}) == 0.0


# -- through the searcher ----------------------------------------------------------------------


def test_a_rule_under_the_title_a_question_names_comes_first(s: Searcher) -> None:
    # 300.1 holds more of the words; 200.1 lies under "Widget Boxes", which the question names:
    # the question is about that topic
    assert numbers(s.search("how many springs are in widget boxes", lang="en"))[0] == "200.1"


def test_a_variant_is_named_without_the_word_variant(s: Searcher) -> None:
    # "gadget fair" names the section titled "Gadget Fair Variant"
    _pinned, cands, _terms = s.candidates("are springs shared in a gadget fair", "en")
    assert any("topic" in f for n, f in cands if n.startswith("800"))


def test_a_one_word_general_title_names_no_topic(s: Searcher) -> None:
    _pinned, cands, _terms = s.candidates("how are springs made", "en")
    assert all("topic" not in f for _n, f in cands)


def test_a_card_type_only_a_variant_plays_names_a_topic_in_one_word(s: Searcher) -> None:
    # vanguards (313) are a variant's cards: as specific as the variant, unlike springs
    _pinned, cands, _terms = s.candidates("where do vanguard cards start", "en")
    assert any("topic" in f for n, f in cands if n.startswith("313"))


def test_a_question_about_a_member_finds_the_rule_about_its_class(s: Searcher) -> None:
    # 500.1 says "a container"; the glossary says a barrel is one
    assert numbers(s.search("what happens when a barrel is dropped", lang="en"))[0] == "500.1"


def test_todays_chinese_word_finds_a_rule_in_the_former_one(s: Searcher) -> None:
    # 100.1 says 使用 (the former word), never 施放: only the former name finds it
    assert numbers(s.search("施放", lang="zh")) == ["100.1"]
    assert numbers(s.search("在我的回合里可以施放咒语吗", lang="zh"))[0] == "100.1"


def test_a_chinese_what_is_question_reads_the_definition_in_the_english_parallel(
    s: Searcher,
) -> None:
    # both Chinese texts hold "是小玩意"; only 400.1's English says "is a gizmo" (400.2: "is
    # never a gizmo")
    assert numbers(s.search("什么是小玩意", lang="zh"))[0] == "400.1"


def test_a_definitions_pointers_to_rules_leave_no_pieces_of_their_numbers() -> None:
    # "See rules 603.6c and 603.10." once lost only "See rules 603.", and "6c" and "603.10"
    # were added to every query about leaving the battlefield as if they were words of it
    text = "A permanent leaves when it’s moved to another zone. See rules 603.6c and 603.10."
    assert without_pointers(text) == "A permanent leaves when it’s moved to another zone."
    two = "1. To cancel a spell. See rule 701.6, “Counter.”\n2. A marker. See rule 122."
    assert without_pointers(two).split() == [
        "1.",
        "To",
        "cancel",
        "a",
        "spell.",
        "2.",
        "A",
        "marker.",
    ]
    assert (
        without_pointers("一个区域。参见规则403.3。它曾经称为场上。")
        == "一个区域。 它曾经称为场上。"
    )


def test_a_keyword_search_lists_the_rules_that_hold_its_words(s: Searcher) -> None:
    # The glossary's words for "whirligig" (gizmo, wire) rank the rules that hold "springs"
    # (300.2: "made of wire" first), and list none that holds only them
    hits = s.search("whirligig springs", lang="en")["hits"]
    assert hits[0]["number"] == "300.2"
    assert all("spring" in h["text"].lower() for h in hits), [h["number"] for h in hits]
    # a question's answer may hold none of its words: the definition's rules stay among its hits
    asked = numbers(s.search("how are whirligig springs made", lang="en"))
    assert "400.2" in asked  # "A gear is a part and never a gizmo."
    # a term only the glossary uses is found through its definition
    assert {"300.2", "400.1"} <= set(numbers(s.search("whirligig", lang="en")))
