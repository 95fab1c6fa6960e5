"""Words the rules once used for a thing, mined from the glossary's own statements of renaming.

The Chinese glossary says "施放咒语曾经称为使用咒语" (casting a spell used to be called 使用), and
older translated rules still say 使用 where today's say 施放. A query in today's words then also
meets the text in yesterday's: the former name is one more form of the word, counted a little less.
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
