"""A plan's candidates ranked: the best by BM25F of its terms (and the rules its players'
questions meet), each with the signals read from its own text, weighed by the learned
exponents and corrected by the learned trees."""

from __future__ import annotations

import bisect
import math
import re
from pathlib import Path
from typing import NamedTuple

import numpy as np

from crkb.search import analysis, bridge, forest, ranking, topics, weights
from crkb.search.analysis import STOP_WORDS as STOP
from crkb.search.opened import PARENTS, keep_bounded
from crkb.search.planning import QUOTED, Planner, QueryPlan, clean_query
from crkb.search.postings import EMPTY_DOCS, EMPTY_FREQS, FloatArray, IntArray

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
SUBJECT = 6  # a rule is about the words among its first so many
POINTERS = 10  # leading candidates whose references count
POOL = 25  # candidates re-ranked by the signals read from their text
ASKED_TOP = 3  # … with the rules whose players' questions the query meets best


Players = tuple[IntArray, FloatArray]  # documents in ascending order, BM25 of their questions


class Candidates(NamedTuple):
    """What the learned rankings are trained on (Searcher.candidates)."""

    pinned: list[str]
    scored: list[tuple[str, dict[str, float]]]
    terms: int  # the query's content words


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


class Ranker(Planner):
    """Ranks a plan's candidates in one version: BM25F, then their signals, the weighed
    product and the forest's correction."""

    def __init__(self, index_dir: Path) -> None:
        super().__init__(index_dir)
        self._title_stems: dict[str, tuple[str, ...]] = {}  # an English title → its stems
        self._heads: np.ndarray | None = None  # docnum → code of its section (number's head)
        self._head_code: dict[str, int] = {}
        self._lexical: tuple[list[str], np.ndarray] | None = None  # numbers in order, docnums
        self.weights: dict[str, float] = dict(weights.LEARNED)
        self.players_questions = True  # off: the rules' own words alone (a measure, a test)
        self.forest: forest.Forest | None = forest.load()

    def candidates(self, query: str, lang: str, n: int = POOL) -> Candidates:
        """The rules pinned first, the scored candidates with their factors, and how many
        content words the query has, in the newest version: what the weights and the forest
        are learned from (scripts/train_search.py, scripts/train_ranker.py)."""
        with self._lock:
            q = clean_query(query)
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
            stems = keep_bounded(self._title_stems, title, _title_stems(title), PARENTS)
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


_CHAPTER_COMMON = re.compile("游戏|规则")  # words of chapter titles most questions hold


def _names_zh(plan: QueryPlan, title: str) -> bool:
    """True when a Chinese query names a title whole (or the title holds one of its words); a
    one-character title (磨, mill) is named by that character alone."""
    return any(
        f == title or (len(f) > 1 and (title in f or f in title))
        for forms in plan.near
        for f in forms
    )


def _title_stems(title: str) -> tuple[str, ...]:
    """The stems of an English title's words but stop words."""
    return tuple(analysis.stem(w) for w in analysis.english_words(title) if w not in STOP)
