"""Numbers written in rule text — digits, English number words, Chinese numerals — as values.

Translation checks compare the quantities a rule states in both languages, so `twenty`, `二十`
and `20` must read the same. Rule numbers are references, not quantities, and are masked first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_EN_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_EN_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_EN_WORD = re.compile(
    r"\b(?:(?P<tens>"
    + "|".join(_EN_TENS)
    + r")(?:[- ](?P<unit1>"
    + "|".join(list(_EN_UNITS)[1:10])
    + r"))?|(?P<unit>"
    + "|".join(_EN_UNITS)
    + r"))(?:\s+(?P<big>hundred|thousand))?\b"
    r"|\b(?P<times>twice|thrice)\b|\b(?P<million>a million|one million)\b",
    re.I,
)
_EN_ORDINALS = {
    w: i
    for i, w in enumerate(
        ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"), 1
    )
} | {"half": 2, "halves": 2, "both": 2, "double": 2, "single": 1, "once": 1, "pair": 2}
_EN_ORDINAL = re.compile(r"\b(?:" + "|".join(_EN_ORDINALS) + r")\b", re.I)
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_ZH_DIGITS |= {"七": 7, "八": 8, "九": 9}
_ZH_POWERS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_ZH_RUN = re.compile(r"[零〇一二两三四五六七八九十百千万]+")
# Words that contain a numeral but state no quantity ("万智牌", "两者" = both, "一些" = some).
_ZH_NOT_A_NUMBER = re.compile(
    r"万智|万岁|千变|百科|十字|三角|二者|两者|两边|两面|两端|两个人|一些|一旦|一起|一般|一律|一致|一样"
    r"|非零|一直|一切|一并|一同|一定|一部分|一方|之一|同一|唯一|统一|逐一|任一|一一|一下|一次性|万一"
)
# A Chinese numeral states a count when a measure word or a pause follows it ("三个", "为七。");
# elsewhere it is likely part of a name or a word ("三头龙", "五色").
_ZH_COUNTED = re.compile(
    r"[个张种位次倍点组条类堆颗盘面边人步对支名项份枚只块轮段局回。，、；：）)]|或|至|到|和|及|$"
)
_DIGITS = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d])|(?<![\d.])\d+(?:\.\d+)?(?![\d])")
_ENUMERATOR = re.compile(r"[(（]\d[)）]")  # "(1) … (2) …" list markers state no quantity
# Rule numbers are references; they are masked before quantities are read.
_RULE_NUMBER = re.compile(
    r"\d{3}\.\d+[a-z]?(?:\s*[–—-]\s*(?:\d{3}\.)?\d*[a-z]?)?"
    r"|(?:\b[Rr]ules?|\b[Ss]ections?|\b[Ss]ee|规则|参见)\s*\d{1,3}(?!\d)(?!\.\d)"
    r"(?:(?:\s*(?:,|and|or|、|和|与|及)\s*)\d{3}(?!\d)(?!\.\d))*"
    r"|第\s*\d\s*章|(?<![\d.])\d{3}(?=[,，]\s*[“\"])"
)


@dataclass(frozen=True, slots=True)
class Quantity:
    """One number as written: its value, where it is, and whether it surely states a quantity.

    `word` is true for number words and numerals, false for digits.

    Digits and number words of three and more are `sure`; "one"/"一" (also an article or a
    pronoun), "two"/"两" (often "both", "either side"), ordinals and "half" are not: they may
    answer a sure number of the other language but never raise a difference by themselves.
    """

    value: int | float
    start: int
    end: int
    sure: bool
    word: bool = False


def mask_rule_numbers(text: str) -> str:
    """The text with every rule/section number blanked (same length, so offsets still hold)."""
    text = _RULE_NUMBER.sub(lambda m: " " * len(m.group(0)), text)
    return _ENUMERATOR.sub(lambda m: " " * len(m.group(0)), text)


def zh_value(run: str) -> int | None:
    """`二十` → 20, `十五` → 15, `一百零八` → 108, `两` → 2; None for runs that are no number."""
    if set(run) <= {"零", "〇"}:
        return 0
    total, section, digit = 0, 0, None
    for ch in run:
        if ch in "零〇":
            continue  # a place holder: 一百零八
        if ch in _ZH_DIGITS:
            if digit is not None:
                return None  # "一二" is not a number
            digit = _ZH_DIGITS[ch]
        else:
            power = _ZH_POWERS[ch]
            if power == 10000:
                if digit is None and section == 0 and total == 0:
                    return None  # a bare 万 is a word ("万岁"), not a count
                total = (total + section + (digit or 0)) * power
                section, digit = 0, None
            else:
                section += (1 if digit is None else digit) * power
                digit = None
    return total + section + (digit or 0)


def _en_value(m: re.Match[str]) -> int:
    if m.group("million"):
        return 1_000_000
    if m.group("times"):
        return 2 if m.group("times").lower() == "twice" else 3
    if m.group("tens"):
        value = _EN_TENS[m.group("tens").lower()]
        if m.group("unit1"):
            value += _EN_UNITS[m.group("unit1").lower()]
    else:
        value = _EN_UNITS[m.group("unit").lower()]
    big = (m.group("big") or "").lower()
    return value * (100 if big == "hundred" else 1000 if big == "thousand" else 1)


def _digits(text: str) -> list[Quantity]:
    out = []
    for m in _DIGITS.finditer(text):
        raw = m.group(0).replace(",", "")
        out.append(Quantity(float(raw) if "." in raw else int(raw), m.start(), m.end(), True))
    return out


def _word(value: int, start: int, end: int) -> Quantity:
    return Quantity(value, start, end, value == 0 or value >= 3, True)


def en_quantities(text: str) -> list[Quantity]:
    """Digits, number words and ordinals of an English text (rule numbers excluded)."""
    masked = mask_rule_numbers(text)
    out = _digits(masked)
    out += [_word(_en_value(m), m.start(), m.end()) for m in _EN_WORD.finditer(masked)]
    for m in _EN_ORDINAL.finditer(masked):
        out.append(Quantity(_EN_ORDINALS[m.group(0).lower()], m.start(), m.end(), False, True))
    return sorted(out, key=lambda q: q.start)


def zh_quantities(text: str) -> list[Quantity]:
    """Digits and numerals of a Chinese text (rule numbers excluded; ordinals, idioms unsure)."""
    masked = mask_rule_numbers(text)
    blocked = [(m.start(), m.end()) for m in _ZH_NOT_A_NUMBER.finditer(masked)]
    out = _digits(masked)
    for m in _ZH_RUN.finditer(masked):
        value = zh_value(m.group(0))
        if value is None:
            continue
        q = _word(value, m.start(), m.end())
        ordinal = m.start() > 0 and masked[m.start() - 1] == "第"
        counted = _ZH_COUNTED.match(masked, m.end())
        if ordinal or not counted or any(a < m.end() and m.start() < b for a, b in blocked):
            q = Quantity(value, q.start, q.end, False, True)
        out.append(q)
    return sorted(out, key=lambda q: q.start)


def quantities(text: str, lang: str) -> list[Quantity]:
    """The quantities a text states, by language."""
    return zh_quantities(text) if lang == "zh" else en_quantities(text)


def differing(en: list[Quantity], zh: list[Quantity]) -> tuple[list[Quantity], list[Quantity]]:
    """Sure quantities of each side whose value the other side does not state at all."""
    en_values = {q.value for q in en}
    zh_values = {q.value for q in zh}
    # A Chinese numeral with no English counterpart is mostly the translator counting a list
    # ("这三个模式"); a changed numeral still shows as the English number gone missing.
    return (
        [q for q in en if q.sure and q.value not in zh_values],
        [q for q in zh if q.sure and q.value not in en_values and not q.word],
    )
