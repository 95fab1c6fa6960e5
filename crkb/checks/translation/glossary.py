"""The glossaries themselves: entries paired across languages, and their citations compared."""

from __future__ import annotations

import math
from collections.abc import Sequence

from crkb.checks.draft import draft_status
from crkb.checks.findings import Finding, mark_all, marked
from crkb.checks.translation.common import extract_refs, spans_of
from crkb.graph.terms import split_variants
from crkb.model import Document, GlossaryEntry
from crkb.numbers import sort_key


def _gtargets(entry: GlossaryEntry, lang: str) -> frozenset[str]:
    return frozenset(r.target for r in extract_refs("g", entry.text, lang))


_GAP = 1.5  # cost of leaving an entry unpaired: two swapped definitions stay paired


def align_glossaries(
    en: Sequence[GlossaryEntry], zh: Sequence[GlossaryEntry], terms: dict[str, str]
) -> list[tuple[int | None, int | None]]:
    """Pair the entries of two glossaries kept in the same (English alphabetical) order.

    Same length: by position. Otherwise a banded alignment: a known term pair scores highest,
    then equal citations, then definitions of proportional length.
    """
    if len(en) == len(zh):
        return [(i, i) for i in range(len(en))]
    te = [_gtargets(x, "en") for x in en]
    tz = [_gtargets(x, "zh") for x in zh]
    known = {k.casefold(): v for k, v in terms.items()}
    ratios = sorted(len(z.text) / max(1, len(e.text)) for e, z in zip(en, zh, strict=False))
    ratio = ratios[len(ratios) // 2] if ratios else 0.35

    def score(i: int, j: int) -> float:
        # Definitions of one entry have proportional lengths; equal citations and a known
        # term pair weigh more. Any two entries may pair (then their citations are compared).
        lengths = len(zh[j].text) / max(1.0, ratio * len(en[i].text))
        s = max(0.05, 1 - abs(math.log(max(lengths, 1e-3))))
        if te[i] == tz[j]:
            s += 2 if te[i] else 0.5
        if known.get(en[i].term.casefold()) == zh[j].term:
            s += 4
        return s

    n, m = len(en), len(zh)
    band = abs(n - m) + 12
    neg = -1
    best: dict[tuple[int, int], float] = {}
    move: dict[tuple[int, int], int] = {}
    for i in range(n + 1):
        for j in range(max(0, i - band), min(m, i + band) + 1):
            if i == 0 and j == 0:
                best[0, 0] = 0
                continue
            cands: list[tuple[float, int]] = []
            if i and j:
                cands.append((best.get((i - 1, j - 1), neg * 10**9) + score(i - 1, j - 1), 0))
            if i:
                cands.append((best.get((i - 1, j), neg * 10**9) - _GAP, 1))
            if j:
                cands.append((best.get((i, j - 1), neg * 10**9) - _GAP, 2))
            best[i, j], move[i, j] = max(cands)
    pairs: list[tuple[int | None, int | None]] = []
    i, j = n, m
    while i or j:
        mv = move[i, j]
        if mv == 0:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif mv == 1:
            pairs.append((i - 1, None))
            i -= 1
        else:
            pairs.append((None, j - 1))
            j -= 1
    return pairs[::-1]


def _head(term: str) -> str:
    """A headword as compared with a rule's title: case and a plural -s aside."""
    t = term.strip().casefold()
    return t[:-1] if t.endswith("s") else t


def title_names(en: Document, zh: Document) -> dict[str, str]:
    """English title → Chinese title of the titled rules both texts have (701 Keyword Actions →
    关键字动作, 702.39 Provoke → 挑拨): the headwords of the glossary entries citing them."""
    zm = zh.rule_map()
    out: dict[str, str] = {}
    for r in en.rules:
        z = zm.get(r.number)
        if r.title and z is not None and z.title:
            out.setdefault(_head(r.title), z.title)
    return out


def pair_by_headword(
    en: Sequence[GlossaryEntry],
    zh: Sequence[GlossaryEntry],
    terms: dict[str, str],
    titles: dict[str, str] | None = None,
) -> list[tuple[int | None, int | None]]:
    """Pair glossary entries by headword first, then align the rest in order.

    An English headword whose known Chinese name heads exactly one Chinese entry pairs with that
    entry wherever it stands (the Chinese glossary swaps a few entries, e.g. Keyword Action and
    Keyword Counter); a name is known from the term dictionary or, for a headword that is a
    rule's title, from `titles` (`title_names`). The rest are aligned by `align_glossaries`.
    """
    titles = titles or {}
    heads: dict[str, list[int]] = {}
    for j, z in enumerate(zh):
        for name in split_variants(z.term):
            heads.setdefault(name, []).append(j)
    fixed: dict[int, int] = {}
    used: set[int] = set()
    for i, e in enumerate(en):
        for name in split_variants(e.term):
            zh_name = terms.get(name) or titles.get(_head(name))
            js = heads.get(zh_name, []) if zh_name else []
            if len(js) == 1 and js[0] not in used:
                fixed[i] = js[0]
                used.add(js[0])
                break
    rest_i = [i for i in range(len(en)) if i not in fixed]
    rest_j = [j for j in range(len(zh)) if j not in used]
    pairs: list[tuple[int | None, int | None]] = [(i, j) for i, j in fixed.items()]
    for a, b in align_glossaries([en[i] for i in rest_i], [zh[j] for j in rest_j], terms):
        pairs.append((rest_i[a] if a is not None else None, rest_j[b] if b is not None else None))
    pairs.sort(key=lambda p: (p[0] if p[0] is not None else (p[1] or 0), p[0] is None))
    return pairs


def aligned_terms(en: Document, zh: Document) -> list[tuple[str, str]]:
    """(English, Chinese) term pairs of aligned glossary entries that cite the same rules.

    Unlike position pairing, this survives a glossary that lost or gained an entry.
    """
    out = []
    for i, j in align_glossaries(en.glossary, zh.glossary, {}):
        if i is not None and j is not None:
            e, z = en.glossary[i], zh.glossary[j]
            if _gtargets(e, "en") == _gtargets(z, "zh"):
                out.append((e.term, z.term))
    return out


def sense_splits(
    en: Sequence[GlossaryEntry],
    zh: Sequence[GlossaryEntry],
    pairs: Sequence[tuple[int | None, int | None]],
) -> dict[int, list[int]]:
    """English entry → the Chinese entries left unpaired that each render some of its senses.

    A translation may give each sense of a homonym its own headword (Counter: 反击, to counter a
    spell, and 指示物, the marker; Draw: 抓 and 平手), and sort them apart by pinyin. Such an entry
    cites some of the rules the English entry's senses cite, and only those."""
    out: dict[int, list[int]] = {}
    many = [i for i, e in enumerate(en) if len(e.senses) > 1]
    cites = {i: _gtargets(en[i], "en") for i in many}
    for i, j in pairs:
        if i is not None or j is None:
            continue
        tz = _gtargets(zh[j], "zh")
        if not tz:
            continue
        homes = [k for k in many if tz <= cites[k]]
        if len(homes) == 1:  # one English homonym only: another could be the one rendered
            out.setdefault(homes[0], []).append(j)
    return out


def glossary(en: Document, zh: Document, terms: dict[str, str]) -> list[Finding]:
    """Glossary entries without a partner, and partners whose citations differ. The senses of
    an English homonym the translation heads apart (`sense_splits`) are its partners too."""
    out = []
    pairs = pair_by_headword(en.glossary, zh.glossary, terms, title_names(en, zh))
    splits = sense_splits(en.glossary, zh.glossary, pairs)
    split = {j for js in splits.values() for j in js}
    for i, j in pairs:
        if i is None and j in split:
            continue  # one sense of an English homonym, compared with it below
        if j is None and i is not None and i in splits:
            j, rest = splits[i][0], splits[i][1:]
        else:
            rest = splits.get(i, []) if i is not None else []
        if j is None and i is not None:
            e = en.glossary[i]
            out.append(
                Finding(
                    f"glossary:{e.term}",
                    "glossary_missing",
                    f"glossary entry “{e.term}” has no Chinese counterpart",
                    mark_all(e.text),
                    "",
                    (e.term,),
                )
            )
        elif i is None and j is not None:
            z = zh.glossary[j]
            out.append(
                Finding(
                    f"glossary:{z.term}",
                    "glossary_extra",
                    f"glossary entry “{z.term}” has no English counterpart",
                    "",
                    mark_all(z.text),
                    (z.term,),
                )
            )
        elif i is not None and j is not None:
            e, z = en.glossary[i], zh.glossary[j]
            if draft_status(z.term) or draft_status(z.text):
                continue  # a draft's worklist item, reported by the draft check
            te, tz = _gtargets(e, "en"), _gtargets(z, "zh")
            for k in rest:  # the senses headed apart
                tz |= _gtargets(zh.glossary[k], "zh")
            if te == tz:
                continue
            only_e, only_z = sorted(te - tz, key=sort_key), sorted(tz - te, key=sort_key)
            detail = (
                f"glossary “{e.term}” / “{z.term}”: English cites {', '.join(only_e) or '—'}, "
                f"the translation cites {', '.join(only_z) or '—'}"
            )
            out.append(
                Finding(
                    f"glossary:{e.term}",
                    "glossary_references",
                    detail,
                    marked(e.text, spans_of(e.text, set(only_e))),
                    marked(z.text, spans_of(z.text, set(only_z))),
                    tuple([f"en:{t}" for t in only_e] + [f"zh:{t}" for t in only_z]),
                )
            )
    return out
