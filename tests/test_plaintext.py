"""The official plain-text layout: encodings, publisher's slips, examples, continuations, titles."""

from __future__ import annotations

import pytest

from crkb.sources.decode import decode
from crkb.sources.reader import read_bytes

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


def test_chinese_examples_and_glossary():
    text = (
        "万智牌完整规则\n\n此规则于2024年4月12日起生效。\n\n前言\n\n本文件。\n\n"
        "目录\n\n1. 游戏概念\n100. 总则\n\n词汇表\n\n版权信息\n\n"
        "1. 游戏概念\n\n100. 总则\n\n100.1. 这些万智牌规则适用于任何游戏。\n\n"
        "例如：甲。\n\n例如：乙。\n\n"
        + "".join(f"100.{i}. 填充规则{i}。\n\n" for i in range(10, 70))
        + "词汇表\n\n异能\n1. 一个物件上的叙述。\n参见规则100.1。\n\n版权信息\n\n设计\n"
    )
    doc = parse(text)
    assert doc.lang == "zh" and doc.version == "2024-04-12" and doc.alias == "2024-04-10"
    assert doc.rule_map()["100.1"].examples == ["甲。", "乙。"]
    assert [g.term for g in doc.glossary] == ["异能"]
    assert doc.glossary[0].senses == ["一个物件上的叙述。"]
    assert [(r.source, r.target) for r in doc.references if r.source.startswith("glossary")] == [
        ("glossary:异能", "100.1")
    ]


def test_keyword_rule_titles():
    doc = parse(doc_text("100.1. Deathtouch\n\n100.1a Deathtouch is a static ability.\n\n"))
    assert doc.rule_map()["100.1"].title == "Deathtouch"
    assert doc.rule_map()["100.1a"].title is None


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


def test_replacement_characters_are_counted_and_flagged():
    doc = parse(doc_text("100.1. A broken \ufffd character.\n\n"))
    assert doc.flags["replacement_chars"] == 1
    assert doc.rule_map()["100.1"].text == "A broken \ufffd character."


def test_truncated_document_is_flagged():
    text = doc_text("100.1. First.\n\n")
    cut = text[: text.index("Glossary\n\nAbility")]
    doc = parse(cut)
    assert doc.flags.get("truncated") is True


def test_a_file_stating_another_release_is_filed_under_it():
    doc = parse(doc_text("100.1. First.\n\n", date="June 1, 2014"), name="2016-06-01.txt")
    assert doc.version == "2014-06-01" and doc.alias == "2016-06-01"
