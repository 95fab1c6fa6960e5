"""Staleness: the English moved on after the translation, or a citation's title went out of date."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Sequence

from crkb.checks.findings import Finding, mark, mark_all, mark_changes
from crkb.checks.translation.common import joined, rule_refs, spans_of
from crkb.graph.references import resolve
from crkb.model import Document


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
                mark(zm[rule.number].text, []),
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


def stale_references(
    doc: Document, lang: str, skip: Collection[str] = frozenset()
) -> list[Finding]:
    """Citations whose quoted title is not the cited rule's title (in one language); rules in
    `skip` (a draft's worklist items) and citations of them are not checked."""
    rules = doc.rule_map()
    out = []
    for rule in doc.rules:
        if rule.number in skip:
            continue
        for ref in resolve(rule_refs(rule, lang), rules):
            if not ref.stale or ref.title is None or ref.target in skip:
                continue
            target = rules[ref.target]
            if _same_title(ref.title, target.title or ""):
                continue
            text = joined(rule)
            spans = spans_of(text, {ref.title})
            en_html, zh_html = (mark(text, spans), "") if lang == "en" else ("", mark(text, spans))
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
