"""Glossary terms found in a text: each current term's first use, matched as the rules write it
(English case-insensitively at word edges with a plural ending, Chinese as written). A term the
glossary defines as a subtype (Aura, Case, Class, Saga, Plains…) is a name: the rules always
write it capitalised, so it is matched only so ("Case", not the "case" of "in that case"). An
adjective the glossary defines by what it qualifies ("Modified: A modified creature is a creature
…", "Limited: A way of playing …") is matched only before that ("modified permanents", "limited
play"), not as the everyday word ("are modified by", "aren't limited to"): see `qualified`.

Shared by the service's rule pages (crkb/web/render.py) and the offline pack (crkb/export/links.py),
which link the same words to the same entries.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping

import ahocorasick

_OBSOLETE = re.compile(r"\(obsolete\)|（已废止）|（已废除）|（过时）", re.I)
_QUALIFIER = re.compile(r"\s*[(（][^)）]*[)）]\s*$")
MIN_TERM = {"en": 4, "zh": 2}
# What a glossary definition (each sense of it) says of a name: a subtype, which the rules
# always write capitalised (card types, supertypes and keywords they write in lower case)
_KINDS = r"(?:artifact|enchantment|battle|creature|land|basic land|planeswalker|spell|planar|plane)"
_IS_SUBTYPE = re.compile(
    rf"^(?:\S+ is )?(?:an?|one of the(?: five)?) {_KINDS} (?:sub)?types?\b", re.I
)
_SENSE = re.compile(r"^\s*\d+\.\s+", re.M)  # "1. …\n2. …": a definition of several senses
# A definition that defines an adjective by the phrase it makes ("A modified creature is a
# creature that …"), or a way of playing (a format: "A way of playing in which …"), and what a
# way of playing is said of: the play itself, a game, a deck or a format played that way
_QUALIFIES = re.compile(r"^An? (?P<adj>[\w-]+) (?P<noun>\w+) is an? (?P=noun)\b")
_WAY_OF_PLAYING = re.compile(r"^A way of playing\b")
PLAYED = ("play", "game", "deck", "format")


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
    matches there, in English case-insensitively (a name, a form with capitals, exactly as
    written), at a word start, with an optional plural ending, at a word end. Which terms a
    text holds at all is one pass of an Aho-Corasick automaton over it (a substring test per
    term was a fifth of an old page's rendering)."""

    def __init__(self, alts: list[str], lang: str) -> None:
        self.lang = lang
        # lower-cased forms and names as written, longest first: the order of the alternation
        self.alts = alts
        self._names = frozenset(k for k, a in enumerate(alts) if lang == "en" and a != a.lower())
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
        return [(end - size, k) for end, (ks, size) in self._finder.iter(text) for k in ks]

    def _in_order(self, held: set[int]) -> tuple[str, ...]:
        return tuple(self.alts[k] for k in sorted(held))

    def _confirmed(self, text: str) -> list[int]:
        """The forms beyond ASCII found in `text` as re.I folds them (one search when none is)."""
        if not self._folded:
            return []
        if self._any_folded is None:
            self._any_folded = _alone("|".join(_escaped(self.alts[k]) for k in self._folded))
        if self._any_folded.search(text) is None:
            return []
        return [k for k in self._folded if _alone(_escaped(self.alts[k])).search(text)]

    def finditer(self, text: str) -> Iterator[re.Match[str] | Found]:
        plan = self._plan(text)
        if isinstance(plan, re.Pattern):
            return plan.finditer(text)
        low, places, english = plan
        return (
            Found(text, i, stem, end)
            for i, stem, end, _k in _hits(text, low, places, self.alts, self._names, english)
        )

    def uses(self, text: str) -> Iterator[tuple[int, int, str]]:
        """(start, end, the matched form lower-cased) of what `finditer` finds: `group(1)`
        lower-cased is the alternative found there, with no match object to make."""
        plan = self._plan(text)
        if isinstance(plan, re.Pattern):
            names = {self.alts[k] for k in self._names}
            for m in plan.finditer(text):
                form = m.group(1)
                yield m.start(), m.end(), form if form in names else form.lower()
            return
        low, places, english = plan
        alts = self.alts
        for i, _stem, end, k in _hits(text, low, places, alts, self._names, english):
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
    """Every alternative (lower-cased: a name is found in the lower-cased text too, then
    checked) in one Aho-Corasick automaton, valued by (its places in `alts`, its length less
    one): a hit ending at `end` starts at `end - (length - 1)`."""
    places: dict[str, list[int]] = {}  # "case" and "Case" are one word to find
    for k, a in enumerate(alts):
        places.setdefault(a.lower(), []).append(k)
    finder = ahocorasick.Automaton()
    for low, ks in places.items():
        finder.add_word(low, (tuple(ks), len(low) - 1))
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
    text: str,
    low: str,
    places: list[tuple[int, int]],
    alts: list[str],
    names: frozenset[int],
    english: bool,
) -> Iterator[tuple[int, int, int, int]]:
    """(start, stem end, end, place in `alts`) of what `_build_regex(held, lang).finditer`
    yields over `text` (`held`: the alternatives of `places`, in the order of `alts`), without
    compiling it: at each start, left to right, the first alternative there (by its place in
    `alts`) that ends as a word ends (`low`: the text to compare with the lower-cased `alts`, as
    long as the text; `names`: the places of the alternatives `text` must hold as written)."""
    n = len(low)
    pos = 0
    for i, k in sorted(places):
        if i < pos or (english and i > 0 and _is_word(low[i - 1])):
            continue
        if k in names and not text.startswith(alts[k], i):
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


def _escaped(form: str) -> str:
    """A form as a regex to run with re.I: a name (a form with capitals) matched as written."""
    return re.escape(form) if form == form.lower() else f"(?-i:{re.escape(form)})"


def _build_regex(alts: tuple[str, ...], lang: str) -> re.Pattern[str]:
    if lang == "en":
        joined = "|".join(_escaped(f) for f in alts)
        return re.compile(rf"(?<![\w-])({joined})(?:s|es)?(?![\w-])", re.I)
    return re.compile("({})".format("|".join(re.escape(f) for f in alts)))


_term_regex = functools.lru_cache(maxsize=256)(_build_regex)  # forms beyond ASCII: rare


def anchor(term: str) -> str:
    """The id of a glossary entry on the glossary page."""
    return "g-" + re.sub(r"\s+", "-", term.strip().lower())


def is_name(term: str, definition: str, lang: str) -> bool:
    """Whether a glossary term is a name the rules write capitalised: an English term whose
    definition says, in each of its senses, that it is a subtype ("An enchantment subtype.",
    "One of the five basic land types.", "Each one has the Aura and Role subtypes", "Some
    artifacts have the subtype “Equipment.”"). Card types, supertypes and keywords the rules
    write in lower case ("a creature", "legendary", "trample"); a sense that is not a subtype
    ("Room: 1. A subsection of a dungeon card.") keeps a term matched in either case."""
    return lang == "en" and "type" in definition and _says_subtype(term, definition)


@functools.lru_cache(maxsize=1024)  # the few definitions that speak of types, release to release
def _says_subtype(term: str, definition: str) -> bool:
    name = re.escape(_QUALIFIER.sub("", term).strip())
    named = re.compile(
        rf"(?:\bthe|\band|\bor|,) {name} (?:{_KINDS} )?(?:sub)?types?\b|the subtype \W?{name}\b"
    )
    senses = [s for s in _SENSE.split(definition) if s.strip()]
    return bool(senses) and all(_IS_SUBTYPE.search(s) or named.search(s) for s in senses)


@functools.lru_cache(maxsize=8192)  # terms repeat from release to release
def term_forms(term: str, lang: str, name: bool = False) -> tuple[str, tuple[str, ...]] | None:
    """(anchor, forms to match) of a current glossary term, lower-cased, or as written when the
    term is a `name` (see `is_name`); None when obsolete."""
    if _OBSOLETE.search(term):
        return None
    forms = []
    for form in _QUALIFIER.sub("", term).split(", " if lang == "en" else "，"):
        form = form.strip()
        if len(form) >= MIN_TERM.get(lang, 2):
            forms.append(form if name else form.lower())
    return anchor(term), tuple(forms)


def qualified(term: str, definition: str, glossary: Mapping[str, str]) -> tuple[str, ...]:
    """The nouns an English adjective term is the game term before, as the glossary defines it;
    () for a term met alone. "Modified: A modified creature is a creature that …": the noun of
    its own phrase, then what the glossary says that noun is ("Creature: … A creature is a
    permanent."), so "modified creatures", "modified permanents" and not "modified by",
    "a modified rule" or "a modified event". "Limited: A way of playing …": a format, said of
    the play, a game, a deck or a format (`PLAYED`), so "limited play", "a Limited format" and
    not "limited to", "a limited duration". `glossary`: lower-cased term → definition."""
    word = term.strip().lower()
    if " " in word:
        return ()
    m = _QUALIFIES.match(definition)
    if m is not None and m["adj"].lower() == word:
        nouns = [m["noun"].lower()]
        while (kind := _kind_of(nouns[-1], glossary)) is not None and kind not in nouns:
            nouns.append(kind)
        return tuple(nouns)
    return PLAYED if _WAY_OF_PLAYING.match(definition) else ()


def _kind_of(noun: str, glossary: Mapping[str, str]) -> str | None:
    """What the glossary says a noun is: "Creature: A card type. A creature is a permanent." """
    m = re.search(rf"\bAn? {re.escape(noun)} is an? (\w+)\.", glossary.get(noun, ""))
    return m.group(1).lower() if m else None


def qualifying_nouns(entries: Iterable[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """English term (as written) → the nouns it is met before (`qualified`), for each adjective
    term of a glossary; the term is met as "<term> <noun>" ("modified creature")."""
    listed = list(entries)
    glossary = {term.strip().lower(): text for term, text in listed}
    out: dict[str, tuple[str, ...]] = {}
    for term, text in listed:
        nouns = qualified(term, text, glossary)
        if nouns:
            out[term] = nouns
    return out


def glossary_anchors(
    entries: Iterable[tuple[str, str]], lang: str
) -> tuple[dict[str, str], dict[str, str]]:
    """(matched form → its entry's anchor, anchor → the entry's text) over a glossary's current
    (not obsolete) terms and their comma variants: what the pages and the pack link. A form is
    lower-cased, or as written for a name (`is_name`); an adjective term's forms are the phrases
    it makes with the nouns it qualifies (`qualifying_nouns`: "modified creature")."""
    anchors: dict[str, str] = {}
    texts: dict[str, str] = {}
    listed = list(entries)
    nouns = qualifying_nouns(listed) if lang == "en" else {}
    for term, text in listed:
        found = term_forms(term, lang, is_name(term, text, lang))
        if found is None:
            continue
        target, forms = found
        texts[target] = text
        qualifies = nouns.get(term)
        if qualifies:
            forms = tuple(f"{form} {noun}" for form in forms for noun in qualifies)
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
    already used before it, updated), in text order. An adjective's phrase ("modified
    permanents", `glossary_anchors`) is the adjective's use; the noun after it is a use of its
    own term."""
    if pattern is None:
        return
    for start, end, form in pattern.uses(text):
        target = anchors.get(form)
        if target is None:
            continue
        adjective, _, noun = form.partition(" ")
        if noun and target == anchor(adjective):  # "modified creature": a form of Modified
            head = start + len(adjective)
            if target not in seen:
                seen.add(target)
                yield start, head, target
            for a, b, other in term_uses(text[head:end], pattern, anchors, seen):
                yield head + a, head + b, other
            continue
        if target in seen:
            continue
        seen.add(target)
        yield start, end, target
