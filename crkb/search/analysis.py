"""Text → index terms, one way for both the index and the query, English and Chinese."""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from whoosh.analysis import (
    CharsetFilter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
    Token,
    Tokenizer,
)
from whoosh.lang.porter import stem as _porter

from crkb.search import numerals

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
# A word, or a power and toughness whole ("+1/+1", "-1/-1", "2/2", "X/X"), or a rule number whole
# ("903.10", "704.5f"): a +1/+1 counter is not a -1/-1 counter, "See rule 903.10" is a reference,
# and their parts are not the numbers a question asks about ("ten damage" is not rule 903.10).
WORD_PATTERN = (
    r"(?<![A-Za-z0-9/.])[+-]?(?:\d+|[Xx])/[+-]?(?:\d+|[Xx])(?![A-Za-z0-9/])"
    r"|\d+\.\d+[A-Za-z]?(?![A-Za-z0-9])|[A-Za-z0-9À-ÖØ-öø-ſ]+"
)
WORD = re.compile(WORD_PATTERN)
# A single word in quotes, standing apart: “you”, "dies", 'target' (the rules quote words they
# define or explain; a player quotes a word to ask about it).
_QUOTED = re.compile(r"""(?:^|(?<=[\s(]))["“'‘]([A-Za-z]+)["”'’](?=$|[\s,.?!:;)])""")
# A short phrase in double quotes: “Activate only once each turn”, "exiled with".
_QUOTED_PHRASE = re.compile(r"""["“]([A-Za-z][^"“”\n]{0,80}?)["”]""")
MAX_QUOTED = 8  # the most words of a quoted phrase that are taken as quoted
# Short function words that only add noise to rule search (a smaller list than Whoosh's:
# "not", "can", "may", "all", "each" change a rule's meaning and stay searchable).
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "if",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "with",
        "its",
        "s",
        "t",
    ]
)
ALT = "\x1f"  # joins tokens that share one position in a pre-tokenized field


def has_cjk(text: str) -> bool:
    """True when the text holds Chinese characters."""
    return bool(_CJK.search(text))


def all_cjk(text: str) -> bool:
    """True when every character of the text is a Chinese one."""
    return bool(text) and all(_CJK.match(ch) for ch in text)


def english_analyzer() -> Any:
    """The English analyzer of the index: words, lowercase, accents folded, stop words out,
    Porter stems."""
    return (
        RegexTokenizer(WORD_PATTERN)
        | LowercaseFilter()
        | CharsetFilter(_folds())
        | StopFilter(stoplist=STOP_WORDS, minsize=1)
        | StemFilter(stemfn=stem, cachesize=50000)
    )


@functools.cache
def _folds() -> dict[int, str]:
    """Accented Latin letters → their letters without the accent (â → a, Æ → AE): the rules
    name cards "Dandân" and "Ghazbán Ogre", which players type without accents. The offline
    pack's search.js folds the same way (NFD, marks dropped, æ and œ spelled out)."""
    out = {ord(c): f for c, f in (("æ", "ae"), ("Æ", "AE"), ("œ", "oe"), ("Œ", "OE"))}
    for code in range(0xC0, 0x180):
        c = chr(code)
        bare = "".join(x for x in unicodedata.normalize("NFD", c) if not unicodedata.combining(x))
        if bare != c and code not in out:
            out[code] = bare
    return out


def fold(word: str) -> str:
    """A word with its accents folded as the index folds them."""
    return word.translate(_folds()) if not word.isascii() else word


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The index's stem of one lowercase word: Porter's, with the consonant that -ed and -ing
    double taken off again (tapped, tapping → tap; beginning → begin), which Porter's step 1b
    does and Whoosh's copy of it misses: without it "untap" never meets "untapped"."""
    got = str(_porter(word))
    if word.endswith(("ed", "ing")) and _DOUBLED.search(got):
        return got[:-1]
    return got


# A short syllable closed by a doubled consonant (tapp, beginn, referr), as -ed and -ing leave
# it; not a word that ends so of itself (add, egg, fall, pass, buzz, stuff: their -ed and -ing
# forms keep it, since the letter before the vowel must be a consonant or the consonant is one
# Porter keeps doubled).
_DOUBLED = re.compile(r"[^aeiouy][aeiou]([bdgmnprt])\1$")


def english_words(text: str) -> list[str]:
    """Lowercase words of a text, in order, stop words kept."""
    return [fold(w.lower()) for w in WORD.findall(text)]


def quoted_words(text: str) -> list[str]:
    """The words a text holds in quotes, lowercase, in order: single words in any quotes, and
    the words of short phrases in double quotes."""
    out = [w.lower() for w in _QUOTED.findall(text)]
    for phrase in _QUOTED_PHRASE.findall(text):
        words = english_words(phrase)
        if 1 < len(words) <= MAX_QUOTED:
            out.extend(words)
    return list(dict.fromkeys(out))


def quoted_zh(text: str) -> list[str]:
    """The short Chinese words a text holds in quotes (“你”, 「目标」), in order."""
    return _QUOTED_ZH.findall(text)


_QUOTED_ZH = re.compile(r"[“「『\"']([\u3400-\u9fff]{1,6})[”」』\"']")


def english_terms(text: str) -> list[str]:
    """Index terms of a text as the English analyzer makes them."""
    return [stem(w) for w in english_words(text) if w not in STOP_WORDS]


def singular(word: str) -> str:
    """A light English singular: `counters` → `counter`, `abilities` → `ability`."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def zh_term_keys(terms: dict[str, str]) -> dict[str, str]:
    """Chinese term key → English term key, from an English → Chinese term dictionary (the
    index stores it; a Searcher checks it against the dictionary beside the index)."""
    return {term_key("zh", z): term_key("en", e) for e, z in terms.items()}


def term_key(lang: str, text: str) -> str:
    """How a glossary term, a rule title and a query are compared: `Poison Counters` ~ `poison
    counter`, `State-Based Actions` ~ `state based action`; Chinese without spaces or punctuation.
    """
    if lang == "en":
        words = english_words(text)
        return " ".join(singular(w) for w in words if w not in STOP_WORDS)
    return re.sub(r"[\s\W_]+", "", text)


class PreTokenized(Tokenizer):  # type: ignore[misc]  # Whoosh ships no type information
    """Reads text already cut into terms: space between positions, ALT between same-position terms.

    Used for Chinese fields, so the index holds exactly what the jieba-based cutter produced
    and the schema needs no jieba (it is pickled into the index).
    """

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Any]:
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        pos = start_pos
        for group in value.split(" "):
            if not group:
                pos += 1  # an empty group is a gap: phrases do not run across it
                continue
            for term in group.split(ALT):
                t.text = term
                t.boost = 1.0
                t.stopped = False
                if keeporiginal:
                    t.original = term
                if positions:
                    t.pos = pos
                if chars:
                    t.startchar = t.endchar = start_char
                yield t
            pos += 1


def encode_groups(groups: Iterable[list[str]]) -> str:
    """Positions (each a list of terms, first the main one) → the PreTokenized text form."""
    return " ".join(ALT.join(g) for g in groups)


def bigrams(text: str) -> list[str]:
    """Chinese character bigrams of each run of Chinese characters, a gap between runs."""
    out: list[str] = []
    for m in CJK_RUN.finditer(text):
        run = m.group(0)
        if out:
            out.append("")
        if len(run) == 1:
            out.append(run)
        else:
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return out


def dictionary_words(terms: dict[str, str], zh_glossary_terms: Iterable[str]) -> list[str]:
    """The game-term user dictionary: Chinese terms of the term map and of the zh glossaries."""
    words = set()
    for z in list(terms.values()) + list(zh_glossary_terms):
        for part in re.split(r"[\s/／、，,（）()]+", z):
            part = part.strip()
            if len(part) >= 2 and has_cjk(part) and len(part) <= 20:
                words.add(part)
    return sorted(words)


def dictionary_hash(words: list[str], jieba_version: str) -> str:
    """A fingerprint of the dictionary an index was built with."""
    h = hashlib.sha256(jieba_version.encode())
    for w in words:
        h.update(b"\n" + w.encode())
    return h.hexdigest()[:16]


class ChineseCutter:
    """jieba in precise mode with the game terms, plus dictionary sub-words of long words.

    A sub-word shares the position of the word that holds it, so `延迟触发式异能` also finds
    `触发式异能` and phrase positions stay those of precise mode.
    """

    def __init__(self, words: list[str], freq: Path | None = None) -> None:
        """`freq`: jieba's dictionary as written by `write_jieba_freq` (read from disk, a few MB)
        instead of jieba's own (~60 MB in memory); the cuts are the same."""
        import logging

        import jieba

        jieba.setLogLevel(logging.WARNING)
        self.tk = jieba.Tokenizer()
        if freq is None:
            self.tk.initialize()
        else:
            from crkb.store.wordfreq import DiskFreq

            table = DiskFreq(freq)
            self.tk.FREQ, self.tk.total = table, table.total
            self.tk.initialized = True
        self.game = frozenset(words)
        for w in words:
            self.tk.add_word(w, freq=max(10000, self.tk.suggest_freq(w, tune=False)))

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one cutter per process, queries repeat
    def cut(self, text: str) -> tuple[str, ...]:
        """Precise-mode words (lowercase), without spaces and punctuation."""
        return tuple(w.lower() for w in self.tk.cut(text, HMM=False) if w.strip() and _is_word(w))

    def subwords(self, word: str) -> list[str]:
        """Dictionary words inside a longer word (search-mode style), longest first."""
        if len(word) < 3 or not has_cjk(word):
            return []
        freq = self.tk.FREQ
        out = []
        for n in range(len(word) - 1, 1, -1):
            for i in range(len(word) - n + 1):
                s = word[i : i + n]
                if s in self.game or freq.get(s):
                    out.append(s)
        return out

    def groups(self, text: str) -> list[list[str]]:
        """Index positions for a text: each word with its sub-words, and a count word (十个,
        一百张) with its digits, which is how a query's numbers are searched."""
        out = []
        for w in self.cut(text):
            digits = numerals.zh_count(w)
            out.append([w, *self.subwords(w), *([digits] if digits and digits != w else [])])
        return out


@functools.cache
def everyday_words(least: int = 100) -> tuple[str, ...]:
    """Words of two or more characters jieba's dictionary counts at least `least` times: the
    language's common words, as opposed to a slip of typing. Read once a process (a build, an
    export and every test index ask for it)."""
    import jieba

    tk = jieba.Tokenizer()
    freq, _total = tk.gen_pfdict(tk.get_dict_file())
    return tuple(w for w, n in freq.items() if n >= least and len(w) > 1)


def write_jieba_freq(path: Path) -> None:
    """jieba's default dictionary with its prefixes and total, exactly as jieba loads it, as a
    table on disk (a server's ChineseCutter reads it by key)."""
    import jieba

    from crkb.store.wordfreq import write_freq

    tk = jieba.Tokenizer()
    freq, total = tk.gen_pfdict(tk.get_dict_file())
    write_freq(path, freq, total)


def _is_word(w: str) -> bool:
    return bool(re.search(r"\w", w))
