"""Which release a copied rules text comes from, so a judge with a printout knows if it is current.

A readable copy is matched rule by rule (same number, same text up to whitespace and quotes)
against every version of its language. A garbled copy (spaces and digits stripped), or a quote
without rule numbers, is matched by letters-only fingerprints of rule texts (`garbled` says what
the text shows, mojibake or glued words, never the mere lack of numbers); a copy in another
language by the rule numbers it holds and the cross-references that stay readable. Each version
gets one score; the best-scoring versions are the answer. The per-language index is built on
first use and kept in memory.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cachetools import LRUCache

from crkb.diff.lookup import lineage
from crkb.diff.match import match_rules
from crkb.errors import BadInput, NotARulesDocument, NotFound
from crkb.model import Document, ParseResult
from crkb.numbers import sort_key
from crkb.sources.reader import read_bytes
from crkb.sources.script import simplified_copy
from crkb.sources.webcopy import GLUED_SHARE, glued_runs
from crkb.store import reads
from crkb.store.db import Store

Runs = list[tuple[int, int]]  # inclusive (first, last) version indexes

_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "″": '"', "‘": "'", "’": "'", "′": "'"})
_SPACE = re.compile(r"\s+")
_NOT_LATIN = re.compile(r"[^A-Za-z]+")
_NOT_CJK = re.compile(r"[^\u4e00-\u9fff]+")
_RULE_AT_START = re.compile(r"^[\s•·*\-–]*(\d{3}\.\d+[a-z]?|\d{3})\.?(?=\s|[A-Z]|$)", re.M)
_NUMBERED = re.compile(r"(?<![\w.])\d{3}(?:\.\d+[a-z]?)?\.?(?!\w)")
_CITE = re.compile(r"(?<![\d.])([1-9]\d{2}(?:\.\d+[a-z]?)?)(?![\d])")
# UTF-8 read as a one-byte code page: a lead byte's letter (Â … ï) before what the code page
# makes of a continuation byte (0x80–0xBF): "can’t" → "canâ€™t", "é" → "Ã©", "规" → "è§„".
_MOJIBAKE = re.compile("[\u00c2-\u00ef][\u0080-\u009f\u00a1-\u00bf€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]")
_LANG_CODES = {
    "English": "en",
    "Chinese": "zh",
    "Malay": "ms",
    "Indonesian": "id",
    "Spanish": "es",
    "French": "fr",
    "German": "de",
    "Italian": "it",
    "Portuguese": "pt",
    "Japanese": "ja",
    "Korean": "ko",
    "Russian": "ru",
}
# A fingerprint shorter than this (in letters) is too common to say anything about a release.
MIN_FINGERPRINT = {"en": 24, "zh": 10}
_ANCHOR = {"en": 16, "zh": 6}
MIN_PART = 40  # characters of a rule quoted in part that name it (a sentence, not a phrase)
# Letters of an unnumbered quote that is part of one rule's text, not a phrase many rules use.
MIN_QUOTED = {"en": 60, "zh": 20}
_CACHE_SIZE = 4


def spaced(text: str) -> str:
    """Text with whitespace collapsed and ends trimmed (what every copy loses)."""
    return _SPACE.sub(" ", text).strip()


def quote_style(text: str) -> int:
    """+1 when a text writes typographic apostrophes/quotes, -1 typewriter ones, 0 neither."""
    curly = sum(text.count(c) for c in "’‘“”")
    straight = text.count("'") + text.count('"')
    return (curly > straight) - (straight > curly)


def normalise(text: str) -> str:
    """Text compared across copies: quotes unified, whitespace collapsed, ends trimmed."""
    return _SPACE.sub(" ", text.translate(_QUOTES)).strip()


def quotes(copied: str, text: str) -> bool:
    """True when `copied` is the rule text `text`, or a part of it long enough to name it (at
    least MIN_PART characters)."""
    part, full = normalise(copied), normalise(text)
    return part == full or (len(part) >= MIN_PART and part in full)


def letters(text: str, lang: str) -> str:
    """Letters-only fingerprint: what survives a copy that stripped spaces, digits, punctuation."""
    return (_NOT_CJK if lang == "zh" else _NOT_LATIN).sub("", text)


def looks_garbled(text: str) -> bool:
    """A copy damaged in a way its own text shows, however short: mojibake (UTF-8 read as a
    code page), or most of its letters in runs glued together by a site that strips spaces.
    A clean quote of one rule is not garbled for holding no rule number."""
    if _MOJIBAKE.search(text):
        return True
    total, runs = glued_runs(text)
    return total > 0 and sum(map(len, runs)) / total > GLUED_SHARE


def _runs(versions: list[int]) -> Runs:
    """Ascending version indexes → inclusive (first, last) runs of consecutive ones."""
    out: list[tuple[int, int]] = []
    for vi in versions:
        if out and out[-1][1] == vi - 1:
            out[-1] = (out[-1][0], vi)
        else:
            out.append((vi, vi))
    return out


@dataclass
class LangIndex:
    """Every version of one language as distinct (number, text) pairs with their version runs."""

    lang: str
    versions: list[str]
    texts: dict[tuple[str, str], Runs] = field(default_factory=dict)  # (number, text) → runs
    kinds: dict[str, str] = field(default_factory=dict)
    norm_ids: dict[str, int] = field(default_factory=dict)
    spaced_ids: dict[str, int] = field(default_factory=dict)
    by_number: dict[str, dict[int, Runs]] = field(default_factory=dict)  # number → text id → runs
    exact: dict[str, dict[int, Runs]] = field(default_factory=dict)  # same, quotes kept
    presence: dict[str, Runs] = field(default_factory=dict)
    order: list[tuple[tuple[int, int, int, int], str]] = field(default_factory=list)
    _fingerprints: dict[str, list[tuple[str, int, Runs]]] | None = None
    _anchors: dict[str, list[str]] | None = None
    _refs: dict[tuple[str, str], Runs] | None = None
    _store: Store | None = None
    _texts_of: dict[str, list[tuple[str, Runs]]] | None = None

    def texts_of(self, number: str) -> list[tuple[str, Runs]]:
        """The distinct texts a number has had (normalised), with their version runs."""
        if self._texts_of is None:
            self._texts_of = {}
            for (n, text), runs in self.texts.items():
                self._texts_of.setdefault(n, []).append((normalise(text), runs))
        return self._texts_of.get(number, [])

    def numbers_between(self, lo: str, hi: str) -> list[str]:
        """Every number ever used between two numbers (inclusive), in document order."""
        i = bisect_left(self.order, (sort_key(lo), ""))
        j = bisect_right(self.order, (sort_key(hi), "\uffff"))
        return [n for _, n in self.order[i:j]]

    def fingerprints(
        self,
    ) -> tuple[dict[str, list[tuple[str, int, Runs]]], dict[str, list[str]]]:
        """Fingerprint → [(number, quote style, runs)], and anchor prefix → fingerprints."""
        if self._fingerprints is None:
            fps: dict[str, list[tuple[str, int, Runs]]] = {}
            least = MIN_FINGERPRINT[self.lang]
            for (number, text), runs in self.texts.items():
                # Titles are left out: cross-references quote them ("See rule 603, “…”").
                if self.kinds.get(number) in ("chapter", "section"):
                    continue
                fp = letters(text, self.lang)
                if len(fp) >= least:
                    fps.setdefault(fp, []).append((number, quote_style(text), runs))
            k = _ANCHOR[self.lang]
            anchors: dict[str, list[str]] = {}
            for fp in fps:
                anchors.setdefault(fp[:k], []).append(fp)
            self._fingerprints, self._anchors = fps, anchors
        assert self._anchors is not None
        return self._fingerprints, self._anchors

    def refs(self) -> dict[tuple[str, str], Runs]:
        """(source rule, target) → version runs where that rule cites that target."""
        if self._refs is None:
            assert self._store is not None
            vindex = {v: i for i, v in enumerate(self.versions)}
            seen: dict[tuple[str, str], list[int]] = {}
            for doc, version in reads.documents(self._store, self.lang):
                vi = vindex[version]
                for pair in reads.citation_pairs(self._store, doc):
                    seen.setdefault(pair, []).append(vi)
            self._refs = {pair: _runs(vis) for pair, vis in seen.items()}
        return self._refs


def build_index(store: Store, lang: str, versions: Sequence[str]) -> LangIndex:
    """Read every rule of one language once; keep each distinct (number, text) with its runs."""
    idx = LangIndex(lang=lang, versions=list(versions), _store=store)
    vindex = {v: i for i, v in enumerate(idx.versions)}
    texts: dict[tuple[str, str], list[int]] = {}
    for doc, version in reads.documents(store, lang):
        vi = vindex[version]
        numbers: set[str] = set()
        for number, kind, text in reads.rule_texts(store, doc):
            if number in numbers:  # a doubled number: the first one is the rule
                continue
            numbers.add(number)
            idx.kinds[number] = kind
            texts.setdefault((number, text), []).append(vi)
    presence: dict[str, list[int]] = {}
    by_number: dict[str, dict[int, list[int]]] = {}
    exact: dict[str, dict[int, list[int]]] = {}
    for (number, text), vis in texts.items():
        idx.texts[(number, text)] = _runs(vis)
        nid = idx.norm_ids.setdefault(normalise(text), len(idx.norm_ids))
        sid = idx.spaced_ids.setdefault(spaced(text), len(idx.spaced_ids))
        by_number.setdefault(number, {}).setdefault(nid, []).extend(vis)
        exact.setdefault(number, {}).setdefault(sid, []).extend(vis)
        presence.setdefault(number, []).extend(vis)
    idx.by_number = {n: {t: _runs(sorted(v)) for t, v in d.items()} for n, d in by_number.items()}
    idx.exact = {n: {t: _runs(sorted(v)) for t, v in d.items()} for n, d in exact.items()}
    idx.presence = {n: _runs(sorted(v)) for n, v in presence.items()}
    idx.order = sorted((sort_key(n), n) for n in idx.presence)
    return idx


_INDEXES: LRUCache[tuple[str, str], LangIndex] = LRUCache(maxsize=_CACHE_SIZE)


def index_for(store: Store, lang: str) -> LangIndex | None:
    """The (cached) index of one language of a store; None when the store has no such text."""
    key = (str(store.path), lang)
    idx = _INDEXES.get(key)
    if idx is not None:
        return idx
    versions = store.version_ids(lang)
    if not versions:
        return None
    idx = _INDEXES[key] = build_index(store, lang, versions)
    return idx


# scoring --------------------------------------------------------------------------------------
class _Tally:
    """Per-version counters filled by adding +w over runs of versions (a difference array)."""

    def __init__(self, size: int):
        self.diff = [0] * (size + 1)

    def add(self, runs: Iterable[tuple[int, int]], w: int = 1) -> None:
        for first, last in runs:
            self.diff[first] += w
            self.diff[last + 1] -= w

    def values(self) -> list[int]:
        out, acc = [], 0
        for d in self.diff[:-1]:
            acc += d
            out.append(acc)
        return out


@dataclass
class Fit:
    """How well one language of a copy fits every version: score and matched rules per version."""

    lang: str
    versions: list[str]
    scores: list[tuple[int, int]]  # (fit, tie-breaker): compared as tuples
    matched: list[int]
    rules: int  # rules of the copy that were compared
    method: str  # "text", "fingerprint", "structure"
    found: dict[int, list[str]] = field(default_factory=dict)  # fingerprint: version → numbers

    def best(self) -> list[int]:
        """Indexes of the best-scoring versions that any rule of the copy matched (empty when
        nothing matched at all): a version none of it matched is no fit, however it scores."""
        some = [i for i, m in enumerate(self.matched) if m > 0]
        if not some:
            return []
        top = max(self.scores[i] for i in some)
        return [i for i in some if self.scores[i] == top]


def blocks(numbers: Iterable[str]) -> list[tuple[str, str]]:
    """The copy's stretches: runs of numbers in adjacent sections, as (first, last) numbers.

    A version holding a rule inside a stretch that the copy lacks fits it less well; a quote of
    two far-apart rules says nothing about what lies between them.
    """
    out: list[list[str]] = []
    last_section = -9
    for n in sorted((n for n in numbers if len(n) >= 3), key=sort_key):
        section = int(n[:3])
        if out and section - last_section <= 1:
            out[-1][1] = n
        else:
            out.append([n, n])
        last_section = section
    return [(a, b) for a, b in out]


# A stretch whose numbers the copy holds fewer than one in this many of is quoted rules, not an
# excerpt: 702.9a and 702.90a say nothing of the eighty rules between them.
SPARSE = 5


def _lacked(idx: LangIndex, numbers: set[str]) -> Iterator[str]:
    """The numbers inside the copy's stretches that the copy lacks, in any version; none of a
    sparse stretch (`SPARSE`)."""
    for lo, hi in blocks(numbers):
        between = idx.numbers_between(lo, hi)
        lacked = [n for n in between if n not in numbers]
        if (len(between) - len(lacked)) * SPARSE >= len(between):
            yield from lacked


def _penalise_missing(idx: LangIndex, numbers: set[str], tally: _Tally) -> None:
    """Count, per version, the rules inside the copy's stretches that the copy lacks."""
    for n in _lacked(idx, numbers):
        tally.add(idx.presence[n], -1)


def _missing_at(idx: LangIndex, numbers: set[str], vi: int) -> int:
    """The same count for one version (when the copy's numbers differ from version to version)."""
    return sum(1 for n in _lacked(idx, numbers) if any(a <= vi <= b for a, b in idx.presence[n]))


def fit_text(idx: LangIndex, rules: Sequence[tuple[str, str]]) -> Fit:
    """Score (number, text) pairs of a readable copy against every version of `idx`."""
    size = len(idx.versions)
    matched, exact = _Tally(size), _Tally(size)
    for number, text in rules:
        nid = idx.norm_ids.get(normalise(text))
        if nid is not None:
            matched.add(idx.by_number.get(number, {}).get(nid, []))
        elif len(part := normalise(text)) >= MIN_PART:  # quoted in part: its first sentence
            for full, runs in idx.texts_of(number):
                if part in full:
                    matched.add(runs)
        # equal with its own quotes: breaks ties between quote styles, for curly ones only (a web
        # page or an editor straightens quotes; none curls the straight ones of a release)
        sid = idx.spaced_ids.get(spaced(text)) if quote_style(text) >= 0 else None
        if sid is not None:
            exact.add(idx.exact.get(number, {}).get(sid, []))
    penalty = _Tally(size)
    _penalise_missing(idx, {n for n, _ in rules}, penalty)
    m = matched.values()
    scores = [(a + b, c) for a, b, c in zip(m, penalty.values(), exact.values(), strict=True)]
    return Fit(idx.lang, idx.versions, scores, m, len(rules), "text")


def fit_fingerprints(idx: LangIndex, text: str) -> Fit:
    """Score a garbled text by which rule texts, letters only, occur in its letters."""
    fps, anchors = idx.fingerprints()
    blob = letters(text, idx.lang)
    k = _ANCHOR[idx.lang]
    hits: set[str] = set()
    for i in range(len(blob) - k + 1):
        for fp in anchors.get(blob[i : i + k], ()):
            if fp not in hits and blob.startswith(fp, i):
                hits.add(fp)
    quoted = letters(_NUMBERED.sub(" ", text), idx.lang)  # a subrule's letter is no word
    if not hits and len(quoted) >= MIN_QUOTED[idx.lang]:
        # no whole rule in it: a sentence or two quoted from one (one scan of the texts)
        hits = {fp for fp in fps if quoted in fp}
    matched, quotes = _Tally(len(idx.versions)), _Tally(len(idx.versions))
    style = quote_style(text)
    per_version: dict[int, list[str]] = {}
    for fp in hits:
        for number, q, runs in fps[fp]:
            matched.add(runs)
            quotes.add(runs, q * style)  # the copy's quote style, where it has one, agrees
            for first, last in runs:
                for vi in range(first, last + 1):
                    per_version.setdefault(vi, []).append(number)
    m, agree = matched.values(), quotes.values()
    scores = [
        (m[vi] - _missing_at(idx, set(per_version[vi]), vi), agree[vi])
        if vi in per_version
        else (0, 0)
        for vi in range(len(idx.versions))
    ]
    return Fit(idx.lang, idx.versions, scores, m, len(hits), "fingerprint", per_version)


def structure_of(text: str) -> tuple[list[str], list[tuple[str, str]]]:
    """Rule numbers that start lines, and (rule, cited number) pairs, of a text in any language."""
    numbers: list[str] = []
    refs: list[tuple[str, str]] = []
    for line in text.split("\n"):
        m = _RULE_AT_START.match(line)
        if not m:
            continue
        number = m.group(1)
        numbers.append(number)
        refs.extend((number, c) for c in _CITE.findall(line[m.end() :]) if c != number)
    return numbers, refs


def fit_structure(idx: LangIndex, numbers: Sequence[str], refs: Sequence[tuple[str, str]]) -> Fit:
    """Score a copy by the rule numbers it holds and the cross-references it keeps."""
    size = len(idx.versions)
    matched = _Tally(size)
    have = set(numbers)
    for n in have:
        matched.add(idx.presence.get(n, []))
    table = idx.refs()
    for pair in set(refs):
        matched.add(table.get(pair, []))
    penalty = _Tally(size)
    _penalise_missing(idx, have, penalty)
    m = matched.values()
    scores = [(a + b, 0) for a, b in zip(m, penalty.values(), strict=True)]
    return Fit(idx.lang, idx.versions, scores, m, len(have) + len(set(refs)), "structure")


# the answer -----------------------------------------------------------------------------------
def _choose(fits: list[Fit]) -> tuple[Fit, list[str]]:
    """The versions every language agrees on when they agree, else the best-matched language's."""
    fits = [f for f in fits if f.best()]
    if not fits:
        raise BadInput("no rule of this text matches any release in the store")
    main = max(fits, key=lambda f: (max(f.matched), max(f.matched) / max(1, f.rules)))
    chosen = [main.versions[i] for i in main.best()]
    common = set(chosen)
    for f in fits:
        if f is not main:
            common &= {f.versions[i] for i in f.best()}
    return main, sorted(common) if common else chosen


def _followed(
    store: Store, lang: str, version: str, numbers: Iterable[str], latest: str
) -> dict[str, str | None] | None:
    """Each number's number in `latest` by the lineage the build matched release to release
    (None: the rule is gone), so a rule renumbered across chapters (502.9b → 702.19b) is still
    found; None when either release is outside the lineage (a partial copy)."""
    try:
        line = lineage(store, lang)
    except NotFound:
        return None
    if version not in line.texts or not line.versions or line.versions[-1] != latest:
        return None
    return {n: line.locate(n, version) for n in numbers}


def _matched(
    store: Store, lang: str, version: str, numbers: Iterable[str], latest: str
) -> dict[str, str]:
    """The same by matching the two releases directly, within the copy's chapters."""
    chapters = {n[0] for n in numbers}
    return match_rules(
        [r for r in store.document(version, lang).rules if r.number[0] in chapters],
        [r for r in store.document(latest, lang).rules if r.number[0] in chapters],
    )


def _changed(
    store: Store, lang: str, version: str, copy: dict[str, str], latest: str
) -> list[dict[str, str | bool | None]]:
    """Rules of the copy whose text or number is different in the newest release (following
    renumbering): a rule renumbered with its text unchanged is listed too, since its number in
    the copy may now name another rule. `kind` is as `crkb diff` says it: `changed` (same
    number, new text), `moved` (new number, same text), `moved_changed` or `removed`;
    `number_reused`: the copy's number names another rule in the newest release."""
    new_doc = store.document(latest, lang)
    mapping: dict[str, str | None] = {n: n for n in copy}  # numbers the old release lacks
    if version != latest:
        old_numbers = {r.number for r in store.document(version, lang).rules}
        held = [n for n in copy if n in old_numbers]
        for n in held:
            del mapping[n]
        followed = _followed(store, lang, version, held, latest)
        if followed is None:
            mapping.update(_matched(store, lang, version, copy, latest))
        else:
            mapping.update(followed)
    now = new_doc.rule_map()
    out = []
    for number in sorted(copy, key=sort_key):
        new_number = mapping.get(number)
        new = now.get(new_number) if new_number else None
        same_text = new is not None and quotes(copy[number], new.text)
        if new is None:
            kind = "removed"
        elif new.number == number:
            if same_text:
                continue
            kind = "changed"
        else:
            kind = "moved" if same_text else "moved_changed"
        out.append(
            {
                "number": number,
                "number_now": new.number if new else None,
                "kind": kind,
                "number_reused": kind != "changed" and number in now,
                "old_text": copy[number],
                "new_text": new.text if new else None,
            }
        )
    return out


def _rules_of(docs: Iterable[Document]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for d in docs:
        rules = out.setdefault(d.lang, {})
        for r in d.rules:
            rules.setdefault(r.number, r.text)
    return out


def _first_method(read: ParseResult | None) -> str:
    """How a copy is matched against the store first, decided by what reading it found alone: a
    copy that lost its numbers and spaces, or with no numbered rules at all (a quoted paragraph,
    a garbled copy: `read` is None), by its letters ("fingerprint"); one read into rules, by
    their text ("text"); one read without any (another language), by its rule numbers and the
    references it keeps ("structure")."""
    if read is None or read.garbled:
        return "fingerprint"
    return "text" if read.documents else "structure"


def _fits(method: str, store: Store, text: str, copies: dict[str, dict[str, str]]) -> list[Fit]:
    """The copy's fits by one method, for each language of the store it is compared with."""
    fits: list[Fit] = []
    if method == "text":
        for lang, rules in copies.items():
            if (idx := index_for(store, lang)) is not None:
                fits.append(fit_text(idx, list(rules.items())))
    elif method == "structure":
        numbers, refs = structure_of(text)
        if (idx := index_for(store, "en")) is not None and numbers:
            fits.append(fit_structure(idx, numbers, refs))
    else:
        for lang in ("en", "zh"):
            if (idx := index_for(store, lang)) is not None:
                fits.append(fit_fingerprints(idx, text))
    return fits


def simplified(text: str, to_simplified: Callable[[str], str] | None = None) -> str:
    """A copy in Traditional characters in the Simplified ones the translation is written in;
    any other text as it is. `to_simplified`: OpenCC's t2s by default."""
    return simplified_copy(text, to_simplified) or text


def identify_text(text: str, store: Store, *, source: str = "<text>") -> dict[str, Any]:
    """Which version(s) a copied text fits best, how many rules matched, what changed since."""
    text = simplified(text)
    read: ParseResult | None
    try:
        read = read_bytes(text.encode("utf-8"), source)
    except NotARulesDocument:
        read = None
    language = read.language if read is not None else None
    garbled = (read is not None and read.garbled) or looks_garbled(text)
    method = _first_method(read)
    copies = _rules_of(read.documents) if read is not None and method == "text" else {}
    fits = _fits(method, store, text, copies)
    if method == "text" and not any(f.best() for f in fits):
        # mojibake spoils every quote mark of a numbered copy, and a rule quoted under a wrong
        # number matches no text of that number; their letters still match
        fits += _fits("fingerprint", store, text, copies)
    if not fits:
        raise BadInput(f"{source}: no rules found to compare with the store")
    try:
        main, versions = _choose(fits)
    except BadInput as e:
        raise BadInput(f"{source}: {e}") from None
    at = main.versions.index(versions[-1])
    lang = main.lang
    if main.method == "fingerprint":
        doc = store.document(versions[-1], lang)
        numbers_found = set(main.found.get(at, []))
        copy = {r.number: r.text for r in doc.rules if r.number in numbers_found}
    elif main.method == "structure":
        doc = store.document(versions[-1], lang)
        copy = {r.number: r.text for r in doc.rules if r.number in set(structure_of(text)[0])}
    else:
        copy = copies[lang]
    latest = store.version_ids(lang)[-1]
    out_lang = _LANG_CODES.get(language or "", lang) if main.method == "structure" else lang
    return {
        "lang": out_lang,
        "versions": versions,
        "rules_matched": main.matched[at],
        "changed_since": _changed(store, lang, versions[-1], copy, latest),
        "latest": latest,
        "method": main.method,
        "language": language,
        "garbled": garbled,
        "rules": main.rules,
    }
