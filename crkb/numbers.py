"""Rule numbers: parsing, normal form, order, parents, and the subrule letter sequence."""

from __future__ import annotations

import re

# Subrule letters skip "l" and "o" (too easily read as 1 and 0).
LETTERS = "abcdefghijkmnpqrstuvwxyz"

_NUMBER = re.compile(r"^(\d{1,3})(?:\.(\d+)([a-z]{0,2}))?$", re.ASCII)
# Full-width ASCII (U+FF01–FF5E) and the ideographic space, as a Chinese keyboard types them.
_WIDE = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
_STOP_IN_NUMBER = re.compile(r"(?<=[0-9])。(?=[0-9])")  # 702。19b: the ideographic full stop
_ZH_CHAPTER = re.compile(r"^第\s*([一二三四五六七八九])\s*章$")  # 第八章: chapter 8
_ZH_DIGITS = "一二三四五六七八九"


def fold_width(text: str) -> str:
    """Full-width letters, digits and punctuation as ASCII, and 。 between digits as a full stop:
    `７０２．１９ｂ` / `702。19b` → `702.19b`. One character for one, so offsets stay valid."""
    return _STOP_IN_NUMBER.sub(".", text.translate(_WIDE))


def normalise(raw: str) -> str | None:
    """`901.3a.` / `rule 901.3A` / ` 901.3 ` → `901.3a` / `901.3`; None if it is not a number.

    Also as Chinese users type them: full-width (`７０２．１９ｂ`), `第8章` / `第八章` (chapter 8),
    `规则702.19b` / `規則702.19b`; and as the rules name chapters and sections: `section 8`,
    `section 702`."""
    s = fold_width(raw).strip().lower().rstrip(".。")
    s = _ZH_CHAPTER.sub(lambda m: str(_ZH_DIGITS.index(m.group(1)) + 1), s)
    s = re.sub(r"^(?:rules?|cr|规则|規則|第)\s*", "", s)  # 規則: typed in Traditional
    s = re.sub(r"^(?:section\s*(?=\d{1,3}$)|chapter\s*(?=\d$))", "", s)
    s = re.sub(r"[章条條节節]$", "", s)  # 第704.5j条 (rule), 第702节 (section), 第7章
    s = re.sub(r"^(\d{3}\.\d+)\s*\(([a-z])\)$", r"\1\2", s)  # 702.19(b), as a list letters
    s = re.sub(r"^[(\[【]\s*(.*?)\s*[)\]】]$|^(\d.*?)\s*\)$", r"\1\2", s)  # (702.19b), 702.19b)
    # typed with spaces on a phone: `702. 2c`, `702 .2c`, `702.2 c`; a comma for the dot
    s = re.sub(r"^(\d{3})\s*[.,]\s*(\d)", r"\1.\2", s)
    s = re.sub(r"^(\d{3})\s+(\d{1,3}\s*[a-z]?)$", r"\1.\2", s)  # `702 19`: a keypad has no dot
    s = re.sub(r"^(\d{3}\.\d+)\s+([a-z])$", r"\1\2", s)
    s = re.sub(r"^(\d{3}\.\d+)\.([a-z])$", r"\1\2", s)  # 702.19.b
    m = _NUMBER.match(s)
    if not m:
        return None
    return s


def kind_of(number: str) -> str:
    """chapter (`9`), section (`901`), rule (`901.3`) or subrule (`901.3a`)."""
    if "." not in number:
        return "chapter" if len(number) == 1 else "section"
    return "subrule" if number[-1].isalpha() else "rule"


def parent_of(number: str) -> str | None:
    """The number one level up: `901.3a` → `901.3` → `901` → `9` → None."""
    if "." in number:
        head, tail = number.split(".", 1)
        if tail and tail[-1].isalpha():
            return head + "." + tail.rstrip("abcdefghijklmnopqrstuvwxyz")
        return head
    if len(number) == 3:
        return number[0]
    return None


def within(number: str, scope: str) -> bool:
    """Is `number` `scope` itself or under it (`702.2b` is within `7`, `702`, `702.2`, but
    `702.20` is not within `702.2`)?"""
    n: str | None = number
    while n is not None:
        if n == scope:
            return True
        n = parent_of(n)
    return False


def letter_index(letters: str) -> int:
    """Position of a subrule suffix in the published sequence (a=0 … z, then aa, ab …)."""
    idx = 0
    for ch in letters:
        pos: float = LETTERS.find(ch)
        if pos < 0:  # "l" or "o" used by mistake: place it where the alphabet would
            pos = "abcdefghijklmnopqrstuvwxyz".index(ch) - 0.5
        idx = idx * (len(LETTERS) + 1) + int(pos * 2 + 2)
    return idx


def sort_key(number: str) -> tuple[int, int, int, int]:
    """Document order of a number: chapter, section, rule, subrule."""
    m = re.match(r"^(\d+)(?:\.(\d+)([a-z]*))?$", number)
    if not m:
        return (999, 999, 999, 999)
    head = int(m.group(1))
    chapter = head if head < 10 else head // 100
    section = -1 if head < 10 else head
    rule = int(m.group(2)) if m.group(2) else -1
    sub = letter_index(m.group(3)) if m.group(3) else -1
    return (chapter, section, rule, sub)


def source_order(source: str) -> tuple[bool, tuple[int, ...], str]:
    """Where a citing rule or glossary entry (`glossary:Term`) is listed: rules in the rules'
    order, then glossary entries by name."""
    glossary = ":" in source
    return glossary, (0,) if glossary else sort_key(source), source


def letter_range(start: str, end: str) -> list[str]:
    """Letters from `start` to `end` inclusive in the published sequence (`f`..`h` → f g h)."""
    if start not in LETTERS or end not in LETTERS:
        return [start, end]
    i, j = LETTERS.index(start), LETTERS.index(end)
    if j < i:
        return [start, end]
    return list(LETTERS[i : j + 1])
