"""Cross-references: every shape the text uses, in both languages; non-references stay out."""

from __future__ import annotations

import pytest

from crkb.graph.references import expand, extract, resolve
from crkb.model import Rule


def targets(text: str, lang: str = "en") -> list[str]:
    return [r.target for r in extract("x", text, lang)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("See rule 704.5x.", ["704.5x"]),
        ("See rules 100.2b and 100.4b.", ["100.2b", "100.4b"]),
        ("rules 601.2a, 601.2b, and 601.2c", ["601.2a", "601.2b", "601.2c"]),
        ("in rules 601.2b and 601.2f–h.", ["601.2b", "601.2f", "601.2g", "601.2h"]),
        ("see rules 601.2f-h", ["601.2f", "601.2g", "601.2h"]),
        ("See rules 119.7–8.", ["119.7", "119.8"]),
        ("rules 903.6–903.11", ["903.6", "903.7", "903.8", "903.9", "903.10", "903.11"]),
        ("See section 8, “Multiplayer Rules.”", ["8"]),
        ("see 601.2b, then proceed to 616.1e.", ["601.2b", "616.1e"]),
        ("See rule 727, “Day and Night.”", ["727"]),
        (
            "See rule 113, “Abilities,” and section 6, “Spells, Abilities, and Effects.”",
            ["113", "6"],
        ),
        ("A deck of exactly 100 cards; Core Set 2019; 999,999 damage.", []),
        (
            "subrules skip the letters “l” and “o”; rule 704.5k is followed by 704.5m",
            ["704.5k", "704.5m"],
        ),
    ],
)
def test_english_shapes(text, expected):
    assert targets(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("参见规则704.5j。", ["704.5j"]),
        ("参见规则100.2b和100.4b。", ["100.2b", "100.4b"]),
        ("规则702.3与702.4", ["702.3", "702.4"]),
        ("规则702.3及702.4", ["702.3", "702.4"]),
        ("规则601.2a、601.2b以及601.2c", ["601.2a", "601.2b", "601.2c"]),
        ("参见第8章，“多人游戏规则”。", ["8"]),
        ("规则903.6-11", ["903.6", "903.7", "903.8", "903.9", "903.10", "903.11"]),
        ("一副套牌的套牌数量下限为60张，总生命为20。", []),
    ],
)
def test_chinese_shapes(text, expected):
    assert targets(text, "zh") == expected


def test_quoted_title_is_kept():
    (ref,) = extract("502.2", "see rule 727, “Day and Night”", "en")
    assert ref.title == "Day and Night" and ref.raw == "727"


def test_dangling_and_stale_are_flagged():
    rules = {
        "727": Rule("727", "section", "Restarting the Game", title="Restarting the Game"),
        "730": Rule("730", "section", "Day and Night", title="Day and Night"),
    }
    refs = resolve(
        extract(
            "x", "See rule 727, “Day and Night,” rule 730, “Day and Night,” and rule 999.1.", "en"
        ),
        rules,
    )
    assert [(r.target, r.dangling, r.stale) for r in refs] == [
        ("727", False, True),
        ("730", False, False),
        ("999.1", True, False),
    ]


def test_expand_is_bounded():
    assert expand("601.2f–h") == ["601.2f", "601.2g", "601.2h"]
    assert expand("100.1-100.900") == ["100.1", "100.900"]  # not a plausible range: both ends only
