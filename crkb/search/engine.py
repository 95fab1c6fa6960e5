"""Answers search queries over the index: rule numbers, glossary terms and keywords, then text."""

from __future__ import annotations

import bisect
import json
import math
import pickle
import re
import struct
import sys
import threading
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NamedTuple, TypeVar

import numpy as np
from cachetools import LRUCache

from crkb.errors import BadInput, NotFound, StoreError
from crkb.markup import merged_html
from crkb.numbers import parent_of, sort_key
from crkb.search import (
    analysis,
    bridge,
    forest,
    highlight,
    mixed,
    names,
    numerals,
    players,
    postings,
    querynumbers,
    ranking,
    sounds,
    synonyms,
    topics,
    weights,
)
from crkb.search.analysis import STOP_WORDS as STOP
from crkb.search.index import FORMAT, META, USERDICT
from crkb.search.postings import EMPTY_DOCS, EMPTY_FREQS, FloatArray, IntArray
from crkb.search.question import (
    ASK_CAN_EN,
    ZH_FILLER,
    ZH_SOFT,
    Term,
    Understood,
    asking_en,
    asks_can_zh,
    known_words,
    negation_pairs,
    quoted_en,
    understand_en,
    understand_zh,
)
from crkb.search.scoring import Mask, Scorer
from crkb.search.spelling import Speller
from crkb.store.location import TERMS_FILE
from crkb.store.wordfreq import FREQ_NAME

MAX_QUERY = 200
MAX_LIMIT = 100
_REBUILD = "rebuild it with `crkb build`"
TERMS_BESIDE = TERMS_FILE  # the build's term dictionary, written beside the index
# What Whoosh raises reading a damaged block of the index (zlib, struct, pickle, short reads).
_DAMAGE = (OSError, EOFError, struct.error, zlib.error, pickle.UnpicklingError, UnicodeDecodeError)
DEFINES_ZH = ("为", "是", "指")
DETERMINERS = frozenset(["a", "an", "the", "one", "any", "each"])


Ranges = tuple[tuple[int, int], ...]  # inclusive runs of version ordinals
Record = tuple[str, str, Ranges]  # (lang, number, version ranges) of one indexed document
Fields = dict[str, tuple[float, float]]  # field → (BM25 boost, share of a match it counts as)
# The rule's own text and title count whole; its parent's title less; its examples half.
EN_FIELDS: Fields = {"body": (1.0, 1.0), "etitle": (1.5, 1.0), "ex": (0.3, 0.5), "ctx": (0.5, 0.8)}
ZH_FIELDS: Fields = {"zw": (1.0, 1.0), "zt": (1.5, 1.0), "zex": (0.3, 0.5), "zctx": (0.5, 0.8)}
ZH_BIGRAMS: Fields = {"zbi": (0.3, 0.0)}
# The words a rule quotes (“you”, “target”), met by the words a query quotes: such a rule
# explains the very word asked about, and shares little else with the question's words.
QUOTED: dict[str, Fields] = {"en": {"quoted": (2.0, 0.0)}, "zh": {"zquoted": (2.0, 0.0)}}
# The questions players were written to ask of each rule (crkb/search/asked.py).
ASKED_FIELD = {"en": "asked", "zh": "zasked"}
ASKED_POOL = 0.5  # their BM25's share in choosing the candidates (beside the rule's own fields)
ASKED_GAIN = 2.0  # what the candidate whose questions the query meets best gains (factor 1 + this)
SECTION = 3.0  # a rule in a section a question's term names
TOPIC = 1.0  # what a rule under a title the query names gains, times the share the title covers
SHORT = 150  # a rule shorter than this many characters is "short" (longer ones less so)
FAVOURED = 2.0  # a rule a question's term names (or a subrule of one), before the text is read
COORD = 3.0  # how sharply a rule that holds fewer of the query's words falls behind
HEADING = 0.25  # what a rule whose text is only its title keeps, as the answer to a question
SPECIFIC = 0.6  # a keyword's or a variant's rule, for a question that names neither
EXPAND = 0.1  # weight of a word taken from a glossary definition of a query's term
RARE = 0.2  # a definition's word used by more than this share of the indexed rules is left out
MAX_EXPAND = 8  # at most so many such words per query
SUBJECT = 6  # a rule is about the words among its first so many
POINTERS = 10  # leading candidates whose references count
POOL = 25  # candidates re-ranked by the signals read from their text
ASKED_TOP = 3  # … with the rules whose players' questions the query meets best
KEPT = 3_500  # a language's newest documents whose stored fields are kept (~1 KB each)
STORED = 1_024  # other documents whose stored fields are kept, the last read
PARENTS = 4_096  # rules whose titled parent is kept
_UNKNOWN = ("", "")  # a rule whose titled parent is not kept yet
K = TypeVar("K")
V = TypeVar("V")


Players = tuple[IntArray, FloatArray]  # documents in ascending order, BM25 of their questions


class Candidates(NamedTuple):
    """What the learned rankings are trained on (Searcher.candidates)."""

    pinned: list[str]
    scored: list[tuple[str, dict[str, float]]]
    terms: int  # the query's content words


class Stored(NamedTuple):
    """What the engine reads of a document's stored fields."""

    text: str
    title: str | None
    number: str
    lang: str
    cur: str | None  # a Chinese rule's number in the English release it was carried to


@dataclass(frozen=True)
class Needles:
    """What to mark in a hit: English words by stem, or substrings (Chinese, rule numbers)."""

    kind: str
    stems: tuple[str, ...] = ()
    subs: tuple[str, ...] = ()


@dataclass
class QueryPlan:
    """How one query is scored: weighted terms over weighted fields, then re-ranking signals."""

    lang: str
    terms: tuple[Term, ...]
    fields: Fields
    near: list[tuple[str, ...]]  # per content term, the forms looked for side by side
    sections: list[str] = field(default_factory=list)
    extra: tuple[Term, ...] = ()
    extra_fields: Fields = field(default_factory=dict)
    wants_number: bool = False
    wants_outcome: bool = False
    wants_zone: bool = False  # "where does it go": a rule that moves a card answers
    question: bool = False
    favoured: list[str] = field(default_factory=list)  # rules a question's term names
    expand: tuple[Term, ...] = ()  # words the glossary defines the query's terms with
    defines: tuple[str, ...] = ()  # the term a question asks about, as the text would hold it
    defines_en: tuple[str, ...] = ()  # a Chinese question's term in English stems (its parallel)
    asks_can: bool = False  # "can …", "能否…": a rule saying what can or can't be done answers
    topics: dict[str, float] = field(default_factory=dict)  # titled rules named → query share
    quoted: tuple[Term, ...] = ()  # single words the query quotes ('who is "you"'), by stem


@dataclass
class Plan:
    """Rules pinned first (rule numbers, terms), the scored query if any, and the highlights."""

    pinned: list[int]
    query: QueryPlan | None
    needles: Needles
    bridge: str = ""  # a Chinese question's words in English, asked of the English text too


def _records(rows: list[list[Any]]) -> list[Record]:
    """meta.json's records, held compactly: each number and each run of versions once (a
    worker keeps ~23k of them; as parsed lists they take ~7 MB, shared tuples ~2 MB)."""
    shared: dict[Ranges, Ranges] = {}
    out: list[Record] = []
    for lang, number, rs in rows:
        ranges = tuple((int(a), int(b)) for a, b in rs)
        out.append((sys.intern(lang), sys.intern(number), shared.setdefault(ranges, ranges)))
    return out


def _in(ranges: Ranges | list[list[int]], o: int) -> bool:
    return any(a <= o <= b for a, b in ranges)


def _most_lift(w_section: float, w_favoured: float, w_topic: float) -> float | None:
    """The most the section, favoured and topic factors can multiply a score by (a topic's
    share is at most 1), or None when a weight below 0 could make one lower it."""
    if min(w_section, w_favoured, w_topic) < 0:
        return None
    lift: float = SECTION**w_section * FAVOURED**w_favoured * (1.0 + TOPIC) ** w_topic
    return lift


def _coord(matched: float, k: float) -> float:
    """Coordination: the share of the query's weight a rule holds, sharpened by COORD."""
    share: float = min(1.0, matched / k) ** COORD
    return 0.2 + 0.8 * share


def _clean(query: object) -> str:
    q = query if isinstance(query, str) else ""
    q = "".join(ch if ch.isprintable() else " " for ch in q[: MAX_QUERY * 2])
    return re.sub(r"\s+", " ", q).strip()[:MAX_QUERY]


class Searcher:
    """An open index: queries in, ranked hits out (the SPEC's search JSON)."""

    def __init__(self, index_dir: Path) -> None:
        import jieba
        from whoosh.filedb.filestore import FileStorage
        from whoosh.scoring import BM25F

        d = Path(index_dir)
        try:
            meta = json.loads((d / META).read_text(encoding="utf-8"))
            words = (d / USERDICT).read_text(encoding="utf-8").split()
        except (OSError, ValueError) as e:
            raise StoreError(f"{d}: no usable search index ({e}); {_REBUILD}") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            found = meta.get("format") if isinstance(meta, dict) else None
            raise StoreError(
                f"{d}: search index built by another version of crkb (format {found!r}, this"
                f" crkb reads {FORMAT}); {_REBUILD}"
            )
        built_with = meta.get("dictionary")
        if analysis.dictionary_hash(sorted(set(words)), jieba.__version__) != built_with:
            raise StoreError(
                f"{d}: the search index was built with another Chinese term dictionary; {_REBUILD}"
            )
        _check_terms(d, meta)
        self.dir = d
        self.words = sorted(set(words))
        self._lock = threading.RLock()
        self._cutter: analysis.ChineseCutter | None = None
        self._sounds: sounds.Sounds | Literal[False] | None = None  # read at the first slip
        self._t2s: Any = None  # opencc.OpenCC, loaded on first use
        self._scopes: LRUCache[tuple[str, int], Mask] = LRUCache(32)
        self._spans: dict[str, np.ndarray] | None = None  # lang → rows (first, last, docnum)
        self._by_number: dict[tuple[str, str], list[int]] = {}
        self._children: dict[tuple[str, str], list[str]] = {}
        try:
            self.versions: dict[str, list[str]] = meta["versions"]
            self.aliases: dict[str, str] = meta["aliases"]
            self.records: list[Record] = _records(meta["records"])
            self.glossary = {lang: _lookup(rows) for lang, rows in meta["glossary"].items()}
            self.titles = {lang: _lookup(rows) for lang, rows in meta["titles"].items()}
            self.zh_to_en: dict[str, str] = meta["terms"]
            # an English term typed in a Chinese query (flying → 飞行); the first translation wins,
            # and the titles of the newest Chinese release and its English text name the rest
            self.en_to_zh = {
                **self._title_terms(),
                **{en: zh for zh, en in reversed(list(self.zh_to_en.items()))},
            }
            self.definitions: dict[str, dict[str, str]] = meta["definitions"]
            self.cited: dict[str, dict[str, int]] = meta["cited"]
            self.bridge: dict[str, list[str]] = meta["bridge"]
            self.speller = Speller(meta["vocab"], analysis.stem, frozenset(meta["english"]))
            self._negations = negation_pairs(meta["vocab"])
            self._former = synonyms.former_names_zh(self.definitions.get("zh", {}))
            # English only: measured, the Chinese classes (区域 for 牌库) cost more than they gave
            self._classes = synonyms.classes(self.definitions.get("en", {}), "en")
            for rid, (lang, number, _r) in enumerate(self.records):
                self._by_number.setdefault((lang, number), []).append(rid)
            for lang, number in self._by_number:
                p = parent_of(number)
                if p is not None:
                    self._children.setdefault((lang, p), []).append(number)
            # Plain reads, not mmap: a mapped index counts whole in the process's RSS.
            ix = FileStorage(str(d), supports_mmap=False).open_index()
            self.searcher = ix.searcher(weighting=BM25F())
            reader = self.searcher.reader()
            self.scorer = Scorer(postings.read(d, reader.doc_count_all()))
            self._docnum = self._docnums()
        except StoreError:
            raise
        except Exception as e:  # noqa: BLE001 - Whoosh signals a damaged index many ways
            raise StoreError(f"{d}: damaged search index ({_reason(e)}); {_REBUILD}") from None
        self._number_of = [""] * len(self._docnum)  # docnum → rule number
        for rid, docnum in enumerate(self._docnum):
            self._number_of[docnum] = self.records[rid][1]
        self._seqs: LRUCache[int, tuple[str, ...]] = LRUCache(2048)
        self._ordinals = {
            lang: {v: i for i, v in enumerate(vs)} for lang, vs in self.versions.items()
        }
        # (lang, number, version ordinal) → the titled rule above it (a hit shows it, and the
        # keyword and variant signals read it): the same few thousand rules recur
        self._parents: dict[tuple[str, str, int], tuple[str, str] | None] = {}
        self._title_stems: dict[str, tuple[str, ...]] = {}  # an English title → its stems
        # the newest release's documents in both languages, read when warmed and kept; and the
        # last few others read
        self._kept: dict[int, Stored] = {}
        self._definitions: dict[tuple[str, str], tuple[Term, ...]] = {}  # bounded by the glossary
        self._stored: LRUCache[int, Stored] = LRUCache(STORED)
        self._heads: np.ndarray | None = None  # docnum → code of its section (number's head)
        self._head_code: dict[str, int] = {}
        self._lexical: tuple[list[str], np.ndarray] | None = None  # numbers in order, docnums
        self._zh_title_index: topics.ZhTitles | None = None
        self.weights: dict[str, float] = dict(weights.LEARNED)
        self.players_questions = True  # off: the rules' own words alone (a measure, a test)
        self.forest: forest.Forest | None = forest.load()

    def _docnums(self) -> list[int]:
        """rid → Whoosh document number (identical unless the index was written in pieces)."""
        reader = self.searcher.reader()
        n = len(self.records)
        if reader.doc_count_all() != n:
            raise StoreError(f"{self.dir}: search index and its records disagree; {_REBUILD}")
        if (
            reader.stored_fields(0).get("rid") == 0
            and reader.stored_fields(n - 1).get("rid") == n - 1
        ):
            return list(range(n))
        out = [0] * n
        for docnum, fields in reader.iter_docs():
            out[fields["rid"]] = docnum
        return out

    # -- pieces loaded on first use ------------------------------------------------------------

    def cutter(self) -> analysis.ChineseCutter:
        """jieba with the index's own dictionary, loaded once."""
        if self._cutter is None:
            table = self.dir / FREQ_NAME  # jieba's dictionary on disk (older indexes: none)
            self._cutter = analysis.ChineseCutter(self.words, table if table.exists() else None)
        return self._cutter

    def to_simplified(self, text: str) -> str:
        """Traditional → Simplified Chinese (OpenCC t2s)."""
        if self._t2s is None:
            import opencc

            self._t2s = opencc.OpenCC("t2s")
        return str(self._t2s.convert(text))

    def warm(self) -> None:
        """Load everything a first query would (jieba, OpenCC, scopes, spelling)."""
        with self._lock:
            self._warm()

    def _warm(self) -> None:
        self.cutter()
        self.to_simplified("時")
        for lang, vs in self.versions.items():
            if vs:
                for d in np.flatnonzero(self._scope(lang, len(vs) - 1))[:KEPT].tolist():
                    self._kept[d] = self._fields(d)
        self.speller.correct("warmup")
        for text in self.definitions.get("zh", {}).values():  # jieba: ~0.2 ms each, asked
            self._defined("zh", text)
        self._sections()
        self._in_text_order()
        self._zh_titles()

    def _scope(self, lang: str, o: int) -> Mask:
        """The documents of one version in one language, as a mask (the newest few kept)."""
        key = (lang, o)
        got: Mask | None = self._scopes.get(key)
        if got is None:
            if self._spans is None:
                rows: dict[str, list[tuple[int, int, int]]] = {}
                for rid, (lg, _n, rs) in enumerate(self.records):
                    rows.setdefault(lg, []).extend((a, b, self._docnum[rid]) for a, b in rs)
                self._spans = {
                    lg: np.array(r, dtype=np.int64).reshape(-1, 3) for lg, r in rows.items()
                }
            spans = self._spans.get(lang, np.zeros((0, 3), dtype=np.int64))
            got = np.zeros(len(self.records), dtype=bool)
            got[spans[(spans[:, 0] <= o) & (o <= spans[:, 1]), 2]] = True
            self._scopes[key] = got
        return got

    def _rid(self, lang: str, number: str, o: int) -> int | None:
        for rid in self._by_number.get((lang, number), ()):
            for a, b in self.records[rid][2]:  # _in, unrolled: ~25 calls a query
                if a <= o <= b:
                    return rid
        return None

    def _ordinal(self, lang: str, version: str) -> int | None:
        """A version's place among `lang`'s versions (None: no `lang` text of it)."""
        return self._ordinals.get(lang, {}).get(version)

    # -- the query -----------------------------------------------------------------------------

    def resolve_version(self, lang: str, version: str | None) -> tuple[str, int | None]:
        """A version id, alias or `latest` → (id, ordinal in lang). A release with no `lang` text
        is read in the newest `lang` text before it (a translation lags the English), as rule
        pages do; None when `lang` has no text at all."""
        vs = self.versions.get(lang, [])
        if version in (None, "", "latest"):
            if not vs:
                return "", None
            return vs[-1], len(vs) - 1
        v = self.aliases.get(version or "", version or "")
        if v in vs:
            return v, vs.index(v)
        if any(v in other for other in self.versions.values()):
            k = bisect.bisect_right(vs, v)
            if k == 0:
                first = f" (the first is {vs[0]})" if vs else ""
                raise NotFound(f"version {v} has no {lang} text, nor any before it{first}")
            return vs[k - 1], k - 1
        raise NotFound(f"unknown version: {version}")

    def search(
        self,
        query: str,
        lang: str = "auto",
        version: str | None = None,
        limit: int = 10,
        *,
        other: bool = True,
    ) -> dict[str, Any]:
        """Ranked hits in the SPEC's shape, plus `did_you_mean`. `other`: each hit's text in the
        other language (the search page links to it instead: None there)."""
        with self._lock:  # one file position and one cache shared by all threads
            try:
                return self._search(query, lang, version, limit, other)
            except _DAMAGE as e:  # a damaged block shows only when a query first reads it
                raise StoreError(
                    f"{self.dir}: damaged search index ({_reason(e)}); {_REBUILD}"
                ) from None

    def candidates(self, query: str, lang: str, n: int = POOL) -> Candidates:
        """The rules pinned first, the scored candidates with their factors, and how many
        content words the query has, in the newest version: what the weights and the forest
        are learned from (scripts/train_search.py, scripts/train_ranker.py)."""
        with self._lock:
            q = _clean(query)
            if lang == "zh":
                q = self.to_simplified(q)
            _vid, o = self.resolve_version(lang, None)
            if o is None or not q:
                return Candidates([], [], 0)
            plan = self._plan(q, lang, o, {})
            pinned = [self.records[r][1] for r in plan.pinned]
            if plan.query is None:
                return Candidates(pinned, [], 0)
            pool, _total, _before = self._pool(lang, o, plan.query, n)
            scored = [(self._number_of[d], f) for d, f in pool]
            return Candidates(pinned, scored, len(plan.query.near))

    def _search(
        self, query: str, lang: str, version: str | None, limit: int, other: bool = True
    ) -> dict[str, Any]:
        q = _clean(query)
        if lang not in ("auto", "en", "zh"):
            raise BadInput(f"--lang: expected en, zh or auto, not {lang!r}")
        try:
            limit = max(1, min(int(limit), MAX_LIMIT))
        except (TypeError, ValueError):
            raise BadInput(f"--limit: expected a number, not {limit!r}") from None
        if lang == "auto":
            lang = "zh" if analysis.has_cjk(q) else "en"
        asked = q  # echoed as typed (bounded and cleaned), not as converted to Simplified
        if lang == "zh":
            q = self.to_simplified(q)
        vid, o = self.resolve_version(lang, version)
        out: dict[str, Any] = {
            "query": asked,
            "lang": lang,
            "version": vid,
            "total": 0,
            "hits": [],
            "did_you_mean": None,
        }
        if o is None or not q:
            return out
        plan = self._plan(q, lang, o, out)
        pinned = plan.pinned
        n = limit + len(pinned)
        scored, total = (
            self._rank(lang, o, plan.query, max(n, bridge.DEPTH) if plan.bridge else n)
            if plan.query
            else ([], 0)
        )
        if plan.bridge:
            scored = self._bridged(vid, o, scored, plan.bridge)[:n]
        pinned_docs = [self._docnum[r] for r in pinned]
        top = max((sc for _d, sc in scored), default=0.0)
        seen = set(pinned_docs)
        hits = [(d, top + len(pinned_docs) - i) for i, d in enumerate(pinned_docs)]
        hits += [(d, sc) for d, sc in scored if d not in seen]
        scored_docs = {x for x, _ in scored}
        out["total"] = total + sum(1 for d in pinned_docs if d not in scored_docs)
        out["total"] = max(out["total"], len(hits[:limit]))
        out["hits"] = [
            self._hit(d, sc, lang, vid, o, plan.needles, other) for d, sc in hits[:limit]
        ]
        return out

    def _rank(
        self, lang: str, o: int, plan: QueryPlan, n: int
    ) -> tuple[list[tuple[int, float]], int]:
        """Top `n` (docnum, score): the candidates' signals weighed by the learned exponents."""
        pool, total, before = self._pool(lang, o, plan, n)
        # a candidate's product before `pointed`, times `pointed` (the last factor) if it has it
        scored = [
            (d, weights.times(b, "pointed", f["pointed"], self.weights) if "pointed" in f else b)
            for (d, f), b in zip(pool, before, strict=True)
        ]
        if self.forest is not None and scored and lang in forest.LANGS:  # the trees' correction
            x = self.forest.rows(
                [f for _d, f in pool], len(plan.near), lang == "zh", [s for _d, s in scored]
            )
            fix = self.forest.correction(x).tolist()
            scored = [(d, s * math.exp(c)) for (d, s), c in zip(scored, fix, strict=True)]
        scored.sort(key=lambda x: -x[1])
        return scored[:n], total

    def _bridged(
        self, vid: str, o: int, scored: list[tuple[int, float]], english: str
    ) -> list[tuple[int, float]]:
        """A Chinese question's ranking fused with the ranking its English words get from the
        English text of the same release (crkb/search/bridge.py); unchanged without one."""
        at = self._ordinal("en", vid)
        if at is None:
            return scored
        en = self._plan(english, "en", at, {})
        if en.query is None:
            return scored
        # the words' BM25F ranking (with the share of them a rule holds and the titles they
        # name), not the signals read from each text for a question: the words are no question,
        # and reading them cost a Chinese question a third more time for no better rank
        shortlist, _total = self._shortlist("en", at, en.query, bridge.DEPTH)
        other = [self._number_of[d] for d, _s, _m in shortlist]  # its words, not a term it names
        docs = {self._number_of[d]: d for d, _s in scored}
        out = []
        for number, score in bridge.fuse([self._number_of[d] for d, _s in scored], other):
            d = docs.get(number)
            if d is None:
                rid = self._rid("zh", number, o)
                if rid is None:
                    continue
                d = self._docnum[rid]
            out.append((d, score))
        return out

    def _pool(
        self, lang: str, o: int, plan: QueryPlan, n: int
    ) -> tuple[list[tuple[int, dict[str, float]]], int, list[float]]:
        """The best `n` (at least POOL) candidates by BM25F of the weighted terms, the share of
        the query matched and the sections and rules its terms name, each with its signals (the
        factors read from its own text), how many documents matched at all, and each
        candidate's weighed product of its factors but `pointed`."""
        players = self._players(lang, o, plan)
        shortlist, total = self._shortlist(lang, o, plan, max(n, POOL), players, ASKED_TOP)
        if not total:
            return [], 0, []
        out = []
        k = sum(t.weight for t in plan.terms) or 1.0
        # each content term's forms → the term (the last that has it)
        which = {f: i for i, fs in enumerate(plan.near) for f in fs}
        asked = frozenset(f for t in plan.terms for f, _x in t.forms)
        shares = _shares(players, [d for d, _sc, _got in shortlist])
        for (d, sc, got), share in zip(shortlist, shares, strict=True):
            base = self._base(d, sc, got, k, plan)
            if share:
                base["asked"] = 1.0 + ASKED_GAIN * share
            out.append((d, {**base, **self._signals(lang, o, d, plan, which, asked)}))
        before = self._pointed(out)
        return out, total, before

    def _players(self, lang: str, o: int, plan: QueryPlan) -> Players:
        """BM25 of the query's terms over the players' questions written for each rule
        (crkb/search/asked.py), in scope (none when `players_questions` is off)."""
        if not self.players_questions:
            return EMPTY_DOCS, EMPTY_FREQS
        return self.scorer.one_field((lang, o), self._scope(lang, o), plan.terms, ASKED_FIELD[lang])

    def _shortlist(
        self,
        lang: str,
        o: int,
        plan: QueryPlan,
        want: int,
        players: Players | None = None,
        asked_top: int = 0,
    ) -> tuple[list[tuple[int, float, float]], int]:
        """The best `want` (docnum, BM25F, terms matched) by BM25F, the share of
        the query matched and the sections and rules its terms name, before their texts are
        read, then the `asked_top` rules whose players' questions score best if not among them;
        and how many documents matched at all. `players`: `_players` (made when None)."""
        scope = self._scope(lang, o)
        sid = (lang, o)
        scorer = self.scorer
        scored = scorer.score(sid, scope, plan.terms, plan.fields)
        if plan.extra:
            scored = scorer.merge(scored, scorer.score(sid, scope, plan.extra, plan.extra_fields))
        if plan.quoted:
            quoted = scorer.score(sid, scope, plan.quoted, QUOTED[lang])
            scored = scorer.merge(scored, quoted)
        if players is None:
            players = self._players(lang, o, plan)
        if len(players[0]):  # a rule players ask about in the query's words is a candidate
            scored = scorer.add(scored, players[0], ASKED_POOL * players[1])
        if plan.expand:  # the glossary's words for a term (their rules hold few of the query's)
            more = scorer.score(sid, scope, plan.expand, plan.fields)
            # A question's answer may hold none of its words; a keyword search lists the rules
            # that hold its words, ranked with the definition's help, unless none does (a term
            # only the glossary uses). Rules the definition alone met cost a keyword search
            # a fifth of its time, in a tail no one reads.
            if plan.question or not len(scored.docs):
                scored = scorer.merge(scored, more)
            else:
                scored = scorer.within(scored, more)
        docs, scores, matched = scored.docs, scored.scores, scored.matched
        total = len(docs)
        if not total:
            return [], 0
        # the rules whose players' questions the query meets best are candidates whatever their
        # own words score: the question is asked in a player's words, not the rule's
        asked_best: list[tuple[int, float, float]] = []
        if asked_top and len(players[0]):
            held, by = players
            top = np.argpartition(-by, asked_top)[:asked_top] if len(by) > asked_top else None
            first = held[top] if top is not None else held
            at = np.flatnonzero(np.isin(docs, first))
            asked_best = _picked(docs, scores, matched, at)
        k = sum(t.weight for t in plan.terms) or 1.0
        # weights.combine(factors, FIXED) for every matched rule, over arrays: the same
        # products in the same order (a cold query matches thousands of rules)
        w_bm25, w_coord, w_section, w_favoured, w_topic = (
            weights.FIXED.get(x, 0.0) for x in ("bm25", "coord", "section", "favoured", "topic")
        )
        final = np.ones(len(docs))
        if w_bm25:
            positive = np.maximum(scores, 0.0)
            final *= positive if w_bm25 == 1.0 else np.where(scores > 0, positive**w_bm25, 0.0)
        if w_coord:  # _coord's own expression
            coord = 0.2 + 0.8 * np.minimum(1.0, matched / k) ** COORD
            final *= coord if w_coord == 1.0 else coord**w_coord
        lift = _most_lift(w_section, w_favoured, w_topic)
        marked = bool(plan.sections or plan.favoured or plan.topics)
        if marked and lift is not None and len(final) > want:
            # Marks only lift a score (each factor ≥ 1), and the `want` best before them stay at
            # least where they were: a rule that even the largest lift leaves below the
            # want-th best cannot be chosen, so only the others are marked (the same choice).
            floor = np.partition(final, len(final) - want)[len(final) - want] / (lift * (1 + 1e-9))
            keep = final >= floor
            docs, final, scores, matched = docs[keep], final[keep], scores[keep], matched[keep]
        if marked and plan.sections and w_section:
            heads, codes = self._sections()
            named_sections = [codes[x] for x in plan.sections if x in codes]
            final[np.isin(heads[docs], named_sections)] *= SECTION**w_section
        named = (*plan.favoured, *plan.topics)
        if marked and named:  # favoured and topics lie under a rule the query names: few
            for i in np.flatnonzero(self._under(named)[docs]).tolist():
                _section, favoured, topic = self._marks(int(docs[i]), plan, named)
                if favoured and w_favoured:
                    final[i] *= FAVOURED**w_favoured
                if topic and w_topic:
                    final[i] *= (1.0 + TOPIC * topic) ** w_topic
        if len(final) > want:  # the `want` best; equal scores in the order first met
            edge = np.partition(final, len(final) - want)[len(final) - want]
            near = np.flatnonzero(final >= edge)
            best = near[np.argsort(-final[near], kind="stable")[:want]]
        else:
            best = np.argsort(-final, kind="stable")
        got = _picked(docs, scores, matched, best)
        if asked_best:  # after the `want` best, those not among them
            chosen = {d for d, _s, _m in got}
            got += [x for x in asked_best if x[0] not in chosen]
        return got, total

    def _zh_titles(self) -> topics.ZhTitles:
        """The Chinese titles by the text that names them (topics.zh_index), made once."""
        if self._zh_title_index is None:
            self._zh_title_index = topics.zh_index(self.titles.get("zh", {}))
        return self._zh_title_index

    def _sections(self) -> tuple[np.ndarray, dict[str, int]]:
        """docnum → a code of the section its rule lies in (its number's head), and the codes."""
        if self._heads is None:
            heads = [number.partition(".")[0] for number in self._number_of]
            self._head_code = {h: i for i, h in enumerate(dict.fromkeys(heads))}
            self._heads = np.array([self._head_code[h] for h in heads], dtype=np.int32)
        return self._heads, self._head_code

    def _in_text_order(self) -> tuple[list[str], np.ndarray]:
        """Every document's rule number sorted as text, and the documents in that order."""
        if self._lexical is None:
            order = sorted(range(len(self._number_of)), key=self._number_of.__getitem__)
            numbers = [self._number_of[d] for d in order]
            self._lexical = (numbers, np.array(order, dtype=np.int64))
        return self._lexical

    def _under(self, named: tuple[str, ...]) -> np.ndarray:
        """A mask of the documents whose number starts with one of `named` (what _marks finds
        under them): a prefix's numbers are one run of the numbers in text order."""
        numbers, docs = self._in_text_order()
        out = np.zeros(len(self.records), dtype=bool)
        for x in named:
            a = bisect.bisect_left(numbers, x)
            out[docs[a : bisect.bisect_left(numbers, x + "\U0010ffff", a)]] = True
        return out

    def _marks(
        self, d: int, plan: QueryPlan, named: tuple[str, ...] | None = None
    ) -> tuple[bool, bool, float]:
        """Whether a rule lies in a section the query names, whether it is (under) a rule it
        names, and how much of the query the titles it lies under cover (topics). `named`: the
        rules and titles the query names (a rule under one starts with it, so a rule that starts
        with none is under none: most rules are settled by one startswith)."""
        number = self._number_of[d]
        section = bool(plan.sections) and number.partition(".")[0] in plan.sections
        if named is None:
            named = (*plan.favoured, *plan.topics)
        if not named or not number.startswith(named):
            return section, False, 0.0
        favoured = bool(plan.favoured) and any(
            number == x
            or number.startswith(x + ".")
            or (number.startswith(x) and number[len(x) :].isalpha())
            for x in plan.favoured
        )
        topic = topics.share(number, plan.topics) if plan.topics else 0.0
        return section, favoured, topic

    def _base(
        self, d: int, sc: float, matched: float, k: float, plan: QueryPlan
    ) -> dict[str, float]:
        """A candidate's factors before its text is read: BM25F, coordination, and the
        sections, rules and topics the query names."""
        f = {"bm25": sc, "coord": _coord(matched, k)}
        section, favoured, topic = self._marks(d, plan)
        if section:
            f["section"] = SECTION
        if favoured:
            f["favoured"] = FAVOURED
        if topic:
            f["topic"] = 1.0 + TOPIC * topic
        return f

    def _pointed(self, pool: list[tuple[int, dict[str, float]]]) -> list[float]:
        """A candidate that other leading candidates refer to, or inside a section they refer to
        ("This is a state-based action. See rule 704."), is where they say the thing is stated
        (ranking.named_by). Returns each candidate's weighed product before that (what leads,
        and what `pointed` adds to)."""
        before = [weights.combine(f, self.weights) for _d, f in pool]
        order = sorted(range(len(pool)), key=lambda i: -before[i])[:POINTERS]
        lead = [pool[i] for i in order]
        refs = [ranking.references(self._text(d)[0]) for d, _f in lead]
        referred = tuple(set().union(*refs))  # a rule and the rules above it begin its number
        for d, f in pool:
            number = self._number_of[d]
            if not referred or not number.startswith(referred):
                continue  # refers to neither it nor a rule above it
            mine = ranking.named_by(number)
            by = sum(1 for (e, _g), r in zip(lead, refs, strict=True) if e != d and r & mine)
            if by:
                f["pointed"] = ranking.pointed(by)
        return before

    def _signals(
        self,
        lang: str,
        o: int,
        docnum: int,
        plan: QueryPlan,
        which: dict[str, int],
        asked: frozenset[str],
    ) -> dict[str, float]:
        """What a candidate's own text adds: its content words together, a statement, a count;
        and a rule that applies only under a keyword or a variant the query does not name.
        Each signal is a factor, weighed by its learned exponent (crkb/search/weights.py).
        `which` and `asked`: the query's content forms → their term, and its terms' forms."""
        text, title = self._text(docnum)
        number = self._number_of[docnum]
        f: dict[str, float] = {}
        if number.startswith(("701.", "702.")) or number[:1] in "89":
            p = self._parent(lang, number, o)
            if p is not None and not self._names_above(plan, lang, number, o, p["title"], asked):
                if plan.question:
                    f["specific"] = SPECIFIC
                if number[:1] in "89":
                    f["variant"] = SPECIFIC
        if number[-1:].isalpha():
            f["subrule"] = SPECIFIC
            f["early"] = ranking.early(number)
        f["short"] = min(1.0, SHORT / max(len(text), 1))
        if lang == "zh":
            occ = ranking.char_spans(text, plan.near)
        else:
            occ = ranking.word_spans(self._words(docnum, text), which, len(plan.near))
        f["proximity"] = ranking.proximity(occ, len(plan.near))
        f["own"] = (1 + sum(1 for x in occ if x)) / (1 + len(plan.near))  # words in its own text
        if lang == "en":  # measured: Chinese openings (具有…的, 如果…) say less about the subject
            f["subject"] = ranking.subject(occ, len(plan.near), SUBJECT)
        f["cited"] = ranking.cited(self.cited.get(lang, {}).get(number, 0))
        if plan.question:
            if text == title:  # a heading states nothing that answers a question
                f["heading"] = HEADING
            f["states"] = ranking.states(text, lang)
            if plan.defines:
                parallel = self._parallel_en(number, o) if plan.defines_en else None
                if parallel is not None:  # the same rule in English says it more strictly
                    words, en_text = parallel
                    f["defines"] = ranking.defines_en(words, plan.defines_en, en_text)
                elif lang == "zh":
                    f["defines"] = ranking.defines_zh(text, plan.defines[0])
                else:
                    words = self._words(docnum, text)
                    f["defines"] = ranking.defines_en(words, plan.defines, text)
                if f["defines"] == 1.0 and ranking.first_under(number, plan.favoured):
                    f["defines"] = 1.0 + ranking.DEFINES
        if plan.asks_can:
            if lang == "zh":
                f["modal"] = ranking.modal_zh(text, plan.near)
            else:
                f["modal"] = ranking.modal_en(self._words(docnum, text), plan.near)
        if plan.wants_number:
            f["counts"] = ranking.counts(text, lang)
        if plan.wants_outcome:
            f["outcome"] = ranking.outcome(text, lang)
        if plan.wants_zone:
            f["moves"] = ranking.moves(text, lang)
        return f

    def _names(self, plan: QueryPlan, lang: str, title: str, asked: frozenset[str]) -> bool:
        """True when the query names a title: in English, one of its words (`asked`: the
        forms of the query's terms), each title's stems made once (a keyword's or a variant's
        parent is read for ~10 candidates a query); in Chinese, the title whole."""
        if lang == "zh":
            return _names_zh(plan, title)
        stems = self._title_stems.get(title)
        if stems is None:
            stems = _keep(self._title_stems, title, _title_stems(title), PARENTS)
        return not asked.isdisjoint(stems)

    def _names_above(
        self, plan: QueryPlan, lang: str, number: str, o: int, title: str, asked: frozenset[str]
    ) -> bool:
        """True when the query names the titled rule above a rule, or its chapter: "a four
        player game" names Multiplayer Rules, whose first section is only "General"."""
        if self._names(plan, lang, title, asked):
            return True
        rid = self._rid(lang, number[:1], o)
        chapter = self._text(self._docnum[rid])[1] if rid is not None else None
        if not chapter:
            return False
        if lang == "zh":  # 多人 names 多人游戏规则; 游戏 and 规则 name no chapter
            rest = _CHAPTER_COMMON.sub("", chapter)
            return bool(rest) and _names_zh(plan, rest)
        return self._names(plan, lang, chapter, asked)

    def _parallel_en(self, number: str, o: int) -> tuple[tuple[str, ...], str] | None:
        """The stems and the English text of a Chinese rule, in the same release, if any."""
        at = self._ordinal("en", self.versions["zh"][o])
        if at is None:
            return None
        rid = self._rid("en", number, at)
        if rid is None:
            return None
        docnum = self._docnum[rid]
        text = self._text(docnum)[0]
        return self._words(docnum, text), text

    def _text(self, docnum: int) -> tuple[str, str | None]:
        """(text, title) of a document (cached: candidates recur from query to query)."""
        f = self._fields(docnum)
        return f.text, f.title

    def _fields(self, docnum: int) -> Stored:
        """A document's stored fields that are shown or read (cached: candidates and hits recur
        from query to query; Whoosh unpickles a document's fields on every read)."""
        got: Stored | None = self._kept.get(docnum)
        if got is None:
            got = self._stored.get(docnum)
        if got is None:
            f = self.searcher.stored_fields(docnum)
            got = Stored(f["text"], f.get("title"), f["number"], f["lang"], f.get("cur"))
            self._stored[docnum] = got
        return got

    def _words(self, docnum: int, text: str) -> tuple[str, ...]:
        """The stems of an English text in order (cached per document)."""
        got: tuple[str, ...] | None = self._seqs.get(docnum)
        if got is None:
            got = tuple(map(analysis.stem, analysis.english_words(text)))
            self._seqs[docnum] = got
        return got

    def _plan(self, q: str, lang: str, o: int, out: dict[str, Any]) -> Plan:
        """The plan for one cleaned query: rules it names, then how its words are scored."""
        pinned: list[int] = []
        whole = querynumbers.whole_number(q)
        if whole:
            rid = self._rid(lang, whole, o)
            if rid is not None:
                pinned.append(rid)
                kids = sorted(self._children.get((lang, whole), ()), key=sort_key)
                pinned += [r for n in kids if (r := self._rid(lang, n, o)) is not None]
                return Plan(pinned, None, Needles("en", subs=(whole,)))
        for n in querynumbers.numbers_in(q):
            rid = self._rid(lang, n, o)
            if rid is not None:
                pinned.append(rid)
        if lang == "en":
            return self._plan_en(q, o, out, pinned)
        return self._plan_zh(q, o, out, pinned)

    def _targets(
        self, lang: str, key: str, o: int, stems: list[str], via: tuple[str, int] | None = None
    ) -> tuple[list[int], list[str]]:
        """Rules a title or glossary term names (the defining one first), and sections to favour.

        A glossary entry pointing at a whole section ("Pass: See rule 117") does not pin that
        section; the best text matches inside it rank first instead. `via` = (language,
        ordinal) of the glossary to consult when it is not the rules' own.
        """
        tlang, to = via or (lang, o)
        numbers: list[str] = []
        sections: list[str] = []
        for table in (self.titles, self.glossary):
            for targets, rs in table.get(tlang, {}).get(key, ()):
                if not _in(rs, to):
                    continue
                for t in targets:
                    if table is self.glossary and "." not in t:
                        sections.append(t)
                    elif t not in numbers:
                        numbers.append(t)
        rids: list[int] = []
        for n in numbers:
            definer = self._definer(lang, n, o, stems)
            for r in (definer, self._rid(lang, n, o)):
                if r is not None and r not in rids:
                    rids.append(r)
        return rids, [x for x in sections if x not in numbers]

    def _class_en(self, word: str) -> tuple[str, ...]:
        """The stem of the class a glossary term belongs to (graveyard → zone), if one word."""
        got = self._classes.get(analysis.term_key("en", word))
        if not got or " " in got or not self._rare("body", analysis.stem(got)):
            return ()  # a class word most rules use ("card", "ability") says nothing of one
        return (analysis.stem(got),)

    def _title_terms(self) -> dict[str, str]:
        """English title → Chinese title of the newest Chinese release's rules (none when no
        English text of that release is indexed)."""
        zh = self.versions.get("zh", [])
        en = self.versions.get("en", [])
        if not zh or zh[-1] not in en:
            return {}
        o_en, o_zh = en.index(zh[-1]), len(zh) - 1
        return mixed.title_terms(self.titles.get("en", {}), self.titles.get("zh", {}), o_en, o_zh)

    def _titled(self, lang: str, key: str, o: int) -> list[str]:
        """The sections and rules (not chapters) titled `key` in version `o` that name a topic:
        a keyword's or a variant's, or a general one of several words ("Combat Damage Step",
        not "Life": a one-word general title is a concept the rules use everywhere)."""
        several = len(key.split()) >= 2 if lang == "en" else len(key) >= 4
        table = self.titles.get(lang, {})
        rows = table.get(key, ())
        if not rows and lang == "en":  # "two headed giant" names Two-Headed Giant Variant
            rows = next((got for x in topics.EN_HEADS if (got := table.get(f"{key} {x}"))), ())
        return [
            t
            for targets, rs in rows
            if _in(rs, o)
            for t in targets
            if len(t) >= 3 and (several or topics.specific(t))
        ]

    def _definer(self, lang: str, number: str, o: int, stems: list[str]) -> int | None:
        """A subrule of an untitled target whose text opens by defining the term."""
        rid = self._rid(lang, number, o)
        if rid is None or not stems:
            return None
        if self._fields(self._docnum[rid]).title:
            return None
        k = len(stems)
        for n in sorted(self._children.get((lang, number), ()), key=sort_key):
            r = self._rid(lang, n, o)
            if r is None:
                continue
            text = self._fields(self._docnum[r]).text
            if lang == "en":
                words = analysis.english_words(text)[: k + 4]
                if words and words[0] in ("a", "an", "the"):
                    words = words[1:]
                head = [analysis.stem(w) for w in words[:k]]
                rest = words[k : k + 2]
                is_def = len(rest) == 2 and rest[0] in ("is", "are") and rest[1] in DETERMINERS
                if head == stems and is_def:
                    return r
            elif any(text.startswith(stems[0] + d) for d in DEFINES_ZH):
                return r
        return None

    def _plan_en(self, q: str, o: int, out: dict[str, Any], pinned: list[int]) -> Plan:
        q = names.without_card_names(q, self._known_en)
        typed = players.typed_words_en(q)
        words = players.rules_words_en(typed)
        if self.versions["en"][o] >= players.RENAMED_EN:  # "comes into play": "enters"
            words = players.todays_words_en(words)
        fixed = [w if asking_en(w) else self.speller.correct(w) or w for w in words]
        if fixed != words:  # the words as typed, the mistyped ones put right (not "mana pool")
            put = {w: f for w, f in zip(words, fixed, strict=True) if w != f}
            out["did_you_mean"] = " ".join(put.get(w, w) for w in typed)
        quoted = quoted_en(q)
        asked = understand_en(fixed, lambda s: self._negations.get(s, ()), self._class_en, quoted)
        named = asked.content if asked.question else fixed
        key = analysis.term_key("en", " ".join(named))
        sections: list[str] = []
        favoured: list[str] = []
        stems = [analysis.stem(w) for w in key.split()]
        if key:
            rids, sections = self._targets("en", key, o, stems)
            if asked.question:  # a question about a term: its rules first, the answer among them
                favoured = [self.records[r][1] for r in rids]
            else:
                pinned += [r for r in rids if r not in pinned]
        if not asked.terms:
            return Plan(pinned, None, Needles("en"))
        near = [tuple(f for f, _x in t.forms) for t in asked.terms if t.weight == 1.0]
        plan = QueryPlan(
            "en",
            asked.terms,
            EN_FIELDS,
            near,
            sections=sections,
            favoured=favoured,
            defines=tuple(stems) if asked.question else (),
            expand=self._expand_en(asked),
            wants_number=asked.wants_number,
            wants_outcome=asked.wants_outcome,
            wants_zone=asked.wants_zone,
            question=asked.question,
            asks_can=bool(fixed) and fixed[0].lower() in ASK_CAN_EN,
            topics=topics.named_en(asked.content, lambda k: self._titled("en", k, o)),
            quoted=_exact(analysis.stem(w) for w in quoted),
        )
        marks = tuple(f for t in asked.terms for f, _x in t.forms)
        return Plan(pinned, plan, Needles("en", stems=marks))

    def _plan_zh(self, q: str, o: int, out: dict[str, Any], pinned: list[int]) -> Plan:
        typed, q = q, players.players_words_zh(q)
        q = mixed.english_terms_zh(q, self.en_to_zh, self.speller.correct)
        words, fixed = known_words(
            self.cutter().cut(numerals.zh_digits(q)), self._known, self._sounds_like
        )
        tokens = tuple(words)
        if fixed:
            out["did_you_mean"] = _put_right(typed, q, fixed)
            q = _put_right(q, q, fixed)  # a slip put right names its term as the term does
        quoted = frozenset(analysis.quoted_zh(q))
        asked = understand_zh(
            tokens, self.cutter().subwords, lambda w: self._former.get(w, ()), quoted
        )
        key = analysis.term_key("zh", "".join(asked.content) if asked.question else q)
        sections: list[str] = []
        favoured: list[str] = []
        en_key = self.zh_to_en.get(key) if key else None
        if key:
            rids, sections = self._targets("zh", key, o, [key])
            vid = self.versions["zh"][o]
            if not rids and en_key and vid in self.versions.get("en", []):
                via = ("en", self.versions["en"].index(vid))
                rids, sections = self._targets("zh", en_key, o, [key], via=via)
            if asked.question:
                favoured = [self.records[r][1] for r in rids]
            else:
                pinned += [r for r in rids if r not in pinned]
        runs = _zh_runs(tokens, asked)
        if not asked.terms and not runs:
            return Plan(pinned, None, Needles("zh"))
        grams = tuple(
            dict.fromkeys(Term(g, ((g, 1.0),)) for run in runs for g in analysis.bigrams(run) if g)
        )
        near = [tuple(f for f, _x in t.forms) for t in asked.terms if t.weight == 1.0]
        plan = QueryPlan(
            "zh",
            asked.terms,
            ZH_FIELDS,
            near,
            sections=sections,
            favoured=favoured,
            defines=(key,) if asked.question and key else (),
            defines_en=tuple(analysis.stem(w) for w in en_key.split())
            if asked.question and en_key
            else (),
            expand=self._expand_zh(asked),
            extra=grams,
            extra_fields=ZH_BIGRAMS,
            wants_number=asked.wants_number,
            wants_outcome=asked.wants_outcome,
            wants_zone=asked.wants_zone,
            question=asked.question,
            asks_can=asks_can_zh(q),
            quoted=_exact(quoted),
            topics=topics.named_zh(
                "".join(asked.content),
                self._zh_titles(),
                lambda k: self._titled("zh", k, o),
            ),
        )
        subs = tuple(dict.fromkeys([t.text for t in asked.terms if t.weight == 1.0] + runs))
        english = bridge.translate(asked.content, self.bridge) if asked.question else ""
        return Plan(pinned, plan, Needles("zh", subs=subs), english)

    def _expand_en(self, asked: Understood) -> tuple[Term, ...]:
        """Terms of the glossary definitions of the query's words and word pairs, weighted low."""
        defs = self.definitions.get("en", {})
        words = list(asked.content)
        # Word pairs first: "leaves battlefield" is defined more narrowly than "leaves".
        grams = [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)] + words
        have = {f for t in asked.terms for f, _x in t.forms}
        out: dict[str, Term] = {}
        for g in grams:
            text = defs.get(analysis.term_key("en", g))
            if not text:
                continue
            for t in self._defined("en", text):
                if t.text not in have:
                    out.setdefault(t.text, t)
        return tuple(out.values())[:MAX_EXPAND]

    def _defined(self, lang: str, text: str) -> tuple[Term, ...]:
        """The words a glossary definition adds to a query, weighted low: its content words
        that few rules use, as a query of them would be understood (not the remains of a rule
        number). Made once per definition: the glossary is the index's own, and cutting a
        Chinese definition cost a cold query ~0.3 ms."""
        got = self._definitions.get((lang, text))
        if got is None:
            if lang == "zh":
                understood = understand_zh(self.cutter().cut(text)).terms
                keep = [t for t in understood if t.weight == 1.0 and self._rare("zw", t.text)]
            else:
                understood = understand_en(analysis.english_words(text)).terms
                keep = [
                    t
                    for t in understood
                    if not t.text.isdigit() and t.weight == 1.0 and self._rare("body", t.text)
                ]
            got = self._definitions[(lang, text)] = tuple(
                Term(t.text, t.forms, EXPAND) for t in keep
            )
        return got

    def _sounds_like(self, typed: str) -> str | None:
        """The rules' word a Chinese word no rule holds sounds like (a slip of pinyin input)."""
        if self._sounds is None:
            try:
                self._sounds = sounds.Sounds.read(self.dir / sounds.SOUNDS) or False
            except ValueError as e:
                raise StoreError(
                    f"{self.dir}: damaged search index ({_reason(e)}); {_REBUILD}"
                ) from None
        if not self._sounds:
            return None
        word = self._sounds.like(typed, lambda w: self.scorer.frequency("zw", w))
        if word is None or any(
            c != m and (c in ZH_SOFT or c in ZH_FILLER) for c, m in zip(typed, word, strict=True)
        ):
            return None  # 有 in 每队有 is meant, not a slip for 友 (队友)
        return word

    def _known(self, word: str) -> bool:
        """A Chinese word some rule holds, a game term, or a word the rules once used."""
        return (
            self.scorer.frequency("zw", word) > 0
            or word in self.cutter().game
            or word in self._former
        )

    def _known_en(self, word: str) -> bool:
        """An English word some rule or example uses (examples name cards: Coat of Arms)."""
        stem = analysis.stem(word)
        return self.scorer.frequency("body", stem) > 0 or self.scorer.frequency("ex", stem) > 0

    def _rare(self, field: str, term: str) -> bool:
        """A word few rules use: common words ("player", "card") say nothing of a term."""
        return self.scorer.frequency(field, term) <= RARE * len(self.records)

    def _expand_zh(self, asked: Understood) -> tuple[Term, ...]:
        """The same for Chinese: words of the glossary definitions of the query's words."""
        defs = self.definitions.get("zh", {})
        have = {f for t in asked.terms for f, _x in t.forms}
        out: dict[str, Term] = {}
        for w in asked.content:
            text = defs.get(w)
            if not text:
                continue
            for t in self._defined("zh", text):
                if t.text not in have:
                    out.setdefault(t.text, t)
        return tuple(out.values())[:MAX_EXPAND]

    def _other(self, lang: str, number: str, version: str) -> str | None:
        """The other language's text of the same rule in the same version, if any."""
        other = "zh" if lang == "en" else "en"
        at = self._ordinal(other, version)
        if at is None:
            return None
        rid = self._rid(other, number, at)
        return None if rid is None else self._fields(self._docnum[rid]).text

    def _parent(self, lang: str, number: str, o: int) -> dict[str, str] | None:
        """The nearest titled rule above a rule (its section or titled rule), shown as context."""
        key = (lang, number, o)
        got = self._parents.get(key, _UNKNOWN)
        if got is _UNKNOWN:
            got = None
            p = parent_of(number)
            while p is not None:
                rid = self._rid(lang, p, o)
                if rid is not None:
                    title = self._text(self._docnum[rid])[1]
                    if title:
                        got = (p, title)
                        break
                p = parent_of(p)
            _keep(self._parents, key, got, PARENTS)
        return None if got is None else {"number": got[0], "title": got[1]}

    def _hit(
        self,
        docnum: int,
        score: float,
        lang: str,
        version: str,
        o: int,
        needles: Needles,
        other: bool = True,
    ) -> dict[str, Any]:
        f = self._fields(docnum)
        text = f.text
        if needles.kind == "en" and needles.stems:
            stems = self._words(docnum, text)  # read already for the candidates' signals
            mark = merged_html(text, highlight.english_stemmed(text, stems, needles.stems))
        else:
            mark = merged_html(text, highlight.substrings(text, needles.subs))
        hit = {
            "number": f.number,
            "version": version,
            "lang": f.lang,
            "title": f.title,
            "text": text,
            "highlight": mark,
            "score": round(float(score), 4),
            "other": self._other(f.lang, f.number, version) if other else None,
            "parent": self._parent(f.lang, f.number, o),
        }
        if f.cur and f.cur != f.number:
            hit["current_number"] = f.cur
        return hit


def _picked(
    docs: np.ndarray, scores: np.ndarray, matched: np.ndarray, at: np.ndarray
) -> list[tuple[int, float, float]]:
    """(document, BM25F, weight matched) of the places `at` of a shortlist's arrays."""
    return list(zip(docs[at].tolist(), scores[at].tolist(), matched[at].tolist(), strict=True))


def _shares(players: Players, docs: list[int]) -> list[float]:
    """Each of `docs`' BM25 over its players' questions as a share of the best in scope (0 for
    a rule the query's words do not meet there)."""
    held, scores = players
    if not len(held) or not docs:
        return [0.0] * len(docs)
    top = float(scores.max())
    want = np.array(docs, dtype=held.dtype)
    at = np.minimum(np.searchsorted(held, want), len(held) - 1)
    shares: list[float] = np.where(held[at] == want, scores[at] / top, 0.0).tolist()
    return shares


def _exact(texts: Iterable[str]) -> tuple[Term, ...]:
    """Terms met only as written (the words a query quotes), once each, in a stable order."""
    return tuple(Term(t, ((t, 1.0),)) for t in sorted(set(texts)))


_CHAPTER_COMMON = re.compile("游戏|规则")  # words of chapter titles most questions hold


def _names_zh(plan: QueryPlan, title: str) -> bool:
    """True when a Chinese query names a title whole (or the title holds one of its words); a
    one-character title (磨, mill) is named by that character alone."""
    return any(
        f == title or (len(f) > 1 and (title in f or f in title))
        for forms in plan.near
        for f in forms
    )


def _keep(table: dict[K, V], key: K, value: V, most: int) -> V:
    """`table[key] = value`, the table cleared whole first when it holds `most` (a bound
    cheaper to keep than an LRU's order, for memos of a few thousand)."""
    if len(table) >= most:
        table.clear()
    table[key] = value
    return value


def _title_stems(title: str) -> tuple[str, ...]:
    """The stems of an English title's words but stop words."""
    return tuple(analysis.stem(w) for w in analysis.english_words(title) if w not in STOP)


def _put_right(typed: str, rewritten: str, fixed: dict[str, str]) -> str:
    """The query as typed with its mistyped Chinese words put right (in the rules' words where
    a word was typed as players say it)."""
    text = typed if all(t in typed for t in fixed) else rewritten
    for t, w in fixed.items():
        text = text.replace(t, w)
    return text


def _zh_runs(tokens: tuple[str, ...], asked: Understood) -> list[str]:
    """Runs of Chinese characters the question holds once its asking words are out."""
    kept = {t.text for t in asked.terms}
    runs: list[str] = []
    cur = ""
    for t in tokens:
        if t in kept and analysis.has_cjk(t):
            cur += t
        else:
            if len(cur) >= 2:
                runs.append(cur)
            cur = ""
    if len(cur) >= 2:
        runs.append(cur)
    return list(dict.fromkeys(runs))


def _reason(error: Exception) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _check_terms(d: Path, meta: dict[str, Any]) -> None:
    """An index beside a build's term dictionary must have been built with that dictionary (an
    index copied from another build, or the dictionary rewritten, would segment Chinese queries
    differently from the texts). An index built on its own, without one beside it, is not checked.
    """
    path = d.parent / TERMS_BESIDE
    if not path.exists():
        return
    try:
        terms = json.loads(path.read_text(encoding="utf-8"))
        expected = analysis.zh_term_keys(terms)
    except (OSError, ValueError, AttributeError, TypeError) as e:
        raise StoreError(f"{path}: damaged term dictionary ({e}); {_REBUILD}") from None
    if expected != meta.get("terms"):
        raise StoreError(
            f"{d}: the search index was built with another term dictionary than {path}; {_REBUILD}"
        )


Targets = list[tuple[list[str], list[list[int]]]]  # (rule numbers, version ranges) of a key


def _lookup(rows: list[Any]) -> dict[str, Targets]:
    out: dict[str, Targets] = {}
    for key, targets, rs in rows:
        out.setdefault(key, []).append((targets, rs))
    return out
