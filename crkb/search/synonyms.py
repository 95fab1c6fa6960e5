"""Words for a thing mined from the glossary: former names (施放 once 使用) and classes (zone).

The Chinese glossary says "施放咒语曾经称为使用咒语" (casting a spell used to be called 使用), and
older translated rules still say 使用 where today's say 施放. A query in today's words then also
meets the text in yesterday's: the former name is one more form of the word, counted a little less.
Likewise "Graveyard: A zone." makes a graveyard one of a class the rules often speak of as a whole
("a zone other than the battlefield"): the class word is a form of the term, counted less still.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# "A曾经称为B", "A过去被称为“B”", "A之前被称为“B”": A is today's name, B the former one.
_RENAMED_ZH = re.compile(
    r"([\u4e00-\u9fff]{2,12}?)(?:曾经|过去|之前|先前)(?:被)?称为[“\"]?([\u4e00-\u9fff]{2,12})"
)
# The subject of "此区域过去被称为…", "它之前被称为…": the glossary entry itself.
_PRONOUNS = ("此区域", "此区", "它", "这", "此")


def _strip_shared_suffix(a: str, b: str) -> tuple[str, str]:
    """施放咒语 / 使用咒语 → 施放 / 使用: the shared tail is what was not renamed."""
    n = 0
    while n < min(len(a), len(b)) - 1 and a[-1 - n] == b[-1 - n]:
        n += 1
    return (a[: len(a) - n], b[: len(b) - n]) if n else (a, b)


def former_names_zh(definitions: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """Today's word → the words the glossary says it was called before (both of two characters
    or more), from every Chinese glossary definition."""
    out: dict[str, list[str]] = {}
    for key, text in definitions.items():
        for m in _RENAMED_ZH.finditer(text):
            now, before = m.group(1), m.group(2)
            if now.endswith(_PRONOUNS):
                now = key
            elif now.startswith(("这", "此", "那", "该")):  # "这些异能曾经被称为…": not a name
                continue
            now, before = _strip_shared_suffix(now, before)
            if before.endswith("区") and len(before) > 2:  # 场上区: the zone's name is 场上
                before = before[:-1]
            if len(now) >= 2 and len(before) >= 2 and now != before:
                got = out.setdefault(now, [])
                if before not in got:
                    got.append(before)
    return {k: tuple(v) for k, v in out.items()}


MIN_CLASS = 3  # a class word names at least so many glossary terms …
MAX_CLASS = 12  # … and not so many that it says nothing of one ("keyword ability": 150)
_GENUS_EN = re.compile(
    r"^(?:1\.\s*)?(?:A|An)\s+([a-z]+)(?=[.,;]|\s+(?:that|which|in|of|used|with|on|where)\b)"
)
_GENUS_ZH = re.compile(r"^(?:1\.\s*)?一(?:个|种|项|张|位)?([\u4e00-\u9fff]{2,5}?)[。，；]")


def classes(definitions: Mapping[str, str], lang: str) -> dict[str, str]:
    """Glossary term → the class its definition opens with ("Graveyard: A zone." → zone), for
    classes that are glossary terms themselves and hold a few terms (zone: hand, library, …)."""
    pattern = _GENUS_ZH if lang == "zh" else _GENUS_EN
    genus: dict[str, str] = {}
    for key, text in definitions.items():
        m = pattern.match(text.strip())
        if m and m.group(1) in definitions and m.group(1) != key:
            genus[key] = m.group(1)
    size: dict[str, int] = {}
    for g in genus.values():
        size[g] = size.get(g, 0) + 1
    return {k: g for k, g in genus.items() if MIN_CLASS <= size[g] <= MAX_CLASS}
