"""English game terms in a query of the Chinese rules: "有flying的生物能被什么阻挡", "mulligan规则".

Chinese players often type a keyword's or a term's English name; the Chinese rules never hold
it, so such a word found nothing. The term dictionary the index is built with names most terms
in both languages, and the titles of a release's two texts name the rest (a keyword the
dictionary lacks, a variant: improvise → 随机应变): an English run is read as the translation's
term (flying → 飞行), the longest term first ("first strike" → 先攻), and a word that names no
term is left as typed (a card's name, or a word the players' words already read).

The other way, a search of the English rules given Chinese words (the language chosen, a term
typed as the reader knows it: 死触) reads each Chinese term as its English name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from crkb.search import analysis, topics

ENGLISH_RUN = re.compile(r"[A-Za-z][A-Za-z'’-]*(?:[ \t]+[A-Za-z][A-Za-z'’-]*)*")
LONGEST = 4  # words in the longest term a player types in a run ("beginning of combat step")
# A title key's rows: (the rule numbers it titles, the version ranges it does so in).
Titled = Mapping[str, Sequence[tuple[Sequence[str], Sequence[Sequence[int]]]]]
HEADS = ("step", *topics.EN_HEADS)  # upkeep: the upkeep step; alternating teams: the variant
# A word the term dictionary gives only its verb's translation (counter: 反击, to counter a
# spell); typed among Chinese words it is mostly the noun ("+1/+1 counter", "身上的counter"),
# and the verb where the words around it say so: 被(我)counter, counter掉, counter target spell.
NOUNS = {"counter": "指示物"}
VERB_BEFORE = re.compile("被.?$")
VERB_AFTER = ("掉", "住")
VERB_OBJECT = ("target", "it", "that", "this")


def title_terms(en: Titled, zh: Titled, o_en: int, o_zh: int) -> dict[str, str]:
    """English title key → the Chinese title of the same rule, in the English and Chinese
    texts of one release (versions `o_en` and `o_zh`); a rule either text titles twice is
    left out."""

    def by_number(titles: Titled, o: int) -> dict[str, str | None]:
        out: dict[str, str | None] = {}
        for key, rows in titles.items():
            for numbers, ranges in rows:
                if any(a <= o <= b for a, b in ranges):
                    for n in numbers:
                        out[n] = key if out.get(n, key) == key else None
        return out

    zh_of = by_number(zh, o_zh)
    return {
        key: zh_key
        for n, key in by_number(en, o_en).items()
        if key is not None and (zh_key := zh_of.get(n)) is not None
    }


def english_terms_zh(
    query: str,
    en_to_zh: Mapping[str, str],
    correct: Callable[[str], str | None] = lambda word: None,
) -> str:
    """`query` with each English run's terms in Chinese (`en_to_zh`: English term key → the
    Chinese term), a slip put right first (`correct`: flyng → flying), the other words kept as
    they were typed."""

    def run(m: re.Match[str]) -> str:
        words = m.group(0).split()
        right = [correct(w) or w for w in words]
        before = query[: m.start()].rstrip()[-2:]
        after = query[m.end() :].lstrip()[:1]
        out: list[str] = []
        i = 0
        while i < len(words):
            for n in range(min(LONGEST, len(words) - i), 0, -1):
                key = analysis.term_key("en", " ".join(right[i : i + n]))
                zh = en_to_zh.get(key) or next(
                    (got for h in HEADS if (got := en_to_zh.get(f"{key} {h}"))), None
                )
                if key in NOUNS and not (
                    (i == 0 and VERB_BEFORE.search(before))
                    or (i + n == len(words) and after in VERB_AFTER)
                    or (i + n < len(words) and words[i + n].lower() in VERB_OBJECT)
                ):
                    zh = NOUNS[key]
                if zh:
                    out.append(zh)
                    i += n
                    break
            else:
                out.append(words[i] if not out or analysis.has_cjk(out[-1]) else " " + words[i])
                i += 1
        return "".join(out)

    return ENGLISH_RUN.sub(run, query)


def chinese_terms_en(
    query: str, zh_to_en: Mapping[str, str], cut: Callable[[str], Sequence[str]]
) -> str:
    """`query` with each Chinese run read as English: the run as one term (死触 → deathtouch),
    else each of its words that names a term (`cut`: the run's words), the others dropped; an
    English search has no Chinese words to find. `zh_to_en`: Chinese term key → English one."""

    def run(m: re.Match[str]) -> str:
        whole = zh_to_en.get(analysis.term_key("zh", m.group(0)))
        words = (
            [whole]
            if whole
            else [zh_to_en.get(analysis.term_key("zh", w), "") for w in cut(m.group(0))]
        )
        return " " + " ".join(w for w in words if w) + " "

    return " ".join(analysis.CJK_RUN.sub(run, query).split())
