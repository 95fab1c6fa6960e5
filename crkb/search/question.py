"""Query understanding: which words of a question carry its content, and the forms they take.

Players ask "what happens if …", "can I …", "横置的生物能阻挡吗"; the rules state things. Question
words and filler are dropped; modal and negating words count a little; number words meet digits;
a word meets its inflected and negated forms (tapped / untapped) where the rules use them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from crkb.search import numerals, players
from crkb.search.analysis import STOP_WORDS, all_cjk, has_cjk, quoted_words, stem

SOFT = 0.3  # weight of a word that shades a question's meaning but does not carry it
MAX_SOUNDED = 8  # the longest typed Chinese word read by its sound
SUBWORD = 0.5  # how much a word inside a long Chinese query word counts against the word
NEGATED = 0.6  # how much a negated form (untapped for tapped) counts against the word itself
FORMER = 0.6  # how much a word's former name (使用 for 施放) counts against the word itself
CLASS = 0.3  # how much the class a term belongs to (zone for graveyard) counts against it

# Words of asking, not of the rules: dropped from English queries.
EN_FILLER = frozenset(
    [
        "what",
        "whats",
        "which",
        "who",
        "whom",
        "whose",
        "why",
        "how",
        "when",
        "whenever",
        "where",
        "does",
        "do",
        "did",
        "doing",
        "happen",
        "happens",
        "happened",
        "happening",
        "i",
        "me",
        "my",
        "mine",
        "myself",
        "you",
        "your",
        "yours",
        "yourself",
        "we",
        "us",
        "our",
        "ours",
        "they",
        "them",
        "their",
        "theirs",
        "themselves",
        "m",  # the remains of "i'm", "you're", "i've", "we'll", "i'd"
        "re",
        "ve",
        "ll",
        "d",
        "he",
        "him",
        "his",
        "himself",
        "she",
        "her",
        "hers",
        "herself",
        "now",
        "there",
        "will",
        "would",
        "should",
        "could",
        "shall",
        "was",
        "were",
        "am",
        "been",
        "being",
        "have",
        "has",
        "had",
        "having",
        "get",
        "gets",
        "getting",
        "got",
        "let",
        "lets",
        "about",
        "explain",
        "explained",
        "mean",
        "meaning",
        "really",
        "just",
        "still",
        "also",
        "ever",
        "exactly",
        "actually",
        "please",
        "tell",
        "know",
        "want",
        "wants",
        "wanted",
        "anything",
        "something",
        "someone",
        "somebody",
        "anyone",
        "anybody",
        "possible",
        "allowed",
        "able",
        "okay",
        "ok",
        "legal",
        "rule",
        "rules",
        "cr",
        "mtg",
        "magic",
        "happen",
        "say",
        "says",
        "said",
        "need",
        "needs",
        "needed",
        "wonder",
        "way",
        "work",
        "works",
        "working",
    ]
)
# Words that shade the meaning (can / can't, must, all): kept, with a small weight.
EN_SOFT = frozenset(
    [
        "can",
        "cannot",
        "may",
        "must",
        "not",
        "no",
        "never",
        "all",
        "each",
        "every",
        "only",
        "same",
        "doesn",
        "don",
        "isn",
        "aren",
        "didn",
        "wouldn",
        "shouldn",
        "couldn",
        "hasn",
        "haven",
        "wasn",
        "weren",
        # function words of English: they shade a question and carry no rule's content
        "into",
        "onto",
        "over",
        "than",
        "both",
        "else",
        "along",
        "everything",
        "away",
        "some",
        "other",
        "while",
        "then",
        "even",
        "again",
    ]
)
# "what counts as modified": what is modified; "count" then shades the question only
EN_COUNTS_AS = frozenset(["count", "counts", "counted"])
EN_OUTCOME = frozenset(["happen", "happens", "happened", "happening", "result", "results"])
EN_QUANTITY = (("how", "many"), ("how", "much"), ("number", "of"))
# Irregular English forms the Porter stemmer does not join to their base word.
# Words beside "die" when it is a die rolled ("roll a die", "the die", "die roll"), not dying.
DIE_ROLLED = frozenset(
    ["a", "the", "one", "each", "that", "roll", "rolls", "rolled", "rolling", "result"]
)
# Words for "none of it" the rules spell as "no …" (a library with no cards in it).
EN_NONE: dict[str, tuple[str, ...]] = {"empty": ("no",), "nothing": ("no",), "none": ("no",)}
EN_IRREGULAR = {
    "drew": "draw",
    "drawn": "draw",
    "dealt": "deal",
    "chose": "choose",
    "chosen": "choose",
    "lost": "lose",
    "won": "win",
    "paid": "pay",
    "left": "leave",
    "began": "begin",
    "begun": "begin",
    "took": "take",
    "taken": "take",
    "gave": "give",
    "given": "give",
    "became": "become",
    "came": "come",
    "went": "go",
    "gone": "go",
    "held": "hold",
    "kept": "keep",
    "made": "make",
    "fought": "fight",
    "found": "find",
    "struck": "strike",
    "spent": "spend",
    "sent": "send",
    "brought": "bring",
    "saw": "see",
    "seen": "see",
    "shown": "show",
    "dying": "dies",  # the rules' verb: "die" alone is a die rolled (706)
    "died": "dies",
    "dead": "dies",
    "ran": "run",
    "copies": "copy",
    "cannot": "can",
}

# Words of one family that the Porter stemmer leaves apart: a question says "kill" (destroy)
# where a rule says "Destruction of the source", or "the choice" where it says "chooses".
EN_FAMILIES = (
    ("destroy", "destruction"),
    ("resolve", "resolution"),
    ("choose", "choice"),
    ("apply", "application"),
    ("lose", "loss"),
    ("decide", "decision"),
    ("describe", "description"),
    ("permit", "permission"),
)
# A question's "can I …" is the rules' "may …" (permission), and back.
EN_MODALS: dict[str, tuple[str, ...]] = {"can": ("may",), "could": ("may",), "may": ("can",)}
# Two words players say where the rules often say one: the one is a form of the second word.
EN_PHRASES: dict[tuple[str, str], str] = {
    ("same", "time"): "simultaneously",
    ("right", "away"): "immediately",
    ("come", "back"): "return",  # "does it come back": is it returned
    ("comes", "back"): "returns",
    ("came", "back"): "returned",
    ("go", "off"): "trigger",  # "does the ability go off": does it trigger
    ("goes", "off"): "triggers",
    ("went", "off"): "triggered",
    ("fall", "off"): "unattached",  # "does the aura fall off": does it become unattached
    ("falls", "off"): "unattached",
    ("fell", "off"): "unattached",
    ("put", "back"): "return",
    ("get", "back"): "return",
    ("gets", "back"): "returns",
}
FAMILY = 0.8  # how much a word of the same family counts against the word itself
# What a creature and an opponent are, in the rules' words: a rule about permanents or players
# answers a question about them. (The glossary's classes leave out words most rules use.)
EN_CLASSES: dict[str, str] = {
    "creature": "permanent",
    "creatures": "permanents",
    "opponent": "player",
    "opponents": "players",
    "permanent": "object",  # "counters on a permanent": a rule about an object's counters
    "permanents": "objects",
}


@cache
def family_stems() -> dict[str, tuple[str, ...]]:
    """stem → the stems of its family (made on first use: stemming is work)."""
    out: dict[str, tuple[str, ...]] = {}
    for words in EN_FAMILIES:
        stems = [stem(w) for w in words]
        for s in stems:
            out[s] = tuple(t for t in stems if t != s)
    return out


# Chinese words of asking and particles: dropped (jieba's cut of a question).
ZH_FILLER = frozenset(
    [
        "什么",
        "怎样",
        "怎么样",
        "怎么",
        "怎么办",
        "如何",
        "是否",
        "会",
        "吗",
        "呢",
        "吧",
        "啊",
        "呀",
        "了",
        "的",
        "之",  # the written 的 (死亡之触): alone, jieba's cut of it, a particle and nothing else
        "得",
        "多少",
        "几",
        "请问",
        "为什么",
        "为何",
        "哪些",
        "哪个",
        "哪",
        "谁",  # who, whose, where, when: the English list's asking words, in Chinese
        "谁的",
        "哪里",
        "哪儿",
        "何处",
        "何时",
        "多久",
        "会不会",
        "是不是",
        "有没有",
        "时候",
        "我",
        "我的",
        "你",
        "你的",
        "他",
        "她",
        "它",
        "还",
        "还要",
        "要",
        "需要",
        "想",
        "就",
        "一下",
        "情况",
        "发生",
        "结果",
        "规则",
        "么",
        "么样",
        "该",
        "意思",  # X是什么意思: what X means
        "到底",  # X到底指什么: what X is, after all
        "究竟",
        "干嘛",  # what for
        "干什么",
        "干啥",
        "啥",
        "是",  # the copula of asking (X是什么); the rules also say X为, X指
    ]
)
# Chinese words that shade the meaning: kept, with a small weight (能否 → 能 / 可以).
ZH_SOFT = frozenset(
    [
        "可以",
        "能",
        "能够",
        "时",
        "在",
        "被",
        "有",
        "由",
        "不",
        "没",
        "没有",
        "必须",
        "所有",
        "每",
        "同一",
        "于",
        "中",  # in (坟墓场中; 里 is read as 中)
    ]
)
# Adverbs that follow a noun in a question ("贴纸也弄掉吗"): meant as typed, never the last
# character of a slip (贴纸也 is no 贴纸页, a sticker sheet).
ZH_PARTICLES = frozenset("也都又再才却很太更")
# "this", "that", "which": 施放这张牌 casts this card, no slip for 施放者 (caster)
ZH_DEMONSTRATIVES = frozenset("这那哪此该")
ZH_ASK_CAN: dict[str, tuple[str, ...]] = {"能否": ("能", "可以"), "可否": ("可以", "能")}
ZH_ASK_CAN |= {"能不能": ("能", "可以")}
ZH_ASK_CAN |= {"可不可以": ("可以", "能"), "可以吗": ("可以",)}
ASK_CAN_EN = frozenset(["can", "could", "may"])  # a question that opens so asks what is allowed
ASK_CAN_ZH = ("能", "可以", "可否")  # a question holding one asks what is allowed
NOT_MODAL_ZH = re.compile("异能|技能|功能|性能|能力")  # 能 inside a noun ("ability"), not "can"
ZH_WHERE = re.compile("(?:去|到|回|放)哪|哪里|哪儿|去向")  # where does it go (哪张: which)
ZH_OUTCOME = frozenset(["怎样", "怎么样", "怎么办", "会", "发生", "结果", "情况"])
ZH_QUANTITY = frozenset(
    [
        "几",
        "多少",
        "几张",
        "几个",
        "几次",
        "几点",
        "几位",
        "几名",
        "几种",
        "多少张",
        "多少个",
        "多少点",
    ]
)


@dataclass(frozen=True)
class Term:
    """One query word as the index holds it: its forms (index term, factor) and its weight."""

    text: str
    forms: tuple[tuple[str, float], ...]
    weight: float = 1.0


@dataclass(frozen=True)
class Understood:
    """What a query asks: its weighted terms, its content words, and whether it wants a count."""

    terms: tuple[Term, ...]
    content: tuple[str, ...]
    wants_number: bool
    question: bool
    wants_outcome: bool = False  # "what happens if …", "会怎样": a conditional rule answers
    wants_zone: bool = False  # "where does it go", "去哪": a rule that moves a card answers


def asking_en(word: str) -> bool:
    """True for a lowercase word the reading of a question knows: a word of asking, one that
    shades a question, an irregular form, a stop word. No spelling correction is wanted for it
    ("getting" is not "setting", "really" not "rally")."""
    return word in EN_FILLER or word in EN_SOFT or word in EN_IRREGULAR or word in STOP_WORDS


def negation_pairs(vocab: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """stem → stems of its negated / un-negated forms that occur in the rules (tap ↔ untap)."""
    words = set(vocab)
    out: dict[str, set[str]] = {}
    for w in words:
        for prefix in ("un", "non"):
            rest = w[len(prefix) :]
            if w.startswith(prefix) and len(rest) >= 3 and rest in words:
                a, b = stem(rest), stem(w)
                if a != b:
                    out.setdefault(a, set()).add(b)
                    out.setdefault(b, set()).add(a)
    return {k: tuple(sorted(v)) for k, v in out.items()}


def quoted_en(query: str) -> frozenset[str]:
    """Single words a query quotes: 'who is "you" on it' asks about the word itself, so a
    word of asking in quotes is content."""
    return frozenset(quoted_words(query))


def understand_en(
    words: list[str],
    negations: Callable[[str], tuple[str, ...]] = lambda s: (),
    classes: Callable[[str], tuple[str, ...]] = lambda w: (),
    quoted: frozenset[str] = frozenset(),
) -> Understood:
    """Weighted terms of an English query (lowercase words, spelling already corrected)."""
    wants = any(tuple(words[i : i + 2]) in EN_QUANTITY for i in range(len(words) - 1))
    question = any(w in EN_FILLER for w in words)
    terms: dict[str, Term] = {}
    content: list[str] = []
    for i, w in enumerate(words):
        if w in STOP_WORDS or (w in EN_FILLER and w not in quoted):
            continue
        if wants and w in ("many", "much"):
            continue
        base = EN_IRREGULAR.get(w, w)
        if w == "die" and DIE_ROLLED.isdisjoint(words[max(i - 1, 0) : i] + words[i + 1 : i + 2]):
            base = "dies"  # "won't die", "can it die": the verb, not a die rolled (706)
        s = stem(base)
        forms: dict[str, float] = {s: 1.0}
        for other in numerals.english_forms(w):
            forms.setdefault(stem(other), 1.0)
        if i and (phrase := EN_PHRASES.get((words[i - 1], w))):  # "at the same time"
            forms.setdefault(stem(phrase), players.ALSO)
        for other in EN_MODALS.get(w, ()):  # "can I cast …": "may cast"
            forms.setdefault(stem(other), players.ALSO)
        for other in family_stems().get(s, ()):  # destroy: "destruction of the source"
            forms.setdefault(other, FAMILY)
        for other in EN_NONE.get(w, ()):  # "an empty library": "a library with no cards"
            forms.setdefault(stem(other), NEGATED)
        for other in players.EN_ALSO.get(w, ()):  # "an empty deck": the library
            forms.setdefault(stem(other), players.ALSO)
        for c in classes(w):  # "goes to the graveyard" meets "a zone other than …"
            forms.setdefault(c, CLASS)
        if w in EN_CLASSES:  # "can my opponent …": "a player can …"
            forms.setdefault(stem(EN_CLASSES[w]), CLASS)
        if w.endswith("ed") or w.startswith(("un", "non")):  # tapped / untapped, not creature
            for neg in negations(s):
                forms.setdefault(neg, NEGATED)
        counts_as = w in EN_COUNTS_AS and words[i + 1 : i + 2] == ["as"]
        weight = SOFT if (w in EN_SOFT or counts_as) and w not in quoted else 1.0
        if weight == 1.0:
            content.append(w)
        if s not in terms:
            terms[s] = Term(s, tuple(forms.items()), weight)
    outcome = any(w in EN_OUTCOME for w in words) or "if" in words[:3]
    zone = "where" in words
    return Understood(tuple(terms.values()), tuple(content), wants, question, outcome, zone)


def asks_can_zh(query: str) -> bool:
    """True when a Chinese question asks whether something can be done (能 / 可以 / 可否), not
    when 能 only stands inside a noun (异能, an ability)."""
    text = NOT_MODAL_ZH.sub("", query)
    return any(w in text for w in ASK_CAN_ZH)


def understand_zh(
    tokens: Iterable[str],
    subwords: Callable[[str], list[str]] = lambda w: [],
    former: Callable[[str], tuple[str, ...]] = lambda w: (),
    quoted: frozenset[str] = frozenset(),
) -> Understood:
    """Weighted terms of a Chinese query cut into words (numerals already made digits); a long
    word also meets the dictionary words inside it (在回合结束时 → 回合结束), and a word the
    words it was called before (施放 → 使用, crkb/search/synonyms.py)."""
    terms: dict[str, Term] = {}
    content: list[str] = []
    wants = question = False
    after_count = False
    tokens = [c for t in tokens for c in _glued(t)]
    outcome = any(t in ZH_OUTCOME for t in tokens)
    zone = bool(ZH_WHERE.search("".join(tokens)))
    for t in tokens:
        if t in ZH_QUANTITY or (t.startswith("几") and len(t) == 2):
            wants = question = after_count = True
            continue
        if after_count and len(t) == 1 and t in numerals.ZH_MEASURES:  # 多少 张
            after_count = False
            continue
        after_count = False
        if t in ZH_FILLER and t not in quoted:  # 牌上的“你”: the word asked about
            question = True
            continue
        if t in ZH_ASK_CAN:
            question = True
            forms = tuple((f, 1.0) for f in ZH_ASK_CAN[t])
            terms.setdefault(t, Term(t, forms, SOFT))
            continue
        forms_d: dict[str, float] = {t: 1.0}
        for sub in _cover(t, subwords(t)) if len(t) >= 5 else ():
            forms_d.setdefault(sub, SUBWORD)
        digits = numerals.zh_count(t)
        if digits is not None:
            forms_d.setdefault(digits, 1.0)
        for old in former(t):
            forms_d.setdefault(old, FORMER)
        weight = SOFT if t in ZH_SOFT and t not in quoted else 1.0
        if weight == 1.0:
            content.append(t)
        terms.setdefault(t, Term(t, tuple(forms_d.items()), weight))
    return Understood(tuple(terms.values()), tuple(content), wants, question, outcome, zone)


def known_words(
    tokens: Sequence[str],
    known: Callable[[str], bool],
    sounds_like: Callable[[str], str | None] = lambda text: None,
) -> tuple[list[str], dict[str, str]]:
    """A Chinese query's words as the rules hold them, and the mistyped words put right. A word
    no rule holds is cut into the fewest words that some rule does hold (jieba cuts 当地, "local",
    from 当地下, where 地 is a land), or read as the rules' word it sounds like (避邪: 辟邪); a
    run of single characters is joined where the rules hold the longer word (jieba leaves 先手
    as 先 / 手) or one that sounds like it (朋 / 洛 / 客: 鹏洛客). Asking words, counts and words
    the rules hold stay as they are."""
    out: list[str] = []
    inner: set[int] = set()  # places in `out` of the later pieces of a word jieba cut whole
    fixed: dict[str, str] = {}
    run: list[str] = []

    def flush() -> None:
        out.extend(_fewest("".join(run), known, sounds_like, fixed, apart=True))
        run.clear()

    for t in tokens:
        if _fixed(t, known):
            flush()
            out.append(t)
        elif len(t) == 1:
            run.append(t)
        else:
            flush()
            pieces = _fewest(t, known, sounds_like, fixed)
            inner.update(range(len(out) + 1, len(out) + len(pieces)))
            out.extend(pieces)
    flush()
    return _sounded(out, known, sounds_like, fixed, inner), fixed


def _sounded(
    words: list[str],
    known: Callable[[str], bool],
    sounds_like: Callable[[str], str | None],
    fixed: dict[str, str],
    inner: Container[int] = frozenset(),
) -> list[str]:
    """Words with a slip in their last or first character, which jieba cut off as a character
    of its own (防御李: 防御 / 李), joined and put right when together they sound like a rules'
    word: a known word beside one or two single characters. A join starts where a word jieba
    cut starts: the tail of 有人 (someone) and the 输 after it are no 认输 (concede)."""

    def put(i: int, n: int) -> list[str] | None:
        group = words[i : i + n]
        text = "".join(group)
        if (
            i not in inner
            and any(len(w) == 1 for w in group)
            and len(text) <= MAX_SOUNDED
            and all(_open(w) for w in group)
            and not known(text)
        ):
            word = sounds_like(text)
            if word is not None and (any(len(w) > 1 for w in group) or _one_slip(text, word)):
                fixed[text] = word
                return [word]
        return None

    return players.rewritten(words, (3, 2), put)


def _open(word: str) -> bool:
    """A word a slip may lie in: Chinese, and no asking word, count or particle."""
    return (
        all_cjk(word)
        and word not in ZH_FILLER
        and word not in ZH_PARTICLES
        and word not in ZH_DEMONSTRATIVES
        and word not in ZH_QUANTITY
        and word not in ZH_ASK_CAN
        and numerals.zh_count(word) is None
    )


def _fixed(token: str, known: Callable[[str], bool]) -> bool:
    """A token kept whole and never joined: not Chinese, an asking word, a count, or a word of
    two or more characters that some rule holds."""
    return (
        not has_cjk(token)
        or token in ZH_FILLER
        or token in ZH_QUANTITY
        or (token.startswith("几") and len(token) == 2)  # 几张, 几块: how many
        or token in ZH_ASK_CAN
        or numerals.zh_count(token) is not None
        or (len(token) >= 2 and token[0] in numerals.ZH_NUMERAL)  # 一章: a count, not a slip
        or (len(token) >= 2 and (token in ZH_SOFT or known(token)))
    )


def _fewest(
    text: str,
    known: Callable[[str], bool],
    sounds_like: Callable[[str], str | None],
    fixed: dict[str, str],
    apart: bool = False,
) -> list[str]:
    """`text` as the fewest pieces, each a single character, a word some rule holds, or a word
    of two or more characters that sounds like one (then the rules' word, noted in `fixed`);
    of as many pieces, the one with fewest words put right. `apart`: the characters were cut
    one by one, and are put right only where one of them slipped (`_one_slip`)."""
    n = len(text)
    best: list[tuple[int, int, list[str]] | None] = [(0, 0, [])] + [None] * n
    like: dict[str, str | None] = {}
    for i in range(n):
        at = best[i]
        if at is None:
            continue
        pieces, swaps, words = at
        for j in range(i + 1, n + 1):
            part = text[i:j]
            if j - i == 1 or known(part):
                got = (pieces + 1, swaps, [*words, part])
            elif j - i <= MAX_SOUNDED:
                if part not in like:
                    like[part] = sounds_like(part)
                word = like[part]
                if word is None or (apart and not _one_slip(part, word)):
                    continue
                got = (pieces + 1, swaps + 1, [*words, word])
            else:
                continue
            now = best[j]
            if now is None or got[:2] < now[:2]:
                best[j] = got
    end = best[n]
    if end is None:
        return []
    pos = 0
    for w in end[2]:  # note what was put right, as typed
        typed = text[pos : pos + len(w)]
        if typed != w:
            fixed[typed] = w
        pos += len(w)
    return end[2]


def _one_slip(typed: str, word: str) -> bool:
    """True when a word differs from what was typed in one character at most: characters jieba
    cut one by one are words of their own unless one of them slipped (朋 / 洛 / 客: 鹏洛客),
    and 牌 / 当 of 的牌当回合, "the card that turn", is no slip for 拍档 (partner)."""
    return len(typed) == len(word) and sum(a != b for a, b in zip(typed, word, strict=True)) <= 1


def _glued(token: str) -> list[str]:
    """A token jieba glued from an asking word and a soft one ("时会" of "不合法时会怎样", "会被")
    is those words: no rule holds "时会"."""
    asking = any(c in ZH_FILLER for c in token)
    if len(token) >= 2 and asking and all(c in ZH_FILLER or c in ZH_SOFT for c in token):
        return list(token)
    return [token]


def _cover(word: str, subs: list[str]) -> list[str]:
    """Sub-words that cover a long word without overlapping, longest first."""
    taken = [False] * len(word)
    out = []
    for sub in subs:
        i = word.find(sub)
        while i >= 0 and any(taken[i : i + len(sub)]):
            i = word.find(sub, i + 1)
        if i >= 0:
            taken[i : i + len(sub)] = [True] * len(sub)
            out.append(sub)
    return out
