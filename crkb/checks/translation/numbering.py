"""Rule numbers that the two texts do not share: missing, extra and doubled rules."""

from __future__ import annotations

from collections import Counter

from crkb.checks.findings import Finding, mark_all, marked
from crkb.model import Document


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
