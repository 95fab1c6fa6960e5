"""Rule text to safe HTML: cross-references and glossary terms become links, the rest is escaped."""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from crkb.graph.references import occurrences
from crkb.graph.term_matching import TermPattern, glossary_anchors, longest_first, term_uses


@dataclass(slots=True)
class Link:
    """One reference in a text: the words that named it and the rules it points to."""

    raw: str
    targets: list[str]
    dangling: bool = False


@dataclass(slots=True)
class Terms:
    """A glossary matcher for one version and language."""

    pattern: TermPattern | None
    anchors: dict[str, str]  # matched form (lower-cased) → glossary anchor
    hovers: dict[str, str]  # anchor → definition (shortened)
    # anchor → the escaped rest of its link after `#` (made on first use: most pages link terms)
    tails: dict[str, str] = field(default_factory=dict)


def shorten(text: str, limit: int = 220) -> str:
    """One line of at most `limit` characters, for hover titles."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


@functools.lru_cache(maxsize=8192)  # and so do their definitions
def _hover(text: str) -> str:
    return shorten(text, 140)


def glossary_terms(entries: Iterable[tuple[str, str]], lang: str) -> Terms:
    """A longest-first matcher over the glossary's current (not obsolete) terms."""
    anchors, texts = glossary_anchors(entries, lang)
    if not anchors:
        return Terms(None, {}, {})
    hovers = {target: _hover(text) for target, text in texts.items()}
    return Terms(longest_first(anchors, lang), anchors, hovers)


def _spans(text: str, links: Iterable[Link]) -> list[tuple[int, int, Link]]:
    """Non-overlapping positions of every reference's words, longest first, in text order (a
    raw cited twice links as its first Link)."""
    first: dict[str, Link] = {}
    for link in links:
        if link.raw:
            first.setdefault(link.raw, link)
    return [(a, b, first[raw]) for a, b, raw in occurrences(text, first)]


def _ref_html(raw: str, link: Link, rule_url: Callable[[str], str], hover: dict[str, str]) -> str:
    if link.dangling or not link.targets:
        target = link.targets[0] if link.targets else raw
        return (
            f'<span class="dangling" title="{escape(f"rule {target} is not in this release")}">'
            f"{escape(raw)}</span>"
        )
    parts: list[tuple[str, str]] = []
    first, last = link.targets[0], link.targets[-1]
    if len(link.targets) > 1 and raw.startswith(first) and len(raw) > len(first):
        parts = [(raw[: len(first)], first), (raw[len(first) :], last)]
    else:
        parts = [(raw, first)]
    return "".join(
        f'<a class="ref" href="{escape(rule_url(t))}" title="{escape(hover.get(t, t))}">'
        f"{escape(words)}</a>"
        for words, t in parts
    )


def _terms_html(text: str, terms: Terms | None, seen: set[str], glossary_url: str) -> str:
    if terms is None or terms.pattern is None:
        return str(escape(text))
    out: list[str] = []
    last = 0
    head = ""
    for start, end, target in term_uses(text, terms.pattern, terms.anchors, seen):
        out.append(str(escape(text[last:start])))
        if not head:
            head = f'<a class="term" href="{escape(glossary_url)}#'
        tail = terms.tails.get(target)
        if tail is None:
            hover = terms.hovers.get(target, "")
            tail = terms.tails[target] = f'{escape(target)}" title="{escape(hover)}">'
        out.append(f"{head}{tail}{escape(text[start:end])}</a>")
        last = end
    out.append(str(escape(text[last:])))
    return "".join(out)


def linked(
    text: str,
    links: Iterable[Link],
    rule_url: Callable[[str], str],
    hover: dict[str, str],
    terms: Terms | None = None,
    glossary_url: str = "/glossary",
    seen: set[str] | None = None,
) -> Markup:
    """`text` escaped, with each reference linked (hover: the target's text) and the first use
    of each glossary term linked to its entry. `seen`: terms already linked in this rule."""
    seen = set() if seen is None else seen
    out: list[str] = []
    last = 0
    for start, end, link in _spans(text, links):
        out.append(_terms_html(text[last:start], terms, seen, glossary_url))
        out.append(_ref_html(text[start:end], link, rule_url, hover))
        last = end
    out.append(_terms_html(text[last:], terms, seen, glossary_url))
    return Markup("".join(out))


def escaped(text: str) -> str:
    """`str(markupsafe.escape(text))` for a plain string, without a Markup object made for it
    (a search page escapes ~250 values)."""
    return (
        text.replace("&", "&amp;")
        .replace(">", "&gt;")
        .replace("<", "&lt;")
        .replace("'", "&#39;")
        .replace('"', "&#34;")
    )


_MARKS = re.compile(r"(</?mark>)")


# What html.escape(quote=False) never leaves: a bare "&", or "<" and ">" outside <mark> tags
# (each alternative begins with its character: the scan skips to the next "&", "<" or ">")
_UNESCAPED = re.compile(r"&(?!(?:amp|lt|gt);)|<(?!/?mark>)|>(?<!<mark>)(?<!</mark>)")


def highlight(engine_html: str) -> Markup:
    """A search highlight (escaped text with <mark> around matches) made safe again: every piece is
    unescaped and re-escaped, so only the <mark> tags survive whatever the engine produced."""
    return Markup(highlighted(engine_html))


def highlighted(engine_html: str) -> str:
    """`highlight` as a plain string, for markup written in Python (crkb/web/hits.py)."""
    if _UNESCAPED.search(engine_html) is None:
        # what the engine makes (escaped but for quotes): re-escaped, it only gains its quotes
        balanced = engine_html.replace("'", "&#39;").replace('"', "&#34;")
    else:
        balanced = _reescaped(engine_html)
    if balanced.count("<mark>") != balanced.count("</mark>"):
        balanced = balanced.replace("<mark>", "").replace("</mark>", "")
    return balanced


def _reescaped(engine_html: str) -> str:
    out = []
    for piece in _MARKS.split(engine_html):
        if piece in ("<mark>", "</mark>"):
            out.append(piece)
        else:
            out.append(escaped(html.unescape(piece) if "&" in piece else piece))
    return "".join(out)
