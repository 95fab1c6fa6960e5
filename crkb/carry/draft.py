"""A carry written out: the Chinese draft in the official plain-text layout, and the worklists.

The draft reads back through the ordinary Chinese parser as release W: every rule number of the
English W, rules still to do flagged by the draft marks of `checks.draft` at the start of their
text (the old Chinese text after `【待审】`, the English text after `【待译】`).
"""

from __future__ import annotations

import csv
import io
import re

from crkb.carry.rules import CarriedEntry, CarriedRule, Carry, changed_spans
from crkb.checks.draft import NEW_MARK, REVIEW_MARK
from crkb.model import Document
from crkb.numbers import sort_key

_EFFECTIVE = re.compile(r"\d{4}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日\s*起?生效")


def _effective(version: str) -> str:
    y, m, d = (int(x) for x in version.split("-"))
    return f"{y}年{m}月{d}日起生效"


def _line(number: str, kind: str, text: str) -> str:
    """A rule's line as the official layout writes it: `100.1. text`, `100.1a text`, `1. text`."""
    return f"{number} {text}" if kind == "subrule" else f"{number}. {text}"


def rule_texts(r: CarriedRule) -> tuple[str, list[str]]:
    """The draft's text and examples for one carried rule, marks included."""
    if r.status == "new":
        return NEW_MARK + (r.en_new or ""), [NEW_MARK + x for x in r.en_examples]
    if r.status == "review":
        examples = []
        for x in r.example_steps():  # W's examples: V's Chinese where it stands, else English
            if x.state == "removed" or x.en_new is None:
                continue
            if x.zh is None or x.state == "new":
                examples.append(NEW_MARK + x.en_new)
            else:
                examples.append((REVIEW_MARK if x.state == "changed" else "") + x.zh)
        # the text is marked when it changed, or when no example carries the rule's mark
        text_changed = bool(r.en_new_changes or r.en_old_changes)
        marked = any(x.startswith((REVIEW_MARK, NEW_MARK)) for x in examples)
        return (REVIEW_MARK if text_changed or not marked else "") + (r.zh or ""), examples
    return r.zh or "", list(r.zh_examples)


def _title(text: str) -> str:
    return text.strip().split("\n")[0]


def _contents(rules: list[CarriedRule]) -> str:
    out = ["目录", ""]
    for r in rules:
        if r.number is None or r.kind not in ("chapter", "section"):
            continue
        if r.kind == "chapter" and len(out) > 2:
            out.append("")
        out.append(f"{r.number}. {_title(rule_texts(r)[0])}")
    return "\n".join([*out, "", "词汇表", "", "版权信息"])


def _entry(g: CarriedEntry) -> tuple[str, str]:
    if g.status == "new":  # each sense to translate marked ("1. …", "2. …" on lines of their own)
        senses = (g.en_new or "").split("\n")
        return NEW_MARK + g.term, "\n".join(NEW_MARK + x for x in senses)
    if g.status == "review":
        return g.zh_term or g.term, REVIEW_MARK + (g.zh or "")
    return g.zh_term or g.term, g.zh or ""


def draft_text(c: Carry, zh_old: Document) -> str:
    """The whole draft of release W, in the official Chinese plain-text layout."""
    date = _effective(c.to_en)
    kept = [r for r in c.rules if r.number is not None]
    parts = [zh_old.title or "万智牌完整规则", f"此规则于{date}。"]
    if zh_old.intro:
        parts.append(_EFFECTIVE.sub(date, zh_old.intro))
    parts.append(_contents(kept))
    for r in kept:
        text, examples = rule_texts(r)
        parts.append(_line(r.number or "", r.kind, text))
        parts += [f"例如：{x}" for x in examples]
    parts.append("词汇表")
    for g in c.glossary:
        if g.status != "removed":
            term, text = _entry(g)
            parts.append(f"{term}\n{text}")
    parts.append(_EFFECTIVE.sub(date, zh_old.credits) if zh_old.credits else "版权信息")
    return "\n\n".join(parts) + "\n"


def worklist(c: Carry) -> list[CarriedRule]:
    """The rules a translator must do: review and new in W's rule order, then removed ones."""
    todo = [r for r in c.rules if r.status in ("review", "new")]
    todo.sort(key=lambda r: sort_key(r.number or ""))
    gone = [r for r in c.rules if r.status == "removed"]
    gone.sort(key=lambda r: sort_key(r.old_number or ""))
    return todo + gone


def _terms_cell(r: CarriedRule) -> str:
    return "; ".join(f"{t['en']} = {t['zh'] or '?'}" for t in r.terms)


def worklist_csv(c: Carry) -> str:
    """`worklist.csv`: one row per rule to do (UTF-8, with a header)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        [
            "status",
            "number",
            "old_number",
            "en_old",
            "en_new",
            "zh",
            "changed",
            "terms",
            "examples",
            "untranslated",
        ]
    )
    for r in worklist(c):
        changed = " | ".join(r.changed_words())
        examples = " | ".join(
            f"{x.state}: {x.en_new or x.en_old}" for x in r.example_steps() if x.state != "same"
        )
        w.writerow(
            [
                r.status,
                r.number or "",
                r.old_number or "",
                r.en_old or "",
                r.en_new or "",
                r.zh or "",
                changed,
                _terms_cell(r),
                examples,
                "yes" if r.untranslated else "",
            ]
        )
    return buf.getvalue()


def _marked(text: str, spans: list[tuple[int, int]]) -> str:
    """Markdown with the changed words in bold."""
    out, pos = [], 0
    for a, b in sorted(spans):
        out.append(text[pos:a])
        out.append(f"**{text[a:b]}**" if text[a:b].strip() else text[a:b])
        pos = b
    out.append(text[pos:])
    return "".join(out)


def _example_lines(r: CarriedRule) -> list[str]:
    """The examples of a rule to review that changed: reworded, new or removed."""
    out = []
    for x in r.example_steps():
        if x.state == "changed":
            sa, sb = changed_spans(x.en_old or "", x.en_new or "")
            out.append(f"- example reworded, en old: {_marked(x.en_old or '', sa)}")
            out.append(f"  - en new: {_marked(x.en_new or '', sb)}")
            out.append(f"  - zh: {x.zh or ''}")
        elif x.state == "new":
            out.append(f"- example new: {x.en_new}")
        elif x.state == "removed":
            out.append(f"- example removed: {x.en_old}")
            if x.zh:
                out.append(f"  - zh: {x.zh}")
    return out


def worklist_md(c: Carry) -> str:
    """`worklist.md`: the same rules as readable Markdown for translators."""
    lines = [f"# Worklist: Chinese {c.from_zh} → English {c.to_en}", "", c.summary(), ""]
    for r in worklist(c):
        if r.status == "removed":
            lines += [f"## {r.old_number} — removed", "", f"- zh: {r.zh or ''}", ""]
            continue
        moved = f" (was {r.old_number})" if r.old_number and r.old_number != r.number else ""
        lines += [f"## {r.number}{moved} — {r.status}{c.untranslated_note(r)}", ""]
        if r.status == "review":
            if r.en_old_changes or r.en_new_changes:
                lines.append(f"- en old: {_marked(r.en_old or '', r.en_old_changes)}")
                lines.append(f"- en new: {_marked(r.en_new or '', r.en_new_changes)}")
            else:
                lines.append(f"- en (unchanged; its examples changed): {r.en_new or ''}")
            lines.append(f"- zh: {r.zh or ''}")
            lines += _example_lines(r)
        else:
            lines.append(f"- en: {r.en_new or ''}")
            lines += [f"- example: {x}" for x in r.en_examples]
        if r.terms:
            lines.append(f"- terms: {_terms_cell(r)}")
        lines.append("")
    return "\n".join(lines)
