"""Search: rule numbers, glossary terms, keywords, typos, Chinese, Traditional, hostile input."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from crkb.errors import NotFound, StoreError
from crkb.model import Document, GlossaryEntry, Reference, Rule
from crkb.search.engine import Searcher
from crkb.search.index import USERDICT, build_index
from tests.documents import numbers, toy_searcher

ROOT = Path(__file__).resolve().parent.parent


def _rules(rows: list[tuple[str, str, str, str | None]]) -> list[Rule]:
    from crkb.numbers import parent_of

    return [Rule(n, k, t, title, parent=parent_of(n)) for n, k, t, title in rows]


def _en(version: str, flying_text: str) -> Document:
    rules = _rules(
        [
            ("702", "section", "Keyword Abilities", "Keyword Abilities"),
            ("702.2", "rule", "Deathtouch", "Deathtouch"),
            ("702.2a", "subrule", "Deathtouch is a static ability.", None),
            (
                "702.2b",
                "subrule",
                "A creature dealt damage by a deathtouch source is destroyed.",
                None,
            ),
            ("702.9", "rule", "Flying", "Flying"),
            ("702.9a", "subrule", flying_text, None),
            ("704", "section", "State-Based Actions", "State-Based Actions"),
            (
                "704.5j",
                "subrule",
                "If two or more legendary permanents share a name, "
                "their controller keeps one. This is called the <legend> rule.",
                None,
            ),
            ("901", "section", "Planechase", "Planechase"),
            (
                "901.3",
                "rule",
                "Each game of Planechase needs a planar deck and a planar die.",
                None,
            ),
            ("901.3a", "subrule", "A planar die is a six-sided die with a chaos symbol.", None),
        ]
    )
    glossary = [
        GlossaryEntry("Legend Rule", "A state-based action. See rule 704.5j."),
        GlossaryEntry("Planar Die", "A specialized die. See rule 901.3."),
    ]
    refs = [
        Reference("glossary:Legend Rule", "704.5j", "rule 704.5j"),
        Reference("glossary:Planar Die", "901.3", "rule 901.3"),
    ]
    return Document(
        "en", version, f"en/{version}.txt", "txt", rules=rules, glossary=glossary, references=refs
    )


def _zh(version: str) -> Document:
    rules = _rules(
        [
            ("702", "section", "关键字异能", "关键字异能"),
            ("702.2", "rule", "死触", "死触"),
            ("702.2a", "subrule", "死触属于静止式异能。", None),
            ("702.9", "rule", "飞行", "飞行"),
            ("702.9a", "subrule", "飞行是躲避异能。", None),
            ("704.5j", "subrule", "如果两个或更多传奇永久物名称相同，其操控者选择一个保留。", None),
            ("901.3a", "subrule", "时空骰为六面骰。", None),
        ]
    )
    glossary = [GlossaryEntry("传奇规则", "一个状态动作。参见规则704.5j。")]
    refs = [Reference("glossary:传奇规则", "704.5j", "规则704.5j")]
    return Document(
        "zh", version, f"zh/{version}.txt", "txt", rules=rules, glossary=glossary, references=refs
    )


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny two-release index: 2024-01-01 (en + zh) and 2025-01-01 (en only)."""
    d = tmp_path_factory.mktemp("small") / "index"
    docs = [
        _en("2024-01-01", "Flying is an evasion ability. A creature with flying can't be blocked."),
        _en("2025-01-01", "Flying is an evasion ability; only flying or reach creatures block it."),
        _zh("2024-01-01"),
    ]
    build_index(
        d,
        docs,
        {"Planar Die": "时空骰", "Legend Rule": "传奇规则"},
        moves={("2024-01-01", "702.9"): "702.10"},
    )
    return d


@pytest.fixture(scope="module")
def s(small: Path) -> Searcher:
    return toy_searcher(small)


def first(result: dict) -> str | None:
    return result["hits"][0]["number"] if result["hits"] else None


@pytest.mark.parametrize(
    "query", ["901.3a", "rule 901.3a", "cr 901.3a", "Rule 901.3A", "901.3a.", " 901.3a "]
)
def test_rule_number_forms_go_straight_to_the_rule(s: Searcher, query: str) -> None:
    assert first(s.search(query)) == "901.3a"


def test_rule_number_lists_the_rule_then_its_subrules(s: Searcher) -> None:
    assert [h["number"] for h in s.search("702.2")["hits"]] == ["702.2", "702.2a", "702.2b"]


def test_chinese_rule_number_form(s: Searcher) -> None:
    r = s.search("规则901.3a")
    assert (r["lang"], first(r)) == ("zh", "901.3a")


def _full_width(text: str) -> str:
    """The text as a Chinese keyboard in full-width mode types it (Ｆｌｙｉｎｇ)."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@pytest.mark.parametrize("typed", [_full_width("flying"), _full_width("Flying creature"), "ﬂying"])
def test_full_width_letters_and_pdf_ligatures_meet_the_plain_words(s: Searcher, typed: str):
    """Full-width letters (a Chinese keyboard) and the ligature ﬂ (text pasted from the PDF)
    find what the plain letters find; the query is echoed as typed."""
    plain = typed.replace("ﬂ", "fl").translate({c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)})
    got = s.search(typed, lang="en")
    want = [h["number"] for h in s.search(plain, lang="en")["hits"]]
    assert got["query"] == typed and want
    assert [h["number"] for h in got["hits"]] == want


def test_keyword_ranks_its_titled_rule_first(s: Searcher) -> None:
    r = s.search("deathtouch")
    assert (r["lang"], r["version"], first(r)) == ("en", "2025-01-01", "702.2")


def test_glossary_term_without_shared_words_finds_its_rule(s: Searcher) -> None:
    assert first(s.search("Legend Rules")) == "704.5j"
    assert first(s.search("传奇规则")) == "704.5j"


def test_a_subrule_defining_the_glossary_term_comes_first(s: Searcher) -> None:
    numbers = [h["number"] for h in s.search("planar die")["hits"][:2]]
    assert numbers == ["901.3a", "901.3"]


def test_typo_is_corrected_with_a_suggestion(s: Searcher) -> None:
    r = s.search("dethtouch")
    assert first(r) == "702.2"
    assert r["did_you_mean"] == "deathtouch"
    assert s.search("deathtouch")["did_you_mean"] is None


def test_a_chinese_slip_of_pinyin_input_is_put_right(s: Searcher) -> None:
    # 时空投 (shí kōng tóu) typed for 时空骰: the same sound, a wrong character
    r = s.search("时空投")
    assert first(r) == "901.3a" and r["did_you_mean"] == "时空骰"
    r = s.search("传奇归则是什么")
    assert first(r) == "704.5j" and r["did_you_mean"] == "传奇规则是什么"
    assert s.search("时空骰")["did_you_mean"] is None


def test_chinese_keyword_and_traditional_characters(s: Searcher) -> None:
    assert first(s.search("死触")) == "702.2"
    r = s.search("飛行")  # found through Simplified, echoed as typed
    assert (r["lang"], r["query"], first(r)) == ("zh", "飛行", "702.9")


def test_game_term_found_inside_longer_text(s: Searcher) -> None:
    assert first(s.search("时空骰")) == "901.3a"


def test_version_scope_and_aliases(s: Searcher) -> None:
    new = s.search("evasion reach")["hits"][0]
    old = s.search("evasion reach", version="2024-01-01")["hits"][0]
    assert (new["version"], new["number"]) == ("2025-01-01", "702.9a")
    assert "reach" in new["text"] and "reach" not in old["text"]
    assert s.search("flying", version="latest")["version"] == "2025-01-01"
    with pytest.raises(NotFound):
        s.search("flying", version="1990-01-01")


def test_other_language_and_current_number(s: Searcher) -> None:
    zh = s.search("飞行")["hits"][0]
    assert (zh["number"], zh["other"], zh["current_number"]) == ("702.9", "Flying", "702.10")
    en = s.search("702.9a", version="2024-01-01")["hits"][0]
    assert en["other"] == "飞行是躲避异能。"
    assert s.search("702.9a")["hits"][0]["other"] is None  # 2025 has no translation


def test_highlight_escapes_then_marks(s: Searcher) -> None:
    hit = s.search("legendary permanents")["hits"][0]
    assert hit["number"] == "704.5j"
    assert "&lt;legend&gt;" in hit["highlight"] and "<legend>" not in hit["highlight"]
    assert "<mark>legendary</mark> <mark>permanents</mark>" in hit["highlight"]
    assert s.search("死触")["hits"][1]["highlight"] == "<mark>死触</mark>属于静止式异能。"


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced',
        "AND OR NOT",
        "****",
        "(((",
        "deathtouch*",
        "a" * 100000,
        "",
        "   ",
        "the of and",
        "rule",
        "cr 999.9z",
        "规则",
        "\x00\x1f",
        "702.2 OR 1=1",
        "日本語テキスト",
        "飛行 '\"",
        "<script>alert(1)</script>",
    ],
)
def test_hostile_queries_never_raise(s: Searcher, query: str) -> None:
    t = time.perf_counter()
    r = s.search(query, lang="auto")
    assert time.perf_counter() - t < 1.0
    assert isinstance(r["hits"], list) and r["total"] >= len(r["hits"])
    assert len(r["query"]) <= 200
    for h in r["hits"]:
        assert "<script>" not in h["highlight"]


def test_dictionary_mismatch_is_refused(small: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "index"
    shutil.copytree(small, copy)
    with open(copy / USERDICT, "a", encoding="utf-8") as f:
        f.write("新词条\n")
    with pytest.raises(StoreError, match="dictionary"):
        Searcher(copy)


def test_missing_index_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError):
        Searcher(tmp_path / "nothing")


# -- the real archive ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(archive_build: Path) -> tuple[Searcher, None]:
    """The index `crkb build` made of the whole archive (speed is measured by `make bench`)."""
    from crkb.store.location import current_build

    return Searcher(current_build(archive_build) / "index"), None


def test_archive_eval_targets(real: tuple[Searcher, None]) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from eval_search import evaluate, read_queries

    queries = ROOT.parent / "shared" / "eval" / "queries.tsv"
    if not queries.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{queries}: the judged queries must be beside the archive in CI")
        pytest.skip("no judged queries beside the archive")
    scores = evaluate(real[0], read_queries(queries)).scores["all"]
    assert scores.mrr >= 0.90 and scores.recall >= 0.95


def test_archive_warming_changes_no_hit(real: tuple[Searcher, None]) -> None:
    """What a warmed searcher keeps (the newest texts, their stems) only saves work: a cold
    searcher of the same index ranks, scores and highlights every hit the same."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from eval_search import read_queries

    warmed = Searcher(real[0].dir)
    warmed.warm()
    cold = Searcher(real[0].dir)
    judged = read_queries(ROOT / "tests" / "fixtures" / "search_heldout.tsv")
    asked = [j for j in judged if j.lang == "en"][:15] + [j for j in judged if j.lang == "zh"][:15]

    def shown(s: Searcher, q: str) -> list[tuple[str, float, str]]:
        return [(h["number"], h["score"], h["highlight"]) for h in s.search(q)["hits"]]

    assert len(warmed._kept) > len(cold._kept) == 0  # the one warmed holds the newest texts
    for j in asked:
        assert shown(warmed, j.query) == shown(cold, j.query), j.query


@pytest.mark.parametrize("typed", ["Dandân", "Dandan", "DANDAN", "Ghazban Ogre"])
def test_archive_a_name_with_an_accent_is_found_typed_with_or_without_it(
    real: tuple[Searcher, None], typed: str
) -> None:
    """The rules name cards "Dandân" and "Ghazbán Ogre": the word is one word, accents folded."""
    top = real[0].search(typed, lang="en")["hits"][0]
    name = "Dandân" if typed.lower().startswith("dand") else "Ghazbán"
    assert name in top["text"]
    assert f"<mark>{name}</mark>" in top["highlight"]


def test_archive_bridge_table_is_the_translations_own_wording(real: tuple[Searcher, None]) -> None:
    # learned by the build from the releases translated into Chinese and their English texts
    table = real[0].bridge
    assert table["生命"][0] == "life" and table["牌库"][0] == "library"
    assert table["起始"][0] == "starting" and table["指挥官"][0] == "commander"
    assert "的" not in table  # a word of grammar has no English of its own


def test_archive_a_chinese_question_meets_the_english_wording_of_its_answer(
    real: tuple[Searcher, None],
) -> None:
    # 506.4's Chinese says 移出战斗 where the question says 离开战斗 (its 离开 is 离开战场, the
    # battlefield's); in English the question's words meet the rule's: "removed from combat",
    # "attacking" creatures
    s = real[0]
    assert numbers(s.search("生物离开战斗以后还算攻击生物吗", lang="zh"))[0] == "506.4"
    # over crkb's own Chinese questions, asking the English text too finds more answers first
    # (measured without the players' questions, which meet many of the same questions: session
    # 17, MRR@10 0.630 without the English text, 0.648 with it)
    sys.path.insert(0, str(ROOT / "scripts"))
    from eval_search import evaluate, read_queries

    judged = read_queries(ROOT / "tests" / "fixtures" / "search_heldout.tsv")
    chinese = [j for j in judged if j.lang == "zh"]
    s.players_questions = False
    try:
        with_english = evaluate(s, chinese).scores["zh"].mrr
        s.bridge, kept = {}, s.bridge
        try:
            alone = evaluate(s, chinese).scores["zh"].mrr
        finally:
            s.bridge = kept
    finally:
        s.players_questions = True
    assert with_english > alone


def test_archive_players_words_leave_the_rules_own_terms_and_titles_alone(
    real: tuple[Searcher, None],
) -> None:
    # a players' word is read in the rules' words, but a title or a glossary term that holds it
    # is asked about as it stands (献祭 is the keyword Offering, not "sacrifice"; London
    # Mulligan is a term); only the former names the glossary gives are read as today's
    from crkb.search.players import rules_words_en, rules_words_zh

    s = real[0]
    former = {"converted mana cost", "edh", "EDH", "鹏洛客旧译旅法师"}
    for key in [*s.definitions["en"], *s.titles["en"]]:
        assert key in former or rules_words_en(key.split()) == key.split(), key
    for key in [*s.definitions["zh"], *s.titles["zh"]]:
        assert key in former or rules_words_zh(key) == key, key


def test_archive_own_questions_keep_their_quality(real: tuple[Searcher, None]) -> None:
    # crkb's own judged queries (tests/fixtures/search_heldout.tsv, 1,374 of them): a change
    # that costs them more than a little is a regression, whatever it gains elsewhere. The
    # ranking forest (crkb/search/forest.py) is learned on this file, so these figures are what
    # it learned (session 18: en 0.835 / 0.939, zh 0.847 / 0.958). Without the players'
    # questions (crkb/search/asked.py) they were en 0.597 / 0.759 and zh 0.648 / 0.824 in
    # session 17: a lost or unattached questions file, or a stale forest, fails here.
    sys.path.insert(0, str(ROOT / "scripts"))
    from eval_search import evaluate, read_queries

    judged = read_queries(ROOT / "tests" / "fixtures" / "search_heldout.tsv")
    scores = evaluate(real[0], judged).scores
    assert scores["en"].mrr >= 0.78 and scores["en"].recall >= 0.90
    assert scores["zh"].mrr >= 0.80 and scores["zh"].recall >= 0.94


def test_archive_chinese_slips_find_what_the_clean_questions_find(
    real: tuple[Searcher, None],
) -> None:
    # crkb's own Chinese questions with one seeded slip of pinyin input each
    # (scripts/make_typos.py): nearly as good as typed right, and no clean question is "put right"
    sys.path.insert(0, str(ROOT / "scripts"))
    from eval_search import evaluate, read_queries

    fixtures = ROOT / "tests" / "fixtures"
    slips = evaluate(real[0], read_queries(fixtures / "search_typos_zh.tsv")).scores["zh"]
    clean = [j for j in read_queries(fixtures / "search_heldout.tsv") if j.lang == "zh"]
    assert slips.mrr >= 0.9 * evaluate(real[0], clean).scores["zh"].mrr
    assert all(real[0].search(j.query, lang="zh")["did_you_mean"] is None for j in clean)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("flying", "702.9"),
        ("trample", "702.19"),
        ("trampel", "702.19"),
        ("vigilance", "702.20"),
        ("rule 702.9b", "702.9b"),
        ("飛行", "702.9"),
        ("践踏", "702.19"),
        ("警戒", "702.20"),
        ("避邪", "702.11"),  # slips of pinyin input: 辟邪, 鹏洛客, 坟墓场
        ("朋洛客", "306"),
        ("坟墓厂", "404"),
    ],
)
def test_archive_own_queries(real: tuple[Searcher, None], query: str, expected: str) -> None:
    assert first(real[0].search(query)) == expected


def test_rule_numbers_typed_on_a_chinese_keyboard_and_chapters_named_as_the_rules_do() -> None:
    from crkb.numbers import fold_width, normalise
    from crkb.search.querynumbers import numbers_in, whole_number

    assert fold_width("７０２．１９ｂ") == "702.19b" and fold_width("702。19b") == "702.19b"
    assert fold_width("规则。７") == "规则。7"  # 。 ends a sentence unless between digits
    wide = ("７０２．１９ｂ", "702。19b", "ｒｕｌｅ ７０２．１９ｂ", "规则７０２．１９ｂ。")
    for typed in (*wide, "規則702.19b", "702.19b？"):  # Traditional 規則; a number asked about
        assert whole_number(typed) == "702.19b", typed
    for typed in ("第８章", "第八章", "第 八 章", "section 8", "Section 8.", "chapter 8", "rule 8"):
        assert normalise(typed) == "8", typed
    assert normalise("section 702") == "702"
    for typed in ("702.2 c", "702. 2c", "702 .2c", "rule 702.2 c", "702 2c", "702 2 c"):  # phones
        assert normalise(typed) == "702.2c", typed
    # slips: a comma for the dot, the letter as a list's (b) or after a dot, in brackets
    for typed in (
        "702,2c",
        "702.2(c)",
        "702.2 (c)",
        "702.2.c",
        "（702.2c）",
        "702.2c)",
        "[702.2c]",
    ):
        assert normalise(typed) == "702.2c", typed
    for not_a_number in ("第十章", "section 702.1", "chapter 702", "section", "８章节", "702 2c 3"):
        assert normalise(not_a_number) is None, not_a_number
    assert numbers_in("什么是 ７０２．１９ｂ 和 702。19c") == ["702.19b", "702.19c"]
    assert numbers_in("請看規則702.19c") == ["702.19c"]


@pytest.mark.parametrize(
    "query", ["７０２．１９ｂ", "702。19b", "ｒｕｌｅ ７０２．１９ｂ", "702 19b"]
)
def test_archive_a_full_width_rule_number_goes_to_the_rule(
    real: tuple[Searcher, None], client, query: str
) -> None:
    """Search, the web's search box and URL, `crkb show` and `crkb history` read it as 702.19b."""
    assert [h["number"] for h in real[0].search(query)["hits"]] == ["702.19b"]
    r = client.get("/search", query_string={"q": query})
    assert r.status_code == 302 and r.headers["Location"].endswith("/rules/702.19b")
    r = client.get("/rules/" + query.removeprefix("ｒｕｌｅ ").replace(" ", "%20"))
    assert r.status_code == 301 and r.headers["Location"].endswith("/rules/702.19b")
    assert (
        client.get("/api/search", query_string={"q": query}).get_json()["hits"][0]["number"]
        == "702.19b"
    )


@pytest.mark.parametrize("query", ["第８章", "第八章", "section 8", "第8章", "rule 8"])
def test_archive_a_chapter_named_in_chinese_or_as_a_section_lists_the_chapter(
    real: tuple[Searcher, None], client, query: str
) -> None:
    """100.1b says "See section 8, “Multiplayer Rules.”": `section 8` is chapter 8, as
    `rule 8`, `第8章` and `第八章` are (it used to find 200.1 and 716.3, or unrelated rules)."""
    hits = [h["number"] for h in real[0].search(query)["hits"]]
    assert hits[0] == "8" and all(h.startswith("8") for h in hits)
    r = client.get("/search", query_string={"q": query})
    assert r.status_code == 302 and r.headers["Location"].endswith("/rules/8")


def test_archive_show_and_history_read_a_full_width_number(runner, archive_build: Path) -> None:
    shown = runner("show", "７０２．１９ｂ", "--json", data=archive_build)
    assert shown.code == 0 and '"702.19b"' in shown.out
    history = runner("history", "７０２．１９ｂ", "--json", data=archive_build)
    assert history.code == 0 and '"502.9b"' in history.out  # as 1999 numbered it
    assert runner("show", "第八章", data=archive_build).out.startswith("[")
    assert "8 Multiplayer Rules" in runner("show", "section 8", data=archive_build).out


def test_archive_game_terms_stay_whole(real: tuple[Searcher, None]) -> None:
    cut = real[0].cutter().cut
    for term in ("时空骰", "统帅区", "再调度", "法术力值", "起动式异能"):
        assert term in cut(f"牌手的{term}中"), term
    groups = real[0].cutter().groups("延迟触发式异能")
    assert any("触发式异能" in g for g in groups)


def test_signal_weights_scale_a_factor_and_drop_a_zero_weighted_one() -> None:
    """A weight is an exponent on its factor: 0 drops the signal, 2 counts it twice."""
    from crkb.search.weights import combine

    factors = {"bm25": 4.0, "states": 1.25, "short": 0.5}
    assert combine(factors, {"bm25": 1.0}) == 4.0
    assert combine(factors, {"bm25": 1.0, "states": 2.0}) == 4.0 * 1.25**2
    assert combine(factors, {"bm25": 1.0, "short": 0.0, "states": 1.0}) == 4.0 * 1.25


def test_a_rule_other_leading_hits_refer_to_is_read_as_where_the_thing_is_stated() -> None:
    """ "See rule 704" in a candidate points at the rules under 704; both languages."""
    from crkb.search import ranking

    assert ranking.references("(This is a state-based action. See rule 704.)") == {"704"}
    assert ranking.references("参见规则704.5b与规则121.4。") == {"704.5b", "121.4"}
    assert ranking.references("See rules 601.2b and 601.2f–h.") == {"601.2b"}
    assert ranking.pointed(0) == 1.0 < ranking.pointed(1) < ranking.pointed(3) == ranking.pointed(9)


def test_a_rule_whose_opening_words_are_the_query_s_is_about_them() -> None:
    """Content words among a text's first words count more than the same words further on."""
    from crkb.search import ranking

    opening = [[(1, 2)], [(3, 4)]]  # both terms among the first six
    later = [[(1, 2)], [(30, 31)]]  # one of them far in
    assert (
        ranking.subject(opening, 2, 6)
        > ranking.subject(later, 2, 6)
        > ranking.subject([[], []], 2, 6)
    )
    assert ranking.subject([], 0, 6) == 1.0


def test_a_can_question_meets_the_rule_saying_what_can_or_cannot_be_done() -> None:
    """ "can a player look …" meets "can't look" and 不能…查看 just after the modal word."""
    from crkb.search import analysis, ranking

    def seq(text: str) -> list[str]:
        return [analysis.stem(w) for w in analysis.english_words(text)]

    near = [("look",), ("librari",)]
    assert ranking.modal_en(seq("Players can’t look at cards in a library."), near) > 1.0
    assert ranking.modal_en(seq("A player may look at the top card."), near) > 1.0
    assert ranking.modal_en(seq("Look at the top card; the player can then draw."), near) == 1.0
    assert ranking.modal_zh("牌手不能查看牌库中的牌。", [("查看",)]) > 1.0
    assert ranking.modal_zh("牌手查看牌库，然后可以抓牌。", [("查看",)]) == 1.0
