"""How a question's words are read and which rules they point at: pronouns, rule references,
the parts of a long Chinese word, 能 inside 异能, and a keyword's or a variant's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from crkb.search import analysis, english, players, ranking, topics
from crkb.search.engine import Searcher
from crkb.search.question import SUBWORD, asks_can_zh, understand_en, understand_zh
from crkb.search.spelling import Speller
from tests.documents import english_searcher, numbers

EN = [
    ("100", "section", "Rattles", "Rattles"),
    ("100.1", "rule", "A rattle makes noise when shaken. See rule 300.10.", None),
    ("100.2", "rule", "A rattle that holds 10 beads is loud, whoever shakes it or holds it.", None),
    ("300", "section", "Beads", "Beads"),
    ("300.1", "rule", "Beads are small.", None),
    # the same words in a later subrule, met first: only its place among its siblings differs
    ("300.2e", "rule", "A marble bead can roll away.", None),
    ("300.2b", "rule", "A marble bead can roll away.", None),
]


@pytest.fixture(scope="module")
def s(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    return english_searcher(tmp_path_factory.mktemp("signals") / "index", EN)


def test_a_rule_number_is_one_word_not_the_numbers_inside_it() -> None:
    words = analysis.english_terms("See rule 903.10. It deals 21 damage (rule 704.5f).")
    assert "903.10" in words and "704.5f" in words
    assert "10" not in words and "5f" not in words and "21" in words


def test_a_number_word_does_not_meet_the_number_of_a_referenced_rule(s: Searcher) -> None:
    # 100.1 holds "10" only inside "rule 300.10": a question about ten beads is not about it
    assert numbers(s.search("ten", lang="en")) == ["100.2"]
    assert numbers(s.search("how many rattles hold ten", lang="en"))[0] == "100.2"


def test_a_referenced_rule_number_finds_the_rules_that_refer_to_it(s: Searcher) -> None:
    # no rule 300.10 stands in this release: the rule that refers to it does (not 100.2's "10")
    assert numbers(s.search("300.10", lang="en")) == ["100.1"]


def test_pronouns_of_asking_carry_no_content() -> None:
    asked = understand_en(["can", "a", "player", "look", "at", "their", "own", "library"])
    assert "their" not in asked.content and asked.question
    assert {"player", "look", "library"} <= set(asked.content)


def test_a_long_chinese_word_also_meets_each_of_its_parts() -> None:
    def parts(word: str) -> list[str]:
        return {"替代性效应": ["替代性", "替代", "效应"]}.get(word, [])

    term = understand_zh(["两个", "替代性效应"], parts).terms[1]
    # the parts that cover the word side by side, counted less; not "替代" inside "替代性"
    assert dict(term.forms) == {"替代性效应": 1.0, "替代性": SUBWORD, "效应": SUBWORD}


def test_neng_inside_an_ability_does_not_ask_what_can_be_done() -> None:
    assert not asks_can_zh("两个异能同时触发时谁来排序")
    assert asks_can_zh("维持步骤中可以施放咒语吗")
    assert asks_can_zh("敏捷的生物刚获得操控就能攻击吗")
    assert asks_can_zh("生物能不能阻挡")


def test_a_reference_names_its_rule_and_a_section_reference_the_whole_section() -> None:
    assert ranking.named_by("702.7c") == {"702.7c", "702"}
    assert ranking.named_by("704.5f") == {"704.5f", "704"}
    assert "702.7" not in ranking.named_by("702.7c")  # "see rule 702.7" names 702.7


def test_a_keyword_or_variant_title_counts_as_half_the_question_at_least() -> None:
    named = {"903": 0.25, "510": 0.25}
    assert topics.share("903.7", named) == topics.SPECIFIC_SHARE  # Commander, a variant
    assert topics.share("510.4", named) == 0.25  # Combat Damage Step, a general title
    assert topics.share("903.7", {"903": 0.75}) == 0.75


def _stems(text: str) -> tuple[str, ...]:
    return tuple(analysis.stem(w) for w in analysis.english_words(text.replace("-", " ")))


@pytest.mark.parametrize(
    ("text", "defined"),
    [
        ("Some effects put tokens onto the battlefield. A token is a marker.", True),
        ("Tokens are markers used to represent permanents.", True),
        ("An activated ability is a token ability if it has no target.", True),
        ("They use the definition below to determine what the token is created with.", False),
        ("A Treasure token is a colorless artifact.", False),
        ("The player who creates a token is its owner.", False),
    ],
)
def test_a_term_is_defined_where_a_sentence_opens_with_it(text: str, defined: bool) -> None:
    got = ranking.defines_en(_stems(text), (analysis.stem("token"),), text)
    assert (got > 1.0) is defined


def test_the_copula_of_a_chinese_what_is_question_is_an_asking_word() -> None:
    asked = understand_zh(["衍生物", "是", "什么"])
    assert asked.question and asked.content == ("衍生物",)
    assert [t.text for t in asked.terms] == ["衍生物"]  # the rules say 衍生物为…, not 是


def test_a_first_subrule_comes_before_a_later_one_saying_as_much(s: Searcher) -> None:
    assert numbers(s.search("can a marble bead roll", lang="en"))[:2] == ["300.2b", "300.2e"]
    assert 1.0 < ranking.early("702.11e") < ranking.early("702.11b") < ranking.early("702.11a")


def test_a_token_glued_from_asking_words_is_those_words() -> None:
    # jieba cuts 不合法时会怎样 as 不合法 / 时会 / 怎样: no rule holds 时会, it is 时 + 会
    asked = understand_zh(["目标", "不合法", "时会", "怎样"])
    assert asked.content == ("目标", "不合法") and asked.wants_outcome
    assert "时会" not in [t.text for t in asked.terms]
    assert understand_zh(["不能", "阻挡"]).content == ("不能", "阻挡")  # 不能 is no asking word


WHISTLES = [
    ("500", "section", "Whistles", "Whistles"),
    # the rules open a heading with what its thing is, in words that need not read "X is …"
    ("500.1", "rule", "Each guard may carry one whistle on a cord.", None),
    ("500.2", "rule", "A whistle blown twice calls the whistle's owner to the whistle.", None),
]


def test_a_question_about_a_titled_term_finds_the_first_rule_under_its_heading(
    tmp_path: Path,
) -> None:
    s = english_searcher(tmp_path / "index", WHISTLES)
    # as keywords, the rule that says "whistle" most leads; asked what it is, the first rule
    keywords = numbers(s.search("whistle", lang="en"))
    assert keywords.index("500.2") < keywords.index("500.1")
    assert numbers(s.search("what is a whistle", lang="en"))[0] == "500.1"
    assert ranking.first_under("702.11a", ["702.11"]) and ranking.first_under("405.1", ["405"])
    assert not ranking.first_under("405.2", ["405"]) and not ranking.first_under("405.1", [])


def test_words_of_asking_and_known_inflections_are_not_spelling_mistakes(tmp_path: Path) -> None:
    rows = [
        ("100", "section", "Rallies", "Rallies"),
        ("100.1", "rule", "A rally is a setting of beads for wording a stack.", None),
        ("100.2", "rule", "Tracking a bead works only while it is stacked.", None),
        ("100.3", "rule", "A bear ruins a bead.", None),
    ]
    s = english_searcher(tmp_path / "index", rows)
    # "really" and "getting" are words of asking, not "rally" and "setting"; "working" and
    # "stacking" are forms of "works" and "stacked", not "wording" and "tracking"
    assert s.search("is it really getting beads", lang="en")["did_you_mean"] is None
    assert s.search("how is stacking working", lang="en")["did_you_mean"] is None
    assert s.search("trackng beads", lang="en")["did_you_mean"] == "tracking beads"  # a typo
    # the suggestion is the query as typed with the typo put right: a players' word the
    # search reads in the rules' words ("etb": enters the battlefield) is shown as typed
    assert s.search("etb trackng", lang="en")["did_you_mean"] == "etb tracking"
    # an everyday English word the rules never use is a player's word, not a rules' word
    # misspelled: "wear" is not "bear", "runs" not "ruins" (listed when the index is built)
    assert s.search("when does a bead wear off", lang="en")["did_you_mean"] is None
    assert s.search("a bead runs out", lang="en")["did_you_mean"] is None


def test_the_everyday_words_listed_are_those_the_corrector_would_change() -> None:
    speller = Speller({"bear": 3, "ruins": 2, "stack": 1}, analysis.stem)
    words = english.frequent_words()
    assert {"wear", "runs", "stack"} <= set(words) and not {"trampel", "the"} & set(words)
    near = english.within_reach(["wear", "runs", "stack", "tramples", "zebra"], speller.correct)
    assert near == ["runs", "wear"]  # "stack" is known, "tramples" a form of it, "zebra" far
    assert Speller({"bear": 3}, english=frozenset(["wear"])).correct("wear") is None
    assert Speller({"bear": 3}).correct("wear") == "bear"
    # a form of an everyday word is one too: "ramping" is no "damping"
    ramp = frozenset(["ramp"])
    assert Speller({"damping": 3}, analysis.stem, ramp).correct("ramping") is None
    assert Speller({"damping": 3}, analysis.stem).correct("ramping") == "damping"


def test_a_creature_that_died_is_one_that_dies_not_a_die_rolled() -> None:
    for word in ("died", "dying", "dead"):
        stems = [t.text for t in understand_en(["creature", word]).terms]
        assert stems == ["creatur", analysis.stem("dies")] and "die" not in stems


def test_he_she_and_contractions_typed_without_apostrophes_carry_no_content() -> None:
    words = players.rules_words_en(["hes", "got", "hexproof", "and", "he", "won", "t", "die"])
    assert words[:2] == ["he", "is"] and words[-3:-1] == ["will", "not"]
    asked = understand_en(words)
    stems = [t.text for t in asked.terms]
    # not "he", not the "won" of winning, and the verb "die" as the rules say it ("dies")
    assert "he" not in stems and analysis.stem("win") not in stems
    assert analysis.stem("hexproof") in stems and analysis.stem("dies") in stems
    assert players.rules_words_en(["my", "guy", "died"]) == ["my", "creature", "died"]
    # the remains of "i'm", "you're", "i've", "we'll" are no words of the question
    remains = understand_en(analysis.english_words("i'm sure you're done, i've seen we'll pass"))
    assert not {"m", "re", "ve", "ll"} & {t.text for t in remains.terms}


def test_a_die_rolled_is_a_die() -> None:
    for words in (["roll", "a", "die"], ["die", "roll"], ["what", "does", "the", "die", "show"]):
        assert "die" in [t.text for t in understand_en(words).terms], words
    assert "die" not in [t.text for t in understand_en(["can", "it", "die"]).terms]


def test_a_power_and_toughness_is_one_word() -> None:
    words = analysis.english_terms("Put a +1/+1 counter and a -1/-1 counter on a 2/2 X/X token.")
    assert {"+1/+1", "-1/-1", "2/2", "x/x"} <= set(words) and "1" not in words
    assert analysis.english_words("state-based 2025/07/25") == [
        "state",
        "based",
        "2025",
        "07",
        "25",
    ]


def test_a_minus_counter_is_not_a_plus_counter(tmp_path: Path) -> None:
    rows = [
        ("100", "section", "Counters", "Counters"),
        ("100.1", "rule", "A +1/+1 counter on a creature gives it +1/+1.", None),
        ("100.2", "rule", "A -1/-1 counter on a creature gives it -1/-1.", None),
    ]
    s = english_searcher(tmp_path / "index", rows)
    assert numbers(s.search("-1/-1 counter", lang="en"))[0] == "100.2"
    assert numbers(s.search("what does a +1/+1 counter do", lang="en"))[0] == "100.1"


def test_function_words_of_english_shade_a_question_but_carry_no_content() -> None:
    asked = understand_en(["can", "i", "pay", "more", "life", "than", "i", "have"])
    weights = {t.text: t.weight for t in asked.terms}
    assert weights["than"] < 1.0 and weights[analysis.stem("pay")] == 1.0
    assert "than" not in asked.content and "life" in asked.content
