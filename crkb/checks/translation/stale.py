"""Staleness: the English moved on after the translation, or a citation's title went out of date."""

from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from crkb.checks.findings import Finding, mark_all, mark_changes, marked
from crkb.checks.translation.common import joined, rule_refs, spans_of
from crkb.diff.compare import compare_text
from crkb.diff.match import match_rules, text_key
from crkb.graph.references import resolve
from crkb.model import Document

Steps = Mapping[tuple[str, str], Mapping[str, str]]

# Words dropped from at least this many rules at once are a systematic rewording ("enters the
# battlefield" → "enters"): the translation probably still says the same. Words added or replaced
# say something new, and a changed address is not wording.
SYSTEMATIC = 5
_PROSE = re.compile(r"[A-Za-z’']+(?: [A-Za-z’']+)*")
_WORD = re.compile(r"\w+|[^\w\s]")


@dataclass(slots=True)
class Fate:
    """What became of one translated rule's English text in the newest release."""

    number: str | None  # its number in the newest release; None if removed
    version: str  # where it was edited or removed (the newest release if neither)
    edited: bool


def follow(en: Document, later: Sequence[Document], steps: Steps | None = None) -> dict[str, Fate]:
    """Each rule of `en` followed release by release through `later` (renumbering included, as
    `crkb history` follows it): where it is now, and where its text was first edited.

    `steps` are the lineage's neighbour matches; a pair missing from them is matched here.
    """
    docs = [en, *later]
    current = {n: n for n in en.rule_map()}
    fates: dict[str, Fate] = {}
    edited_in: dict[str, str] = {}
    for a, b in zip(docs, docs[1:], strict=False):
        step = (steps or {}).get((a.version, b.version))
        if step is None:
            step = match_rules(a.rules, b.rules)
        am, bm = a.rule_map(), b.rule_map()
        nxt: dict[str, str] = {}
        for o, cur in current.items():
            nb = step.get(cur)
            if nb is None or nb not in bm:
                fates[o] = Fate(None, b.version, o in edited_in)
                continue
            nxt[o] = nb
            if o not in edited_in and compare_text(am[cur].text, bm[nb].text, step) == "edited":
                edited_in[o] = b.version
        current = nxt
    newest = docs[-1].version
    for o, n in current.items():
        fates[o] = Fate(n, edited_in.get(o, newest), o in edited_in)
    return fates


def _chunks(old: str, new: str) -> list[tuple[str, str]]:
    """The (old words, new words) of each change between two texts."""
    a, b = _WORD.findall(text_key(old)), _WORD.findall(text_key(new))
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [
        (" ".join(a[i1:i2]), " ".join(b[j1:j2]))
        for op, i1, i2, j1, j2 in sm.get_opcodes()
        if op != "equal"
    ]


def _rewording(chunk: tuple[str, str]) -> bool:
    """A change that only drops words of prose."""
    old, new = chunk
    return not new and _PROSE.fullmatch(old) is not None


def stale_translation(
    en: Document, zh: Document, later_en: Sequence[Document], steps: Steps | None = None
) -> list[Finding]:
    """Rules whose English text was edited or removed after the translation's release.

    Rules are followed through renumbering; a rule that only moved, or whose citations were only
    renumbered with the rules they cite, is carried, not stale. An edit made of systematic
    rewordings only (the same change in many rules) is an `english_rewording` of its own.
    """
    later = sorted((d for d in later_en if d.version > en.version), key=lambda d: d.version)
    if not later:
        return []
    zm = zh.rule_map()
    newest = later[-1].rule_map()
    fates = follow(en, later, steps)
    edits: dict[str, list[tuple[str, str]]] = {}
    for rule in en.rule_map().values():
        fate = fates[rule.number]
        if rule.number in zm and fate.edited and fate.number is not None:
            edits[rule.number] = _chunks(rule.text, newest[fate.number].text)
    used: dict[tuple[str, str], int] = {}
    for chunks in edits.values():
        for c in set(chunks):
            used[c] = used.get(c, 0) + 1
    out = []
    for rule in en.rule_map().values():
        fate = fates[rule.number]
        if rule.number not in zm or not (fate.edited or fate.number is None):
            continue
        new = newest[fate.number] if fate.number is not None else None
        now = f" (now {fate.number})" if fate.number not in (None, rule.number) else ""
        kind = "stale_translation"
        if new is None:
            detail = f"rule {rule.number} was removed from the English rules in {fate.version}"
            old_html, new_html = mark_all(rule.text), ""
        else:
            chunks = edits.get(rule.number, [])
            if not chunks:
                continue  # edited, then changed back
            detail = (
                f"the English rule changed in {fate.version}{now} (translation of {en.version}); "
                f"now: {new.text[:120]}"
            )
            if all(_rewording(c) and used[c] >= SYSTEMATIC for c in chunks):
                kind = "english_rewording"
                said = ", ".join(f"“{a}” dropped" for a in dict.fromkeys(a for a, _b in chunks))
                detail = (
                    f"English rewording in {fate.version}{now}: {said}, made in many rules "
                    "at once; the Chinese probably still fits"
                )
            old_html, new_html = mark_changes(rule.text, new.text)
        out.append(
            Finding(
                rule.number,
                kind,
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
