"""A query read: the rules it names by number, title or glossary term, its weighted terms
(spelling put right, question words dropped, glossary words added) and what it asks for, as
the Plan the candidates are scored by."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from crkb.errors import StoreError
from crkb.numbers import sort_key
from crkb.search import (
    analysis,
    bridge,
    mixed,
    names,
    numerals,
    players,
    querynumbers,
    sounds,
    topics,
)
from crkb.search.opened import REBUILD, OpenIndex, Ranges, error_reason
from crkb.search.question import (
    ASK_CAN_EN,
    ZH_FILLER,
    ZH_SOFT,
    Term,
    Understood,
    asking_en,
    asks_can_zh,
    known_words,
    quoted_en,
    understand_en,
    understand_zh,
)

MAX_QUERY = 200
DEFINES_ZH = ("为", "是", "指")
DETERMINERS = frozenset(["a", "an", "the", "one", "any", "each"])

Fields = dict[str, tuple[float, float]]  # field → (BM25 boost, share of a match it counts as)
# The rule's own text and title count whole; its parent's title less; its examples half.
EN_FIELDS: Fields = {"body": (1.0, 1.0), "etitle": (1.5, 1.0), "ex": (0.3, 0.5), "ctx": (0.5, 0.8)}
ZH_FIELDS: Fields = {"zw": (1.0, 1.0), "zt": (1.5, 1.0), "zex": (0.3, 0.5), "zctx": (0.5, 0.8)}
ZH_BIGRAMS: Fields = {"zbi": (0.3, 0.0)}
# The words a rule quotes (“you”, “target”), met by the words a query quotes: such a rule
# explains the very word asked about, and shares little else with the question's words.
QUOTED: dict[str, Fields] = {"en": {"quoted": (2.0, 0.0)}, "zh": {"zquoted": (2.0, 0.0)}}
EXPAND = 0.1  # weight of a word taken from a glossary definition of a query's term
RARE = 0.2  # a definition's word used by more than this share of the indexed rules is left out
MAX_EXPAND = 8  # at most so many such words per query


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


def clean_query(query: object) -> str:
    q = query if isinstance(query, str) else ""
    q = "".join(ch if ch.isprintable() else " " for ch in q[: MAX_QUERY * 2])
    return re.sub(r"\s+", " ", q).strip()[:MAX_QUERY]


def folded(q: str) -> str:
    """A cleaned query in the characters the rules are written in: full-width letters typed
    with a Chinese keyboard (Ｆｌｙｉｎｇ) and the ligatures of text pasted from the PDF (ﬂying)
    become plain letters (Unicode's compatibility forms, NFKC), still within the bound."""
    return q if q.isascii() else unicodedata.normalize("NFKC", q)[:MAX_QUERY]


def _in(ranges: Ranges | list[list[int]], o: int) -> bool:
    return any(a <= o <= b for a, b in ranges)


class Planner(OpenIndex):
    """Reads a query into its Plan, in the words and against the titles of one version."""

    def __init__(self, index_dir: Path) -> None:
        super().__init__(index_dir)
        self._sounds: sounds.Sounds | Literal[False] | None = None  # read at the first slip
        self._definitions: dict[tuple[str, str], tuple[Term, ...]] = {}  # bounded by the glossary
        self._zh_title_index: topics.ZhTitles | None = None

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
        if analysis.has_cjk(q):  # a Chinese term asked of the English rules: its English name
            q = mixed.chinese_terms_en(self.to_simplified(q), self.zh_to_en, self.cutter().cut)
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
        plan = _read(
            "en",
            asked,
            EN_FIELDS,
            sections=sections,
            favoured=favoured,
            defines=tuple(stems) if asked.question else (),
            expand=self._expand_en(asked),
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
        plan = _read(
            "zh",
            asked,
            ZH_FIELDS,
            sections=sections,
            favoured=favoured,
            defines=(key,) if asked.question and key else (),
            defines_en=tuple(analysis.stem(w) for w in en_key.split())
            if asked.question and en_key
            else (),
            expand=self._expand_zh(asked),
            extra=grams,
            extra_fields=ZH_BIGRAMS,
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
        words = list(asked.content)
        # Word pairs first: "leaves battlefield" is defined more narrowly than "leaves".
        grams = [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)] + words
        return self._expand("en", asked, [analysis.term_key("en", g) for g in grams])

    def _expand(self, lang: str, asked: Understood, keys: list[str]) -> tuple[Term, ...]:
        """The terms the glossary definitions of `keys` add, each once, none the query holds."""
        defs = self.definitions.get(lang, {})
        have = {f for t in asked.terms for f, _x in t.forms}
        out: dict[str, Term] = {}
        for key in keys:
            text = defs.get(key)
            if not text:
                continue
            for t in self._defined(lang, text):
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
                    f"{self.dir}: damaged search index ({error_reason(e)}); {REBUILD}"
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
        return self._expand("zh", asked, list(asked.content))

    def _zh_titles(self) -> topics.ZhTitles:
        """The Chinese titles by the text that names them (topics.zh_index), made once."""
        if self._zh_title_index is None:
            self._zh_title_index = topics.zh_index(self.titles.get("zh", {}))
        return self._zh_title_index


def _read(lang: str, asked: Understood, fields: Fields, **rest: Any) -> QueryPlan:
    """A query's plan: what reading it gave (its terms, the forms of its content words, what it
    asks for), the same in both languages, with the rest each language finds."""
    near = [tuple(f for f, _x in t.forms) for t in asked.terms if t.weight == 1.0]
    return QueryPlan(
        lang,
        asked.terms,
        fields,
        near,
        wants_number=asked.wants_number,
        wants_outcome=asked.wants_outcome,
        wants_zone=asked.wants_zone,
        question=asked.question,
        **rest,
    )


def _exact(texts: Iterable[str]) -> tuple[Term, ...]:
    """Terms met only as written (the words a query quotes), once each, in a stable order."""
    return tuple(Term(t, ((t, 1.0),)) for t in sorted(set(texts)))


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
