"""Translation consistency checks: where the Chinese edition may not say what the English says.

The package runs an ordered list of checks (`CHECKS`) over one context, as markdown-it-py runs
its rules; each check lives in the module named after what it compares.

`check(en, zh)` compares the two Documents of one release and returns Findings of these kinds:

- `missing_rule`: a rule number of the English text that the translation lacks.
- `extra_rule`: a rule number only the translation has.
- `doubled_rule`: a number the translation uses more often than the English text.
- `misnumbered_rule`: an English rule the translation holds under a sibling's number (that
  number then appears twice); reported once, on the English number.
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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from crkb.checks import draft
from crkb.checks.findings import Finding
from crkb.checks.translation import glossary as glossary_checks
from crkb.checks.translation import numbering, per_rule, stale
from crkb.checks.translation.glossary import aligned_terms
from crkb.checks.translation.per_rule import is_prose
from crkb.checks.translation.terms import TermIndex, fold_inflection, term_findings
from crkb.graph.terms import build_dictionary, pair_glossaries, split_variants
from crkb.model import Document, Rule
from crkb.numbers import sort_key

__all__ = ["CHECKS", "KINDS", "Context", "TermIndex", "check", "fold_inflection", "is_prose"]

KINDS = (
    "missing_rule",
    "extra_rule",
    "doubled_rule",
    "misnumbered_rule",
    "example_count",
    "references",
    "numbers",
    "untranslated",
    "term",
    "glossary_missing",
    "glossary_extra",
    "glossary_references",
    "stale_translation",
    "english_rewording",
    "stale_reference",
    *draft.KINDS,
)


@dataclass(slots=True)
class Context:
    """What the checks read: one release's two Documents, later English releases, the terms."""

    en: Document
    zh: Document
    later_en: Sequence[Document] = ()
    terms: dict[str, str] = field(default_factory=dict)
    pairs: list[tuple[Rule, Rule]] = field(default_factory=list)
    marked: frozenset[str] = frozenset()  # rules a carried-forward draft flags (worklist items)
    steps: stale.Steps | None = None  # the English lineage's neighbour matches, when built
    renumbered: list[tuple[Rule, Rule]] = field(default_factory=list)  # numbering.misnumbered


Check = Callable[[Context], list[Finding]]


def _per_rule(ctx: Context) -> list[Finding]:
    titles = {r.number: r.title for r in ctx.en.rules if r.title}
    out: list[Finding] = []
    for e, z in ctx.pairs:
        out += per_rule.example_count(e, z)
        out += per_rule.references(e, z, titles)
        out += per_rule.numbers(e, z)
        out += per_rule.untranslated(e, z)
    return out


def _terms(ctx: Context) -> list[Finding]:
    """Term findings; in a draft, rules under review still count towards how consistently the
    translation renders a term (their Chinese is the old translation), but are not reported."""
    english_terms = [t for g in ctx.en.glossary for t in split_variants(g.term)]
    zm = ctx.zh.rule_map()
    review = [
        (e, zm[e.number])
        for e in ctx.en.rules
        if e.number in ctx.marked and draft.draft_status(zm[e.number].text) == "review"
    ]
    found = term_findings([*ctx.pairs, *review], ctx.terms, english_terms)
    return [f for f in found if f.rule not in ctx.marked]


# The checks in the order they run, as (name, function of the context): a new check is one
# function and one line here.
CHECKS: list[tuple[str, Check]] = [
    ("rule_numbers", lambda ctx: numbering.rule_numbers(ctx.en, ctx.zh, ctx.renumbered)),
    ("per_rule", _per_rule),
    ("terms", _terms),
    ("glossary", lambda ctx: glossary_checks.glossary(ctx.en, ctx.zh, ctx.terms)),
    (
        "stale_translation",
        lambda ctx: stale.stale_translation(ctx.en, ctx.zh, ctx.later_en, ctx.steps),
    ),
    ("stale_reference_en", lambda ctx: stale.stale_references(ctx.en, "en")),
    ("stale_reference_zh", lambda ctx: stale.stale_references(ctx.zh, "zh", skip=ctx.marked)),
    ("draft", lambda ctx: draft.draft_findings(ctx.en, ctx.zh)),
]


def check(
    en: Document,
    zh: Document,
    *,
    later_en: Sequence[Document] = (),
    terms: dict[str, str] | None = None,
    steps: stale.Steps | None = None,
) -> list[Finding]:
    """Every finding for one release's English and Chinese Documents, in rule order.

    `steps` (the English lineage's neighbour matches) spare matching the later releases again.
    """
    if terms is None:
        terms = build_dictionary([pair_glossaries(en, zh), aligned_terms(en, zh)])
    renumbered = numbering.misnumbered(en, zh)
    zm = numbering.translations(en, zh, renumbered)
    marked = frozenset(z.number for z in zh.rules if draft.is_marked(z))
    pairs = [
        (e, zm[e.number])
        for e in en.rule_map().values()
        if e.number in zm and e.number not in marked
    ]
    ctx = Context(en, zh, later_en, terms, pairs, marked, steps, renumbered)
    out: list[Finding] = []
    for _name, run in CHECKS:
        out += run(ctx)
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
