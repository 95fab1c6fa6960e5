"""Players' questions written for each rule: the words a rule is asked about in, beside its own.

A question at a table often shares few words with the rule that answers it: a player asks when
damage "goes away", and the rule says it "is removed" in the cleanup step. For
every rule of one release in each language, four questions a player might type were written
(`asked-en.tsv`, `asked-zh.tsv`; their headers say how and for which release). The index holds a
rule's questions as a field of its own (`asked`, `zasked`) and the engine weighs a candidate by
how well the query meets them (crkb/search/candidates.py): the rule's text is still what is shown.

Questions belong to the rule they were written for, so they go with its text: to every indexed
text of that number that says nearly the same (a release before or after that rewrote a word or
two), and to the same or nearly the same text under another number (a renumbered rule, or a
renumbered title: "Discard" moved from 701.8 to 701.9). A rule whose text changed more keeps its
own words alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from crkb.search import analysis, numerals, players

FILES = {lang: Path(__file__).with_name(f"asked-{lang}.tsv") for lang in ("en", "zh")}
SAME = 0.6  # the share of words two texts of a number have in common for one rule's questions
MOVED = 0.8  # the share two texts under different numbers have in common for one rule's questions
LONG = 6  # the fewest words of a text whose questions follow its reworded text to another number
_WRITTEN_FOR = "# written for:"


@dataclass(frozen=True)
class Asked:
    """One language's questions: the release they were written for, rule number → questions."""

    version: str
    questions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


def parse(text: str) -> Asked:
    """`# written for: <release>` and `number<TAB>question` lines (other `#` lines are notes)."""
    version = ""
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.startswith(_WRITTEN_FOR):
            version = line[len(_WRITTEN_FOR) :].strip()
        if not line.strip() or line.startswith("#"):
            continue
        number, _tab, question = line.partition("\t")
        if question.strip():
            out.setdefault(number.strip(), []).append(question.strip())
    return Asked(version, {n: tuple(qs) for n, qs in out.items()})


def load(lang: str) -> Asked | None:
    """The shipped questions of a language, or None when there are none."""
    path = FILES.get(lang)
    if path is None or not path.is_file():
        return None
    return parse(path.read_text(encoding="utf-8"))


def as_query(lang: str, question: str) -> str:
    """A question with players' words put in the rules' words, as a query's are before it is
    cut into terms (crkb/search/players.py): a player who types "bounced" searches for
    "returned", and meets the questions that said "bounced" only if they say "returned" too."""
    if lang == "zh":
        return numerals.zh_digits(players.players_words_zh(question))
    return " ".join(players.rules_words_en(players.typed_words_en(question)))


def words(lang: str, text: str) -> frozenset[str]:
    """What two texts of a rule are compared by: English words, Chinese characters."""
    if lang == "zh":
        return frozenset(c for c in text if analysis.has_cjk(c) or c.isalnum())
    return frozenset(w.lower() for w in analysis.english_words(text))


def same_rule(lang: str, a: str, b: str) -> bool:
    """Whether two texts of one number say nearly the same (SAME of their words in common)."""
    if a == b:
        return True
    x, y = words(lang, a), words(lang, b)
    return bool(x | y) and len(x & y) / len(x | y) >= SAME


def attach(
    lang: str,
    asked: Asked,
    written: Mapping[str, str],
    texts: Iterable[tuple[str, str]],
) -> list[tuple[str, ...]]:
    """The questions of each (number, text) of `texts`, as a query is read (`as_query`): those
    written for the same number when its text there (`written`: number → text in the release
    written for) says nearly the same, else those of the number that had exactly this text, else
    those of the one rule that said nearly the same under another number (`_Moved`); () for
    none."""
    questions = {n: tuple(as_query(lang, q) for q in qs) for n, qs in asked.questions.items()}
    seen: dict[str, list[str]] = {}
    for n, t in written.items():
        seen.setdefault(t, []).append(n)
    # a text only one rule has ("General" heads many sections, "Flying" one)
    by_text = {t: ns[0] for t, ns in seen.items() if len(ns) == 1 and ns[0] in questions}
    moved = _Moved(lang, {n: t for n, t in written.items() if n in questions})
    out = []
    for number, text in texts:
        mine = written.get(number)
        if number in questions and mine is not None and same_rule(lang, text, mine):
            out.append(questions[number])
        elif text in by_text:
            out.append(questions[by_text[text]])
        elif (there := moved.find(text)) is not None:
            out.append(questions[there])
        else:
            out.append(())
    return out


class _Moved:
    """The rule of the release written for whose text another says nearly the same (MOVED of
    their words in common) under another number: a rule renumbered and reworded at once. Only
    the rules that share its rarest words are compared, and a tie finds none."""

    def __init__(self, lang: str, written: Mapping[str, str]) -> None:
        self.lang = lang
        self.words = {n: words(lang, t) for n, t in written.items()}
        self.holding: dict[str, list[str]] = {}
        for n, ws in self.words.items():
            for w in ws:
                self.holding.setdefault(w, []).append(n)

    def find(self, text: str) -> str | None:
        """The number whose text `text` nearly says, or None (a short text, or no single one)."""
        mine = words(self.lang, text)
        if len(mine) < LONG:
            return None
        rare = sorted((w for w in mine if w in self.holding), key=lambda w: len(self.holding[w]))
        near = {n for w in rare[:2] for n in self.holding[w]}
        shares = sorted(
            ((len(mine & self.words[n]) / len(mine | self.words[n]), n) for n in near),
            reverse=True,
        )
        if not shares or shares[0][0] < MOVED or (len(shares) > 1 and shares[1][0] == shares[0][0]):
            return None
        return shares[0][1]
