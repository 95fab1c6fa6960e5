"""The official plain-text layout: encodings, publisher's slips, examples, continuations, titles."""

from __future__ import annotations

import re

import pytest

from crkb.errors import NotARulesDocument
from crkb.sources.decode import decode
from crkb.sources.reader import read_bytes
from tests.conftest import parsed

HEAD = "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of {date}.\n\n"
INTRO = (
    "Introduction\n\nThis document is the ultimate authority.\n\n"
    "Contents\n\n1. Game Concepts\n100. General\n\nGlossary\n\nCredits\n\n"
)
FILLER = "".join(f"100.{i}. Filler rule number {i}.\n\n" for i in range(10, 70))
TAIL = (
    "Glossary\n\nAbility\n1. Text on an object.\n"
    "2. An activated or triggered ability on the stack.\nSee rule 100.1.\n\n"
    "Attack\nTo declare a creature as an attacker. See rule 100.2.\n\n"
    "Credits\n\nDesign: Someone\n"
)


def doc_text(body: str, date: str = "April 12, 2024") -> str:
    return (
        HEAD.format(date=date)
        + INTRO
        + "1. Game Concepts\n\n100. General\n\n"
        + body
        + FILLER
        + TAIL
    )


def parse(text: str, name: str = "2024-04-10.txt", encoding: str = "utf-8"):
    result = read_bytes(text.encode(encoding), name)
    assert len(result.documents) == 1
    return result.documents[0]


def test_rule_text_is_the_source_line_minus_its_number():
    doc = parse(
        doc_text(
            "100.1. These Magic rules apply to any Magic game.\n\n100.1a A two-player game.\n\n"
        )
    )
    rules = doc.rule_map()
    assert rules["100.1"].text == "These Magic rules apply to any Magic game."
    assert rules["100.1a"].text == "A two-player game."
    assert rules["100.1a"].parent == "100.1"
    assert rules["100"].kind == "section" and rules["100"].title == "General"
    assert rules["1"].kind == "chapter" and rules["1"].title == "Game Concepts"


@pytest.mark.parametrize(
    ("line", "number", "text"),
    [
        (
            "119.1d. In a two-player Brawl game, each player’s starting life total is 25.",
            "119.1d",
            "In a two-player Brawl game, each player’s starting life total is 25.",
        ),
        (
            "606.5 If the total cost to activate a loyalty ability contains X, ...",
            "606.5",
            "If the total cost to activate a loyalty ability contains X, ...",
        ),
        (
            "901.4.All plane and phenomenon cards remain in the command zone.",
            "901.4",
            "All plane and phenomenon cards remain in the command zone.",
        ),
        (
            " 509.1c The defending player checks each creature.",
            "509.1c",
            "The defending player checks each creature.",
        ),
        (
            "100.6b牌手可以使用在Wizards.com/Locator的万智牌店家。",
            "100.6b",
            "牌手可以使用在Wizards.com/Locator的万智牌店家。",
        ),
    ],
)
def test_publishers_slips_lose_no_text(line, number, text):
    doc = parse(doc_text(f"100.1. First.\n\n{line}\n\n"))
    assert doc.rule_map()[number].text == text


def test_doubled_subrule_number_keeps_both():
    doc = parse(doc_text("100.1. First.\n\n100.1a One text.\n\n100.1a Another text.\n\n"))
    texts = [r.text for r in doc.rules if r.number == "100.1a"]
    assert texts == ["One text.", "Another text."]
    assert any("100.1a appears twice" in w for w in doc.warnings)


def test_every_example_is_kept_with_its_rule_and_continuations_stay():
    body = (
        "100.1. A rule with many examples.\n\nExample: one.\n\nExample: two.\n\nExample: three.\n\n"
        "Example: four.\n\nExample: five.\n\n100.2. A list follows:\n     Cards printed in set A\n"
        "     Cards printed in set B\n\n"
    )
    doc = parse(doc_text(body))
    rules = doc.rule_map()
    assert rules["100.1"].examples == ["one.", "two.", "three.", "four.", "five."]
    assert (
        rules["100.2"].text
        == "A list follows:\n     Cards printed in set A\n     Cards printed in set B"
    )


def zh_doc_text(body: str) -> str:
    """A small Chinese release (effective April 12, 2024), `body` opening its section 100."""
    return (
        "万智牌完整规则\n\n此规则于2024年4月12日起生效。\n\n前言\n\n本文件。\n\n"
        "目录\n\n1. 游戏概念\n100. 总则\n\n词汇表\n\n版权信息\n\n"
        "1. 游戏概念\n\n100. 总则\n\n"
        + body
        + "".join(f"100.{i}. 填充规则{i}。\n\n" for i in range(10, 70))
        + "词汇表\n\n异能\n1. 一个物件上的叙述。\n参见规则100.1。\n\n版权信息\n\n设计\n"
    )


def test_chinese_examples_and_glossary():
    text = zh_doc_text("100.1. 这些万智牌规则适用于任何游戏。\n\n例如：甲。\n\n例如：乙。\n\n")
    doc = parse(text)
    assert doc.lang == "zh" and doc.version == "2024-04-12" and doc.alias == "2024-04-10"
    assert doc.rule_map()["100.1"].examples == ["甲。", "乙。"]
    assert [g.term for g in doc.glossary] == ["异能"]
    assert doc.glossary[0].senses == ["一个物件上的叙述。"]
    assert [(r.source, r.target) for r in doc.references if r.source.startswith("glossary")] == [
        ("glossary:异能", "100.1")
    ]


def test_an_appendix_of_provisional_names_after_the_glossary_is_no_glossary_entry():
    """A list of provisional names ("Abandon: 终止") ends the glossary as credits do."""
    text = zh_doc_text("100.1. 这些万智牌规则适用于任何游戏。\n\n").replace(
        "参见规则100.1。\n\n版权信息",
        "参见规则100.1。\n\n暂译名称列表\n\nAbandon: 终止\nArchenemy: 魔王\n\n版权信息",
    )
    assert "Abandon: 终止" in text
    assert [g.term for g in parse(text).glossary] == ["异能"]


def test_keyword_rule_titles():
    doc = parse(doc_text("100.1. Deathtouch\n\n100.1a Deathtouch is a static ability.\n\n"))
    assert doc.rule_map()["100.1"].title == "Deathtouch"
    assert doc.rule_map()["100.1a"].title is None


@pytest.mark.parametrize(
    "line",
    [
        "生物可以进行攻击和阻挡。（参见规则508，“宣告攻击者步骤”。）",
        "然后，主动牌手得到优先权。（参见规则117，“时机和优先权”。）",
        "双头巨人玩法使用队伍共享回合模式。（参见规则805。）",
        "此牌称为「移魂」",
        "此牌称为『移魂』",
        "见【规则】",
        "Creatures can attack and block. (See rule 508.)",
    ],
    ids=[
        "paren-quote",
        "paren-priority",
        "paren-short",
        "corner",
        "white-corner",
        "lenticular",
        "en-paren",
    ],
)
def test_a_sentence_closing_a_bracket_is_not_a_title(line):
    doc = parse(zh_doc_text(f"100.1. {line}\n\n100.2. 死触\n\n100.2a 死触是静止式异能。\n\n"))
    rules = doc.rule_map()
    assert rules["100.1"].text == line and rules["100.1"].title is None
    assert rules["100.2"].title == "死触"


def test_slipped_space_after_the_section_dot_is_read_as_the_rule():
    body = (
        '100.1. Storm\n\n100. 1a Storm is a triggered ability. "Storm" means more.\n\n'
        "Example: A copy.\n\n100. 1b If a spell has multiple instances of storm, each triggers.\n\n"
    )
    text = doc_text(body)
    doc = parse(text)
    rules = doc.rule_map()
    assert rules["100.1a"].text == 'Storm is a triggered ability. "Storm" means more.'
    assert rules["100.1a"].kind == "subrule" and rules["100.1a"].parent == "100.1"
    assert rules["100.1a"].examples == ["A copy."]
    assert rules["100.1b"].text == "If a spell has multiple instances of storm, each triggers."
    assert [(r.kind, r.title) for r in doc.rules if r.number == "100"] == [("section", "General")]
    line = next(i for i, ln in enumerate(text.split("\n"), 1) if ln.startswith("100. 1a"))
    assert f"line {line}: '100. 1a', a space after the dot, read as rule 100.1a" in doc.warnings
    assert not any("appears twice" in w for w in doc.warnings)


def test_glossary_entries_with_numbered_senses():
    doc = parse(doc_text("100.1. First.\n\n100.2. Second.\n\n"))
    ability = doc.glossary[0]
    assert ability.term == "Ability"
    assert ability.senses == [
        "Text on an object.",
        "An activated or triggered ability on the stack.",
    ]
    assert doc.intro.startswith("Introduction")
    assert "Design: Someone" in doc.credits
    assert not any(r.number == "Glossary" for r in doc.rules)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"\xef\xbb\xbfA \xe2\x80\x9cquote\xe2\x80\x9d\r\nB\rC\n", "A “quote”\nB\nC\n"),
        ("A “quote”\r\n".encode("utf-16"), "A “quote”\n"),
        ("A “quote”\r\n".encode("utf-16-be"), "A “quote”\n"),
        (b"you\x92re \x93here\x94 \x96 there\r\n", "you’re “here” – there\n"),
        (b"Gathering DCI\xaa Floor Rules \xd0 more\r", "Gathering DCI™ Floor Rules – more\n"),
        (
            b"Scimitar, Dand\x83n, Desert, Ghazb\xa0n Ogre, Jun\xa3n Efreet, we\x92re\n",
            "Scimitar, Dandân, Desert, Ghazbán Ogre, Junún Efreet, we’re\n",
        ),
        (b"Elf, El-Hajj\x89j, Enchantress\n", "Elf, El-Hajjâj, Enchantress\n"),
    ],
)
def test_every_encoding_and_line_ending(raw, expected):
    assert decode(raw).text == expected


def test_a_chinese_text_saved_as_gbk_reads_as_the_same_chinese_rules():
    """Windows in Chinese saves "ANSI" text as GBK (GB18030): its rules, character for
    character, as the UTF-8 file's; an English file's stray high bytes still read as cp1252."""
    text = zh_doc_text("100.1. 这些万智牌规则适用于任何游戏。“引号”—破折号。\n\n例如：甲。\n\n")
    utf8, gbk = parse(text), parse(text, encoding="gb18030")
    assert (gbk.lang, gbk.version, gbk.flags["encoding"]) == ("zh", "2024-04-12", "gb18030")
    assert [(r.number, r.text, r.examples) for r in gbk.rules] == [
        (r.number, r.text, r.examples) for r in utf8.rules
    ]
    assert gbk.rule_map()["100.1"].text == "这些万智牌规则适用于任何游戏。“引号”—破折号。"
    english = parse(doc_text("100.1. A player\x92s \x93card\x94.\n\n"), encoding="latin-1")
    assert english.rule_map()["100.1"].text == "A player’s “card”."
    # Traditional Chinese saved as Big5 is no GB18030 text: not read as Simplified mojibake,
    # but as the Big5 it is (Windows in Taiwan and Hong Kong saves "ANSI" text so)
    traditional = "這些萬智牌規則適用於任何遊戲，「引號」。\n" * 40
    big5 = decode(traditional.encode("big5"))
    assert (big5.encoding, big5.text) == ("cp950", traditional)


def test_a_cp437_file_is_read_wholly_as_cp437():
    """0x96 and 0x92 are cp437's û and Æ here, not cp1252's dash and apostrophe."""
    body = (
        "100.1. Dandân, El-Hajjâj, Ghazbán Ogre, Junún Efreet, Ring of Ma'rûf, Rukh Egg.\n\n"
        "100.2. Abbey Matron; Æther Storm; Aladdin.\n\n"
    )
    rules = parse(doc_text(body), encoding="cp437").rule_map()
    assert rules["100.1"].text == (
        "Dandân, El-Hajjâj, Ghazbán Ogre, Junún Efreet, Ring of Ma'rûf, Rukh Egg."
    )
    assert rules["100.2"].text == "Abbey Matron; Æther Storm; Aladdin."


def test_replacement_characters_are_counted_and_flagged():
    doc = parse(doc_text("100.1. A broken \ufffd character.\n\n"))
    assert doc.flags["replacement_chars"] == 1
    assert doc.rule_map()["100.1"].text == "A broken \ufffd character."


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_bad_byte_in_a_utf8_file_costs_that_byte_alone(lang):
    """A stray byte in a UTF-8 file once sent the whole file to MacRoman (every ’ read `âÄô`)
    or, Chinese, to no language at all: it is one replacement character, flagged."""
    quoted = (
        "A player’s “turn” — the rest."
        if lang == "en"
        else "牌手的“回合”——其余部分。例如：这个“生物”。"
    )
    body = "".join(f"100.{i}. {quoted} {i}\n\n" for i in range(1, 9))
    data = doc_text(body).encode("utf-8")
    cut = data.index(b"100.5.")
    result = read_bytes(data[:cut] + b"\x81" + data[cut:], "2024-04-10.txt")
    (doc,) = result.documents
    rules = doc.rule_map()
    assert rules["100.1"].text == f"{quoted} 1" and rules["100.8"].text == f"{quoted} 8"
    assert doc.flags["replacement_chars"] == 1


def test_truncated_document_is_flagged():
    text = doc_text("100.1. First.\n\n")
    cut = text[: text.index("Glossary\n\nAbility")]
    doc = parse(cut)
    assert doc.flags.get("truncated") is True


def test_a_file_stating_another_release_is_filed_under_it():
    doc = parse(doc_text("100.1. First.\n\n", date="June 1, 2014"), name="2016-06-01.txt")
    assert doc.version == "2014-06-01" and doc.alias == "2016-06-01"


# --- the real archive --------------------------------------------------------------------------

# Independent tally of the July 2009 release (both files), with test_archive.py's `body`:
#   sections: body F | grep -cE '^ ?[0-9]{3}\. [^0-9]'
#   rules:    body F | grep -cE '^ ?[0-9]{3}\.[0-9]+([^0-9a-z]|$)'
#   subrules: body F | grep -cE '^ ?[0-9]{3}\.( [0-9]+|[0-9]+)[a-z]'   ("702. 37a" counts)
#   examples: body F | grep -cE '^ ?Example:'; glossary as in test_archive.py
JULY_2009 = {"sections": 104, "rules": 648, "subrules": 824, "examples": 189, "glossary": 408}


@pytest.mark.archive
@pytest.mark.parametrize("name", ["2009-07-08", "2009-07-11"])
def test_july_2009_slipped_storm_subrules_are_rules(archive, name):
    path = archive / "en" / "txt" / f"{name}.txt"
    lines = decode(path.read_bytes()).text.split("\n")
    (doc,) = parsed(str(path)).documents
    rules = doc.rule_map()
    for number in ("702.37a", "702.37b"):
        rule = rules[number]
        slip = f"702. {number[4:]} "
        assert lines[rule.line - 1] == slip + rule.text
        assert rule.kind == "subrule" and rule.parent == "702.37"
        assert any(f"{slip.strip()!r}, a space after the dot" in w for w in doc.warnings)
    assert rules["702.37"].title == "Storm"
    assert [r.title for r in doc.rules if r.number == "702"] == ["Keyword Abilities"]
    assert doc.counts() == JULY_2009


_CLOSING = re.compile(r"[.。:：;；!?！？”\"')）」』】\]]$")


@pytest.mark.archive
@pytest.mark.parametrize(
    ("name", "number", "words"),
    [
        ("2019-01-25", "700.8a", "Ring of Ma'rûf, Rukh Egg"),
        ("2013-09-27", "700.6a", "Ring of Ma'rûf, Rukh Egg"),
        ("2013-11-01", "700.6a", "Ring of Ma'rûf, Rukh Egg"),
        ("2013-07-11", "700.5c", "Abbey Matron; Æther Storm;"),
    ],
)
def test_the_cp437_releases_keep_their_card_names(archive, name, number, words):
    (doc,) = parsed(str(archive / "en" / "txt" / f"{name}.txt")).documents
    text = doc.rule_map()[number].text
    assert words in text
    assert not re.search("[–’]", text)


@pytest.mark.archive
def test_no_title_in_the_archive_ends_a_sentence_or_closes_a_bracket(archive):
    """Keyword titles ("死触", "Deathtouch") name rules; a sentence never becomes a title."""
    paths = [
        *sorted(archive.glob("en/txt/*.txt")),
        *sorted(archive.glob("zh/txt/*.txt")),
        *sorted(archive.glob("zh/markdown/*/*.md")),
        *sorted(archive.glob("zh/dokuwiki/*/*.txt")),
    ]
    refused, titled, bad = [], 0, []
    for path in paths:
        try:
            result = parsed(str(path))
        except NotARulesDocument:
            refused.append(path.relative_to(archive).as_posix())
            continue
        for doc in result.documents:
            for r in doc.rules:
                if r.title:
                    titled += 1
                    if _CLOSING.search(r.title.strip()):
                        bad.append((path.name, doc.lang, r.number, r.title[:40]))
    assert refused == ["en/txt/1999-04-21.txt"]  # a rulings summary
    assert bad == []
    assert titled > 30_000
    zh = parsed(str(archive / "zh/txt/2024-04-10.txt")).documents[0].rule_map()
    assert (zh["702.2"].title, zh["702.19"].title) == ("死触", "践踏")
    assert zh["302.5"].text.endswith("）") and zh["302.5"].title is None


def test_glossary_entries_without_a_blank_line_between_them_stay_apart():
    """Some releases lost the blank line between two entries; a headword after a finished
    definition starts the next entry, while numbered senses stay with their term."""
    tail = TAIL.replace("See rule 100.1.\n\nAttack", "See rule 100.1.\nAttack")
    text = doc_text("100.1. First.\n\n100.2. Second.\n\n").replace(TAIL, tail)
    doc = parse(text)
    assert [g.term for g in doc.glossary] == ["Ability", "Attack"]
    assert doc.glossary[0].text.endswith("See rule 100.1.")
    assert doc.glossary[1].text == "To declare a creature as an attacker. See rule 100.2."


@pytest.mark.archive
def test_no_glossary_entry_of_the_archive_holds_another_headword(archive):
    """2021-11-15 wrote "Affinity" straight under Adventurer Card's definition: two entries."""
    (doc,) = parsed(str(archive / "en" / "txt" / "2021-11-15.txt")).documents
    entries = {g.term: g.text for g in doc.glossary}
    assert entries["Adventurer Card"].endswith("See rule 716, “Adventurer Cards.”")
    assert entries["Affinity"].startswith("A keyword ability that reduces how much mana")
    for path in sorted(archive.glob("en/txt/*.txt")):
        try:
            docs = parsed(str(path)).documents
        except NotARulesDocument:
            continue
        for d in docs:
            terms = {g.term for g in d.glossary}
            held = [
                (g.term, line)
                for g in d.glossary
                for line in g.text.split("\n")
                if line.strip() in terms
            ]
            assert not held, (path.name, held[:3])
