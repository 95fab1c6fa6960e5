"""The built search index opened: its records, versions, vocabulary and glossary, each
version's documents and the stored fields of each (what every stage of a search reads)."""

from __future__ import annotations

import bisect
import json
import sys
import threading
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import numpy as np
from cachetools import LRUCache

from crkb.errors import NotFound, StoreError
from crkb.numbers import parent_of
from crkb.search import analysis, mixed, postings, synonyms
from crkb.search.index import FORMAT, META, USERDICT
from crkb.search.question import negation_pairs
from crkb.search.scoring import Mask, Scorer
from crkb.search.spelling import Speller
from crkb.sources import script
from crkb.store.location import TERMS_FILE
from crkb.store.wordfreq import FREQ_NAME

REBUILD = "rebuild it with `crkb build`"
TERMS_BESIDE = TERMS_FILE  # the build's term dictionary, written beside the index

Ranges = tuple[tuple[int, int], ...]  # inclusive runs of version ordinals
Record = tuple[str, str, Ranges]  # (lang, number, version ranges) of one indexed document
KEPT = 3_500  # a language's newest documents whose stored fields are kept (~1 KB each)
STORED = 1_024  # other documents whose stored fields are kept, the last read
PARENTS = 4_096  # rules whose titled parent is kept
_UNKNOWN = ("", "")  # a rule whose titled parent is not kept yet
K = TypeVar("K")
V = TypeVar("V")


class Stored(NamedTuple):
    """What the engine reads of a document's stored fields."""

    text: str
    title: str | None
    number: str
    lang: str
    cur: str | None  # a Chinese rule's number in the English release it was carried to
    # an English text's stems in order, kept with the newest release's documents when warmed
    # (a question's signals read them: ~10% of its first asking's time)
    words: tuple[str, ...] | None = None


def _records(rows: list[list[Any]]) -> list[Record]:
    """meta.json's records, held compactly: each number and each run of versions once (a
    worker keeps ~23k of them; as parsed lists they take ~7 MB, shared tuples ~2 MB)."""
    shared: dict[Ranges, Ranges] = {}
    out: list[Record] = []
    for lang, number, rs in rows:
        ranges = tuple((int(a), int(b)) for a, b in rs)
        out.append((sys.intern(lang), sys.intern(number), shared.setdefault(ranges, ranges)))
    return out


class OpenIndex:
    """An index directory opened for reading: refused whole when damaged, stale or built with
    another dictionary; pieces a query needs (jieba, OpenCC, a version's documents) loaded on
    first use and kept."""

    def __init__(self, index_dir: Path) -> None:
        import jieba
        from whoosh.filedb.filestore import FileStorage
        from whoosh.scoring import BM25F

        d = Path(index_dir)
        try:
            meta = json.loads((d / META).read_text(encoding="utf-8"))
            words = (d / USERDICT).read_text(encoding="utf-8").split()
        except (OSError, ValueError) as e:
            raise StoreError(f"{d}: no usable search index ({e}); {REBUILD}") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            found = meta.get("format") if isinstance(meta, dict) else None
            raise StoreError(
                f"{d}: search index built by another version of crkb (format {found!r}, this"
                f" crkb reads {FORMAT}); {REBUILD}"
            )
        built_with = meta.get("dictionary")
        if analysis.dictionary_hash(sorted(set(words)), jieba.__version__) != built_with:
            raise StoreError(
                f"{d}: the search index was built with another Chinese term dictionary; {REBUILD}"
            )
        _check_terms(d, meta)
        self.dir = d
        self.words = sorted(set(words))
        self._lock = threading.RLock()
        self._cutter: analysis.ChineseCutter | None = None
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
            raise StoreError(f"{d}: damaged search index ({error_reason(e)}); {REBUILD}") from None
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
        # the newest release's documents in both languages, read when warmed and kept; and the
        # last few others read
        self._kept: dict[int, Stored] = {}
        self._stored: LRUCache[int, Stored] = LRUCache(STORED)

    def _docnums(self) -> list[int]:
        """rid → Whoosh document number (identical unless the index was written in pieces)."""
        reader = self.searcher.reader()
        n = len(self.records)
        if reader.doc_count_all() != n:
            raise StoreError(f"{self.dir}: search index and its records disagree; {REBUILD}")
        if (
            reader.stored_fields(0).get("rid") == 0
            and reader.stored_fields(n - 1).get("rid") == n - 1
        ):
            return list(range(n))
        out = [0] * n
        for docnum, fields in reader.iter_docs():
            out[fields["rid"]] = docnum
        return out

    def cutter(self) -> analysis.ChineseCutter:
        """jieba with the index's own dictionary, loaded once."""
        if self._cutter is None:
            table = self.dir / FREQ_NAME  # jieba's dictionary on disk (older indexes: none)
            self._cutter = analysis.ChineseCutter(self.words, table if table.exists() else None)
        return self._cutter

    def to_simplified(self, text: str) -> str:
        """Traditional → Simplified Chinese (OpenCC t2s, the process's one converter)."""
        return script.to_simplified(text)

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
        kept = self._kept.get(docnum)
        got = kept.words if kept is not None else None
        if got is None:
            got = self._seqs.get(docnum)
        if got is None:
            got = self._seqs[docnum] = stems(text)
        return got

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
            keep_bounded(self._parents, key, got, PARENTS)
        return None if got is None else {"number": got[0], "title": got[1]}

    def _title_terms(self) -> dict[str, str]:
        """English title → Chinese title of the newest Chinese release's rules (none when no
        English text of that release is indexed)."""
        zh = self.versions.get("zh", [])
        en = self.versions.get("en", [])
        if not zh or zh[-1] not in en:
            return {}
        o_en, o_zh = en.index(zh[-1]), len(zh) - 1
        return mixed.title_terms(self.titles.get("en", {}), self.titles.get("zh", {}), o_en, o_zh)


def stems(text: str) -> tuple[str, ...]:
    """The stems of an English text's words, in order (interned: the newest release's texts,
    kept whole, share a few thousand stems)."""
    return tuple(sys.intern(analysis.stem(w)) for w in analysis.english_words(text))


def keep_bounded(table: dict[K, V], key: K, value: V, most: int) -> V:
    """`table[key] = value`, the table cleared whole first when it holds `most` (a bound
    cheaper to keep than an LRU's order, for memos of a few thousand)."""
    if len(table) >= most:
        table.clear()
    table[key] = value
    return value


def error_reason(error: Exception) -> str:
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
        raise StoreError(f"{path}: damaged term dictionary ({e}); {REBUILD}") from None
    if expected != meta.get("terms"):
        raise StoreError(
            f"{d}: the search index was built with another term dictionary than {path}; {REBUILD}"
        )


Targets = list[tuple[list[str], list[list[int]]]]  # (rule numbers, version ranges) of a key


def _lookup(rows: list[Any]) -> dict[str, Targets]:
    out: dict[str, Targets] = {}
    for key, targets, rs in rows:
        out.setdefault(key, []).append((targets, rs))
    return out
