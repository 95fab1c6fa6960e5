"""Draft marks: how a carried-forward Chinese draft flags the rules a translator must still do.

`crkb forward --out` writes them at the start of a rule's (or glossary entry's) text, where the
parser keeps them as text and the checks read them back: a marked rule is a worklist item, and
no other check looks at it (its Chinese is knowingly out of date, or is English to translate).
"""

from __future__ import annotations

from crkb.checks.findings import Finding, mark_all, marked
from crkb.model import Document, Rule

REVIEW_MARK = "【待审】"  # the English changed: the old Chinese text follows, to be reviewed
NEW_MARK = "【待译】"  # no Chinese yet: the English text follows, to be translated

KINDS = ("draft_review", "draft_new")


def draft_status(text: str) -> str | None:
    """`review`, `new` or None for a text without a draft mark."""
    t = text.lstrip()
    if t.startswith(REVIEW_MARK):
        return "review"
    if t.startswith(NEW_MARK):
        return "new"
    return None


def is_marked(rule: Rule) -> bool:
    """A rule the draft flags (in its text or any example)."""
    return any(draft_status(t) for t in [rule.text, *rule.examples])


def draft_findings(en: Document, zh: Document) -> list[Finding]:
    """One finding per marked rule or glossary entry of a draft: the translators' worklist."""
    em = en.rule_map()
    out: list[Finding] = []
    for z in zh.rules:
        if not is_marked(z):
            continue
        status = draft_status(z.text) or "review"
        e = em.get(z.number)
        en_text = e.text if e is not None else ""
        detail = (
            "draft: the English changed; review the carried Chinese text"
            if status == "review"
            else "draft: a new rule; translate the English text"
        )
        out.append(
            Finding(
                z.number,
                f"draft_{status}",
                detail,
                marked(en_text, []),
                mark_all(z.text),
                (status,),
            )
        )
    for g in zh.glossary:
        entry_status = draft_status(g.text) or draft_status(g.term)
        if entry_status is None:
            continue
        out.append(
            Finding(
                f"glossary:{g.term}",
                f"draft_{entry_status}",
                f"draft glossary entry “{g.term}”: "
                + ("review the carried definition" if entry_status == "review" else "translate it"),
                "",
                mark_all(g.text),
                (entry_status,),
            )
        )
    return out
