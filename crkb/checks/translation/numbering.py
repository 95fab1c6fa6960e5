"""Rule numbers that the two texts do not share: missing, extra, doubled and misnumbered rules."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence

from crkb.checks.findings import Finding, mark_all, marked
from crkb.model import Document, Rule

# The most a misnumbered copy's length may differ from its English rule's (times the release's
# ratio), as a log: a factor of two.
SIZE = math.log(2)


def rule_numbers(
    en: Document, zh: Document, renumbered: Sequence[tuple[Rule, Rule]] | None = None
) -> list[Finding]:
    """Missing, extra, doubled and misnumbered rule numbers.

    A translation that numbers a rule with its sibling's number (702.19g's text labelled
    702.19e) shows one number twice and the other not at all; that is one mistake, reported
    once as `misnumbered_rule` on the English number, not as a doubled and a missing rule
    (`renumbered`: `misnumbered`'s pairs, when the caller has them).
    """
    ce, cz = Counter(r.number for r in en.rules), Counter(r.number for r in zh.rules)
    em, zm = en.rule_map(), zh.rule_map()
    if renumbered is None:
        renumbered = misnumbered(en, zh)
    explained = {e.number for e, _ in renumbered}
    surplus = Counter(z.number for _, z in renumbered)
    out = []
    for e, z in renumbered:
        out.append(
            Finding(
                e.number,
                "misnumbered_rule",
                f"rule {e.number} is numbered {z.number} in the translation",
                marked(e.text, []),
                marked(z.text, []),
                (e.number, z.number),
            )
        )
    for n in ce.keys() - cz.keys() - explained:
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
        if n in ce and count - surplus[n] > ce[n]:
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


def misnumbered(en: Document, zh: Document) -> list[tuple[Rule, Rule]]:
    """(English rule, the Chinese rule that translates it under a sibling's number).

    A number the translation holds twice where English holds it once, beside an English rule
    of the same parent that the translation lacks: one of the two copies is that rule. The
    copy whose place among its siblings and whose length (against the release's usual
    Chinese-to-English ratio) fit it better is taken to be it.
    """
    ce, cz = Counter(r.number for r in en.rules), Counter(r.number for r in zh.rules)
    lacking = [r for r in en.rules if r.number not in cz]
    if not lacking:
        return []
    ratio = _ratio(en, zh)
    em = en.rule_map()
    out: list[tuple[Rule, Rule]] = []
    taken: set[str] = set()
    for n in sorted(n for n, count in cz.items() if ce[n] == 1 and count == 2):
        own = em[n]
        candidates = [r for r in lacking if r.parent == own.parent and r.number not in taken]
        if not candidates:
            continue
        first, second = (r for r in zh.rules if r.number == n)
        if first.text == second.text:
            continue  # a copy of the same text is a doubled rule
        at = _places(zh.rules, own.parent) | _places(en.rules, own.parent)
        fits = [
            (_misfit(c, m, at, ratio) + _misfit(other, own, at, ratio), k, j)
            for k, (c, other) in enumerate(((second, first), (first, second)))
            for j, m in enumerate(candidates)
        ]
        _, k, j = min(fits)
        copy, rule = (second, first)[k], candidates[j]
        if _size(copy, rule, ratio) > SIZE:
            continue  # no copy is the missing rule's length: a doubled and a missing rule
        out.append((rule, copy))
        taken.add(rule.number)
    return out


def _misfit(z: Rule, e: Rule, at: dict[int, int], ratio: float) -> float:
    """How badly Chinese rule `z` fits as the translation of `e`: their places among their
    siblings apart, plus twice how far their length ratio is from the release's (in logs)."""
    return abs(at[id(z)] - at[id(e)]) + 2 * _size(z, e, ratio)


def _size(z: Rule, e: Rule, ratio: float) -> float:
    """How far Chinese rule `z`'s length is from what English rule `e`'s would make it (log)."""
    return abs(math.log(max(len(z.text), 1) / (max(len(e.text), 1) * ratio)))


def _places(rules: Sequence[Rule], parent: str | None) -> dict[int, int]:
    """Each child of `parent` (by identity) → its place among them."""
    return {id(r): i for i, r in enumerate(r for r in rules if r.parent == parent)}


def _ratio(en: Document, zh: Document) -> float:
    """The median length of a Chinese subrule over its English one, over the numbers both
    hold (about 0.3: a Chinese character says what three or four English ones do)."""
    em, zm = en.rule_map(), zh.rule_map()
    shares = [
        len(zm[n].text) / len(e.text)
        for n, e in em.items()
        if n in zm and e.text and zm[n].text and e.kind == "subrule"
    ]
    return statistics.median(shares) if shares else 1.0


def translations(
    en: Document, zh: Document, renumbered: Sequence[tuple[Rule, Rule]]
) -> dict[str, Rule]:
    """English number → the Chinese rule that translates it: the first rule of that number,
    except where `renumbered` says a rule is another's under a sibling's number."""
    out = zh.rule_map()
    for e, z in renumbered:
        out[e.number] = z
        out[z.number] = next(r for r in zh.rules if r.number == z.number and r is not z)
    return out
