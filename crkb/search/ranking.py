"""Ranking signals read from a candidate rule's own text: proximity, consequences, counts."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from crkb.numbers import parent_of
from crkb.search import analysis, numerals

PROXIMITY = 0.4  # most a rule gains when all the query's content words stand together
STATES = 0.25  # what a rule that states a consequence or a definition gains
DEFINES = 0.5  # what a rule that defines the term a question asks about gains
MAX_OCCURRENCES = 8  # occurrences of one term looked at for proximity (bounds the work)
OUTCOME = 0.2  # what a conditional rule ("If …, …") gains, when the question asks what happens
CITED = 0.2  # what each doubling of the references to a rule adds (a rule others point at)
POINTED = 0.25  # what a rule gains per leading candidate that refers to it (at most three)
SUBJECT = 0.25  # what a rule gains whose opening words are the query's content words
MODAL = 0.25  # what a rule saying that something can, can't or must be done gains, for "can …?"
COUNT = 0.25  # what a rule that states a number gains, when the question asks "how many"
MOVES = 0.25  # what a rule that puts a card somewhere gains, when the question asks where
EARLY = 0.2  # what a first subrule gains over its later siblings (the b-th gains half of it …)

# Rules that state what happens or what a thing is: the answers questions look for.
STATES_EN = re.compile(
    r"\b(?:loses? the game|wins? the game|(?:is|are) put (?:into|onto)|can[’']t|cannot|"
    r"(?:is|are) destroyed|ceases? to exist|means|(?:is|are) called|is a draw|must|"
    r"doesn[’']t|don[’']t|(?:is|are) considered|skips?)\b",
    re.I,
)
STATES_ZH = re.compile(r"输掉|赢得|置入|不能|消灭|消失|意指|是指|称为|必须|视为|不会|略过|平手")
COUNT_EN = re.compile(
    r"\b(?:\d+|" + "|".join(w for w in numerals.EN_WORDS if w != "one") + r")\b", re.I
)
COUNT_ZH = re.compile(f"\\d+|[{numerals.ZH_NUMERAL}]+[{numerals.ZH_MEASURES}]")


def span(occurrences: Sequence[Sequence[tuple[int, int]]]) -> tuple[int, int] | None:
    """(covered, width) of the narrowest window holding an occurrence of every term that occurs
    at all; `covered` is how much of the window those occurrences fill. Spans are (start, end)."""
    present = [occ[:MAX_OCCURRENCES] for occ in occurrences if occ]
    if not present:
        return None
    events = sorted((s, e, i) for i, occ in enumerate(present) for s, e in occ)
    need = len(present)
    count: dict[int, int] = {}
    best: tuple[int, int] | None = None
    left = 0
    for right in range(len(events)):
        i = events[right][2]
        count[i] = count.get(i, 0) + 1
        while len(count) == need:
            start = events[left][0]
            # the window is at least as wide as from its start to its last event's end: one
            # wider than the best cannot replace it, and is not measured
            if best is None or events[right][1] - start <= best[1]:
                window = events[left : right + 1]
                width = max(e for _s, e, _i in window) - start
                if best is None or width <= best[1]:
                    longest: dict[int, int] = {}
                    for s2, e2, i2 in window:
                        longest[i2] = max(longest.get(i2, 0), e2 - s2)
                    covered = min(sum(longest.values()), width)
                    if best is None or (width, -covered) < (best[1], -best[0]):
                        best = (covered, width)
            li = events[left][2]
            count[li] -= 1
            if not count[li]:
                del count[li]
            left += 1
    return best


def proximity(occurrences: Sequence[Sequence[tuple[int, int]]], k: int) -> float:
    """1 + PROXIMITY × closeness × share: the query's words standing together in one rule count.

    `k` is the number of content terms asked for; one term alone has no proximity.
    """
    present = sum(1 for occ in occurrences if occ)
    got = span(occurrences) if present >= 2 and k >= 2 else None
    if got is None:
        return 1.0
    covered, width = got
    return 1.0 + PROXIMITY * min(1.0, covered / max(width, 1)) * present / k


def word_spans(seq: Sequence[str], which: Mapping[str, int], k: int) -> list[list[tuple[int, int]]]:
    """Per term (of `k`), the token positions (as spans) where one of its forms stands in `seq`;
    `which` maps each form to its term (made once per query, read for every candidate)."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(k)]
    for pos, w in [(pos, w) for pos, w in enumerate(seq) if w in which]:
        out[which[w]].append((pos, pos + 1))
    return out


def char_spans(text: str, forms: Sequence[Sequence[str]]) -> list[list[tuple[int, int]]]:
    """Per term, the character spans where one of its forms occurs in `text` (Chinese)."""
    out: list[list[tuple[int, int]]] = []
    for fs in forms:
        spans: list[tuple[int, int]] = []
        for f in fs:
            start = text.find(f) if f else -1
            while start >= 0:
                spans.append((start, start + len(f)))
                start = text.find(f, start + len(f))
        out.append(spans)
    return out


def _gain(text: str, pattern: re.Pattern[str], gain: float) -> float:
    """1 + gain for a text the pattern finds something in, else 1: one signal's factor."""
    return 1.0 + gain if pattern.search(text) else 1.0


def states(text: str, lang: str) -> float:
    """1 + STATES for a rule that states a consequence or a definition, else 1."""
    return _gain(text, STATES_ZH if lang == "zh" else STATES_EN, STATES)


def counts(text: str, lang: str) -> float:
    """1 + COUNT for a rule that states a number, else 1."""
    return _gain(text, COUNT_ZH if lang == "zh" else COUNT_EN, COUNT)


_IS = frozenset(["is", "ar", "mean"])  # stems of is, are, mean(s)
_DETERMINERS = frozenset(["a", "an", "the"])
_SENTENCE_END = frozenset(".!?")
_BEFORE_WORD = frozenset(' \t\n“"(')  # what may stand between a sentence's end and its word


def openings(text: str) -> frozenset[int]:
    """The positions (in analysis.english_words order) of the words that open a sentence."""
    out = set()
    for i, m in enumerate(analysis.WORD.finditer(text)):
        j = m.start() - 1
        while j >= 0 and text[j] in _BEFORE_WORD:
            j -= 1
        if j < 0 or text[j] in _SENTENCE_END:
            out.add(i)
    return frozenset(out)


def defines_en(seq: Sequence[str], key: Sequence[str], text: str) -> float:
    """1 + DEFINES when the stems `key` stand in `seq` (the stems of `text`) as defined: a
    sentence opening "A X is …" / "X means …" ("A token is a marker"; not "the token is created
    with", nor "A Treasure token is"), or "… is a X"."""
    k = len(key)
    if not k:
        return 1.0
    starts: frozenset[int] | None = None
    for i in range(len(seq) - k + 1):
        if list(seq[i : i + k]) != list(key):
            continue
        before = seq[max(0, i - 2) : i]
        if before and before[-1] in ("a", "an") and len(before) == 2 and before[0] in _IS:
            return 1.0 + DEFINES
        if not (seq[i + k : i + k + 1] and seq[i + k] in _IS):
            continue
        if starts is None:
            starts = openings(text)
        if i in starts or (before and before[-1] in _DETERMINERS and i - 1 in starts):
            return 1.0 + DEFINES
    return 1.0


def first_under(number: str, headings: Sequence[str]) -> bool:
    """True for the first rule under one of `headings` (405.1 under 405, 702.11a under
    702.11): the rules open a heading by saying what its thing is, where a question about the
    term finds its definition even when no sentence reads "X is …" ("The exile zone is
    essentially …" does, "When a spell is cast, the physical card is put on the stack" does not)."""
    return any(number == (h + "a" if "." in h else h + ".1") for h in headings)


def defines_zh(text: str, key: str) -> float:
    """1 + DEFINES when the text holds the term as defined: "X是 / X为 / X指 / 是X / 属于X"."""
    if not key:
        return 1.0
    if any(key + d in text for d in ("是", "为", "指")) or any(
        d + key in text for d in ("是", "为", "属于")
    ):
        return 1.0 + DEFINES
    return 1.0


CONDITIONAL_EN = re.compile(r"^(?:If|When|Whenever|Once|As long as)\b")
CONDITIONAL_ZH = re.compile(r"^(?:如果|若|当|一旦|每当)")


def outcome(text: str, lang: str) -> float:
    """1 + OUTCOME for a rule that states a condition and its result ("If …, …"), else 1."""
    return _gain(text, CONDITIONAL_ZH if lang == "zh" else CONDITIONAL_EN, OUTCOME)


# Rules that move a card to a zone: the answers to "where does it go".
MOVES_EN = re.compile(
    r"\b(?:put (?:it |them |that card )?(?:into|onto|on the bottom|on top)|"
    r"returns? (?:it |them |that card )?to|(?:is|are) exiled|exiles? (?:it|that|them)|"
    r"shuffles? (?:it |them )?into|(?:goes|go) to|instead of (?:putting|going))\b",
    re.I,
)
MOVES_ZH = re.compile(r"置入|置于|放逐|移回|洗入|放进|放到|进入[^，。]{0,6}区|留在")


def moves(text: str, lang: str) -> float:
    """1 + MOVES for a rule that puts a card in a zone, else 1."""
    return _gain(text, MOVES_ZH if lang == "zh" else MOVES_EN, MOVES)


def early(number: str) -> float:
    """1 + EARLY / (1 + the subrule's place among its siblings: a = 0, b = 1, …): the rules
    state a thing first and its exceptions and special cases after ("Hexproof" means … comes
    before "hexproof from [quality]")."""
    return 1.0 + EARLY / (1 + ord(number[-1]) - ord("a"))


def cited(references: int) -> float:
    """1 + CITED × log2(1 + references), at most 4 doublings: where the rules point for a thing
    is where they state it."""
    return 1.0 + CITED * min(math.log2(1 + references), 4.0)


_REFERENCE = re.compile(r"(?:rules?|规则)\s*(\d{3}(?:\.\d+[a-z]?)?)")


def references(text: str) -> frozenset[str]:
    """The rule numbers a text refers to ("See rule 704", "参见规则704.5b")."""
    return frozenset(_REFERENCE.findall(text))


def named_by(number: str) -> frozenset[str]:
    """The references that point at a rule: its own number, and the sections it lies in ("See
    rule 704" points into the whole section). A reference to a numbered rule ("first strike (see
    rule 702.7)") names that rule, not each of its subrules."""
    out = {number}
    p = parent_of(number)
    while p is not None and len(p) >= 3:
        if "." not in p:
            out.add(p)
        p = parent_of(p)
    return frozenset(out)


def pointed(by: int) -> float:
    """1 + POINTED for each candidate that refers to a rule (at most three)."""
    return 1.0 + POINTED * min(by, 3)


def subject(occurrences: Sequence[Sequence[tuple[int, int]]], k: int, head: int) -> float:
    """1 + SUBJECT × the share of the query's content terms that stand in the text's opening
    (`head` words or characters): the rule is about them ("A creature with defender can't…")."""
    if not k:
        return 1.0
    opening = sum(1 for occ in occurrences if any(s < head for s, _e in occ))
    return 1.0 + SUBJECT * opening / k


_MODAL_EN = frozenset(["can", "cannot", "mai", "must"])  # stems ("may" stems to "mai")
_MODAL_ZH = re.compile(r"(?:不能|能够|能|可以|不得|必须)(.{0,3})")


def modal_en(seq: Sequence[str], near: Sequence[Sequence[str]]) -> float:
    """1 + MODAL when a modal word stands just before one of the query's content words
    ("can't look", "can block"): the rule says whether the asked thing can be done."""
    wanted = {f for forms in near for f in forms}
    for i, w in enumerate(seq):
        if w in _MODAL_EN and any(x in wanted for x in seq[i + 1 : i + 4]):
            return 1.0 + MODAL
    return 1.0


def modal_zh(text: str, near: Sequence[Sequence[str]]) -> float:
    """1 + MODAL when 能 / 可以 / 不能 … stands just before one of the query's content words."""
    forms = [f for fs in near for f in fs if f]
    for m in _MODAL_ZH.finditer(text):
        after = text[m.start(1) : m.start(1) + 6]
        if any(after.startswith(f) or f in after[: len(f) + 3] for f in forms):
            return 1.0 + MODAL
    return 1.0
