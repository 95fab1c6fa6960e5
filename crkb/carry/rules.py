"""The carry itself: every rule of the newer English release gets a status and a Chinese text.

Pure functions over Documents and an old → new rule-number mapping (the lineage `crkb history`
follows). English texts are compared as `crkb diff` compares them (`diff.compare.compare_text`):
whitespace alone is no change, and a change that only renumbers citations is a renumbering.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from crkb.checks.translation.glossary import pair_by_headword, title_names
from crkb.checks.translation.terms import TermIndex
from crkb.diff.compare import compare_examples, compare_text
from crkb.diff.match import CITE, cite_free, cited, same_text, text_key
from crkb.graph.term_matching import qualifying_nouns
from crkb.graph.terms import split_variants
from crkb.model import Document, GlossaryEntry, Rule
from crkb.sources.completeness import chapters

STATUSES = ("carried", "renumbered", "review", "new", "removed")

Span = tuple[int, int]


@dataclass(slots=True)
class CarriedRule:
    """One rule's carry: W's number (None when removed), V's number, status and texts."""

    number: str | None
    old_number: str | None
    status: str
    kind: str
    zh: str | None = None
    zh_examples: list[str] = field(default_factory=list)
    en_old: str | None = None
    en_new: str | None = None
    en_examples: list[str] = field(default_factory=list)
    en_old_changes: list[Span] = field(default_factory=list)
    en_new_changes: list[Span] = field(default_factory=list)
    terms: list[dict[str, str | None]] = field(default_factory=list)
    en_old_examples: list[str] = field(default_factory=list)
    # new to the translation, not to the rules: V's English has the rule, or V's copy lacks its
    # whole chapter (the 2021-09-24 pages hold no chapter 4), so there was nothing to carry
    untranslated: bool = False

    def example_steps(self) -> list[ExampleStep]:
        """How W's examples come from V's (`example_steps`); none but review rules change."""
        if self.status != "review":
            return []
        return example_steps(self.en_old_examples, self.en_examples, self.zh_examples)

    def changed_words(self) -> list[str]:
        """The new English words of a rule to review."""
        return [self.en_new[a:b] for a, b in self.en_new_changes] if self.en_new else []

    def to_json(self) -> dict[str, object]:
        """The SPEC shape `{number, old_number, status, zh, en_old, en_new, terms}` plus details."""
        return {
            "number": self.number,
            "old_number": self.old_number,
            "status": self.status,
            "zh": self.zh,
            "en_old": self.en_old,
            "en_new": self.en_new,
            "terms": self.terms,
            "kind": self.kind,
            "untranslated": self.untranslated,
            "zh_examples": self.zh_examples,
            "en_examples": self.en_examples,
            "changed": self.changed_words(),
            "en_old_changes": [list(s) for s in self.en_old_changes],
            "en_new_changes": [list(s) for s in self.en_new_changes],
            "en_old_examples": self.en_old_examples,
            "example_changes": [
                {"state": x.state, "en_old": x.en_old, "en_new": x.en_new, "zh": x.zh}
                for x in self.example_steps()
                if x.state != "same"
            ],
        }


@dataclass(frozen=True, slots=True)
class ExampleStep:
    """One example of a rule to review: `same`, `changed` (V's English example reworded),
    `new` (W adds it) or `removed` (W drops it), with its texts and the Chinese of V's one."""

    state: str
    en_old: str | None
    en_new: str | None
    zh: str | None


def example_steps(
    en_old: Sequence[str], en_new: Sequence[str], zh: Sequence[str]
) -> list[ExampleStep]:
    """W's examples in order, each with the example of V it comes from, and V's dropped ones
    where they stood: a translator reviews a reworded example, translates a new one and drops a
    removed one (a new card named in 707.11's example is no review of its text). The Chinese
    examples stand beside V's English ones in order."""
    old_keys = [" ".join(x.split()) for x in en_old]
    new_keys = [" ".join(x.split()) for x in en_new]
    sm = difflib.SequenceMatcher(None, old_keys, new_keys, autojunk=False)

    def step(state: str, i: int | None, j: int | None) -> ExampleStep:
        if state == "changed" and i is not None and j is not None:
            state = "same" if same_text(en_old[i], en_new[j]) else "changed"
        return ExampleStep(
            state,
            en_old[i] if i is not None else None,
            en_new[j] if j is not None else None,
            zh[i] if i is not None and i < len(zh) else None,
        )

    out: list[ExampleStep] = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        paired = min(i2 - i1, j2 - j1)
        kind = "same" if op == "equal" else "changed"
        out += [step(kind, i1 + k, j1 + k) for k in range(paired)]
        out += [step("new", None, j) for j in range(j1 + paired, j2)]
        out += [step("removed", i, None) for i in range(i1 + paired, i2)]
    return out


@dataclass(slots=True)
class CarriedEntry:
    """One glossary entry's carry: the English headword of W (or V when removed)."""

    term: str
    status: str
    zh_term: str | None = None
    zh: str | None = None
    en_old: str | None = None
    en_new: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "term": self.term,
            "status": self.status,
            "zh_term": self.zh_term,
            "zh": self.zh,
            "en_old": self.en_old,
            "en_new": self.en_new,
        }


@dataclass(slots=True)
class Carry:
    """The whole carry of translation V to English release W."""

    from_zh: str
    to_en: str
    rules: list[CarriedRule]
    glossary: list[CarriedEntry]

    def counts(self) -> dict[str, int]:
        return {s: sum(1 for r in self.rules if r.status == s) for s in STATUSES}

    def untranslated(self) -> int:
        """How many of the new rules V's English had but its Chinese did not."""
        return sum(1 for r in self.rules if r.untranslated)

    def untranslated_note(self, r: CarriedRule) -> str:
        """What a worklist line adds for a rule new to the translation only ("" for others)."""
        return f" (not translated in {self.from_zh})" if r.untranslated else ""

    def summary(self) -> str:
        """The counts in words, the new rules that V left untranslated said apart."""
        parts = []
        for k, v in self.counts().items():
            n = self.untranslated() if k == "new" else 0
            parts.append(f"{k} {v}" + (f" ({n} not translated in {self.from_zh})" if n else ""))
        return ", ".join(parts)

    def to_json(self) -> dict[str, object]:
        """`{from_zh, to_en, counts, rules, glossary}` (SPEC `crkb forward --json`)."""
        gcounts = {s: sum(1 for g in self.glossary if g.status == s) for s in STATUSES}
        return {
            "from_zh": self.from_zh,
            "to_en": self.to_en,
            "counts": self.counts(),
            "untranslated": self.untranslated(),
            "rules": [r.to_json() for r in self.rules],
            "glossary_counts": gcounts,
            "glossary": [g.to_json() for g in self.glossary],
        }


def renumber_citations(text: str, subs: Mapping[str, str]) -> str:
    """Every cited rule number in `subs` replaced by its new number, all at once."""
    if not subs:
        return text
    return CITE.sub(lambda m: subs.get(m.group(0), m.group(0)), text)


def citation_moves(old_parts: Sequence[str], new_parts: Sequence[str]) -> dict[str, str]:
    """Old → new cited numbers, read from an English text whose citations were renumbered."""
    subs: dict[str, str] = {}
    for a_text, b_text in zip(old_parts, new_parts, strict=False):
        for a, b in zip(cited(a_text), cited(b_text), strict=False):
            if a != b:
                subs.setdefault(a, b)
    return subs


_WORDS = re.compile(r"\w+|\s+|[^\w\s]")


def changed_spans(old: str, new: str) -> tuple[list[Span], list[Span]]:
    """Word-level differences of two texts as spans in each (whitespace changes are none)."""
    a = [(m.group(0), m.start(), m.end()) for m in _WORDS.finditer(old)]
    b = [(m.group(0), m.start(), m.end()) for m in _WORDS.finditer(new)]

    def key(t: str) -> str:
        return " " if t.isspace() else t

    sm = difflib.SequenceMatcher(None, [key(t[0]) for t in a], [key(t[0]) for t in b], False)
    sa: list[Span] = []
    sb: list[Span] = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        if i2 > i1:
            sa.append((a[i1][1], a[i2 - 1][2]))
        if j2 > j1:
            sb.append((b[j1][1], b[j2 - 1][2]))
    return sa, sb


def _suggest(
    index: TermIndex, terms: Mapping[str, str], text: str, within: Sequence[Span] | None
) -> list[dict[str, str | None]]:
    """Glossary terms used in `text` (only inside `within` spans when given), with their
    Chinese names from the term dictionary (None where no name is known yet)."""
    out: dict[str, str | None] = {}
    for term, spans in index.find(text).items():
        if within is not None and not any(a < we and b > ws for a, b in spans for ws, we in within):
            continue
        out[term] = terms.get(term)
    return [{"en": t, "zh": z} for t, z in sorted(out.items(), key=lambda p: p[0].casefold())]


def carry_rules(
    en_old: Document,
    zh_old: Document,
    en_new: Document,
    mapping: Mapping[str, str],
    terms: Mapping[str, str],
) -> list[CarriedRule]:
    """Every rule of `en_new` with its status, then the translated rules that were removed."""
    om, zm = en_old.rule_map(), zh_old.rule_map()
    back = {n: o for o, n in mapping.items()}
    english_terms = {t for g in en_new.glossary for t in split_variants(g.term)} | set(terms)
    # an adjective term only where it qualifies its noun: "modified creatures", not "modified by"
    index = TermIndex(
        sorted(english_terms), qualifying_nouns((g.term, g.text) for g in en_new.glossary)
    )
    # every rule the new release numbers otherwise: a citation in the translation names the
    # rule by its old number whether or not its English text changed, or cites what its
    # English did (a translator may have mended a wrong English citation)
    moves = {o: n for o, n in mapping.items() if o != n}
    held = chapters(en_old) & chapters(zh_old)
    out: list[CarriedRule] = []
    for w in en_new.rule_map().values():
        o_num = back.get(w.number)
        o = om.get(o_num) if o_num is not None else None
        z = zm.get(o_num) if o_num is not None else None
        if o is None or z is None:
            untranslated = o is not None or w.number[:1] not in held
            out.append(_new(w, o, index, terms, untranslated))
            continue
        text = compare_text(o.text, w.text, mapping)
        examples = compare_examples(o.examples, w.examples, mapping)
        if "edited" in (text, examples):
            sa, sb = changed_spans(o.text, w.text)
            out.append(
                CarriedRule(
                    w.number,
                    o.number,
                    "review",
                    w.kind,
                    renumber_citations(z.text, moves),
                    [renumber_citations(x, moves) for x in z.examples],
                    o.text,
                    w.text,
                    list(w.examples),
                    sa,
                    sb,
                    _suggest(index, terms, w.text, sb or [(0, len(w.text))]),
                    list(o.examples),
                )
            )
            continue
        # what the English text's own citations became first: a wrong English citation that
        # was mended goes where the English one went
        subs = {**moves, **citation_moves([o.text, *o.examples], [w.text, *w.examples])}
        zh_text = renumber_citations(z.text, subs)
        zh_examples = [renumber_citations(x, subs) for x in z.examples]
        moved = o.number != w.number or (zh_text, zh_examples) != (z.text, list(z.examples))
        out.append(
            CarriedRule(
                w.number,
                o.number,
                "renumbered" if moved else "carried",
                w.kind,
                zh_text,
                zh_examples,
                o.text,
                w.text,
                list(w.examples),
            )
        )
    kept = {r.old_number for r in out if r.old_number is not None}
    for z in zh_old.rule_map().values():
        if z.number not in kept:
            o = om.get(z.number)
            out.append(
                CarriedRule(
                    None,
                    z.number,
                    "removed",
                    z.kind,
                    z.text,
                    list(z.examples),
                    o.text if o is not None else None,
                )
            )
    return out


def _new(
    w: Rule, o: Rule | None, index: TermIndex, terms: Mapping[str, str], untranslated: bool
) -> CarriedRule:
    text = "\n".join([w.text, *w.examples])
    return CarriedRule(
        w.number,
        o.number if o is not None else None,
        "new",
        w.kind,
        None,
        [],
        o.text if o is not None else None,
        w.text,
        list(w.examples),
        terms=_suggest(index, terms, text, None),
        untranslated=untranslated,
    )


def carry_glossary(
    en_old: Document, zh_old: Document, en_new: Document, terms: Mapping[str, str]
) -> list[CarriedEntry]:
    """The glossary carried the same way: English headwords of V and W pair by headword, the
    Chinese entry of V by `pair_by_headword`; a definition changed only in citations is
    renumbered as the English was."""
    titles = title_names(en_old, zh_old)
    pairs = pair_by_headword(en_old.glossary, zh_old.glossary, dict(terms), titles)
    zh_of: dict[str, GlossaryEntry] = {}
    for i, j in pairs:
        if i is not None and j is not None:
            zh_of[en_old.glossary[i].term.casefold()] = zh_old.glossary[j]
    old_by_head = {g.term.casefold(): g for g in en_old.glossary}
    out: list[CarriedEntry] = []
    for g in en_new.glossary:
        head = g.term.casefold()
        o, z = old_by_head.get(head), zh_of.get(head)
        if o is None or z is None:
            out.append(CarriedEntry(g.term, "new", None, None, o.text if o else None, g.text))
        elif same_text(o.text, g.text):
            out.append(CarriedEntry(g.term, "carried", z.term, z.text, o.text, g.text))
        elif _only_cites(o.text, g.text):
            subs = citation_moves([o.text], [g.text])
            zh = renumber_citations(z.text, subs)
            out.append(CarriedEntry(g.term, "renumbered", z.term, zh, o.text, g.text))
        else:
            out.append(CarriedEntry(g.term, "review", z.term, z.text, o.text, g.text))
    new_heads = {g.term.casefold() for g in en_new.glossary}
    for g in en_old.glossary:
        if g.term.casefold() not in new_heads:
            z = zh_of.get(g.term.casefold())
            zt, zx = (z.term, z.text) if z else (None, None)
            out.append(CarriedEntry(g.term, "removed", zt, zx, g.text))
    return out


def _only_cites(old: str, new: str) -> bool:
    return cite_free(text_key(old)) == cite_free(text_key(new))


def carry(
    en_old: Document,
    zh_old: Document,
    en_new: Document,
    mapping: Mapping[str, str],
    terms: Mapping[str, str],
) -> Carry:
    """Translation `zh_old` (of `en_old`'s release) carried to `en_new`."""
    return Carry(
        zh_old.version,
        en_new.version,
        carry_rules(en_old, zh_old, en_new, mapping, terms),
        carry_glossary(en_old, zh_old, en_new, terms),
    )
