"""The bilingual game-term dictionary: English glossary terms paired with their Chinese names.

Sources, in order of authority: the Chinese glossary of a release paired entry by entry with the
English glossary of the same release (the translation keeps the English alphabetical order, so
entries pair by position when their references agree), then the provisional names of the terms
list (`translatedterms.txt`). Used by search (jieba's user dictionary) and translation checks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from crkb.graph.references import extract
from crkb.model import Document, GlossaryEntry

_OBSOLETE = re.compile(r"\s*[（(](?:Obsolete|已废止)[)）]\s*$")


def _targets(entry: GlossaryEntry, lang: str) -> tuple[str, ...]:
    return tuple(r.target for r in extract("g", entry.text, lang))


def pair_glossaries(en: Document, zh: Document) -> list[tuple[str, str]]:
    """(English term, Chinese term) pairs of one release's two glossaries.

    Entries pair by position; a pair whose cross-references disagree is dropped rather than
    guessed, and if the two glossaries differ in length, pairing stops at the first disagreement.
    """
    pairs: list[tuple[str, str]] = []
    for e, z in zip(en.glossary, zh.glossary, strict=False):
        te, tz = _targets(e, "en"), _targets(z, "zh")
        if te != tz:
            if len(en.glossary) != len(zh.glossary):
                break
            continue
        pairs.append((e.term, z.term))
    return pairs


def parse_terms_list(text: str) -> list[tuple[str, str]]:
    """`English: 中文` lines of the provisional terms list; a parenthesised note is dropped."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^\s*([A-Za-z][^:：]{0,60}?)\s*[:：]\s*(\S.*?)\s*$", line)
        if not m:
            continue
        zh = re.sub(r"[（(][^）)]*[）)]$", "", m.group(2)).strip()
        if re.search(r"[\u4e00-\u9fff]", zh):
            out.append((m.group(1).strip(), zh))
    return out


def split_variants(term: str) -> list[str]:
    """`Active Player, Nonactive Player Order` stays whole; `Plane／时空` style slashes split."""
    term = _OBSOLETE.sub("", term)
    return [t.strip() for t in re.split(r"\s*[/／]\s*", term) if t.strip()]


def build_dictionary(pair_lists: Iterable[list[tuple[str, str]]]) -> dict[str, str]:
    """English term (case as written) → Chinese term; earlier lists win over later ones."""
    out: dict[str, str] = {}
    for pairs in pair_lists:
        for en, zh in pairs:
            for e in split_variants(en):
                for z in split_variants(zh)[:1]:
                    out.setdefault(e, z)
    return out
