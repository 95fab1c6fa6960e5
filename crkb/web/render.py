"""Rule text to safe HTML: cross-references and glossary terms become links, the rest is escaped."""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import ahocorasick
from markupsafe import Markup, escape

from crkb.graph.references import occurrences

_OBSOLETE = re.compile(r"\(obsolete\)|（已废止）|（已废除）|（过时）", re.I)
_QUALIFIER = re.compile(r"\s*[(（][^)）]*[)）]\s*$")
MIN_TERM = {"en": 4, "zh": 2}


@dataclass(slots=True)
class Link:
    """One reference in a text: the words that named it and the rules it points to."""

    raw: str
    targets: list[str]
    dangling: bool = False


class Found:
    """One term found in a text, read as a regex match is (`group(0)`: with its plural ending)."""

    __slots__ = ("_end", "_start", "_stem", "_text")

    def __init__(self, text: str, start: int, stem: int, end: int) -> None:
        self._text, self._start, self._stem, self._end = text, start, stem, end

    def group(self, n: int = 0) -> str:
        return self._text[self._start : self._stem if n == 1 else self._end]

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def span(self) -> tuple[int, int]:
        return self._start, self._end


class TermPattern:
    """The glossary terms of one text as a matcher. One regex over ~600 terms costs ~10 ms to
    compile for each release, and one per rule text over the few terms it holds ~0.7 ms (most of
    rendering an old release's rule): so a text is scanned directly, finding what that regex
    finds: at each place, left to right, the first of the alternatives (longest first) that
    matches there, in English case-insensitively, at a word start, with an optional plural
    ending, at a word end. Which terms a text holds at all is one pass of an Aho-Corasick
    automaton over it (a substring test per term was a fifth of an old page's rendering)."""

    def __init__(self, alts: list[str], lang: str) -> None:
        self.lang = lang
        self.alts = alts  # lower-cased forms, longest first: the order of the alternation
        # forms whose case folds only as ASCII does, so `form in text.lower()` is exact
        self._plain = [a.isascii() or lang != "en" for a in alts]
        self._folded = [k for k, plain in enumerate(self._plain) if not plain]
        self._whole: re.Pattern[str] | None = None
        self._finder: ahocorasick.Automaton | None = None

    def _held(self, text: str) -> set[int]:
        """The places in `alts` of the alternatives found in `text` (lower-cased for English)."""
        if not self.alts:
            return set()
        if self._finder is None:
            self._finder = _automaton(self.alts)
        return {k for _end, k in self._finder.iter(text)}

    def _in_order(self, held: set[int]) -> tuple[str, ...]:
        return tuple(self.alts[k] for k in sorted(held))

    def finditer(self, text: str) -> Iterator[re.Match[str] | Found]:
        if self.lang != "en":
            return _scan(text, text, self._in_order(self._held(text)), False)
        if any(ord(c) > 127 and c.lower() != c.upper() for c in text):
            if self._whole is None:  # cased letters beyond ASCII: the one regex, as before
                self._whole = _build_regex(tuple(self.alts), self.lang)
            return self._whole.finditer(text)
        low = text.lower()  # as long as the text: its cased letters are all ASCII
        held = self._held(low)
        for k in self._folded:  # a form beyond ASCII is found as re.I folds it
            if _alone(self.alts[k]).search(text):
                held.add(k)
            else:
                held.discard(k)
        present = self._in_order(held)
        if not all(a.isascii() for a in present):  # a form beyond ASCII: re.I's own folding
            return _term_regex(present, self.lang).finditer(text)
        return _scan(text, low, present, True)


def _automaton(alts: list[str]) -> ahocorasick.Automaton:
    """Every alternative in one Aho-Corasick automaton, valued by its place in `alts`."""
    finder = ahocorasick.Automaton()
    for k, a in enumerate(alts):
        finder.add_word(a, k)
    if alts:
        finder.make_automaton()
    return finder


@functools.lru_cache(maxsize=1024)  # the few forms beyond ASCII of the glossaries
def _alone(form: str) -> re.Pattern[str]:
    """A form alone, as re.I folds it: where it is not found, the alternation cannot match it."""
    return re.compile(re.escape(form), re.I)


def _is_word(c: str) -> bool:
    r"""`[\w-]` of a str regex."""
    return c.isalnum() or c == "_" or c == "-"


def _scan(text: str, low: str, alts: tuple[str, ...], english: bool) -> Iterator[Found]:
    """What `_build_regex(alts, lang).finditer(text)` yields, without compiling it (`low`:
    the text to compare with the lower-cased `alts`, as long as `text`)."""
    starts: set[int] = set()
    for a in alts:
        i = low.find(a)
        while i >= 0:
            starts.add(i)
            i = low.find(a, i + 1)
    n = len(low)
    pos = 0
    for i in sorted(starts):
        if i < pos or (english and i > 0 and _is_word(low[i - 1])):
            continue
        for a in alts:
            if not low.startswith(a, i):
                continue
            stem = i + len(a)
            if not english:
                yield Found(text, i, stem, stem)
                pos = stem
                break
            end = next(
                (
                    stem + len(e)
                    for e in ("s", "es", "")
                    if low.startswith(e, stem)
                    and (stem + len(e) == n or not _is_word(low[stem + len(e)]))
                ),
                None,
            )
            if end is not None:
                yield Found(text, i, stem, end)
                pos = end
                break


def _build_regex(alts: tuple[str, ...], lang: str) -> re.Pattern[str]:
    joined = "|".join(re.escape(f) for f in alts)
    if lang == "en":
        return re.compile(rf"(?<![\w-])({joined})(?:s|es)?(?![\w-])", re.I)
    return re.compile(f"({joined})")


_term_regex = functools.lru_cache(maxsize=256)(_build_regex)  # forms beyond ASCII: rare


@dataclass(slots=True)
class Terms:
    """A glossary matcher for one version and language."""

    pattern: TermPattern | None
    anchors: dict[str, str]  # matched form (lower-cased) → glossary anchor
    hovers: dict[str, str]  # anchor → definition (shortened)


def anchor(term: str) -> str:
    """The id of a glossary entry on the glossary page."""
    return "g-" + re.sub(r"\s+", "-", term.strip().lower())


def shorten(text: str, limit: int = 220) -> str:
    """One line of at most `limit` characters, for hover titles."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


@functools.lru_cache(maxsize=8192)  # terms repeat from release to release
def _term_forms(term: str, lang: str) -> tuple[str, tuple[str, ...]] | None:
    """(anchor, lower-cased forms to match) of a current glossary term; None when obsolete."""
    if _OBSOLETE.search(term):
        return None
    forms = []
    for form in _QUALIFIER.sub("", term).split(", " if lang == "en" else "，"):
        form = form.strip()
        if len(form) >= MIN_TERM.get(lang, 2):
            forms.append(form.lower())
    return anchor(term), tuple(forms)


@functools.lru_cache(maxsize=8192)  # and so do their definitions
def _hover(text: str) -> str:
    return shorten(text, 140)


def glossary_terms(entries: Iterable[tuple[str, str]], lang: str) -> Terms:
    """A longest-first matcher over the glossary's current (not obsolete) terms."""
    anchors: dict[str, str] = {}
    hovers: dict[str, str] = {}
    for term, text in entries:
        found = _term_forms(term, lang)
        if found is None:
            continue
        target, forms = found
        hovers[target] = _hover(text)
        for form in forms:
            anchors.setdefault(form, target)
    if not anchors:
        return Terms(None, {}, {})
    pattern = TermPattern(sorted(anchors, key=len, reverse=True), lang)
    return Terms(pattern, anchors, hovers)


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
    for m in terms.pattern.finditer(text):
        target = terms.anchors.get(m.group(1).lower())
        if target is None or target in seen:
            continue
        seen.add(target)
        out.append(str(escape(text[last : m.start()])))
        out.append(
            f'<a class="term" href="{escape(glossary_url)}#{escape(target)}"'
            f' title="{escape(terms.hovers.get(target, ""))}">{escape(m.group(0))}</a>'
        )
        last = m.end()
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


def highlight(engine_html: str) -> Markup:
    """A search highlight (escaped text with <mark> around matches) made safe again: every piece is
    unescaped and re-escaped, so only the <mark> tags survive whatever the engine produced."""
    pieces = re.split(r"(</?mark>)", engine_html)
    out = []
    for piece in pieces:
        if piece in ("<mark>", "</mark>"):
            out.append(piece)
        else:
            out.append(str(escape(html.unescape(piece))))
    balanced = "".join(out)
    if balanced.count("<mark>") != balanced.count("</mark>"):
        balanced = balanced.replace("<mark>", "").replace("</mark>", "")
    return Markup(balanced)
