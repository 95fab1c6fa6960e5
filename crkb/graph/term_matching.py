"""Glossary terms found in a text: each current term's first use, matched as the rules write it
(English case-insensitively at word edges with a plural ending, Chinese as written).

Shared by the service's rule pages (crkb/web/render.py) and the offline pack (crkb/export/links.py),
which link the same words to the same entries.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator

import ahocorasick

_OBSOLETE = re.compile(r"\(obsolete\)|（已废止）|（已废除）|（过时）", re.I)
_QUALIFIER = re.compile(r"\s*[(（][^)）]*[)）]\s*$")
MIN_TERM = {"en": 4, "zh": 2}


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
        self._folded_set = frozenset(self._folded)
        self._any_folded: re.Pattern[str] | None = None
        self._whole: re.Pattern[str] | None = None
        self._finder: ahocorasick.Automaton | None = None

    def _places(self, text: str) -> list[tuple[int, int]]:
        """(start, place in `alts`) of every occurrence of every alternative in `text` (lower-cased
        for English), overlapping ones too."""
        if not self.alts:
            return []
        if self._finder is None:
            self._finder = _automaton(self.alts)
        return [(end - size, k) for end, (k, size) in self._finder.iter(text)]

    def _in_order(self, held: set[int]) -> tuple[str, ...]:
        return tuple(self.alts[k] for k in sorted(held))

    def _confirmed(self, text: str) -> list[int]:
        """The forms beyond ASCII found in `text` as re.I folds them (one search when none is)."""
        if not self._folded:
            return []
        if self._any_folded is None:
            self._any_folded = _alone("|".join(re.escape(self.alts[k]) for k in self._folded))
        if self._any_folded.search(text) is None:
            return []
        return [k for k in self._folded if _alone(re.escape(self.alts[k])).search(text)]

    def finditer(self, text: str) -> Iterator[re.Match[str] | Found]:
        plan = self._plan(text)
        if isinstance(plan, re.Pattern):
            return plan.finditer(text)
        low, places, english = plan
        return (
            Found(text, i, stem, end) for i, stem, end, _k in _hits(low, places, self.alts, english)
        )

    def uses(self, text: str) -> Iterator[tuple[int, int, str]]:
        """(start, end, the matched form lower-cased) of what `finditer` finds: `group(1)`
        lower-cased is the alternative found there, with no match object to make."""
        plan = self._plan(text)
        if isinstance(plan, re.Pattern):
            for m in plan.finditer(text):
                yield m.start(), m.end(), m.group(1).lower()
            return
        low, places, english = plan
        alts = self.alts
        for i, _stem, end, k in _hits(low, places, alts, english):
            yield i, end, alts[k]

    def _plan(self, text: str) -> re.Pattern[str] | tuple[str, list[tuple[int, int]], bool]:
        """The regex to run over `text`, or (the text to compare with the alternatives, the
        places found, English?) for `_hits`."""
        if self.lang != "en":
            return text, self._places(text), False
        if not text.isascii() and any(ord(c) > 127 and c.lower() != c.upper() for c in set(text)):
            if self._whole is None:  # cased letters beyond ASCII: the one regex, as before
                self._whole = _build_regex(tuple(self.alts), self.lang)
            return self._whole
        low = text.lower()  # as long as the text: its cased letters are all ASCII
        places = self._places(low)
        folded = self._folded_set
        confirmed = self._confirmed(text)  # a form beyond ASCII is found as re.I folds it
        if confirmed:  # then re.I's own folding, over the forms the text holds
            held = {k for _i, k in places if k not in folded} | set(confirmed)
            return _term_regex(self._in_order(held), self.lang)
        if folded:
            places = [(i, k) for i, k in places if k not in folded]
        return low, places, True


def _automaton(alts: list[str]) -> ahocorasick.Automaton:
    """Every alternative in one Aho-Corasick automaton, valued by (its place in `alts`, its
    length less one): a hit ending at `end` starts at `end - (length - 1)`."""
    finder = ahocorasick.Automaton()
    for k, a in enumerate(alts):
        finder.add_word(a, (k, len(a) - 1))
    if alts:
        finder.make_automaton()
    return finder


@functools.lru_cache(maxsize=1024)  # the few forms beyond ASCII of the glossaries
def _alone(escaped: str) -> re.Pattern[str]:
    """Forms alone (a regex), as re.I folds them: where none is found, the alternation cannot
    match them."""
    return re.compile(escaped, re.I)


def _is_word(c: str) -> bool:
    r"""`[\w-]` of a str regex."""
    return c.isalnum() or c == "_" or c == "-"


def _hits(
    low: str, places: list[tuple[int, int]], alts: list[str], english: bool
) -> Iterator[tuple[int, int, int, int]]:
    """(start, stem end, end, place in `alts`) of what `_build_regex(held, lang).finditer`
    yields over the text (`held`: the alternatives of `places`, in the order of `alts`), without
    compiling it: at each start, left to right, the first alternative there (by its place in
    `alts`) that ends as a word ends (`low`: the text to compare with the lower-cased `alts`, as
    long as the text)."""
    n = len(low)
    pos = 0
    for i, k in sorted(places):
        if i < pos or (english and i > 0 and _is_word(low[i - 1])):
            continue
        stem = i + len(alts[k])
        if not english:
            yield i, stem, stem, k
            pos = stem
            continue
        for ending in ("s", "es", ""):  # a plural ending or none, then a word end
            end = stem + len(ending)
            if low.startswith(ending, stem) and (end == n or not _is_word(low[end])):
                yield i, stem, end, k
                pos = end
                break


def _build_regex(alts: tuple[str, ...], lang: str) -> re.Pattern[str]:
    joined = "|".join(re.escape(f) for f in alts)
    if lang == "en":
        return re.compile(rf"(?<![\w-])({joined})(?:s|es)?(?![\w-])", re.I)
    return re.compile(f"({joined})")


_term_regex = functools.lru_cache(maxsize=256)(_build_regex)  # forms beyond ASCII: rare


def anchor(term: str) -> str:
    """The id of a glossary entry on the glossary page."""
    return "g-" + re.sub(r"\s+", "-", term.strip().lower())


@functools.lru_cache(maxsize=8192)  # terms repeat from release to release
def term_forms(term: str, lang: str) -> tuple[str, tuple[str, ...]] | None:
    """(anchor, lower-cased forms to match) of a current glossary term; None when obsolete."""
    if _OBSOLETE.search(term):
        return None
    forms = []
    for form in _QUALIFIER.sub("", term).split(", " if lang == "en" else "，"):
        form = form.strip()
        if len(form) >= MIN_TERM.get(lang, 2):
            forms.append(form.lower())
    return anchor(term), tuple(forms)


def glossary_anchors(
    entries: Iterable[tuple[str, str]], lang: str
) -> tuple[dict[str, str], dict[str, str]]:
    """(matched form → its entry's anchor, anchor → the entry's text) over a glossary's current
    (not obsolete) terms and their comma variants: what the pages and the pack link."""
    anchors: dict[str, str] = {}
    texts: dict[str, str] = {}
    for term, text in entries:
        found = term_forms(term, lang)
        if found is None:
            continue
        target, forms = found
        texts[target] = text
        for form in forms:
            anchors.setdefault(form, target)
    return anchors, texts


def longest_first(anchors: dict[str, str], lang: str) -> TermPattern | None:
    """The matcher over these forms, the longest tried first; None when there are none."""
    return TermPattern(sorted(anchors, key=len, reverse=True), lang) if anchors else None


def term_uses(
    text: str, pattern: TermPattern | None, anchors: dict[str, str], seen: set[str]
) -> Iterator[tuple[int, int, str]]:
    """(start, end, anchor) of each glossary term's first use in `text` (`seen`: the anchors
    already used before it, updated), in text order."""
    if pattern is None:
        return
    for start, end, form in pattern.uses(text):
        target = anchors.get(form)
        if target is None or target in seen:
            continue
        seen.add(target)
        yield start, end, target
