"""Rule text to pack HTML: references and first uses of glossary terms become relative links."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html import escape

from crkb.graph.references import occurrences
from crkb.graph.term_matching import TermPattern, glossary_anchors, longest_first, term_uses
from crkb.model import Reference


@dataclass(slots=True)
class Terms:
    """A glossary matcher for one text: longest form first, each form → its entry's anchor."""

    pattern: TermPattern | None
    anchors: dict[str, str]


def glossary_terms(entries: Iterable[tuple[str, str]], lang: str) -> Terms:
    """A matcher over the glossary's current (not obsolete) terms and their comma variants."""
    anchors, _texts = glossary_anchors(entries, lang)
    return Terms(longest_first(anchors, lang), anchors)


def spans(text: str, refs: Iterable[Reference]) -> list[tuple[int, int, list[str]]]:
    """Non-overlapping (start, end, targets) of each reference's words, in text order."""
    by_raw: dict[str, list[str]] = {}
    for r in refs:
        if r.raw and not r.dangling:
            targets = by_raw.setdefault(r.raw, [])
            if r.target not in targets:
                targets.append(r.target)
    return [(a, b, by_raw[raw]) for a, b, raw in occurrences(text, by_raw)]


def _terms_html(text: str, terms: Terms, seen: set[str], glossary_href: str) -> str:
    out: list[str] = []
    last = 0
    for start, end, target in term_uses(text, terms.pattern, terms.anchors, seen):
        out.append(escape(text[last:start], quote=False))
        out.append(
            f'<a class="term" href="{glossary_href}#{escape(target)}">{escape(text[start:end])}</a>'
        )
        last = end
    out.append(escape(text[last:], quote=False))
    return "".join(out)


def linked(
    text: str,
    refs: Iterable[Reference],
    href: Callable[[str], str | None],
    terms: Terms,
    glossary_href: str,
    seen: set[str],
) -> str:
    """`text` escaped, each reference linked where the pack holds its target (`href` says where),
    and the first use of each glossary term (per `seen`) linked to its entry."""
    out: list[str] = []
    last = 0
    for start, end, targets in spans(text, refs):
        out.append(_terms_html(text[last:start], terms, seen, glossary_href))
        raw = text[start:end]
        first, last_target = targets[0], targets[-1]
        parts = [(raw, first)]
        if len(targets) > 1 and raw.startswith(first) and len(raw) > len(first):
            parts = [(raw[: len(first)], first), (raw[len(first) :], last_target)]
        for words, target in parts:
            url = href(target)
            if url is None:
                out.append(escape(words, quote=False))
            else:
                out.append(f'<a class="ref" href="{escape(url)}">{escape(words, quote=False)}</a>')
        last = end
    out.append(_terms_html(text[last:], terms, seen, glossary_href))
    return "".join(out)
