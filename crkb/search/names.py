"""Card names in an English question: "can my opponent use Sleight of Mind to change it".

Players name the card in front of them, and the rules name few cards. A name's words that the
rules do use (Siege, Phyrexian, Mind) then pull the search towards rules the question is not
about (a battle's protector, Phyrexian mana). A run of two or more capitalised words holding a
word no rule uses is read as a card's name and left out; a run the rules know (Two-Headed Giant,
Karn Liberated, Time Stop) is kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from crkb.search.analysis import STOP_WORDS

WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
JOINING = frozenset(["of", "the", "and", "to", "from", "in"])  # Sleight of Mind, Wrath of God
OPENING = frozenset(
    ["i", "can", "do", "does", "did", "if", "is", "are", "my", "what", "how", "why"]
)


def _capital(word: str) -> bool:
    """A capitalised word, not an acronym (MDFC, ETB) nor "I"."""
    return word[0].isupper() and not word.isupper()


def _runs(query: str) -> Iterator[list[re.Match[str]]]:
    """Runs of capitalised words, joined by spaces and joining words, none opening a run."""
    run: list[re.Match[str]] = []
    for m in WORD.finditer(query):
        w = m.group(0)
        fits = _capital(w) or w in JOINING
        if run and (not fits or not query[run[-1].end() : m.start()].isspace()):
            yield run  # a name stands within a sentence: "Coat of Arms. Does it count"
            run = []
        if (run and fits) or (_capital(w) and w.lower() not in OPENING | STOP_WORDS):
            run.append(m)
    if run:
        yield run


def without_card_names(query: str, known: Callable[[str], bool]) -> str:
    """`query` without the card names it holds (`known`: a lowercase word some rule uses),
    or as typed when it is a name and nothing else."""
    cut: list[tuple[int, int]] = []
    for run in _runs(query):
        while run[-1].group(0) in JOINING:
            run.pop()
        capitals = [m.group(0) for m in run if _capital(m.group(0))]
        parts = [p for w in capitals for p in re.split("[-'’]", w.lower()) if len(p) > 1]
        if len(capitals) >= 2 and not all(known(p) for p in parts):
            cut.append((run[0].start(), run[-1].end()))
    left = query
    for a, b in reversed(cut):
        left = left[:a] + " " + left[b:]
    return left if WORD.search(left) else query  # a name alone is searched as typed
