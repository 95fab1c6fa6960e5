"""Answers search queries over the index: rule numbers, glossary terms and keywords, then text."""

from __future__ import annotations

import bisect
import heapq
import json
import pickle
import re
import struct
import threading
import zlib
from pathlib import Path

from crkb.errors import BadInput, NotFound, StoreError
from crkb.markup import to_html
from crkb.numbers import parent_of, sort_key
from crkb.search import analysis, highlight, querynumbers
from crkb.search.index import FORMAT, META, USERDICT
from crkb.search.scoring import Scorer
from crkb.search.spelling import Speller
from crkb.store.location import TERMS_FILE

MAX_QUERY = 200
MAX_LIMIT = 100
_REBUILD = "rebuild it with `crkb build`"
TERMS_BESIDE = TERMS_FILE  # the build's term dictionary, written beside the index
# What Whoosh raises reading a damaged block of the index (zlib, struct, pickle, short reads).
_DAMAGE = (OSError, EOFError, struct.error, zlib.error, pickle.UnpicklingError, UnicodeDecodeError)
_DEFINES_ZH = ("为", "是", "指")
_DETERMINERS = frozenset(["a", "an", "the", "one", "any", "each"])


def _in(ranges: list[list[int]], o: int) -> bool:
    return any(a <= o <= b for a, b in ranges)


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
        self._t2s = None
        self._scopes: dict[tuple[str, int], set[int]] = {}
        self._by_number: dict[tuple[str, str], list[int]] = {}
        self._children: dict[tuple[str, str], list[str]] = {}
        try:
            self.versions: dict[str, list[str]] = meta["versions"]
            self.aliases: dict[str, str] = meta["aliases"]
            self.records: list[list] = meta["records"]
            self.glossary = {lang: _lookup(rows) for lang, rows in meta["glossary"].items()}
            self.titles = {lang: _lookup(rows) for lang, rows in meta["titles"].items()}
            self.zh_to_en: dict[str, str] = meta["terms"]
            self.speller = Speller(meta["vocab"])
            for rid, (lang, number, _r) in enumerate(self.records):
                self._by_number.setdefault((lang, number), []).append(rid)
            for lang, number in self._by_number:
                p = parent_of(number)
                if p is not None:
                    self._children.setdefault((lang, p), []).append(number)
            # Plain reads, not mmap: a mapped index counts whole in the process's RSS.
            ix = FileStorage(str(d), supports_mmap=False).open_index()
            self.searcher = ix.searcher(weighting=BM25F())
            self.scorer = Scorer(self.searcher.reader())
            self._docnum = self._docnums()
        except StoreError:
            raise
        except Exception as e:  # noqa: BLE001 - Whoosh signals a damaged index many ways
            raise StoreError(f"{d}: damaged search index ({_reason(e)}); {_REBUILD}") from None
        self._rid_of = {d: rid for rid, d in enumerate(self._docnum)}

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
            self._cutter = analysis.ChineseCutter(self.words)
        return self._cutter

    def to_simplified(self, text: str) -> str:
        """Traditional → Simplified Chinese (OpenCC t2s)."""
        if self._t2s is None:
            import opencc

            self._t2s = opencc.OpenCC("t2s")
        return self._t2s.convert(text)

    def warm(self) -> None:
        """Load everything a first query would (jieba, OpenCC, scopes, spelling)."""
        with self._lock:
            self._warm()

    def _warm(self) -> None:
        self.cutter()
        self.to_simplified("時")
        for lang, vs in self.versions.items():
            if vs:
                self._scope(lang, len(vs) - 1)
        self.speller.correct("warmup")

    def _scope(self, lang: str, o: int) -> set[int]:
        key = (lang, o)
        if key not in self._scopes:
            self._scopes[key] = {
                self._docnum[rid]
                for rid, (lg, _n, rs) in enumerate(self.records)
                if lg == lang and _in(rs, o)
            }
        return self._scopes[key]

    def _rid(self, lang: str, number: str, o: int) -> int | None:
        for rid in self._by_number.get((lang, number), ()):
            if _in(self.records[rid][2], o):
                return rid
        return None

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
        v = self.aliases.get(version, version)
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
        self, query: str, lang: str = "auto", version: str | None = None, limit: int = 10
    ) -> dict:
        """Ranked hits in the SPEC's shape, plus `did_you_mean`."""
        with self._lock:  # one file position and one cache shared by all threads
            try:
                return self._search(query, lang, version, limit)
            except _DAMAGE as e:  # a damaged block shows only when a query first reads it
                raise StoreError(
                    f"{self.dir}: damaged search index ({_reason(e)}); {_REBUILD}"
                ) from None

    def _search(self, query: str, lang: str, version: str | None, limit: int) -> dict:
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
        out = {
            "query": asked,
            "lang": lang,
            "version": vid,
            "total": 0,
            "hits": [],
            "did_you_mean": None,
        }
        if o is None or not q:
            return out
        pinned, plan, needles = self._plan(q, lang, o, out)
        ranked = self._rank(lang, o, plan, limit + len(pinned)) if plan else ([], 0)
        scored, total = ranked
        pinned_docs = [self._docnum[r] for r in pinned]
        top = max((sc for _d, sc in scored), default=0.0)
        seen = set(pinned_docs)
        hits = [(d, top + len(pinned_docs) - i) for i, d in enumerate(pinned_docs)]
        hits += [(d, sc) for d, sc in scored if d not in seen]
        out["total"] = total + sum(1 for d in pinned_docs if d not in {x for x, _ in scored})
        out["total"] = max(out["total"], len(hits[:limit]))
        out["hits"] = [self._hit(d, sc, lang, vid, needles) for d, sc in hits[:limit]]
        return out

    def _rank(self, lang: str, o: int, plan: dict, n: int) -> tuple[list[tuple[int, float]], int]:
        """Top `n` (docnum, score) by BM25, all query terms preferred, phrases preferred."""
        scope = self._scope(lang, o)
        sid = (lang, o)
        terms = plan["terms"]
        scores, matched = self.scorer.score(sid, scope, terms, plan["fields"])
        if plan.get("extra"):
            more, _m = self.scorer.score(sid, scope, plan["extra"], plan["extra_fields"])
            for d, sc in more.items():
                scores[d] = scores.get(d, 0.0) + sc
        if not scores:
            return [], 0
        k = max(len(terms), 1)
        final = {d: sc * (0.2 + 0.8 * (matched.get(d, 0) / k) ** 3) for d, sc in scores.items()}
        if plan.get("sections"):
            for d in final:
                number = self.records[self._rid_of[d]][1]
                if number.split(".")[0] in plan["sections"]:
                    final[d] *= 3.0
        pool = heapq.nlargest(max(n, 30), final.items(), key=lambda x: x[1])
        if plan.get("phrase"):
            pool = [(d, sc * self._phrase_bonus(lang, d, plan["phrase"])) for d, sc in pool]
            pool.sort(key=lambda x: -x[1])
        return pool[:n], len(final)

    def _phrase_bonus(self, lang: str, docnum: int, phrase: list[str]) -> float:
        """1.6 when the query's words stand together in the text, else 1."""
        text = self.searcher.stored_fields(docnum)["text"]
        if lang == "zh":
            return 1.6 if any(p in text for p in phrase) else 1.0
        seq = [analysis.stem(w) for w in analysis.english_words(text.replace("-", " "))]
        k = len(phrase)
        first = phrase[0]
        for i, w in enumerate(seq):
            if w != first:
                continue
            j, ok = i, True
            for t in phrase[1:]:
                window = seq[j + 1 : j + 4]
                if t not in window:
                    ok = False
                    break
                j = j + 1 + window.index(t)
            if ok and j - i <= 2 * k:
                return 1.6
        return 1.0

    def _plan(self, q: str, lang: str, o: int, out: dict):
        """(pinned rids, Whoosh query or None, highlight needles) for one cleaned query."""
        pinned: list[int] = []
        whole = querynumbers.whole_number(q)
        if whole:
            rid = self._rid(lang, whole, o)
            if rid is not None:
                pinned.append(rid)
                kids = sorted(self._children.get((lang, whole), ()), key=sort_key)
                pinned += [r for n in kids if (r := self._rid(lang, n, o)) is not None]
                return pinned, None, ("en", [], [whole])
        for n in querynumbers.numbers_in(q):
            rid = self._rid(lang, n, o)
            if rid is not None:
                pinned.append(rid)
        if lang == "en":
            return self._plan_en(q, o, out, pinned)
        return self._plan_zh(q, o, pinned)

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

    def _definer(self, lang: str, number: str, o: int, stems: list[str]) -> int | None:
        """A subrule of an untitled target whose text opens by defining the term."""
        rid = self._rid(lang, number, o)
        if rid is None or not stems:
            return None
        if self.searcher.stored_fields(self._docnum[rid]).get("title"):
            return None
        k = len(stems)
        for n in sorted(self._children.get((lang, number), ()), key=sort_key):
            r = self._rid(lang, n, o)
            if r is None:
                continue
            text = self.searcher.stored_fields(self._docnum[r])["text"]
            if lang == "en":
                words = analysis.english_words(text.replace("-", " "))[: k + 4]
                if words and words[0] in ("a", "an", "the"):
                    words = words[1:]
                head = [analysis.stem(w) for w in words[:k]]
                rest = words[k : k + 2]
                is_def = len(rest) == 2 and rest[0] in ("is", "are") and rest[1] in _DETERMINERS
                if head == stems and is_def:
                    return r
            elif any(text.startswith(stems[0] + d) for d in _DEFINES_ZH):
                return r
        return None

    def _plan_en(self, q: str, o: int, out: dict, pinned: list[int]):

        words = analysis.english_words(q.replace("-", " "))
        fixed = []
        for w in words:
            c = self.speller.correct(w)
            fixed.append(c or w)
        if fixed != words:
            out["did_you_mean"] = " ".join(fixed)
        terms = [analysis.stem(w) for w in fixed if w not in analysis.STOP_WORDS]
        terms = list(dict.fromkeys(terms))
        key = analysis.term_key("en", " ".join(fixed))
        sections: list[str] = []
        if key:
            stems = [analysis.stem(w) for w in key.split()]
            rids, sections = self._targets("en", key, o, stems)
            pinned += [r for r in rids if r not in pinned]
        if not terms:
            return pinned, None, ("en", [], [])
        plan: dict = {
            "terms": terms,
            "fields": {"body": 1.0, "etitle": 1.5, "ex": 0.3, "ctx": 0.5},
            "sections": sections,
        }
        if len(terms) > 1:
            plan["phrase"] = [analysis.stem(w) for w in fixed if w not in analysis.STOP_WORDS]
        return pinned, plan, ("en", terms, [])

    def _plan_zh(self, q: str, o: int, pinned: list[int]):

        key = analysis.term_key("zh", q)
        sections: list[str] = []
        if key:
            rids, sections = self._targets("zh", key, o, [key])
            en_key = self.zh_to_en.get(key)
            vid = self.versions["zh"][o]
            if not rids and en_key and vid in self.versions.get("en", []):
                via = ("en", self.versions["en"].index(vid))
                rids, sections = self._targets("zh", en_key, o, [key], via=via)
            pinned += [r for r in rids if r not in pinned]
        tokens = list(dict.fromkeys(self.cutter().cut(q)))
        runs = re.findall(r"[\u3400-\u9fff]{2,}", q)
        if not tokens and not runs:
            return pinned, None, ("zh", [], [])
        grams = list(dict.fromkeys(g for run in runs for g in analysis.bigrams(run) if g))
        plan = {
            "terms": tokens,
            "fields": {"zw": 1.0, "zt": 1.5, "zex": 0.3, "zctx": 0.5},
            "sections": sections,
            "extra": grams,
            "extra_fields": {"zbi": 0.3},
            "phrase": runs if (len(tokens) > 1 or not tokens) else [],
        }
        return pinned, plan, ("zh", [], tokens + runs)

    def _other(self, lang: str, number: str, version: str) -> str | None:
        """The other language's text of the same rule in the same version, if any."""
        other = "zh" if lang == "en" else "en"
        vs = self.versions.get(other, [])
        if version not in vs:
            return None
        rid = self._rid(other, number, vs.index(version))
        return None if rid is None else self.searcher.stored_fields(self._docnum[rid])["text"]

    def _hit(self, docnum: int, score: float, lang: str, version: str, needles) -> dict:
        f = self.searcher.stored_fields(docnum)
        kind, stems, subs = needles
        text = f["text"]
        if kind == "en" and stems:
            mark = to_html(text, highlight.english(text, stems))
        else:
            mark = to_html(text, highlight.substrings(text, subs))
        hit = {
            "number": f["number"],
            "version": version,
            "lang": f["lang"],
            "title": f.get("title"),
            "text": text,
            "highlight": mark,
            "score": round(float(score), 4),
            "other": self._other(f["lang"], f["number"], version),
        }
        if f.get("cur") and f["cur"] != f["number"]:
            hit["current_number"] = f["cur"]
        return hit


def _reason(error: Exception) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _check_terms(d: Path, meta: dict) -> None:
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


def _lookup(rows: list) -> dict[str, list[tuple[list[str], list[list[int]]]]]:
    out: dict[str, list] = {}
    for key, targets, rs in rows:
        out.setdefault(key, []).append((targets, rs))
    return out
