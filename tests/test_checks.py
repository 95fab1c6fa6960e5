"""Translation checks: numbers, marking, review file, the real 2024-04 release, injected faults."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from crkb.checks.findings import Finding, mark, mark_changes, marked
from crkb.checks.quantities import differing, quantities, zh_value
from crkb.checks.review import ReviewFile
from crkb.checks.translation import TermIndex, check, is_prose
from crkb.errors import BadInput
from crkb.markup import Span
from crkb.model import Document, Rule

# ---- small pure pieces ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("run", "value"),
    [("二十", 20), ("十五", 15), ("一百零八", 108), ("两", 2), ("七", 7), ("万", None)],
)
def test_chinese_numerals(run: str, value: int | None) -> None:
    assert zh_value(run) == value


def test_number_words_digits_and_numerals_compare_equal() -> None:
    en = quantities("A player with twenty or more life reveals nine cards.", "en")
    zh = quantities("生命为20或更多的牌手展示9张牌。", "zh")
    assert differing(en, zh) == ([], [])
    zh2 = quantities("生命为二十或更多的牌手展示九张牌。", "zh")
    assert differing(en, zh2) == ([], [])


def test_rule_numbers_and_pronouns_are_not_quantities() -> None:
    en = quantities("If one of them is chosen, see rules 903.6–903.11 and rule 704.", "en")
    zh = quantities("如果选择了其中之一，参见规则903.6-11和规则704。", "zh")
    assert differing(en, zh) == ([], [])


def test_a_changed_quantity_is_found_on_both_sides() -> None:
    en = quantities("Each team’s starting life total is 30.", "en")
    only_en, only_zh = differing(en, quantities("每个队伍的起始总生命为35。", "zh"))
    assert [q.value for q in only_en] == [30]
    assert [q.value for q in only_zh] == [35]
    # A changed numeral: the English number has gone missing from the translation.
    only_en, _ = differing(en, quantities("每个队伍的起始总生命为三十五。", "zh"))
    assert [q.value for q in only_en] == [30]


def test_a_numeral_counting_a_list_is_not_a_difference() -> None:
    en = quantities(
        "Exactly one of the attack left, attack right, and attack multiple options.", "en"
    )
    zh = quantities("必须使用攻击左边、攻击右边，以及攻击复数牌手这三个模式中的一个。", "zh")
    assert differing(en, zh) == ([], [])


def test_marking_escapes_html_and_merges_spans() -> None:
    assert mark([(0, 1), (1, 3), (5, 5)]) == [Span(0, 3)]
    assert marked("a <b> c", [(0, 1), (1, 3)]) == "<mark>a &lt;</mark>b&gt; c"
    old, new = mark_changes("See rule 727.", "See rule 728.")
    assert "<mark>727</mark>" in old and "<mark>728</mark>" in new


def test_term_index_is_whole_word_and_inflection_aware() -> None:
    index = TermIndex(["Copy", "Triggered Ability", "Cast"])
    hits = index.find("It copies the triggered abilities; a forecast or castle is not cast.")
    assert set(hits) == {"Copy", "Triggered Ability", "Cast"}
    assert len(hits["Cast"]) == 1


def test_untranslated_prose_versus_names() -> None:
    assert is_prose("search for a copy of the card")
    assert not is_prose("Seeker of the Eldrazi Way")  # a card name, title case
    assert not is_prose("APNAP")


def test_finding_identity_ignores_wording_and_markup() -> None:
    a = Finding("115.3", "references", "one wording", "x", "y", ("en:115.7", "zh:115.6"))
    b = Finding("115.3", "references", "other wording", "z", "w", ("zh:115.6", "en:115.7"))
    assert a.id == b.id and len(a.id) == 12
    assert set(a.to_json()) >= {"rule", "kind", "detail", "en", "zh", "id"}


def test_review_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "reviews.json"
    findings = [
        Finding("1", "numbers", "d", items=("a",)),
        Finding("2", "numbers", "d", items=("b",)),
    ]
    reviews = ReviewFile(path)
    reviews.mark(findings[0].id, "false_alarm", "pronoun", "2024-04-12")
    reviews.save()
    again = ReviewFile(path)
    assert again.status(findings[0].id, "2024-04-12") == "false_alarm"
    assert again.entry(findings[0].id, "2024-04-12")["note"] == "pronoun"
    assert again.filter_open(findings, "2024-04-12") == [findings[1]]
    # a verdict is on one release's translation: the same finding elsewhere is still open
    assert again.status(findings[0].id, "2024-03-08") is None
    assert again.filter_open(findings, "2024-03-08") == findings
    with pytest.raises(BadInput):
        again.mark(findings[1].id, "maybe", "", "2024-04-12")
    # a verdict written before verdicts named their release holds in every release
    path.write_text(json.dumps({findings[1].id: {"status": "reviewed", "note": ""}}), "utf-8")
    legacy = ReviewFile(path)
    assert legacy.status(findings[1].id, "2021-09-24") == "reviewed"
    assert legacy.unmark(findings[1].id, "2021-09-24") and legacy.entries == {}
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(BadInput):
        ReviewFile(path)


# ---- the real 2024-04 release --------------------------------------------------------------


@pytest.fixture(scope="module")
def release(archive: Path) -> tuple[Document, Document]:
    from tests.conftest import parsed

    en = parsed(str(archive / "en" / "txt" / "2024-04-10.txt")).documents[0]
    zh = parsed(str(archive / "zh" / "txt" / "2024-04-10.txt")).documents[0]
    assert en.version == zh.version == "2024-04-12"
    return en, zh


@pytest.fixture(scope="module")
def baseline(release: tuple[Document, Document]) -> list[Finding]:
    return check(*release)


def test_real_release_is_a_reviewable_list(baseline: list[Finding]) -> None:
    assert 30 <= len(baseline) <= 600
    assert len({f.id for f in baseline}) == len(baseline)
    refs = [f for f in baseline if f.rule == "115.3" and f.kind == "references"]
    assert refs and "115.7" in refs[0].detail and "115.6" in refs[0].detail
    assert "<mark>115.7</mark>" in refs[0].en and "<mark>115.6</mark>" in refs[0].zh
    stale = [f for f in baseline if f.rule == "502.2" and f.kind == "stale_reference"]
    assert stale and "Day and Night" in stale[0].detail and "727" in stale[0].detail


def test_identity_survives_a_rebuild(release: tuple[Document, Document], baseline) -> None:
    en, zh = release
    again = check(copy.deepcopy(en), copy.deepcopy(zh))
    assert [f.id for f in again] == [f.id for f in baseline]


# ---- fault injection -----------------------------------------------------------------------

Fault = Callable[[Document, Document, set[str]], tuple[str, str]]


def _quiet(zh: Document, baseline: list[Finding], used: set[str]) -> list[Rule]:
    """Rules of the translation with no finding yet and not touched by another fault."""
    noisy = {f.rule for f in baseline} | used
    english = {r.number for r in baseline_en(zh)}
    return [
        r
        for r in zh.rules
        if r.number not in noisy and r.number in english and r.kind in ("rule", "subrule")
    ]


def baseline_en(zh: Document) -> list[Rule]:
    """The English rules of the same release (read once)."""
    from tests.conftest import parsed

    return parsed(zh.source.replace("/zh/", "/en/")).documents[0].rules


def _take(rules: list[Rule], test: Callable[[Rule], bool], used: set[str]) -> Rule:
    rule = next(r for r in rules if test(r))
    used.add(rule.number)
    return rule


def delete_rule(en, zh, baseline, used):
    r = _take(_quiet(zh, baseline, used), lambda r: r.kind == "subrule" and not r.examples, used)
    zh.rules.remove(r)
    return "missing_rule", r.number


def duplicate_rule(en, zh, baseline, used):
    r = _take(_quiet(zh, baseline, used), lambda r: r.kind == "subrule", used)
    zh.rules.insert(zh.rules.index(r) + 1, copy.deepcopy(r))
    return "doubled_rule", r.number


def misnumber_rule(en, zh, baseline, used):
    """A subrule labelled with the number of the subrule before it (as the 2021-09-24 and
    2022-06-10 translations did): one finding on the English number, no doubled or missing."""
    quiet = _quiet(zh, baseline, used)
    quiet_numbers = {q.number for q in quiet}

    def after_a_quiet_sibling(r: Rule) -> bool:
        at = zh.rules.index(r)
        before = zh.rules[at - 1]
        return r.kind == "subrule" and before.parent == r.parent and before.number in quiet_numbers

    r = _take(quiet, after_a_quiet_sibling, used)
    before = zh.rules[zh.rules.index(r) - 1]
    used.add(before.number)
    number, r.number = r.number, before.number
    return "misnumbered_rule", number


def extra_number(en, zh, baseline, used):
    r = _take(_quiet(zh, baseline, used), lambda r: r.kind == "subrule", used)
    extra = copy.deepcopy(r)
    extra.number = r.number + "z"
    zh.rules.insert(zh.rules.index(r) + 1, extra)
    return "extra_rule", extra.number


def drop_example(en, zh, baseline, used):
    r = _take(
        _quiet(zh, baseline, used),
        lambda r: bool(r.examples) and not re.search(r"\d{3}", " ".join(r.examples)),
        used,
    )
    r.examples.pop()
    return "example_count", r.number


def change_cited_number(en, zh, baseline, used):
    numbers = set(zh.rule_map())

    def fits(r: Rule) -> bool:
        m = re.search(r"规则(\d{3}\.\d+)(?![\d a-z“，,])", r.text)
        return bool(m) and str(float(m.group(1)) + 0.1)[:5] not in r.text

    r = _take(_quiet(zh, baseline, used), fits, used)
    m = re.search(r"规则(\d{3})\.(\d+)(?![\d a-z“，,])", r.text)
    sec, num = m.group(1), int(m.group(2))
    new = next(f"{sec}.{n}" for n in range(num + 1, num + 30) if f"{sec}.{n}" in numbers)
    r.text = r.text[: m.start(1)] + new + r.text[m.end(2) :]
    return "references", r.number


def change_digit(en, zh, baseline, used):
    em = en.rule_map()

    def fits(r: Rule) -> bool:
        return (
            bool(re.search(r"(?<![\d./{])[3-8](?=点|张|个)", r.text))
            and "9" not in em[r.number].text
        )

    r = _take(_quiet(zh, baseline, used), fits, used)
    r.text = re.sub(r"(?<![\d./{])[3-8](?=点|张|个)", "9", r.text, count=1)
    return "numbers", r.number


def change_numeral(en, zh, baseline, used):
    em = en.rule_map()

    def fits(r: Rule) -> bool:
        return bool(re.search(r"(?<!第)[三四五六七](?=个|张|点)", r.text)) and not re.search(
            r"\b(?:nine|9)\b", em[r.number].text
        )

    r = _take(_quiet(zh, baseline, used), fits, used)
    r.text = re.sub(r"(?<!第)[三四五六七](?=个|张|点)", "九", r.text, count=1)
    return "numbers", r.number


def leave_untranslated(en, zh, baseline, used):
    em = en.rule_map()
    plain = re.compile(r"^[A-Z][a-z ,’']+(?: [a-z’']+){5,}\.$")

    def sentence(r: Rule) -> str | None:
        for s in re.split(r"(?<=\.) ", em[r.number].text):
            if plain.match(s) and not re.search(r"\d|\b(?:one|two|three|four|five)\b", s):
                return s
        return None

    r = _take(
        _quiet(zh, baseline, used), lambda r: r.number in em and sentence(r) is not None, used
    )
    r.text = r.text + sentence(r)
    return "untranslated", r.number


def drop_term(en, zh, baseline, used):
    from crkb.graph.terms import build_dictionary, pair_glossaries

    terms = build_dictionary([pair_glossaries(en, zh)])
    em = en.rule_map()
    index = TermIndex(list(terms))  # longest terms win, as in the check
    for term in ("Triggered Ability", "Activated Ability", "Replacement Effect", "Mana Cost"):
        zh_term = terms[term]
        for r in _quiet(zh, baseline, used):
            if r.text.count(zh_term) == 1 and term in index.find(em[r.number].text):
                used.add(r.number)
                r.text = r.text.replace(zh_term, "它")
                return "term", r.number
    raise AssertionError("no rule to drop a term from")


def remove_glossary_entry(en, zh, baseline, used):
    entry = zh.glossary[len(zh.glossary) // 2]
    i = zh.glossary.index(entry)
    del zh.glossary[i]
    return "glossary_missing", f"glossary:{en.glossary[i].term}"


def stale_title(en, zh, baseline, used):
    titled = re.compile(r"(规则\d{3}，“)([^”]+)(”)")
    r = _take(_quiet(zh, baseline, used), lambda r: bool(titled.search(r.text)), used)
    r.text = titled.sub(lambda m: m.group(1) + "白昼与黑夜" + m.group(3), r.text, count=1)
    return "stale_reference", r.number


FAULTS: list = [
    delete_rule,
    duplicate_rule,
    misnumber_rule,
    extra_number,
    drop_example,
    change_cited_number,
    change_digit,
    change_numeral,
    leave_untranslated,
    drop_term,
    remove_glossary_entry,
    stale_title,
]


def _new(findings: list[Finding], baseline: list[Finding]) -> set[tuple[str, str]]:
    old = {f.id for f in baseline}
    return {(f.kind, f.rule) for f in findings if f.id not in old}


def test_every_injected_fault_is_found_and_nothing_else(
    release: tuple[Document, Document], baseline: list[Finding]
) -> None:
    en, zh = release
    faulty = copy.deepcopy(zh)
    used: set[str] = set()
    expected = {fault(en, faulty, baseline, used) for fault in FAULTS}
    # The English rule changes in a (synthetic) later release: the translation is stale.
    later = copy.deepcopy(en)
    later.version = "2099-01-01"
    target = next(r for r in _quiet(zh, baseline, used) if r.number in later.rule_map())
    later.rule_map()[target.number].text += " This sentence was added later."
    expected.add(("stale_translation", target.number))
    found = check(en, faulty, later_en=[later])
    assert _new(found, baseline) == expected


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.__name__)
def test_each_fault_alone(release, baseline, fault) -> None:
    en, zh = release
    faulty = copy.deepcopy(zh)
    expected = fault(en, faulty, baseline, set())
    assert _new(check(en, faulty), baseline) == {expected}


def test_badge_counts_leave_the_findings_to_the_report(store, tmp_path: Path) -> None:
    # rule pages badge open findings by rule: counting them keeps no finding (a worker serving
    # every translated release held ~6 MB of their texts); a translator's report keeps them for
    # the next page
    from collections import Counter

    from crkb.checks.store_findings import findings, open_counts, report

    key = "findings:2024-04-12"
    store.cache.pop(key, None)
    counts = open_counts(store, ReviewFile(tmp_path / "reviews.json"), "2024-04-12")
    assert key not in store.cache
    _vid, found = findings(store, "2024-04-12", keep=False)
    assert counts and counts == dict(Counter(f.rule for f in found))  # nothing reviewed yet
    listed = report(store, tmp_path, "2024-04-12")
    assert listed["total"] == len(found) and store.cache[key] is findings(store, "2024-04-12")[1]


def test_the_chapter_filter_takes_the_published_form_and_refuses_what_is_no_number(
    runner, archive_build: Path, client, capsys
) -> None:
    """`--chapter 7.` is `--chapter 7` (numbers are printed with a trailing dot); a value that
    is no chapter, section or rule number is refused with a one-line reason, exit 2 (it used to
    say "0 open findings"). The web's `?chapter=` takes and refuses the same values."""

    def said(*chapter: str) -> tuple[int, str, str]:
        ran = runner("check", "--version", "2024-04-12", *chapter, data=archive_build)
        return ran.code, ran.out.splitlines()[0] if ran.out else "", ran.err

    _code, everything, _err = said()
    total = int(everything.split(" of ")[1])
    for plain, dotted in (("7", "7."), ("702", "702."), ("7", "第7章")):
        code, line, _err = said("--chapter", plain)
        assert code == 0 and line == said("--chapter", dotted)[1]
        assert 0 < int(line.split(": ")[1].split()[0]) < total
    for bad in ("abc", "10", "", "7x", "0", "099"):
        code, out, err = said("--chapter", bad)
        assert code == 2 and out == ""
        assert err.strip().count("\n") == 0 and err.startswith("crkb check: --chapter ")
        assert "not a chapter, section or rule number" in err
    with pytest.raises(SystemExit) as stopped:  # an unset variable: no release, not the newest
        runner("check", "--version", "", data=archive_build)
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and err.strip().count("\n") == 0
    assert "--version: give a release id" in err
    api = "/api/translation?version=2024-04-12&chapter="
    for plain, dotted in (("7", "7."), ("702", "702.")):
        assert client.get(api + dotted).get_json() == client.get(api + plain).get_json()
        assert client.get(api + plain).get_json()["findings"]
    for bad in ("abc", "10"):
        r = client.get(api + bad)
        assert r.status_code == 404 and "not a chapter" in r.get_json()["error"]


def test_the_senses_of_a_homonym_headed_apart_in_the_translation_are_its_partners() -> None:
    """Counter (to counter a spell; a marker) as two Chinese entries, 反击 and 指示物, sorted
    apart: neither is "extra", and their citations together are the English entry's; a Chinese
    entry that renders no sense of a homonym is still reported."""
    from crkb.checks.translation.glossary import glossary
    from crkb.model import GlossaryEntry

    def doc(lang: str, entries: list[GlossaryEntry]) -> Document:
        return Document(lang, "2024-04-12", "x", "txt", glossary=entries)

    en = doc(
        "en",
        [
            GlossaryEntry("Cast", "To cast a spell. See rule 601."),
            GlossaryEntry(
                "Counter",
                "1. To cancel a spell. See rule 701.5.\n2. A marker on an object. See rule 122.",
            ),
            GlossaryEntry("Zone", "A place. See rule 400."),
        ],
    )
    zh = [
        GlossaryEntry("反击", "1. 取消一个咒语。参见规则701.5。"),
        GlossaryEntry("施放", "施放咒语。参见规则601。"),
        GlossaryEntry("指示物", "2. 一个标示物。参见规则122。"),
        GlossaryEntry("区域", "一个地方。参见规则400。"),
    ]
    assert glossary(en, doc("zh", zh), {}) == []
    extra = [*zh, GlossaryEntry("阵营", "一个牌手的队伍。参见规则808。")]
    found = glossary(en, doc("zh", extra), {})
    assert [(f.kind, f.rule) for f in found] == [("glossary_extra", "glossary:阵营")]
