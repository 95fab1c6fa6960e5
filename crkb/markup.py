"""Spans of a text (offsets and a kind) and the one place they become escaped HTML.

The search highlights, the translation findings' marked texts and the text diffs are spans made
by pure functions in their layers; the HTML strings the JSON shapes carry (`highlight`,
`en_marked`, `zh_marked`) are made here, with the escaping, once. Pages use crkb.web.render,
which re-reads these strings into page-safe markup.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import NamedTuple


class Span(NamedTuple):
    """text[start:end] is of `kind`: `mark` (matched or differing), `del` or `ins`."""

    start: int
    end: int
    kind: str = "mark"


def merge(spans: Iterable[Span | tuple[int, int]]) -> list[Span]:
    """Spans in text order, empty ones dropped, overlapping or touching ones of a kind joined."""
    merged: list[Span] = []
    for s in sorted(Span(*s) for s in spans):
        if s.end <= s.start:
            continue
        last = merged[-1] if merged else None
        if last is not None and s.start <= last.end and s.kind == last.kind:
            merged[-1] = Span(last.start, max(last.end, s.end), last.kind)
        else:
            merged.append(s)
    return merged


def to_html(text: str, spans: Iterable[Span | tuple[int, int]], *, quote: bool = False) -> str:
    """`text` HTML-escaped (quotes too when `quote`), each span wrapped in `<kind>…</kind>`."""
    return merged_html(text, merge(spans), quote=quote)


def merged_html(text: str, merged: list[Span], *, quote: bool = False) -> str:
    """`to_html` of spans already as `merge` returns them (a search's highlights are made so)."""
    out: list[str] = []
    last = 0
    for start, end, kind in merged:
        out.append(html.escape(text[last:start], quote=quote))
        out.append(f"<{kind}>{html.escape(text[start:end], quote=quote)}</{kind}>")
        last = end
    out.append(html.escape(text[last:], quote=quote))
    return "".join(out)
