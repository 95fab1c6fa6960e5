"""Glossary terms in rules: the English term is used, its Chinese name should be too."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from crkb.checks.findings import Finding, marked
from crkb.model import Rule

_GENERIC_TERMS = {
    *("card", "player", "object", "game", "ability", "effect", "text", "turn", "if", "unless"),
    *("instead", "name", "color", "type", "step", "deck", "event", "owner", "play", "phase"),
    *("zone", "hand", "move", "create", "power", "block", "team", "pay", "cost", "mana"),
    *("damage", "copy", "search", "during", "option", "placed", "dies", "tapped", "counter"),
    *("case", "modified", "independent", "general", "paired", "offering", "limited"),
    *("discard", "requirement", "variant"),
}
# Share of rules that must use a term's Chinese name when the English rule uses the term: below
# it the translation renders the term in several ways and a missing name means nothing.
_MIN_CONSISTENCY = 0.85
_MIN_SINGLE = 0.95  # single words are more often used in their everyday sense


_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’-]*")


@lru_cache(maxsize=65536)
def fold_inflection(word: str) -> str:
    """A light common form of an English word for term matching: copies/copied/copy → copy,
    casts → cast. Lighter than the search index's Porter stem on purpose: it keeps command and
    commander apart, which the term check needs (the Porter stem loses real findings)."""
    w = word.lower()
    w = re.sub(r"['’]s?$", "", w)
    for suffix, repl in (
        ("ies", "y"),
        ("ied", "y"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)] + repl
            break
    return w[:-1] if w.endswith("e") and len(w) > 3 else w


def _as_written(word: str) -> bool:
    """A word already inflected (a participle or an -ing noun: "Limited", "Modified", "Offering",
    "Flying"): met only as written, with a plural ending. It is no form of its stem's other
    inflections: "may limit" is not the format Limited, "offered" not Offering, "flies" not
    Flying, while a base form is met by its own ("Copy": copies, copied)."""
    w = word.lower()
    return w.endswith(("ed", "ing")) and fold_inflection(w) != w


class _Key(NamedTuple):
    words: tuple[str, ...]  # lower-cased, the last one folded unless `exact`
    term: str
    exact: bool  # the last word is met only as written (`_as_written`), or with a plural ending
    head: int  # how many of the words are the term: fewer when the rest is the noun it qualifies


class TermIndex:
    """Finds glossary terms in English text word by word (whole words, inflection-aware).

    `qualifies`: term → the nouns an adjective term is met before (`qualifying_nouns` of
    crkb.graph.term_matching: "modified creature", not "modified by"); the term's span is the
    adjective, and the noun after it is still matched as a term of its own."""

    def __init__(
        self, terms: Sequence[str], qualifies: Mapping[str, Sequence[str]] | None = None
    ) -> None:
        self.by_first: dict[str, list[_Key]] = defaultdict(list)
        for term in terms:
            words = tuple(_TOKEN.findall(term))
            if not words:
                continue
            nouns = (qualifies or {}).get(term)
            phrases = [(*words, n) for n in nouns] if nouns else [words]
            for phrase in phrases:
                last = phrase[-1]
                exact = _as_written(last)
                key = tuple(w.lower() for w in phrase[:-1]) + (
                    last.lower() if exact else fold_inflection(last),
                )
                self.by_first[key[0]].append(_Key(key, term, exact, len(words)))
        for cands in self.by_first.values():
            cands.sort(key=lambda c: len(c.words), reverse=True)

    def find(self, text: str) -> dict[str, list[tuple[int, int]]]:
        """Each term found → spans (longest match wins where terms overlap)."""
        toks = [(m.group(0).lower(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
        stems = [fold_inflection(t[0]) for t in toks]
        hits: dict[str, list[tuple[int, int]]] = defaultdict(list)
        i = 0
        while i < len(toks):
            matched = taken = 0
            for first in dict.fromkeys((toks[i][0], stems[i])):  # ordered, deduplicated
                for c in self.by_first.get(first, ()):
                    n = len(c.words)
                    if n <= matched or i + n > len(toks):
                        continue
                    if (
                        all(toks[i + k][0] == c.words[k] for k in range(n - 1))
                        and _last_met(c, toks[i + n - 1][0], stems[i + n - 1])
                        and _gap_free(text, toks[i : i + n])
                    ):
                        hits[c.term].append((toks[i][1], toks[i + c.head - 1][2]))
                        matched, taken = n, c.head
                        break
            i += max(taken, 1)
        return hits


def _last_met(c: _Key, token: str, stem: str) -> bool:
    """Whether a term's last word is met by a text's word (lower-cased, and folded)."""
    if not c.exact:
        return stem == c.words[-1]
    word = c.words[-1]
    return token in (word, word + "s", word + "es", word + "'s", word + "’s")


def _gap_free(text: str, toks: Sequence[tuple[str, int, int]]) -> bool:
    return all(text[a[2] : b[1]] == " " for a, b in zip(toks, toks[1:], strict=False))


def _in_name(text: str, start: int) -> bool:
    """A capitalised word mid-sentence: part of a card name or a quoted title, not the term."""
    before = text[:start].rstrip()
    prev = re.search(r"(\S+)$", before)
    if (
        prev
        and prev.group(1)[0].isupper()
        and before[: prev.start()].rstrip()[-1:] not in ("", ".")
    ):
        return True  # "Aura enchantments": the subtype's name carries the meaning
    if not text[start].isupper() or start == 0:
        return False
    return not before or before[-1] not in ".!?"


def _has_term(text: str, zh_term: str) -> bool:
    """The Chinese name is in the text, allowing the translation's usual contractions."""
    if zh_term in text:
        return True
    if len(zh_term) >= 3 and (
        (zh_term.endswith("物") and zh_term[:-1] in text)
        or (zh_term.startswith("牌") and zh_term[1:] in text)  # 牌类别 → 类别: "card" implied
    ):
        return True
    if len(zh_term) < 4:
        return False
    if len(zh_term) >= 6 and zh_term[:4] in text:
        return True  # 时间印记顺序 → 时间印记: a long name shortened
    # The name with a particle or a word inserted: 基本地类别 → 基本地的类别.
    gaps = "(?:[^，。；：、“”（）]{0,2})".join(re.escape(ch) for ch in zh_term)
    if re.search(gaps, text):
        return True
    # Its head and its qualifier close together (触发的异能, 混血符号): a variant wording, which
    # says the same thing; only a translation that drops the concept is reported.
    head, tail = re.escape(zh_term[:2]), re.escape(zh_term[-2:])
    return re.search(f"{head}[^，。；：“”（）]{{0,{len(zh_term)}}}?{tail}", text) is not None


def term_findings(
    pairs: Sequence[tuple[Rule, Rule]], terms: dict[str, str], english_terms: Sequence[str] = ()
) -> list[Finding]:
    """English glossary terms whose Chinese names are missing from the translated rule.

    `english_terms` (all terms of the English glossary) are matched too, so a longer term with
    no known Chinese name still hides the shorter terms inside it.
    """
    usable: dict[str, str] = {}
    for en_term, zh_name in terms.items():
        name = re.split(r"[（(]", zh_name)[0].strip()
        if en_term.casefold() in _GENERIC_TERMS or len(name) < 2 or re.search(r"[.…A-Za-z]", name):
            continue
        usable[en_term] = name
    index = TermIndex(sorted(set(terms) | set(english_terms)))
    seen: dict[str, list[tuple[Rule, Rule, list[tuple[int, int]]]]] = defaultdict(list)
    for e, z in pairs:
        for term, spans in index.find(e.text).items():
            if term not in usable:
                continue
            spans = [sp for sp in spans if not _in_name(e.text, sp[0])]
            if spans:
                seen[term].append((e, z, spans))
    out: list[Finding] = []
    for term, uses in seen.items():
        zh_term = usable[term]
        missing = [(e, z, spans) for e, z, spans in uses if not _has_term(z.text, zh_term)]
        consistency = 1 - len(missing) / len(uses)
        single = " " not in term
        if not missing or consistency < (_MIN_SINGLE if single else _MIN_CONSISTENCY):
            continue
        for e, z, spans in missing:
            out.append(
                Finding(
                    e.number,
                    "term",
                    f"glossary term “{term}” is in the English rule, its Chinese name "
                    f"“{zh_term}” is not in the translation",
                    marked(e.text, spans),
                    marked(z.text, []),
                    (term, zh_term),
                )
            )
    return out
