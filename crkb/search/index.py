"""Builds the search index: every rule text once, with the versions it belongs to.

Many releases share most of their text, so a rule is indexed once per distinct
(language, number, title, text, examples, other-language text) and a side file (`meta.json`)
records, per indexed record, the versions it belongs to; the engine turns those into per-version
document sets. The same side file records the Chinese user dictionary, the glossary and title
lookups, and the English vocabulary for spelling suggestions.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from crkb.graph.terms import split_variants
from crkb.model import Document
from crkb.numbers import parent_of
from crkb.search import analysis, bridge, english, postings, sounds
from crkb.search.asked import Asked, attach
from crkb.search.asked import load as asked_load
from crkb.search.spelling import Speller
from crkb.store.location import swap_in
from crkb.store.wordfreq import FREQ_NAME

META = "meta.json"
USERDICT = "userdict.txt"
# 2: count words as digits; 3: glossary definitions; 4: citations of each rule; 5: postings arrays;
# 6: a rule number is one word; 7: definitions without the rule numbers they point at;
# 8: the everyday English words the spelling corrector leaves as they are; 9: a power and
# toughness ("+1/+1") is one word; 10: the Chinese words' sounds (sounds.json); 11: the single
# words rules quote (“you”) as a field of their own; 12: and the Chinese ones (“你”); 13: and
# the words of short quoted phrases (“Activate only once each turn”); 14: the English bridge's
# word table (Chinese word → English words, learned from the parallel releases); 15: players'
# questions written for each rule (crkb/search/asked.py) as fields of their own; 16: those
# questions in the rules' words, as a query is read (asked.as_query); 17: accented letters are
# word letters, folded (Dandân → dandan)
# 18: a Chinese rule the newest English release no longer has is marked so (`GONE`)
FORMAT = 19
# The `cur` of a Chinese rule whose rule the newest English release no longer has (removed).
GONE = "-"

_SEE_EN = re.compile(r"^See (?:also )?(.+?)\.?$")
_SEE_ZH = re.compile(r"^参见(.+?)。?$")


def sounds_of(counts: Counter[str], game: Iterable[str]) -> dict[str, int]:
    """The Chinese words a mistyped word may be meant for, with how many rules use each: the
    game's terms, and words of three or more characters that more than one rule uses. Two
    everyday words often share a sound (其实, 起始), a game's term and a slip seldom do."""
    out = {w: n for w, n in counts.items() if n > 1 and len(w) > 2 and analysis.all_cjk(w)}
    for w in game:
        if len(w) > 1 and analysis.all_cjk(w):
            out.setdefault(w, counts.get(w, 1))
    return out


def schema() -> Any:
    """The Whoosh schema: stored display fields, English and Chinese search fields.

    No positions are kept (the engine checks phrases on the few top texts), which halves the
    build; `ctx` holds the titles of the section and titled rule a rule belongs to.
    """
    from whoosh import fields

    en = analysis.english_analyzer()
    pre = analysis.PreTokenized()
    return fields.Schema(
        rid=fields.STORED(),
        lang=fields.STORED(),
        number=fields.STORED(),
        title=fields.STORED(),
        text=fields.STORED(),
        other=fields.STORED(),
        cur=fields.STORED(),
        body=fields.TEXT(analyzer=en, phrase=False),
        etitle=fields.TEXT(analyzer=en, phrase=False),
        ex=fields.TEXT(analyzer=en, phrase=False),
        ctx=fields.TEXT(analyzer=en, phrase=False),
        quoted=fields.TEXT(analyzer=en, phrase=False),
        zquoted=fields.TEXT(analyzer=pre, phrase=False),
        asked=fields.TEXT(analyzer=en, phrase=False),
        zasked=fields.TEXT(analyzer=pre, phrase=False),
        zw=fields.TEXT(analyzer=pre, phrase=False),
        zt=fields.TEXT(analyzer=pre, phrase=False),
        zex=fields.TEXT(analyzer=pre, phrase=False),
        zctx=fields.TEXT(analyzer=pre, phrase=False),
        zbi=fields.TEXT(analyzer=pre, phrase=False),
    )


def pick_documents(docs: Iterable[Document]) -> dict[tuple[str, str], Document]:
    """One document per (lang, version): the fullest when a release was filed twice."""
    out: dict[tuple[str, str], Document] = {}
    for d in docs:
        if d.lang not in ("en", "zh"):
            continue
        key = (d.lang, d.version)
        if key not in out or len(d.rules) > len(out[key].rules):
            out[key] = d
    return out


def ranges(ordinals: list[int]) -> list[list[int]]:
    """Sorted ordinals → inclusive runs: [1,2,3,7] → [[1,3],[7,7]]."""
    out: list[list[int]] = []
    for o in sorted(set(ordinals)):
        if out and o == out[-1][1] + 1:
            out[-1][1] = o
        else:
            out.append([o, o])
    return out


def glossary_targets(doc: Document) -> dict[str, list[str]]:
    """Glossary term key → rule numbers it refers to (following one `See <term>.` hop)."""
    direct: dict[str, list[str]] = defaultdict(list)
    for ref in doc.references:
        if ref.source.startswith("glossary:") and not ref.dangling:
            term = ref.source[len("glossary:") :]
            if ref.target not in direct[term]:
                direct[term].append(ref.target)
    by_key: dict[str, list[str]] = {}
    see: dict[str, str] = {}
    for g in doc.glossary:
        m = (_SEE_EN if doc.lang == "en" else _SEE_ZH).match(g.text.strip())
        for variant in split_variants(g.term):
            key = analysis.term_key(doc.lang, variant)
            if not key:
                continue
            if direct.get(g.term):
                by_key.setdefault(key, direct[g.term])
            elif m:
                see[key] = analysis.term_key(doc.lang, m.group(1).strip('“”"「」 '))
    for key, other in see.items():
        if other in by_key:
            by_key.setdefault(key, by_key[other])
    return by_key


# "See rules 603.6c and 603.10." whole: a dot inside a rule number does not end the sentence
_SEE_SENTENCE = re.compile(
    r"(?:See (?:also )?(?:rules?|section)(?:[^.]|\.(?=\w))*\.?[”\"]?|参见规则[^。]*。?)"
)


def without_pointers(text: str) -> str:
    """A glossary definition without its sentences that point at rules: their numbers are no
    words of the term (a query expanded with "6c" met nothing it asked about)."""
    return _SEE_SENTENCE.sub(" ", text).strip()


def _definitions(doc: Document) -> dict[str, str]:
    """Glossary term key → its definition without the pointers to rules (query expansion)."""
    out: dict[str, str] = {}
    for g in doc.glossary:
        text = without_pointers(g.text)
        if not text or (_SEE_EN if doc.lang == "en" else _SEE_ZH).match(g.text.strip()):
            continue
        for variant in split_variants(g.term):
            key = analysis.term_key(doc.lang, variant)
            if key:
                out.setdefault(key, text[:300])
    return out


def citations(doc: Document) -> dict[str, int]:
    """Rule number → how many rules and glossary entries refer to it (a rule others point at
    is where the rules state a thing)."""
    out: dict[str, int] = {}
    for ref in doc.references:
        if not ref.dangling:
            out[ref.target] = out.get(ref.target, 0) + 1
    return out


def title_targets(doc: Document) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for r in doc.rules:
        if r.title:
            key = analysis.term_key(doc.lang, r.title)
            if key:
                out.setdefault(key, []).append(r.number)
    return out


def context_of(number: str, titled: dict[str, str]) -> str:
    """Titles of the section and the titled rule above a rule: `Cleanup Step` for 514.1."""
    out = []
    p = parent_of(number)
    while p is not None:
        if p in titled and len(p) > 1:
            out.append(titled[p])
        p = parent_of(p)
    return "\n".join(reversed(out))


def _moves_from_titles(docs: dict[tuple[str, str], Document]) -> dict[tuple[str, str], str]:
    """(version, number) → newest English number, for titled rules renumbered since."""
    en_versions = sorted(v for lang, v in docs if lang == "en")
    if not en_versions:
        return {}
    newest = {r.title: r.number for r in docs[("en", en_versions[-1])].rules if r.title}
    out = {}
    for lang, v in docs:
        if lang != "en":
            continue
        for r in docs[(lang, v)].rules:
            cur = newest.get(r.title) if r.title else None
            if cur and cur != r.number:
                out[(v, r.number)] = cur
    return out


def bridge_lexicon(
    picked: dict[tuple[str, str], Document], cutter: analysis.ChineseCutter
) -> dict[str, list[str]]:
    """Chinese word → English words, learned from the rules each translated release shares with
    its English text (title and text, a repeated pair of texts once)."""
    pairs: dict[tuple[str, str], None] = {}
    for (lang, v), zh in sorted(picked.items()):
        en = picked.get(("en", v))
        if lang != "zh" or en is None:
            continue
        en_texts = {r.number: f"{r.title or ''} {r.text}" for r in en.rules}
        for r in zh.rules:
            if r.number in en_texts:
                pairs[(f"{r.title or ''} {r.text}", en_texts[r.number])] = None
    tokens: list[tuple[list[str], list[str]]] = []
    for zh_text, en_text in pairs:
        words = [w.lower() for w in analysis.english_words(en_text)]
        words = [w for w in words if w.isalpha() and w not in analysis.STOP_WORDS]
        tokens.append(([w for w in cutter.cut(zh_text) if analysis.has_cjk(w)], words))
    return bridge.table(bridge.learn(tokens))


def _questions(
    picked: Mapping[tuple[str, str], Document],
    keys: list[tuple[Any, ...]],
    asked: Mapping[str, Asked] | None,
) -> list[tuple[str, ...]]:
    """Each record's players' questions (crkb/search/asked.py), in the order of `keys`: none in
    a language whose questions were written for a release the build does not hold."""
    if asked is None:
        asked = {lang: a for lang in ("en", "zh") if (a := asked_load(lang)) is not None}
    out: list[tuple[str, ...]] = [()] * len(keys)
    for lang, mine in asked.items():
        doc = picked.get((lang, mine.version))
        if doc is None:
            continue
        at = [i for i, k in enumerate(keys) if k[0] == lang]
        written = {r.number: r.text for r in doc.rules}
        got = attach(lang, mine, written, [(keys[i][1], keys[i][4]) for i in at])
        for i, qs in zip(at, got, strict=True):
            out[i] = qs
    return out


def build_index(
    index_dir: Path,
    docs: list[Document],
    terms: dict[str, str],
    moves: dict[tuple[str, str], str] | None = None,
    asked: Mapping[str, Asked] | None = None,
    aliases: Mapping[str, str] | None = None,
) -> None:
    """Write a Whoosh index of every rule of every version into `index_dir` (replacing it).
    `asked`: players' questions by language (crkb/search/asked.py; the shipped ones when None);
    `aliases`: alias → release beyond the documents' own (the date of a second copy)."""
    from whoosh import index as windex

    picked = pick_documents(docs)
    versions = {lang: sorted(v for lg, v in picked if lg == lang) for lang in ("en", "zh")}
    ordinal = {(lang, v): i for lang, vs in versions.items() for i, v in enumerate(vs)}
    if moves is None:
        moves = _moves_from_titles(picked)
    zh_glossary = [g.term for (lang, _v), d in picked.items() if lang == "zh" for g in d.glossary]
    words = analysis.dictionary_words(terms, zh_glossary)

    records: dict[tuple[Any, ...], list[int]] = {}
    gloss: dict[str, dict[tuple[str, tuple[str, ...]], list[int]]] = {"en": {}, "zh": {}}
    titles: dict[str, dict[tuple[str, tuple[str, ...]], list[int]]] = {"en": {}, "zh": {}}
    known: dict[str, str] = {a: v for a, v in (aliases or {}).items() if a != v}
    vocab: Counter[str] = Counter()
    for (lang, v), doc in sorted(picked.items()):
        if doc.alias:
            known[doc.alias] = v
        o = ordinal[(lang, v)]
        titled = {r.number: r.title for r in doc.rules if r.title}
        for r in doc.rules:
            cur = moves.get((v, r.number)) if lang == "zh" else None
            ctx = context_of(r.number, titled)
            key = (lang, r.number, r.kind, r.title, r.text, tuple(r.examples), ctx, cur)
            records.setdefault(key, []).append(o)
        for k, t in glossary_targets(doc).items():
            gloss[lang].setdefault((k, tuple(t)), []).append(o)
        for k, t in title_targets(doc).items():
            titles[lang].setdefault((k, tuple(t)), []).append(o)

    for lang, _number, _kind, _title, text, *_rest in records:
        if lang == "en":
            vocab.update(w for w in analysis.english_words(text) if w.isalpha() and len(w) > 2)

    tmp = Path(str(index_dir) + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    cutter = analysis.ChineseCutter(words) if any(k[0] == "zh" for k in records) else None
    ix = windex.create_in(str(tmp), schema())
    writer = ix.writer(limitmb=256)
    meta_records = []
    zh_words: Counter[str] = Counter()
    # Records of the newest releases first: every version's documents then lie within a prefix
    # of the document numbers (by the newest version a record belongs to), so the engine reads
    # only the head of each posting list for the default scope.
    ordered = sorted(
        records.items(), key=lambda kv: (len(versions[kv[0][0]]) - 1 - max(kv[1]), kv[0][0])
    )
    questions = _questions(picked, [key for key, _o in ordered], asked)
    for rid, (key, ords) in enumerate(ordered):
        lang, number, kind, title, text, examples, ctx, cur = key
        fields: dict[str, Any] = {"rid": rid, "lang": lang, "number": number}
        fields |= {"title": title, "text": text}
        if cur:
            fields["cur"] = cur
        has_title = bool(title) and kind in ("rule", "subrule")  # a section's text is its title
        if lang == "en":
            fields["body"] = text
            if has_title:
                fields["etitle"] = title
            if examples:
                fields["ex"] = "\n".join(examples)
            if ctx:
                fields["ctx"] = ctx
            if quoted := analysis.quoted_words(text):
                fields["quoted"] = " ".join(quoted)
            if questions[rid]:
                fields["asked"] = "\n".join(questions[rid])
        elif cutter is not None:
            fields["zw"] = analysis.encode_groups(cutter.groups(text))
            zh_words.update(set(cutter.cut(text)))
            fields["zbi"] = " ".join(analysis.bigrams(text))
            if quoted_zh := analysis.quoted_zh(text):
                fields["zquoted"] = " ".join(quoted_zh)
            if has_title:
                fields["zt"] = analysis.encode_groups(cutter.groups(title or ""))
            if examples:
                fields["zex"] = analysis.encode_groups(cutter.groups("\n".join(examples)))
            if ctx:
                fields["zctx"] = analysis.encode_groups(cutter.groups(ctx))
            if questions[rid]:
                fields["zasked"] = analysis.encode_groups(cutter.groups("\n".join(questions[rid])))
        writer.add_document(**fields)
        meta_records.append([lang, number, ranges(ords)])
    writer.commit()
    postings.write(tmp)

    import jieba

    meta = {
        "format": FORMAT,
        "versions": versions,
        "aliases": known,
        "dictionary": analysis.dictionary_hash(words, jieba.__version__),
        "records": meta_records,
        "glossary": {
            lang: [[k, list(t), ranges(o)] for (k, t), o in m.items()] for lang, m in gloss.items()
        },
        "titles": {
            lang: [[k, list(t), ranges(o)] for (k, t), o in m.items()] for lang, m in titles.items()
        },
        "terms": analysis.zh_term_keys(terms),
        "cited": {lang: citations(picked[(lang, vs[-1])]) for lang, vs in versions.items() if vs},
        "definitions": {
            lang: _definitions(picked[(lang, vs[-1])]) for lang, vs in versions.items() if vs
        },
        "vocab": dict(vocab),
        "bridge": bridge_lexicon(picked, cutter) if cutter is not None else {},
        "english": english.within_reach(
            english.frequent_words(), Speller(dict(vocab), analysis.stem).correct
        ),
    }
    sounds.write(tmp / sounds.SOUNDS, sounds_of(zh_words, words), analysis.everyday_words())
    (tmp / USERDICT).write_text("".join(w + "\n" for w in words), encoding="utf-8")
    analysis.write_jieba_freq(tmp / FREQ_NAME)  # a server reads jieba's dictionary from it
    (tmp / META).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
    swap_in(tmp, Path(index_dir))
