"""Number words and digits, so `ten` meets `10` and `二十一` meets `21` (English and Chinese)."""

from __future__ import annotations

import re

_EN_UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]
_EN_TENS = {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "hundred": 100}
EN_WORDS: dict[str, int] = {w: i for i, w in enumerate(_EN_UNITS)} | _EN_TENS
_EN_DIGITS: dict[int, str] = {n: w for w, n in EN_WORDS.items()}

_ZH_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_ZH_DIGIT |= {"六": 6, "七": 7, "八": 8, "九": 9}
_ZH_UNIT = {"十": 10, "百": 100, "千": 1000}
ZH_NUMERAL = "".join(_ZH_DIGIT) + "".join(_ZH_UNIT)
# Measure words that follow a count in the rules ("十个", "七张", "21点", "两次").
ZH_MEASURES = "个张点次位名枚种回条段"
_ZH_COUNT = re.compile(f"^([{ZH_NUMERAL}]+)([{ZH_MEASURES}]?)$")
_ZH_RUN = re.compile(f"[{ZH_NUMERAL}]+")


def english_forms(word: str) -> list[str]:
    """Other spellings of a number written as an English word or in digits: ten → 10, 10 → ten."""
    if word in EN_WORDS:
        return [str(EN_WORDS[word])]
    if word.isdigit() and int(word) in _EN_DIGITS:
        return [_EN_DIGITS[int(word)]]
    return []


def zh_value(numeral: str) -> int | None:
    """The value of a Chinese numeral (十 → 10, 二十一 → 21, 一百 → 100), None if it is not one."""
    if not numeral or any(ch not in _ZH_DIGIT and ch not in _ZH_UNIT for ch in numeral):
        return None
    if all(ch in _ZH_DIGIT for ch in numeral):  # digit by digit: 一〇〇 → 100
        return int("".join(str(_ZH_DIGIT[ch]) for ch in numeral))
    total, digit = 0, None
    for ch in numeral:
        if ch in _ZH_DIGIT:
            if digit is not None:  # two digits in a row inside a unit numeral: not a number
                return None
            digit = _ZH_DIGIT[ch]
        else:
            total += (1 if digit is None else digit) * _ZH_UNIT[ch]
            digit = None
    return total + (digit or 0)


def zh_count(token: str) -> str | None:
    """Digits of a Chinese count word (十个 → 10, 一百张 → 100, 零 → 0), None for other words."""
    m = _ZH_COUNT.match(token)
    if not m:
        return None
    value = zh_value(m.group(1))
    return None if value is None else str(value)


def zh_digits(text: str) -> str:
    """Chinese numerals that stand for numbers written as digits: 二十一点 → 21点, 为零 → 为0.

    A lone 一 (一位, 同一, 一旦) or 两 stays, since it is an article or part of a word far more
    often than a number; longer numerals, 十 and 零, and a digit before a measure word change.
    """

    def swap(m: re.Match[str]) -> str:
        run = m.group(0)
        after = text[m.end() : m.end() + 1]
        lone = len(run) == 1 and run not in "十零〇"
        if lone and (run in "一两" or not after or after not in ZH_MEASURES):
            return run
        value = zh_value(run)
        return run if value is None else str(value)

    return _ZH_RUN.sub(swap, text)
