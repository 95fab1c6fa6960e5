"""Cross-references in rule and glossary text, English and Chinese, and their resolution.

Extraction is a pure function of a text; resolution checks each target against the rules of the
same document (version and language) and flags it `dangling` (no such rule) or `stale` (the quoted
title that follows no longer matches the target's title).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from crkb.model import Document, Reference, Rule
from crkb.numbers import LETTERS, letter_range

_DASH = "[–—-]"
_DOTTED = r"\d{3}\.\d+[a-z]?"
_ITEM = rf"(?:{_DOTTED}|\d{{3}})(?:{_DASH}(?:{_DOTTED}|\d+[a-z]?|[a-z]))?(?![\d.]\d)"
_TITLE = r"(?:\s*[,，]?\s*(?:“(?P<t>[^”]{1,80})”|\"(?P<t2>[^\"]{1,80})\"))?"
_TITLE_ANY = r"(?:\s*[,，]?\s*(?:“[^”]{1,80}”|\"[^\"]{1,80}\"))?"

# "rule 704.5x", "rules 100.2b and 100.4b", "rules 601.2a, 601.2b, and 601.2c", "section 8"
_EN_LIST = re.compile(
    rf"\b(?P<kw>[Rr]ules?|[Ss]ections?)\s+(?P<list>(?:{_ITEM}|\d(?!\d)){_TITLE_ANY}"
    rf"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+)(?:rules?\s+|sections?\s+)?"
    rf"(?:{_ITEM}|\d(?!\d)){_TITLE_ANY})*)"
)
# "规则704.5j", "规则100.2b和100.4b", "规则601.2a、601.2b以及601.2c", "第8章"
_ZH_SEP = r"\s*(?:、|，|,|以及|和|与|及|或|至|到)\s*(?:规则\s*)?"
_ZH_LIST = re.compile(
    rf"(?P<kw>规则)\s*(?P<list>{_ITEM}{_TITLE_ANY}(?:{_ZH_SEP}{_ITEM}{_TITLE_ANY})*)"
)
_ZH_CHAPTER = re.compile(r"第\s*(?P<n>\d)\s*章" + _TITLE)
_ITEM_RE = re.compile(rf"(?P<item>{_ITEM}|\d(?!\d)){_TITLE}")
_BARE_DOTTED = re.compile(
    rf"(?<![\d.])(?P<item>{_DOTTED}(?:{_DASH}(?:{_DOTTED}|\d+[a-z]?|[a-z]))?)(?![\d])(?!\.\d){_TITLE}"
)


_ANY_NUMBER = re.compile(r"\d{3}|第\s*\d|[Ss]ections?\s+\d")


def expand(item: str) -> list[str]:
    """One written item to the numbers it names: `601.2f–h` → 601.2f 601.2g 601.2h."""
    parts = re.split(_DASH, item, maxsplit=1)
    start = parts[0]
    if len(parts) == 1:
        return [start]
    end = parts[1]
    m = re.match(r"^(\d{3})(?:\.(\d+)([a-z]?))?$", start)
    if not m:
        return [start]
    sec, num, let = m.group(1), m.group(2), m.group(3)
    if num is None:  # "701–702": sections
        if end.isdigit() and len(end) == 3 and int(end) >= int(sec) and int(end) - int(sec) < 50:
            return [str(n) for n in range(int(sec), int(end) + 1)]
        return [start]
    if re.fullmatch(r"[a-z]", end) and let:  # 601.2f–h
        return [f"{sec}.{num}{x}" for x in letter_range(let, end)]
    me = re.match(r"^(?:(\d{3})\.)?(\d+)([a-z]?)$", end)
    if not me:
        return [start]
    esec = me.group(1) or sec
    enum, elet = me.group(2), me.group(3)
    if esec != sec:
        return [start, end]
    if let and elet and enum == num:  # 702.19b–702.19d
        return [f"{sec}.{num}{x}" for x in letter_range(let, elet)]
    if not let and not elet and int(enum) >= int(num) and int(enum) - int(num) < 60:
        return [f"{sec}.{n}" for n in range(int(num), int(enum) + 1)]  # 119.7–8, 903.6–903.11
    return [start, f"{esec}.{enum}{elet}"]


def _clean_title(t: str | None) -> str | None:
    if t is None:
        return None
    return t.strip().rstrip(",.，。").strip() or None


def extract(source: str, text: str, lang: str) -> list[Reference]:
    """Every reference a text makes, in order of appearance (ranges expanded)."""
    return [Reference(source, t, raw, title) for t, raw, title in _extract(text, lang)]


@functools.lru_cache(maxsize=400_000)
def _extract(text: str, lang: str) -> tuple[tuple[str, str, str | None], ...]:
    """(target, raw, title) of every reference; cached, since releases repeat most texts (the
    cache is asked first: looking it up is cheaper than even the quick no-number test)."""
    if not _ANY_NUMBER.search(text):
        return ()
    source = ""
    refs: list[tuple[int, Reference]] = []
    covered: list[tuple[int, int]] = []
    lists = [_EN_LIST] if lang != "zh" else [_ZH_LIST, _EN_LIST]
    for pattern in lists:
        for m in pattern.finditer(text):
            kw = m.group("kw").lower()
            base = m.start("list")
            for im in _ITEM_RE.finditer(m.group("list")):
                item = im.group("item")
                if len(item) == 1 and not (
                    kw.startswith("section")
                    or re.search(r"sections?\s+$", m.group("list")[: im.start()])
                ):
                    continue
                for target in expand(item):
                    refs.append(
                        (
                            base + im.start(),
                            Reference(
                                source, target, item, _clean_title(im.group("t") or im.group("t2"))
                            ),
                        )
                    )
            covered.append((m.start(), m.end()))
    if lang == "zh":
        for m in _ZH_CHAPTER.finditer(text):
            refs.append(
                (
                    m.start(),
                    Reference(
                        source,
                        m.group("n"),
                        m.group(0).split("“")[0].rstrip("，, "),
                        _clean_title(m.group("t") or m.group("t2")),
                    ),
                )
            )
    for m in _BARE_DOTTED.finditer(text):
        if any(a <= m.start() < b for a, b in covered):
            continue
        item = m.group("item")
        for target in expand(item):
            refs.append(
                (
                    m.start(),
                    Reference(source, target, item, _clean_title(m.group("t") or m.group("t2"))),
                )
            )
    refs.sort(key=lambda p: p[0])
    return tuple((r.target, r.raw, r.title) for _, r in refs)


@functools.lru_cache(maxsize=20_000)
def _norm_title(t: str) -> str:
    return re.sub(r"[\s\"“”'‘’,.，。:：()（）]", "", t).casefold()


def resolve(refs: Iterable[Reference], rules: dict[str, Rule]) -> list[Reference]:
    """Flag each reference dangling or stale against the rules of its own document."""
    out = []
    for ref in refs:
        target = rules.get(ref.target)
        ref.dangling = target is None
        ref.stale = bool(
            target is not None
            and ref.title
            and target.title
            and _norm_title(ref.title) != _norm_title(target.title)
        )
        out.append(ref)
    return out


def link_document(doc: Document) -> Document:
    """Extract and resolve every reference of a document's rules, examples and glossary."""
    refs: list[Reference] = []
    for rule in doc.rules:
        refs.extend(extract(rule.number, rule.text, doc.lang))
        for ex in rule.examples:
            refs.extend(extract(rule.number, ex, doc.lang))
    for entry in doc.glossary:
        refs.extend(extract(f"glossary:{entry.term}", entry.text, doc.lang))
    doc.references = resolve(refs, doc.rule_map())
    return doc


__all__ = ["expand", "extract", "resolve", "link_document", "LETTERS"]


def _bounded(text: str, start: int, end: int) -> bool:
    """True when text[start:end] is a whole number, not part of a longer one."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    if before.isdigit() or before == "." or before.isalpha() and before.isascii():
        return False
    if after.isdigit() or (after.isascii() and after.isalpha()):
        return False
    return not (after == "." and end + 1 < len(text) and text[end + 1].isdigit())


def occurrences(text: str, raws: Iterable[str]) -> list[tuple[int, int, str]]:
    """Where a text cites: non-overlapping (start, end, raw) of each citation's words (`raws` in
    order, longest placed first), in text order; a number inside a longer one is no citation.
    Rule pages and the offline pack link the same places."""
    found: list[tuple[int, int, str]] = []
    for raw in sorted(dict.fromkeys(r for r in raws if r), key=len, reverse=True):
        pos = text.find(raw)
        while pos >= 0:
            end = pos + len(raw)
            if _bounded(text, pos, end) and all(end <= a or pos >= b for a, b, _r in found):
                found.append((pos, end, raw))
            pos = text.find(raw, end)
    return sorted(found, key=lambda s: s[0])
