"""Search answers questions: question words, number words, inflections, proximity, statements."""

from __future__ import annotations

from pathlib import Path

import pytest

from crkb.model import GlossaryEntry
from crkb.search import numerals, ranking
from crkb.search.analysis import stem
from crkb.search.engine import Searcher
from crkb.search.index import build_index
from crkb.search.question import known_words, negation_pairs, understand_en, understand_zh
from tests.documents import document, numbers, toy_searcher

EN = [
    ("300", "section", "Gadgets", "Gadgets"),
    ("301", "rule", "Widgets", "Widgets"),
    ("301.1", "rule", "A widget is a kind of gadget that players happen to like.", None),
    (
        "301.2",
        "rule",
        "What happens to a widget, when a player asks how, is what the widget does.",
        None,
    ),
    ("301.3", "rule", "A player's widget can't have more than twelve sprockets.", None),
    ("301.4", "rule", "A widget holds 12 gears and 12 levers in a box.", None),
    ("301.5", "rule", "Only untapped widgets can be wound.", None),
    ("301.6", "rule", "A widget that is wound spins.", None),
    ("301.7", "rule", "A sprocket of any widget may be polished by a player.", None),
    ("301.8", "rule", "A widget in the river sinks to the bottom of the mill pond.", None),
    ("301.9", "rule", "The river flows past a mill; widgets and barrels float in it.", None),
    ("301.10", "rule", "A widget sinks to the bottom of the mill pond in the river.", None),
    ("301.11", "rule", "The word “you” on a widget refers to its owner.", None),
    (
        "301.12",
        "rule",
        "A limit on a widget's use (for example, “Spin only once each day”) goes with it.",
        None,
    ),
    ("301.13", "rule", "A widget can spin once a day and twice at night.", None),
    ("302", "rule", "Sprockets", "Sprockets"),
    ("302.1", "rule", "A sprocket turns a widget's gears.", None),
    ("303", "rule", "Rivers", "Rivers"),
    ("303.1", "rule", "A river carries a widget downstream.", None),
    ("304", "rule", "Widget Boxes", "Widget Boxes"),
    ("304.1", "rule", "A widget box holds one widget.", None),
    ("304.2", "rule", "Levers of a widget box may be pulled by a player.", None),
    ("304.3", "rule", "A lever is a bar that moves a widget box.", None),
]
ZH = [
    ("300", "section", "小器具", "小器具"),
    ("301.1", "rule", "每个齿轮箱可以容纳十个齿轮。", None),
    ("301.2", "rule", "齿轮可以转动，齿轮箱也可以打开。", None),
    ("301.3", "rule", "如果齿轮箱坏了，牌手便输掉此盘游戏。", None),
    ("301.4", "rule", "齿轮箱坏了的话会有声音。", None),
    ("301.5", "rule", "牌手有二十一个齿轮时，他获得一个奖杯。", None),
    ("301.6", "rule", "齿轮与奖杯放在桌上。", None),
    ("301.7", "rule", "牌手可以把一个齿轮当成一块地。", None),
    ("301.8", "rule", "齿轮箱上的“你”意指它的拥有者。", None),
    ("301.9", "rule", "牌手磨牌或是放逐牌时，齿轮箱转动一次。", None),
    ("701", "section", "关键字动作", "关键字动作"),
    ("701.13", "rule", "磨", "磨"),
    ("701.13a", "subrule", "牌手磨数张牌指，该牌手将该数量的牌从牌库顶置于其坟墓场。", None),
]


@pytest.fixture(scope="module")
def s(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    d = tmp_path_factory.mktemp("questions") / "index"
    gloss = [GlossaryEntry("Jam", "A widget that can't spin because its sprockets are bent.")]
    build_index(d, [document("en", EN, gloss), document("zh", ZH, [])], {"Widget": "小器具"})
    return toy_searcher(d)


# -- pure pieces -------------------------------------------------------------------------------


def test_question_words_are_dropped_and_modal_words_count_little() -> None:
    asked = understand_en(["what", "happens", "when", "can", "i", "polish", "a", "sprocket"])
    assert asked.question
    assert [t.text for t in asked.terms if t.weight == 1.0] == ["polish", "sprocket"]
    assert [t.text for t in asked.terms if t.weight < 1.0] == ["can"]
    zh = understand_zh(["齿轮箱", "会", "怎样", "吗"])
    assert zh.question and [t.text for t in zh.terms] == ["齿轮箱"]
    # 是什么意思 asks what a word means; 地 is a land, not the particle of "-ly"
    means = understand_zh(["基本地", "是", "什么", "意思"])
    assert means.question and [t.text for t in means.terms] == ["基本地"]
    assert [t.text for t in understand_zh(["背面", "是", "地"]).terms] == ["背面", "地"]


def test_what_counts_as_a_thing_asks_what_it_is() -> None:
    asked = understand_en(["what", "counts", "as", "a", "polished", "sprocket"])
    assert [t.text for t in asked.terms if t.weight == 1.0] == ["polish", "sprocket"]
    counted = understand_en(["count", "the", "sprockets"])  # a count is still asked for
    assert [t.text for t in counted.terms if t.weight == 1.0] == ["count", "sprocket"]


def test_how_many_asks_for_a_count_in_both_languages() -> None:
    assert understand_en(["how", "many", "gears", "fit"]).wants_number
    assert not understand_en(["gears", "fit"]).wants_number
    assert understand_zh(["齿轮箱", "能", "放", "几个", "齿轮"]).wants_number
    zh = understand_zh(["齿轮箱", "放", "多少", "个", "齿轮"])
    assert zh.wants_number and "个" not in [t.text for t in zh.terms]


@pytest.mark.parametrize(
    ("numeral", "value"),
    [("十", 10), ("二十一", 21), ("一百", 100), ("十五", 15), ("零", 0), ("一〇〇", 100)],
)
def test_chinese_numerals_have_values(numeral: str, value: int) -> None:
    assert numerals.zh_value(numeral) == value


def test_chinese_numbers_in_a_query_become_digits_but_words_stay() -> None:
    assert numerals.zh_digits("有二十一点伤害") == "有21点伤害"
    assert numerals.zh_digits("防御力为零") == "防御力为0"
    assert numerals.zh_digits("抓七张牌") == "抓7张牌"
    assert numerals.zh_digits("一位牌手在同一回合") == "一位牌手在同一回合"
    assert numerals.zh_count("十个") == "10" and numerals.zh_count("齿轮") is None


def test_number_words_meet_digits() -> None:
    assert numerals.english_forms("twelve") == ["12"]
    assert numerals.english_forms("12") == ["twelve"]
    term = understand_en(["zero"]).terms[0]
    assert {f for f, _ in term.forms} == {"zero", "0"}


def test_a_word_meets_its_negated_form_where_the_rules_use_it() -> None:
    pairs = negation_pairs(["tapped", "untapped", "creature", "noncreature", "tap"])
    assert stem("untapped") in pairs[stem("tapped")] and stem("tapped") in pairs[stem("untapped")]
    tapped = understand_en(["tapped"], lambda s: pairs.get(s, ())).terms[0]
    assert {f for f, _ in tapped.forms} == {stem("tapped"), stem("untapped")}
    # a noun keeps to itself: "creature" does not also search "noncreature"
    creature = understand_en(["creature"], lambda s: pairs.get(s, ())).terms[0]
    assert stem("noncreature") not in {f for f, _ in creature.forms}


def test_a_word_and_its_ed_and_ing_forms_share_a_stem(tmp_path: Path) -> None:
    """Porter's step 1b takes off the consonant -ed and -ing double (Whoosh's copy did not):
    "untap" meets "untapped", while a word that ends in a double of itself keeps it."""
    assert stem("tapped") == stem("tapping") == stem("tap")
    assert stem("untapped") == stem("untapping") == stem("untap")
    assert stem("beginning") == stem("begin") and stem("referred") == stem("refer")
    assert stem("added") == stem("add") == "add" and stem("passed") == stem("pass")
    rules = [
        ("100.1", "rule", "An untapped creature can block.", None),
        ("100.2", "rule", "A player may untap one land.", None),
        ("100.3", "rule", "Untap steps and cleanup steps follow.", None),
    ]
    build_index(tmp_path / "index", [document("en", rules, [])], {})
    s = toy_searcher(tmp_path / "index")
    assert set(numbers(s.search("untapping", lang="en"))) == {"100.1", "100.2", "100.3"}


def test_irregular_forms_meet_their_base_word() -> None:
    assert understand_en(["drew"]).terms[0].text == understand_en(["draw"]).terms[0].text


def test_a_word_meets_its_family_the_stemmer_leaves_apart() -> None:
    """ "destroyed" meets "Destruction of the source", counted a little less; and back."""
    forms = dict(understand_en(["destroyed"]).terms[0].forms)
    assert forms[stem("destruction")] < forms[stem("destroy")] == 1.0
    assert stem("destroy") in dict(understand_en(["destruction"]).terms[0].forms)
    assert len(understand_en(["widget"]).terms[0].forms) == 1


def test_a_where_question_meets_the_rule_that_moves_the_card() -> None:
    assert understand_en(["where", "does", "it", "go"]).wants_zone
    assert not understand_en(["when", "does", "it", "go"]).wants_zone
    assert understand_zh(("结算", "完", "去", "哪", "了")).wants_zone
    assert not understand_zh(("哪", "张", "牌", "先", "结算")).wants_zone  # which, not where
    assert ranking.moves("Then put it into its owner’s graveyard.", "en") > 1.0
    assert ranking.moves("Its owner shuffles it into their library.", "en") > 1.0
    assert ranking.moves("The spell resolves.", "en") == 1.0
    assert ranking.moves("将它置入其拥有者的坟墓场。", "zh") > ranking.moves("该咒语结算。", "zh")


def test_can_i_meets_the_rules_may() -> None:
    can = understand_en(["can", "i", "cast", "it"]).terms[0]
    assert can.weight < 1.0 and stem("may") in dict(can.forms)


def test_at_the_same_time_meets_simultaneously() -> None:
    time = understand_en(["lose", "at", "the", "same", "time"]).terms[-1]
    assert stem("simultaneously") in dict(time.forms)
    assert len(understand_en(["end", "time"]).terms[-1].forms) == 1


def test_come_back_meets_return_and_go_off_meets_trigger() -> None:
    back = understand_en(["does", "it", "come", "back"]).terms[-1]
    assert stem("return") in dict(back.forms)
    off = understand_en(["does", "the", "ability", "go", "off"]).terms[-1]
    assert stem("trigger") in dict(off.forms)
    assert len(understand_en(["back", "off"]).terms[-1].forms) == 1
    fall = understand_en(["does", "the", "aura", "fall", "off"]).terms[-1]
    assert stem("unattached") in dict(fall.forms)


def test_proximity_prefers_words_side_by_side() -> None:
    together = ranking.proximity([[(3, 4)], [(4, 5)]], 2)
    apart = ranking.proximity([[(0, 1)], [(20, 21)]], 2)
    alone = ranking.proximity([[(0, 1)], []], 2)
    assert together > apart > alone == 1.0


def test_statements_and_definitions_are_recognised() -> None:
    assert ranking.states("That player loses the game.", "en") > 1.0
    assert ranking.states("Players like widgets.", "en") == 1.0
    assert ranking.states("该牌手输掉此盘游戏。", "zh") > 1.0
    text = "A widget is a gadget."
    assert ranking.defines_en(["a", "widget", "is", "a", "gadget"], ["widget"], text) > 1.0
    assert ranking.defines_en(["polish", "a", "widget"], ["widget"], "Polish a widget.") == 1.0


# -- through the searcher ----------------------------------------------------------------------


def test_question_words_do_not_rank_a_rule_that_repeats_them(s: Searcher) -> None:
    hits = numbers(s.search("what happens when a player polishes a sprocket", lang="en"))
    assert hits[0] == "301.7" and "301.2" not in hits[:3]


def test_a_quoted_word_of_asking_is_asked_about() -> None:
    """'who is "you" on it' asks about the word "you": quoted, it is no word of asking."""
    from crkb.search.question import quoted_en

    assert quoted_en('who is "you" on it, and ‘target’?') == {"you", "target"}
    assert quoted_en("my opponent's creature's ability") == set()
    assert quoted_en('cards "exiled with" it') == {"exiled", "with"}  # a phrase's words
    plain = understand_en(["who", "is", "you", "on", "it"])
    quoted = understand_en(["who", "is", "you", "on", "it"], quoted=frozenset({"you"}))
    assert [t.text for t in plain.terms] == [] and [t.text for t in quoted.terms] == ["you"]
    assert understand_zh(["你", "是", "谁"], quoted=frozenset({"你"})).terms[0].text == "你"
    assert not understand_zh(["你", "是", "谁"]).terms


def test_a_quoted_word_finds_the_rule_that_quotes_it(s: Searcher) -> None:
    assert numbers(s.search('who is "you" on a widget I own', lang="en"))[0] == "301.11"
    assert numbers(s.search("who is you on a widget I own", lang="en"))[0] != "301.11"
    # the words of a quoted phrase meet the phrase a rule quotes
    quoted = 'my widget says "spin only once each day", can it spin twice a day'
    assert numbers(s.search(quoted, lang="en"))[0] == "301.12"
    assert numbers(s.search("齿轮箱的“你”是谁", lang="zh"))[0] == "301.8"
    assert numbers(s.search("齿轮箱的你是谁", lang="zh"))[0] != "301.8"


def test_a_keyword_action_titled_by_one_character_is_named_by_it(s: Searcher) -> None:
    """磨牌 names the keyword action 磨 (mill): its rule is no keyword's special case (no
    `specific` factor), and it leads the rule that only mentions milling."""
    factors = dict(s.candidates("磨牌是什么意思", "zh").scored)
    assert "specific" not in factors["701.13a"]
    assert numbers(s.search("磨牌是什么意思", lang="zh"))[0] == "701.13a"


def test_question_words_are_not_highlighted(s: Searcher) -> None:
    hit = s.search("what happens to a widget", lang="en")["hits"][0]
    assert "<mark>what</mark>" not in hit["highlight"].lower()
    assert "<mark>happens</mark>" not in hit["highlight"].lower()


def test_a_number_word_finds_the_digits_and_digits_the_word(s: Searcher) -> None:
    assert numbers(s.search("can a widget have 12 sprockets", lang="en"))[0] == "301.3"
    assert numbers(s.search("twelve gears", lang="en"))[0] == "301.4"


def test_chinese_numerals_meet_digits_both_ways(s: Searcher) -> None:
    assert numbers(s.search("齿轮箱能放10个齿轮吗", lang="zh"))[0] == "301.1"
    assert numbers(s.search("有二十一个齿轮会怎样", lang="zh"))[0] == "301.5"


def test_a_chinese_word_no_rule_holds_is_cut_into_words_the_rules_hold() -> None:
    known = {"先手", "地", "当", "下", "出来", "背面", "防御", "最后"}.__contains__

    def cut(tokens: list[str]) -> list[str]:
        words, fixed = known_words(tokens, known)
        assert fixed == {}
        return words

    # jieba's 当地 ("local") in 当地下出来 is 当 + 地 (a land); 先 / 手 are 先手
    assert cut(["背面", "当地", "下", "出来"]) == ["背面", "当", "地", "下", "出来"]
    assert cut(["对", "战", "先", "手", "吗"]) == ["对", "战", "先手", "吗"]
    # asking words, counts and words the rules hold stay whole; an unknown word with no known
    # part is kept as it is
    assert cut(["几块", "地", "什么", "十张", "背面"]) == ["几块", "地", "什么", "十张", "背面"]
    assert cut(["奖杯"]) == ["奖", "杯"] and cut(["刚"]) == ["刚"]
    assert cut(["最后", "一章"]) == ["最后", "一章"]  # a count the rules write otherwise


def test_a_chinese_word_that_sounds_like_a_rules_word_is_put_right() -> None:
    known = {"防御", "生物"}.__contains__
    sounds = {"朋洛客": "鹏洛客", "防御李": "防御力", "避邪": "辟邪"}.get
    # a word jieba keeps (避邪), a run of characters (朋 / 洛 / 客), and a slip in the last
    # character of a word the rules hold (防御 / 李)
    assert known_words(["避邪", "生物"], known, sounds) == (["辟邪", "生物"], {"避邪": "辟邪"})
    assert known_words(["朋", "洛", "客"], known, sounds) == (["鹏洛客"], {"朋洛客": "鹏洛客"})
    words, fixed = known_words(["生物", "防御", "李", "吗"], known, sounds)
    assert words == ["生物", "防御力", "吗"] and fixed == {"防御李": "防御力"}
    # no slip is looked for in asking words
    assert known_words(["什么", "时候"], known, lambda t: "石猴")[0] == ["什么", "时候"]
    # the tail of a word jieba cut whole (有人, someone) joins no slip: 人输 is no 认输
    concede = {"人输": "认输"}.get
    assert known_words(["有人", "输", "了"], known, concede) == (["有", "人", "输", "了"], {})
    assert known_words(["有", "人", "输"], known, concede)[1] == {"人输": "认输"}
    # an adverb after a noun is meant: 贴纸也 ("the sticker, too") is no 贴纸页 (a sticker sheet)
    sheet = {"贴纸也": "贴纸页"}.get
    assert known_words(["贴纸", "也", "弄掉"], {"贴纸"}.__contains__, sheet)[1] == {}
    # characters cut one by one that are each a word the rules hold are meant: 牌 / 当 ("the
    # card that turn") is no 拍档 (partner); a run of characters no rule holds alone still is
    partner = {"牌当": "拍档", "朋洛客": "鹏洛客"}.get
    card = {"牌", "当", "回合"}.__contains__
    assert known_words(["的", "牌", "当", "回合"], card, partner) == (
        ["的", "牌", "当", "回合"],
        {},
    )
    assert known_words(["朋", "洛", "客"], card, partner)[0] == ["鹏洛客"]
    # a demonstrative is meant: 施放这张牌 ("cast this card") is no 施放者 (caster)
    caster = {"施放这": "施放者"}.get
    cast = {"施放", "牌"}.__contains__
    assert known_words(["施放", "这", "张", "牌"], cast, caster) == (["施放", "这", "张", "牌"], {})


def test_a_question_in_words_no_rule_holds_finds_the_words_inside_them(s: Searcher) -> None:
    # jieba cuts 当地 ("local") out of 当地使用; no rule holds it, 地 (a land) is the answer's word
    assert numbers(s.search("齿轮能不能当地使用", lang="zh"))[0] == "301.7"


def test_tapped_meets_untapped(s: Searcher) -> None:
    assert numbers(s.search("can tapped widgets be wound", lang="en"))[0] == "301.5"


def test_content_words_together_beat_the_same_words_apart(s: Searcher) -> None:
    hits = numbers(s.search("widgets in the river", lang="en"))
    assert hits.index("301.8") < hits.index("301.10")


def test_a_rule_that_states_the_consequence_answers_what_happens(s: Searcher) -> None:
    assert numbers(s.search("齿轮箱坏了会怎样", lang="zh"))[0] == "301.3"


def test_a_what_is_question_finds_the_definition(s: Searcher) -> None:
    assert numbers(s.search("what is a lever", lang="en"))[0] == "304.3"


def test_hits_carry_their_parent_rule_title(s: Searcher) -> None:
    hit = s.search("sprocket polished", lang="en")["hits"][0]
    assert hit["parent"] == {"number": "301", "title": "Widgets"}


# -- the search page -----------------------------------------------------------------------------


@pytest.mark.archive
def test_search_page_shows_the_parent_rule_and_the_other_language(archive_build: Path) -> None:
    from bs4 import BeautifulSoup

    from crkb.web import create_app

    app = create_app({"DATA": str(archive_build), "TESTING": True})
    page = BeautifulSoup(
        app.test_client().get("/search?q=what+does+deathtouch+do&lang=en").get_data(as_text=True),
        "html.parser",
    )
    top = page.select_one(".hit")
    assert top is not None
    context = top.select_one(".context a")
    assert context is not None and "Deathtouch" in context.text
    other = top.select_one("a.other")
    assert other is not None and "lang=both" in other["href"]
    number = top.select_one("a.num")["href"].rsplit("/", 1)[1]
    assert f"/rules/{number}" in other["href"]


def test_a_glossary_term_brings_the_words_its_definition_uses(s: Searcher) -> None:
    # "jam" is in no rule; its definition's words (spin, sprocket) find the rule about them
    texts = [h["text"].lower() for h in s.search("what is a jam", lang="en")["hits"][:3]]
    assert texts and all("spin" in t or "sprocket" in t for t in texts)
    assert not numbers(s.search("what is a flaw", lang="en"))


def test_a_rule_the_rules_refer_to_counts_more() -> None:
    assert ranking.cited(0) == 1.0
    assert 1.0 < ranking.cited(1) < ranking.cited(4) <= ranking.cited(10_000)


def test_empty_meets_the_rules_no() -> None:
    """ "an empty library" meets "a library with no cards in it", weighted below the word itself."""
    term = understand_en(["empty"]).terms[0]
    forms = dict(term.forms)
    assert forms["empti"] == 1.0 and 0 < forms["no"] < 1.0


def test_a_question_about_an_opponent_finds_the_rule_about_players(tmp_path: Path) -> None:
    # an opponent is a player, a creature a permanent, a permanent an object: the rules say so
    # of every one of them
    rows = [
        ("100", "section", "Gadgets", "Gadgets"),
        ("100.1", "rule", "A player may polish a gadget at any time.", None),
        ("100.2", "rule", "Each opponent's gadget is a gadget.", None),
        ("100.3", "rule", "A permanent that is tapped can't be polished.", None),
        ("100.4", "rule", "A tapped creature is tapped.", None),
        ("100.5", "rule", "Sprockets on an object are lost when it is shuffled.", None),
        ("100.6", "rule", "A permanent sprocket is lost.", None),
    ]
    build_index(tmp_path / "index", [document("en", rows, [])], {})
    s = toy_searcher(tmp_path / "index")
    assert numbers(s.search("can my opponent polish a gadget", lang="en"))[0] == "100.1"
    assert numbers(s.search("can a tapped creature be polished", lang="en"))[0] == "100.3"
    assert numbers(s.search("sprockets on a permanent that is shuffled", lang="en"))[0] == "100.5"
