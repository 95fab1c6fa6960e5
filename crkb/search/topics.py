"""Topics a query names: the titled sections and rules whose whole title stands in its words.

"What is the starting life total in commander" names section 903, "Commander"; "how does first
strike change the combat damage step" names 702.7 and 510. The rules under a named title are where
a question about that topic is answered, even when a general rule mentions the topic too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

from crkb.search.analysis import term_key

MAX_WORDS = 6  # the longest English title looked for, in words
# A keyword's or a variant's name marks what a question is about however many other words it
# has ("how much life does each player have in a brawl game"): its title counts as half the query
# at least.
SPECIFIC_SHARE = 0.5
# The generic last words of variants' and options' titles a player leaves out: "two headed
# giant" for Two-Headed Giant Variant, 双头巨人 for 双头巨人玩法 (English as term keys). ("Saga"
# for Saga Cards measured worse: "a checklist card for a dfc" then named Double-Faced Cards.)
EN_HEADS = ("variant", "option")
# The card types only casual variants play (planes, phenomena, vanguards, schemes, conspiracies):
# as specific as their variants, which a question about the cards also names.
VARIANT_TYPES = ("311", "312", "313", "314", "315")
ZH_HEADS = ("玩法", "模式")


def named_en(words: Sequence[str], lookup: Callable[[str], Iterable[str]]) -> dict[str, float]:
    """Titled rule number → the share of the query's words its title covers, for every run of
    the query's content words that is a whole title (`lookup`: title key → rule numbers)."""
    out: dict[str, float] = {}
    k = len(words)
    for i in range(k):
        for j in range(i + 1, min(k, i + MAX_WORDS) + 1):
            key = term_key("en", " ".join(words[i:j]))
            if not key:
                continue
            for number in lookup(key):
                out[number] = max(out.get(number, 0.0), (j - i) / k)
    return out


class ZhTitles(NamedTuple):
    """Chinese title keys by the text that names them (`zh_index`), and the longest such text."""

    by_text: Mapping[str, tuple[tuple[str, int], ...]]  # text → (title key, the text's length)
    longest: int


def zh_index(titles: Iterable[str]) -> ZhTitles:
    """Chinese title keys by the text that names them: the key whole, or without a generic last
    word (ZH_HEADS), each with that text's length (made once per index: a query then looks up
    its own runs of characters instead of testing every title against it)."""
    out: dict[str, list[tuple[str, int]]] = {}
    for key in titles:
        short = next((key[: -len(h)] for h in ZH_HEADS if key.endswith(h)), key)
        for text in dict.fromkeys((key, short)):
            if len(text) >= 2:
                out.setdefault(text, []).append((key, len(text)))
    by_text = {text: tuple(keys) for text, keys in out.items()}
    return ZhTitles(by_text, max(map(len, by_text), default=0))


def named_zh(
    content: str, index: ZhTitles, lookup: Callable[[str], Iterable[str]]
) -> dict[str, float]:
    """The same for Chinese: titles (keys of two characters or more, `index` from `zh_index`)
    that stand in the query's content characters, whole or without their generic last word,
    with the share of those characters they cover."""
    out: dict[str, float] = {}
    if not content:
        return out
    named: dict[str, int] = {}  # title key → the length of its text found
    for i in range(len(content) - 1):
        for j in range(i + 2, min(len(content), i + index.longest) + 1):
            for key, size in index.by_text.get(content[i:j], ()):
                named[key] = max(named.get(key, 0), size)
    for key, size in named.items():
        for number in lookup(key):
            out[number] = max(out.get(number, 0.0), size / len(content))
    return out


def specific(number: str) -> bool:
    """True for a keyword's or keyword action's rule (701, 702) or a variant's (chapters 8, 9)."""
    return number.startswith(("701.", "702.", *VARIANT_TYPES)) or number[:1] in "89"


def within(number: str, titled: str) -> bool:
    """True when a rule is the titled rule or lies under it (903.7 in 903, 702.7b in 702.7)."""
    if number == titled or number.startswith(titled + "."):
        return True
    return "." in titled and number.startswith(titled) and number[len(titled) :].isalpha()


def share(number: str, named: dict[str, float]) -> float:
    """The largest share of the query covered by a title the rule lies under (0 when none), a
    keyword's or a variant's title counting as SPECIFIC_SHARE at least."""
    return max(
        (
            max(s, SPECIFIC_SHARE) if specific(t) else s
            for t, s in named.items()
            if within(number, t)
        ),
        default=0.0,
    )
