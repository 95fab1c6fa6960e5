"""The pack's search index: per language, weighted postings made with the server's own analysers.

English words are stemmed and Chinese segmented here, at export time, by crkb.search.analysis (the
same stop words, Porter stems, jieba with the game-term dictionary, sub-words and bigrams as the
server's index); the browser only looks query words up in the vocabulary shipped beside them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from crkb.model import Document, Rule
from crkb.numbers import sort_key
from crkb.search import analysis, candidates, english, players, question, ranking, sounds, weights
from crkb.search.index import citations, context_of, glossary_targets, sounds_of, title_targets
from crkb.search.planning import DEFINES_ZH, DETERMINERS
from crkb.search.spelling import Speller

# Field weights as the server's search gives them (body, title, examples, context; bigrams).
WEIGHTS = {"body": 1.0, "title": 1.5, "ex": 0.3, "ctx": 0.5}
BIGRAM_WEIGHT = 0.3
_CJK_RANGES = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))

Weighted = dict[str, float]
Postings = dict[str, list[float]]
Json = dict[str, object]


def _add(acc: Weighted, terms: Iterable[str], weight: float) -> None:
    for t in terms:
        acc[t] = acc.get(t, 0.0) + weight


def english_fields(rule: Rule, ctx: str) -> Weighted:
    """Weighted term counts of one English rule, field by field as the server indexes it."""
    acc: Weighted = {}
    _add(acc, analysis.english_terms(rule.text), WEIGHTS["body"])
    if rule.title and rule.kind in ("rule", "subrule"):
        _add(acc, analysis.english_terms(rule.title), WEIGHTS["title"])
    _add(acc, analysis.english_terms("\n".join(rule.examples)), WEIGHTS["ex"])
    _add(acc, analysis.english_terms(ctx), WEIGHTS["ctx"])
    return acc


def chinese_fields(rule: Rule, ctx: str, cut: Callable[[str], list[list[str]]]) -> Weighted:
    """Weighted term counts of one Chinese rule: jieba words with their dictionary sub-words."""
    acc: Weighted = {}

    def flat(text: str) -> list[str]:
        return [w for group in cut(text) for w in group] if text else []

    _add(acc, flat(rule.text), WEIGHTS["body"])
    if rule.title and rule.kind in ("rule", "subrule"):
        _add(acc, flat(rule.title), WEIGHTS["title"])
    _add(acc, flat("\n".join(rule.examples)), WEIGHTS["ex"])
    _add(acc, flat(ctx), WEIGHTS["ctx"])
    return acc


def postings(per_doc: list[Weighted]) -> tuple[Postings, list[float]]:
    """term → flat [doc, weight, doc, weight …] (weights to one decimal) and each doc's length."""
    out: dict[str, list[float]] = {}
    lengths: list[float] = []
    for d, acc in enumerate(per_doc):
        lengths.append(round(sum(acc.values()), 1))
        for term, w in acc.items():
            out.setdefault(term, []).extend((d, round(w, 1)))
    return out, lengths


def _english_definer(rule_text: str, key: str) -> bool:
    """Does a text open by defining the term `key` (`Deathtouch is a static ability …`)?"""
    stems = [analysis.stem(w) for w in key.split()]
    words = analysis.english_words(rule_text)[: len(stems) + 4]
    if words and words[0] in ("a", "an", "the"):
        words = words[1:]
    head = [analysis.stem(w) for w in words[: len(stems)]]
    rest = words[len(stems) : len(stems) + 2]
    return head == stems and len(rest) == 2 and rest[0] in ("is", "are") and rest[1] in DETERMINERS


def pins(
    doc: Document, via: dict[str, list[str]] | None = None
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Term key → rule numbers a glossary entry or rule title names (a defining subrule of an
    untitled target first), and term key → sections a glossary entry points to as a whole.
    `via`: for Chinese, keys the Chinese glossary lacks, answered by the English one."""
    rules = {r.number: r for r in doc.rules}
    children: dict[str, list[Rule]] = {}
    for r in doc.rules:
        if r.parent:
            children.setdefault(r.parent, []).append(r)
    numbers: dict[str, list[str]] = {}
    sections: dict[str, list[str]] = {}
    tables = [title_targets(doc), glossary_targets(doc)]
    for is_glossary, table in enumerate(tables):
        for key, targets in table.items():
            for t in targets:
                if is_glossary and "." not in t:
                    sections.setdefault(key, []).append(t)
                elif t not in numbers.setdefault(key, []):
                    numbers[key].append(t)
    for key, targets in (via or {}).items():
        if key not in numbers and key not in sections:
            numbers[key] = [t for t in targets if t in rules]
    out: dict[str, list[str]] = {}
    for key, targets in numbers.items():
        pinned: list[str] = []
        for t in targets:
            target = rules.get(t)
            if target is None:
                continue
            if not target.title:
                for c in sorted(children.get(t, []), key=lambda x: sort_key(x.number)):
                    defines = (
                        _english_definer(c.text, key)
                        if doc.lang == "en"
                        else any(c.text.startswith(key + d) for d in DEFINES_ZH)
                    )
                    if defines:
                        pinned.append(c.number)
                        break
            if t not in pinned:
                pinned.append(t)
        if pinned:
            out[key] = pinned
    secs = {k: v for k, v in sections.items() if k not in out}
    return dict(out), dict(secs)


def t2s_table(chars: set[str], convert: Callable[[str], str]) -> dict[str, str]:
    """Traditional → Simplified for every character whose Simplified form occurs in the pack."""
    codes = [chr(c) for lo, hi in _CJK_RANGES for c in range(lo, hi + 1)]
    converted = convert("\n".join(codes)).split("\n")
    if len(converted) != len(codes):  # a conversion that merged lines: go one by one
        converted = [convert(c) for c in codes]
    return {t: s for t, s in zip(codes, converted, strict=True) if s != t and s in chars}


def _pattern(pattern: re.Pattern[str], factor: float) -> list[object]:
    """[source, flags, factor] of a compiled regex and its factor, for the browser."""
    return [pattern.pattern, "i" if pattern.flags & re.I else "", float(factor)]


def query_words(lang: str) -> Json:
    """How a question is read, as the server reads it (`crkb.search.question`,
    `crkb.search.ranking`, `crkb.search.candidates`): words dropped (filler), words that count a
    little (soft), irregular forms, words asking for a count or an outcome, the text signals
    that favour an answer (a statement, a number, a condition), their factors and the learned
    weight of each (crkb.search.weights)."""
    en = lang == "en"
    quantity = question.EN_QUANTITY if en else question.ZH_QUANTITY
    out: Json = {
        "filler": sorted(question.EN_FILLER if en else question.ZH_FILLER),
        "soft": sorted(question.EN_SOFT if en else question.ZH_SOFT),
        "outcome": sorted(question.EN_OUTCOME if en else question.ZH_OUTCOME),
        "quantity": sorted(" ".join(q) if isinstance(q, tuple) else q for q in quantity),
        "irregular": dict(question.EN_IRREGULAR) if en else {},
        "dieRolled": sorted(question.DIE_ROLLED) if en else [],  # "roll a die", not dying
        "can": sorted(question.ASK_CAN_EN if en else question.ASK_CAN_ZH),
        "notCan": "" if en else question.NOT_MODAL_ZH.pattern,
        # players' words put in the rules' words before the query is read (crkb.search.players)
        "players": {" ".join(k): list(v) for k, v in players.EN_REWRITE.items()}
        if en
        else [list(pr) for pr in players.ZH_REWRITE],
    }
    out["signals"] = {
        "states": _pattern(ranking.STATES_EN if en else ranking.STATES_ZH, ranking.STATES),
        "counts": _pattern(ranking.COUNT_EN if en else ranking.COUNT_ZH, ranking.COUNT),
        "outcome": _pattern(
            ranking.CONDITIONAL_EN if en else ranking.CONDITIONAL_ZH, ranking.OUTCOME
        ),
    }
    out["factors"] = {
        "proximity": ranking.PROXIMITY,  # content words standing together
        "heading": candidates.HEADING,  # a title alone answers no question
        "specific": candidates.SPECIFIC,  # a keyword's rule, keyword not named
        "favoured": candidates.FAVOURED,  # the rules a question's term names
        "cited": ranking.CITED,  # each doubling of the references to a rule
        "pointed": ranking.POINTED,  # a rule the leading candidates refer to
        "pointers": candidates.POINTERS,  # how many leading candidates are read for references
        "subject": ranking.SUBJECT,  # the content words open the rule (English)
        "opening": candidates.SUBJECT,  # how many words open it
        "modal": ranking.MODAL,  # "can't look" for "can a player look"
        "asked": candidates.ASKED_GAIN,  # the rule whose players' questions the query meets best
        "askedPool": candidates.ASKED_POOL,  # their BM25's share in choosing the candidates
    }
    out["weights"] = dict(weights.LEARNED)
    return out


def asked_postings(
    asked: list[tuple[str, ...]], terms: Callable[[str], Iterable[str]]
) -> tuple[Postings, list[float]]:
    """Postings of the players' questions written for each rule (crkb/search/asked.py), one
    document per rule as in the pack's main postings."""
    per_doc: list[Weighted] = []
    for questions in asked:
        acc: Weighted = {}
        _add(acc, terms("\n".join(questions)), 1.0)
        per_doc.append(acc)
    return postings(per_doc)


def english_index(doc: Document, asked: list[tuple[str, ...]] | None = None) -> Json:
    """The English index: documents, postings, word → stem forms, pins; `asked`: each rule's
    players' questions (`crkb.search.asked.attach`), searched beside its text."""
    titled = {r.number: r.title for r in doc.rules if r.title}
    docs: list[list[object]] = []
    per_doc: list[Weighted] = []
    forms: dict[str, str] = {}
    for r in doc.rules:
        ctx = context_of(r.number, titled)
        docs.append([r.number, r.title, r.text])
        per_doc.append(english_fields(r, ctx))
        for part in (r.text, r.title or "", *r.examples):
            for w in analysis.english_words(part):
                if w not in analysis.STOP_WORDS and w not in forms:
                    forms[w] = analysis.stem(w)
    post, lengths = postings(per_doc)
    pinned, sections = pins(doc)
    mine = asked or [() for _r in doc.rules]
    asked_post, asked_len = asked_postings(mine, analysis.english_terms)
    return {
        "asked": asked_post,
        "askedlen": asked_len,
        "ask": query_words("en"),
        "lang": "en",
        "version": doc.version,
        "docs": docs,
        "cited": citations(doc),
        "post": post,
        "len": lengths,
        "forms": forms,
        "stop": sorted(analysis.STOP_WORDS),
        # everyday words the pack's corrector would take for misspellings ("wear" for "bear")
        "english": english.within_reach(
            english.frequent_words(), Speller(dict.fromkeys(forms, 1), analysis.stem).correct
        ),
        "pins": pinned,
        "sections": sections,
    }


def chinese_index(
    doc: Document,
    cutter: analysis.ChineseCutter,
    convert: Callable[[str], str],
    via: dict[str, list[str]],
    asked: list[tuple[str, ...]] | None = None,
) -> Json:
    """The Chinese index: documents, word and bigram postings, vocabulary frequencies, pins and the
    Traditional → Simplified table; `asked` as for `english_index`."""
    titled = {r.number: r.title for r in doc.rules if r.title}
    docs: list[list[object]] = []
    per_doc: list[Weighted] = []
    per_bi: list[Weighted] = []
    chars: set[str] = set()
    words: Counter[str] = Counter()
    for r in doc.rules:
        words.update(set(cutter.cut(r.text)))
        ctx = context_of(r.number, titled)
        docs.append([r.number, r.title, r.text])
        per_doc.append(chinese_fields(r, ctx, cutter.groups))
        bi: Weighted = {}
        _add(bi, (g for g in analysis.bigrams(r.text) if g), BIGRAM_WEIGHT)
        per_bi.append(bi)
        for part in (r.text, r.title or "", *r.examples):
            chars.update(re.findall(r"[\u3400-\u9fff\uf900-\ufaff]", part))
    post, lengths = postings(per_doc)
    bipost, bilen = postings(per_bi)
    pinned, sections = pins(doc, via)

    def flat(text: str) -> list[str]:
        return [w for group in cutter.groups(text) for w in group]

    asked_post, asked_len = asked_postings(asked or [() for _r in doc.rules], flat)
    return {
        "asked": asked_post,
        "askedlen": asked_len,
        "ask": query_words("zh"),
        "lang": "zh",
        "version": doc.version,
        "docs": docs,
        "cited": citations(doc),
        "post": post,
        "len": lengths,
        "bi": bipost,
        "bilen": bilen,
        "pins": pinned,
        "sections": sections,
        "t2s": t2s_table(chars, convert),
        # a slip of pinyin input read as the game's word of the same sound (crkb.search.sounds)
        "sounds": sounds.tables(sounds_of(words, cutter.game), analysis.everyday_words()),
    }


def via_english(
    en: Document | None,
    terms: dict[str, str],
    twins: Mapping[str, str | None] | None = None,
) -> dict[str, list[str]]:
    """Chinese term key → rule numbers, through the term dictionary and the English pins (for a
    Chinese term the Chinese glossary does not list). `twins`: the English numbers the Chinese
    text numbers otherwise (None: it lacks the rule), when it translates an older release."""
    if en is None:
        return {}
    en_pins, _sections = pins(en)
    out: dict[str, list[str]] = {}
    for zh_key, en_key in analysis.zh_term_keys(terms).items():
        got = [t for n in en_pins.get(en_key, []) if (t := (twins or {}).get(n, n)) is not None]
        if got and zh_key:
            out[zh_key] = got
    return out
