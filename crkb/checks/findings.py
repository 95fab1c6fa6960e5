"""What a translation check reports: a Finding with marked texts and a rebuild-proof identity."""

from __future__ import annotations

import difflib
import hashlib
import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape
from typing import Any


@dataclass(slots=True)
class Finding:
    """One difference between the English rule and its translation.

    `en` / `zh` are HTML-escaped texts with the differing parts in `<mark>…</mark>`; `items` are
    the differing things themselves (numbers, targets, words) and, with `kind` and `rule`, make
    the `id`, so a finding keeps its identity across rebuilds and unrelated edits.
    """

    rule: str
    kind: str
    detail: str
    en: str = ""
    zh: str = ""
    items: tuple[str, ...] = ()
    id: str = field(default="", init=False)

    def __post_init__(self) -> None:
        self.id = finding_id(self.kind, self.rule, self.items)

    def to_json(self) -> dict[str, object]:
        """The JSON shape of `crkb check --json` and `/api/translation`: `en`/`zh` are the texts
        as they are (character for character), `en_marked`/`zh_marked` the same as HTML with
        the differing parts in <mark>."""
        return {
            "rule": self.rule,
            "kind": self.kind,
            "detail": self.detail,
            "en": unmark(self.en),
            "zh": unmark(self.zh),
            "en_marked": self.en,
            "zh_marked": self.zh,
            "id": self.id,
        }

    def to_record(self) -> dict[str, object]:
        """Everything needed to rebuild the Finding (the build stores findings this way)."""
        return {
            "rule": self.rule,
            "kind": self.kind,
            "detail": self.detail,
            "en": self.en,
            "zh": self.zh,
            "items": list(self.items),
        }

    @classmethod
    def from_record(cls, rec: dict[str, Any]) -> Finding:
        return cls(
            rec["rule"], rec["kind"], rec["detail"], rec["en"], rec["zh"], tuple(rec["items"])
        )


def finding_id(kind: str, rule: str, items: Iterable[str]) -> str:
    """A short stable hash of version-independent facts."""
    key = "\x1f".join([kind, rule, *sorted(items)])
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]


def unmark(marked: str) -> str:
    """The text a `mark`ed HTML string was made from."""
    return html.unescape(marked.replace("<mark>", "").replace("</mark>", ""))


def mark(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """`text` HTML-escaped, each (start, end) span wrapped in <mark>; overlapping spans merge."""
    merged: list[list[int]] = []
    for a, b in sorted((a, b) for a, b in spans if b > a):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    out, pos = [], 0
    for a, b in merged:
        out.append(escape(text[pos:a], quote=False))
        out.append("<mark>" + escape(text[a:b], quote=False) + "</mark>")
        pos = b
    out.append(escape(text[pos:], quote=False))
    return "".join(out)


def mark_all(text: str) -> str:
    """The whole text marked (a rule that only one side has)."""
    return mark(text, [(0, len(text))])


def mark_words(text: str, words: Iterable[str]) -> str:
    """Every occurrence of each word (case-insensitive) marked."""
    low = text.casefold()
    spans = []
    for w in words:
        w = w.casefold()
        if not w:
            continue
        start = low.find(w)
        while start >= 0:
            spans.append((start, start + len(w)))
            start = low.find(w, start + len(w))
    return mark(text, spans)


def mark_changes(old: str, new: str) -> tuple[str, str]:
    """Two versions of a text, each with what the other lacks marked (word-level diff)."""

    def tokens(s: str) -> list[tuple[str, int, int]]:
        return [(m.group(0), m.start(), m.end()) for m in re.finditer(r"\w+|\s+|[^\w\s]", s)]

    a, b = tokens(old), tokens(new)
    sm = difflib.SequenceMatcher(None, [t[0] for t in a], [t[0] for t in b], autojunk=False)
    spans_a, spans_b = [], []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        if i2 > i1:
            spans_a.append((a[i1][1], a[i2 - 1][2]))
        if j2 > j1:
            spans_b.append((b[j1][1], b[j2 - 1][2]))
    return mark(old, spans_a), mark(new, spans_b)
