"""Translation consistency checks: where the Chinese edition may not say what the English says.

`check(en, zh)` compares the two Documents of one release and returns Findings of these kinds:

- `missing_rule`: a rule number of the English text that the translation lacks.
- `extra_rule`: a rule number only the translation has.
- `doubled_rule`: a number the translation uses more often than the English text.
- `example_count`: the rule has a different number of examples.
- `references`: the rule cites a different set of rules (ranges expanded, so `903.6–903.11` and
  `903.6-11` are the same citation).
- `numbers`: a quantity stated on one side is not stated on the other (digits, English number
  words and Chinese numerals are compared by value; rule numbers are not quantities).
- `untranslated`: an English phrase left in the Chinese text (names, symbols, abbreviations,
  URLs and glosses in brackets are not).
- `term`: an English glossary term in the English rule whose Chinese name is absent from the
  translation (terms the translation does not render consistently are skipped).
- `glossary_missing`, `glossary_extra`, `glossary_references`: glossary entries that do not pair
  up, or whose cross-references differ.
- `stale_translation`: the English rule was changed in a later release than the translation.
- `stale_reference`: a citation whose quoted title no longer matches the cited rule's title.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import lru_cache

from crkb.checks import numbers as qty
from crkb.checks.findings import Finding, mark_all, mark_changes, marked
from crkb.graph.references import extract, resolve
from crkb.graph.terms import build_dictionary, pair_glossaries, split_variants
from crkb.model import Document, GlossaryEntry, Reference, Rule
from crkb.numbers import sort_key

KINDS = (
    "missing_rule",
    "extra_rule",
    "doubled_rule",
    "example_count",
    "references",
    "numbers",
    "untranslated",
    "term",
    "glossary_missing",
    "glossary_extra",
    "glossary_references",
    "stale_translation",
    "stale_reference",
)

# "See 706, “Rolling a Die.”": a section cited by number and title without the word "rule".
_SECTION_TITLED = re.compile(r"(?<![\d.])(\d{3})(?=[,，]\s*[“\"])")


def _parts(rule: Rule) -> list[str]:
    return [rule.text, *rule.examples]


# "规则509.1b至c": a letter range written with 至, which the reference grammar reads as a list.
_ZH_LETTER_RANGE = re.compile(r"(\d{3}\.\d+[a-z])\s*至\s*([a-z])(?![a-z])")


def _extract(source: str, text: str, lang: str) -> list[Reference]:
    """References of a text, plus sections cited by number and title alone."""
    if lang == "zh":
        text = _ZH_LETTER_RANGE.sub(lambda m: f"{m.group(1)}-{m.group(2)}", text)
    refs = extract(source, text, lang)
    refs += [Reference(source, m.group(1), m.group(1)) for m in _SECTION_TITLED.finditer(text)]
    return refs


def _refs(rule: Rule, lang: str) -> list[Reference]:
    return [r for part in _parts(rule) for r in _extract(rule.number, part, lang)]


def _spans(text: str, needles: set[str]) -> list[tuple[int, int]]:
    spans = []
    for needle in needles:
        for m in re.finditer(re.escape(needle) + r"(?![\d.]\d)", text):
            spans.append((m.start(), m.end()))
    return spans


def _joined(rule: Rule) -> str:
    return "\n".join(_parts(rule))


# ---- rule numbers -------------------------------------------------------------------------


def rule_numbers(en: Document, zh: Document) -> list[Finding]:
    """Missing, extra and doubled rule numbers."""
    ce, cz = Counter(r.number for r in en.rules), Counter(r.number for r in zh.rules)
    em, zm = en.rule_map(), zh.rule_map()
    out = []
    for n in ce.keys() - cz.keys():
        out.append(
            Finding(
                n,
                "missing_rule",
                f"rule {n} is not in the translation",
                mark_all(em[n].text),
                "",
                (n,),
            )
        )
    for n in cz.keys() - ce.keys():
        out.append(
            Finding(
                n,
                "extra_rule",
                f"rule {n} is only in the translation",
                "",
                mark_all(zm[n].text),
                (n,),
            )
        )
    for n, count in cz.items():
        if n in ce and count > ce[n]:
            texts = [r.text for r in zh.rules if r.number == n]
            out.append(
                Finding(
                    n,
                    "doubled_rule",
                    f"rule {n} appears {count} times in the translation, {ce[n]} in English",
                    marked(em[n].text, []),
                    "\n".join(mark_all(t) for t in texts),
                    (n, str(count)),
                )
            )
    return out


# ---- per-rule comparisons -----------------------------------------------------------------


def example_count(e: Rule, z: Rule) -> list[Finding]:
    """The rule has a different number of examples."""
    if len(e.examples) == len(z.examples):
        return []
    detail = f"{len(e.examples)} example(s) in English, {len(z.examples)} in the translation"
    return [
        Finding(
            e.number,
            "example_count",
            detail,
            "\n".join(mark_all(x) for x in e.examples),
            "\n".join(mark_all(x) for x in z.examples),
            (f"en:{len(e.examples)}", f"zh:{len(z.examples)}"),
        )
    ]


def references(e: Rule, z: Rule) -> list[Finding]:
    """The rule cites a different set of rules."""
    er, zr = _refs(e, "en"), _refs(z, "zh")
    et, zt = {r.target for r in er}, {r.target for r in zr}
    if et == zt:
        return []
    only_e, only_z = sorted(et - zt, key=sort_key), sorted(zt - et, key=sort_key)
    said = []
    if only_e:
        said.append("English cites " + ", ".join(only_e))
    if only_z:
        said.append("the translation cites " + ", ".join(only_z))
    raw_e = {r.raw for r in er if r.target in set(only_e)}
    raw_z = {r.raw for r in zr if r.target in set(only_z)}
    te, tz = _joined(e), _joined(z)
    return [
        Finding(
            e.number,
            "references",
            "; ".join(said) + " (not the other)",
            marked(te, _spans(te, raw_e)),
            marked(tz, _spans(tz, raw_z)),
            tuple([f"en:{t}" for t in only_e] + [f"zh:{t}" for t in only_z]),
        )
    ]


def numbers(e: Rule, z: Rule) -> list[Finding]:
    """Quantities stated on one side only (rule text against rule text, example against example)."""
    pairs = [("text", e.text, z.text)]
    if len(e.examples) == len(z.examples):
        pairs += [
            (f"example {i}", a, b)
            for i, (a, b) in enumerate(zip(e.examples, z.examples, strict=True), 1)
        ]
    out = []
    for where, a, b in pairs:
        only_e, only_z = qty.differing(qty.quantities(a, "en"), qty.quantities(b, "zh"))
        if not only_e and not only_z:
            continue
        ve = sorted({_num(q.value) for q in only_e})
        vz = sorted({_num(q.value) for q in only_z})
        said = []
        if ve:
            said.append(f"English states {', '.join(ve)}")
        if vz:
            said.append(f"the translation states {', '.join(vz)}")
        detail = f"{where}: " + "; ".join(said) + " (not the other)"
        out.append(
            Finding(
                e.number,
                "numbers",
                detail,
                marked(a, [(q.start, q.end) for q in only_e]),
                marked(b, [(q.start, q.end) for q in only_z]),
                tuple([where] + [f"en:{v}" for v in ve] + [f"zh:{v}" for v in vz]),
            )
        )
    return out


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


# Latin text in the Chinese edition that is not prose: URLs, {symbols}, rule numbers.
_NOT_PROSE = re.compile(
    r"[（(]译注[^）)]*[）)]|[～〜]译注"  # a translator's note may quote English on purpose
    r"|(?:https?://)?(?:[A-Za-z0-9-]+\.)+(?:com|org|net|cn)(?![A-Za-z])(?:/[A-Za-z0-9_\-./]*)?"
    r"|\{[^}]{0,12}\}"
    r"|\d{3}\.\d+[a-z]?(?:\s*[–—-]\s*(?:\d{3}\.)?\d*[a-z]?)?"
)
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z'’\-]*(?:[ ,.'’\-]+[A-Za-z][A-Za-z'’\-]*)*")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")


def is_prose(run: str) -> bool:
    """An English phrase rather than a name: several words, some long words lower-case."""
    words = _WORD.findall(run)
    lower = [w for w in words if w[0].islower() and len(w) >= 2]
    name_like = all(w[0].isupper() for w in words if len(w) >= 4)
    return len(words) >= 3 and len(lower) >= 2 and not name_like


def _quoted(text: str, start: int, end: int) -> bool:
    """A whole quotation in English: the printed wording of a card, quoted on purpose."""
    return text[start - 1 : start] in '“"‘「' and text[end : end + 1] in '”"’」' and start > 0


def untranslated(e: Rule, z: Rule) -> list[Finding]:
    """English phrases left in the Chinese text."""
    out = []
    for i, part in enumerate(_parts(z)):
        masked = _NOT_PROSE.sub(lambda m: " " * len(m.group(0)), part)
        runs = [
            m
            for m in _LATIN_RUN.finditer(masked)
            if is_prose(m.group(0)) and not _quoted(masked, m.start(), m.end())
        ]
        if not runs:
            continue
        words = [m.group(0).strip() for m in runs]
        where = "text" if i == 0 else f"example {i}"
        en_part = _parts(e)[i] if i < len(_parts(e)) else e.text
        out.append(
            Finding(
                e.number,
                "untranslated",
                f"{where}: English left untranslated: " + "; ".join(f"“{w}”" for w in words),
                marked(en_part, []),
                marked(part, [(m.start(), m.end()) for m in runs]),
                tuple([where, *words]),
            )
        )
    return out


# ---- glossary terms in rules --------------------------------------------------------------

# Ordinary English words that are also glossary terms: a translation may paraphrase them freely.
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
def stem(word: str) -> str:
    """A crude common form of an English word: copies/copied/copy → copy, casts → cast."""
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


class TermIndex:
    """Finds glossary terms in English text word by word (whole words, inflection-aware)."""

    def __init__(self, terms: Sequence[str]) -> None:
        self.by_first: dict[str, list[tuple[tuple[str, ...], str]]] = defaultdict(list)
        for term in terms:
            words = tuple(_TOKEN.findall(term))
            if not words:
                continue
            key = tuple(w.lower() for w in words[:-1]) + (stem(words[-1]),)
            self.by_first[key[0]].append((key, term))
        for cands in self.by_first.values():
            cands.sort(key=lambda c: len(c[0]), reverse=True)

    def find(self, text: str) -> dict[str, list[tuple[int, int]]]:
        """Each term found → spans (longest match wins where terms overlap)."""
        toks = [(m.group(0).lower(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
        stems = [stem(t[0]) for t in toks]
        hits: dict[str, list[tuple[int, int]]] = defaultdict(list)
        i = 0
        while i < len(toks):
            matched = 0
            for first in dict.fromkeys((toks[i][0], stems[i])):  # ordered, deduplicated
                for key, term in self.by_first.get(first, ()):
                    n = len(key)
                    if n <= matched or i + n > len(toks):
                        continue
                    if (
                        all(toks[i + k][0] == key[k] for k in range(n - 1))
                        and stems[i + n - 1] == key[-1]
                        and _gap_free(text, toks[i : i + n])
                    ):
                        hits[term].append((toks[i][1], toks[i + n - 1][2]))
                        matched = n
                        break
            i += max(matched, 1)
        return hits


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
    usable = {}
    for e, z in terms.items():
        z = re.split(r"[（(]", z)[0].strip()
        if e.casefold() in _GENERIC_TERMS or len(z) < 2 or re.search(r"[.…A-Za-z]", z):
            continue
        usable[e] = z
    index = TermIndex(sorted(set(terms) | set(english_terms)))
    seen: dict[str, list[tuple[Rule, Rule, list[tuple[int, int]]]]] = defaultdict(list)
    for e, z in pairs:
        for term, spans in index.find(e.text).items():
            if term not in usable:
                continue
            spans = [sp for sp in spans if not _in_name(e.text, sp[0])]
            if spans:
                seen[term].append((e, z, spans))
    out = []
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


# ---- the glossaries themselves ------------------------------------------------------------


def _gtargets(entry: GlossaryEntry, lang: str) -> frozenset[str]:
    return frozenset(r.target for r in _extract("g", entry.text, lang))


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


def glossary(en: Document, zh: Document, terms: dict[str, str]) -> list[Finding]:
    """Glossary entries without a partner, and partners whose citations differ."""
    out = []
    for i, j in align_glossaries(en.glossary, zh.glossary, terms):
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
            te, tz = _gtargets(e, "en"), _gtargets(z, "zh")
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
                    marked(e.text, _spans(e.text, set(only_e))),
                    marked(z.text, _spans(z.text, set(only_z))),
                    tuple([f"en:{t}" for t in only_e] + [f"zh:{t}" for t in only_z]),
                )
            )
    return out


# ---- staleness ----------------------------------------------------------------------------


def stale_translation(en: Document, zh: Document, later_en: Sequence[Document]) -> list[Finding]:
    """Rules whose English text changed in a later release than the translation's.

    A rule that only moved (the same text under another number later) is not reported.
    """
    later = [d for d in later_en if d.version > en.version]
    if not later:
        return []
    zm = zh.rule_map()
    newest = later[-1]
    newest_map = newest.rule_map()
    newest_texts = {r.text for r in newest.rules}
    later_maps = [(d.version, d.rule_map()) for d in later]
    out = []
    for rule in en.rules:
        if rule.number not in zm or rule.text in newest_texts:
            continue
        new = newest_map.get(rule.number)
        changed_in = next(
            (v for v, m in later_maps if (r := m.get(rule.number)) is None or r.text != rule.text),
            newest.version,
        )
        if new is None:
            detail = f"rule {rule.number} was removed from the English rules in {changed_in}"
            old_html, new_html = mark_all(rule.text), ""
        else:
            detail = (
                f"the English rule changed in {changed_in} (translation of {en.version}); "
                f"now: {new.text[:120]}"
            )
            old_html, new_html = mark_changes(rule.text, new.text)
        out.append(
            Finding(
                rule.number,
                "stale_translation",
                detail,
                old_html + "\n→\n" + new_html,
                marked(zm[rule.number].text, []),
                (_digest(rule.text), _digest(new.text if new else "")),
            )
        )
    return out


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


def _same_title(cited: str, actual: str) -> bool:
    """Titles equal but for punctuation (a list's "Planechase;" is still "Planechase")."""

    def norm(t: str) -> str:
        return re.sub(r"[\s\"“”'‘’,.，。:：;；()（）]", "", t).casefold()

    return norm(cited) == norm(actual)


def stale_references(doc: Document, lang: str) -> list[Finding]:
    """Citations whose quoted title is not the cited rule's title (in one language)."""
    rules = doc.rule_map()
    out = []
    for rule in doc.rules:
        for ref in resolve(_refs(rule, lang), rules):
            if not ref.stale or ref.title is None:
                continue
            target = rules[ref.target]
            if _same_title(ref.title, target.title or ""):
                continue
            text = _joined(rule)
            spans = _spans(text, {ref.title})
            en_html, zh_html = (
                (marked(text, spans), "") if lang == "en" else ("", marked(text, spans))
            )
            out.append(
                Finding(
                    rule.number,
                    "stale_reference",
                    f"{'English' if lang == 'en' else 'the translation'} cites {ref.target} "
                    f"as “{ref.title}”, but {ref.target} is “{target.title}”",
                    en_html,
                    zh_html,
                    (lang, ref.target, ref.title),
                )
            )
    return out


# ---- all together -------------------------------------------------------------------------


def check(
    en: Document,
    zh: Document,
    *,
    later_en: Sequence[Document] = (),
    terms: dict[str, str] | None = None,
) -> list[Finding]:
    """Every finding for one release's English and Chinese Documents, in rule order."""
    if terms is None:
        terms = build_dictionary([pair_glossaries(en, zh), aligned_terms(en, zh)])
    zm = zh.rule_map()
    pairs = [(e, zm[e.number]) for e in en.rule_map().values() if e.number in zm]
    out = rule_numbers(en, zh)
    for e, z in pairs:
        out += example_count(e, z)
        out += references(e, z)
        out += numbers(e, z)
        out += untranslated(e, z)
    english_terms = [t for g in en.glossary for t in split_variants(g.term)]
    out += term_findings(pairs, terms, english_terms)
    out += glossary(en, zh, terms)
    out += stale_translation(en, zh, later_en)
    out += stale_references(en, "en")
    out += stale_references(zh, "zh")
    order = {k: i for i, k in enumerate(KINDS)}
    glossary_last = (10**6,)
    out.sort(
        key=lambda f: (
            glossary_last if f.rule.startswith("glossary:") else sort_key(f.rule),
            f.rule,
            order[f.kind],
        )
    )
    unique: dict[str, Finding] = {}
    for f in out:
        unique.setdefault(f.id, f)
    return list(unique.values())
