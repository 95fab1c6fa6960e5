"""English game terms in a query of the Chinese rules: "有flying的生物能被什么阻挡", "mulligan规则".

Chinese players often type a keyword's or a term's English name; the Chinese rules never hold
it, so such a word found nothing. The term dictionary the index is built with names every term
in both languages: an English run is read as the translation's term (flying → 飞行), the longest
term first ("first strike" → 先攻), and a word that names no term is left as typed (a card's
name, or a word the players' words already read).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from crkb.search import analysis

ENGLISH_RUN = re.compile(r"[A-Za-z][A-Za-z'’-]*(?:[ \t]+[A-Za-z][A-Za-z'’-]*)*")
LONGEST = 4  # words in the longest term a player types in a run ("beginning of combat step")


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
        out: list[str] = []
        i = 0
        while i < len(words):
            for n in range(min(LONGEST, len(words) - i), 0, -1):
                key = analysis.term_key("en", " ".join(right[i : i + n]))
                zh = en_to_zh.get(key) or en_to_zh.get(f"{key} step")  # upkeep: the step
                if zh:
                    out.append(zh)
                    i += n
                    break
            else:
                out.append(words[i] if not out or analysis.has_cjk(out[-1]) else " " + words[i])
                i += 1
        return "".join(out)

    return ENGLISH_RUN.sub(run, query)
