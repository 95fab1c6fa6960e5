"""Answers search queries over the index: rule numbers, glossary terms and keywords, then text.

The top of the search's layers, each a class over the one below: the index opened
(`opened.OpenIndex`), a query read into its plan (`planning.Planner`), the plan's candidates
ranked (`candidates.Ranker`), and here the hits shaped as the SPEC's search JSON (`Searcher`).
"""

from __future__ import annotations

import pickle
import struct
import zlib
from typing import Any

import numpy as np

from crkb.errors import BadInput, StoreError
from crkb.markup import merged_html
from crkb.search import analysis, bridge, highlight
from crkb.search.candidates import Ranker
from crkb.search.index import GONE
from crkb.search.opened import KEPT, REBUILD, error_reason, stems
from crkb.search.planning import Needles, clean_query, folded

MAX_LIMIT = 100
# What Whoosh raises reading a damaged block of the index (zlib, struct, pickle, short reads).
_DAMAGE = (OSError, EOFError, struct.error, zlib.error, pickle.UnpicklingError, UnicodeDecodeError)


class Searcher(Ranker):
    """An open index: queries in, ranked hits out (the SPEC's search JSON)."""

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
                    f = self._fields(d)
                    self._kept[d] = f._replace(words=stems(f.text)) if lang == "en" else f
        self.speller.correct("warmup")
        for text in self.definitions.get("zh", {}).values():  # jieba: ~0.2 ms each, asked
            self._defined("zh", text)
        self._sections()
        self._in_text_order()
        self._zh_titles()

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
                    f"{self.dir}: damaged search index ({error_reason(e)}); {REBUILD}"
                ) from None

    def _search(
        self, query: str, lang: str, version: str | None, limit: int, other: bool = True
    ) -> dict[str, Any]:
        q = clean_query(query)
        if lang not in ("auto", "en", "zh"):
            raise BadInput(f"--lang: expected en, zh or auto, not {lang!r}")
        try:
            limit = max(1, min(int(limit), MAX_LIMIT))
        except (TypeError, ValueError):
            raise BadInput(f"--limit: expected a number, not {limit!r}") from None
        if lang == "auto":
            lang = "zh" if analysis.has_cjk(q) else "en"
        asked = q  # echoed as typed (bounded and cleaned), not as converted to Simplified
        q = folded(q)
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

    def _other(self, lang: str, number: str, version: str) -> str | None:
        """The other language's text of the same rule in the same version, if any."""
        other = "zh" if lang == "en" else "en"
        at = self._ordinal(other, version)
        if at is None:
            return None
        rid = self._rid(other, number, at)
        return None if rid is None else self._fields(self._docnum[rid]).text

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
        if f.cur == GONE:  # the newest English release no longer has the rule
            hit["current_number"] = None
        elif f.cur and f.cur != f.number:
            hit["current_number"] = f.cur
        return hit
