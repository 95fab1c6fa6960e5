"""Which rule of one version is which rule of another: content matching as one optimal assignment.

Steps, cheapest first: rules with the same number and the same text are anchors; a text found
exactly once on each side is an anchor too. Every other rule gets a sparse set of candidates (same
text, same text up to cited numbers, same number, shared rare words), each scored by text
similarity plus context — position predicted from the anchors, matched parent, matched neighbours.
The scores are solved as one maximum-weight assignment per connected group of candidates
(`scipy.optimize.linear_sum_assignment`), then solved once more with the first answer as context.
Pairs may cross levels, as the publisher's rules do (a rule's text becomes a subrule, a rule heading
a section, a section a chapter; 2009 moved hundreds): a change of kind only costs a little, but a
chapter or section paired across levels must have most of its matched rules under its partner.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from crkb.model import Document, Rule
from crkb.numbers import parent_of, within

if TYPE_CHECKING:  # numpy and scipy (~60 MB) are imported by the functions that match, so a
    # process that only reads texts (a web worker) never holds them
    import numpy as np
    from scipy.sparse import csr_matrix

# A cited rule or section number ("rule 702.7a", "see 510"); renumbering changes only these.
CITE = re.compile(r"(?<![\d.])\d{3}(?:\.\d+[a-z]{0,2})?(?!\d)")
_TOKEN = re.compile(r"[a-z0-9]+|§|[\u3400-\u9fff\uf900-\ufaff]")
_CJK = re.compile(r"[\u3400-\u9fff]")

MIN_SIMILARITY = 0.45  # below this, two texts are different rules whatever their context
ACCEPT = 0.6  # a pair is worth making when similarity plus context bonuses exceed this
TOP_CANDIDATES = 8  # fuzzy candidates per rule, taken by shared rare features


_SPACES = re.compile(r"\s+")
# Typography a release changes wholesale and no reader counts as a change of the rules: 2019-01-25
# wrote every ’ and “ ” of 2018-10-05 straight (1,419 rules "changed"), 2019-05-03 curled them back.
_TYPOGRAPHY = str.maketrans(
    {"‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"'}
    | dict.fromkeys("‐‑‒–—―", "-")
    | {"…": "...", "Æ": "AE", "æ": "ae"}  # "AEther" in the plain-text releases
)


def plain_typography(text: str) -> str:
    """The text with curly quotes, dashes and an ellipsis written plain (`_TYPOGRAPHY`)."""
    return text.translate(_TYPOGRAPHY)


# What the plain-text releases (2008-2014) typed for the typography the others print: _Magic_
# for italics, (TM) and (R) for ™ and ®, -- for a dash, <http://…> around an address. 2014-05-01
# printed them (and Æ for AE): 88 of its 94 "changed" rules had changed nothing else.
_ITALIC = re.compile(r"(?<!\w)_(\S(?:[^_\n]*?\S)?)_(?!\w)")
_SIGNS = re.compile(r"\s?\((TM|R)\)")
_SIGN = {"TM": "™", "R": "®"}
_DASH = re.compile(r"\s*--?\s*")  # after `_TYPOGRAPHY`: a dash, spaced or not, is one "-"
_ANGLED = re.compile(r"<((?:https?://)?[A-Za-z0-9][\w-]*(?:\.[\w-]+)+(?:/[^<>\s]*)?)>")


def text_key(text: str) -> str:
    """A rule text as compared across releases: runs of whitespace are one space, none at the
    ends, curly quotes, dashes and an ellipsis written plain, and a plain-text release's typed
    typography (_italics_, (TM), --, <address>) as the others print it. Two texts with equal
    keys say the same thing (a trailing space, or ’ written ', is no change)."""
    text = _ANGLED.sub(r"\1", _ITALIC.sub(r"\1", text))
    text = _SIGNS.sub(lambda m: _SIGN[m.group(1)], text)
    return _DASH.sub("-", plain_typography(_SPACES.sub(" ", text).strip()))


def plain_word(token: str) -> str:
    """A word as `textdiff` compares it: typography plain, _italic_ marks off."""
    return plain_typography(token).strip("_") or token


def same_text(a: str, b: str) -> bool:
    """Equal texts up to whitespace: the one comparison `crkb diff` and the carry share."""
    return a == b or text_key(a) == text_key(b)


def cite_free(text: str) -> str:
    """The text with every cited number replaced by `§`: equal when only citations changed."""
    return CITE.sub("§", text)


def cited(text: str) -> list[str]:
    """The rule and section numbers a text cites, in order."""
    return CITE.findall(text)


def comparable(text: str) -> str:
    """Lower-case tokens of the citation-free text, for similarity (Chinese one char a token)."""
    toks = _TOKEN.findall(cite_free(text).lower())
    return " ".join(toks)


def similarity(a: str, b: str) -> float:
    """0..1 similarity of two rule texts, ignoring case, punctuation and cited numbers."""
    return _ratio(comparable(a), comparable(b))


def _ratio(a: str, b: str) -> float:
    """Indel similarity over tokens (words; characters for Chinese), 0..1."""
    return fuzz.ratio(a.split(" "), b.split(" ")) / 100.0


def _features(comp: str) -> set[str]:
    """Index features: words for English, character pairs for Chinese."""
    toks = comp.split(" ")
    if _CJK.search(comp):
        chars = [t for t in toks if t]
        return {a + b for a, b in zip(chars, chars[1:], strict=False)} | set(chars)
    return set(toks)


@dataclass(slots=True)
class Side:
    """One version's rules in document order, with what matching needs of them (cached)."""

    rules: list[Rule]
    index: dict[str, int] = field(default_factory=dict)
    comp: list[str] = field(default_factory=list)
    toks: list[list[str]] = field(default_factory=list)

    @classmethod
    def of(cls, rules: Sequence[Rule]) -> Side:
        seen: dict[str, int] = {}
        kept: list[Rule] = []
        for r in rules:  # a doubled number: the first one wins, as in Document.rule_map
            if r.number not in seen:
                seen[r.number] = len(kept)
                kept.append(r)
        return cls(kept, seen, [""] * len(kept), [[] for _ in kept])

    def comparable(self, i: int) -> str:
        if not self.comp[i]:
            self.comp[i] = comparable(self.rules[i].text) or "\x00"
            self.toks[i] = self.comp[i].split(" ")
        return self.comp[i]

    def tokens(self, i: int) -> list[str]:
        if not self.comp[i]:
            self.comparable(i)
        return self.toks[i]


def _anchor(old: Side, new: Side) -> dict[int, int]:
    """Same number and same text; then texts that occur exactly once among the rest on each side."""
    pairs: dict[int, int] = {}
    for i, r in enumerate(old.rules):
        j = new.index.get(r.number)
        if j is not None and same_text(new.rules[j].text, r.text):
            pairs[i] = j
    taken = set(pairs.values())
    by_text_old: dict[str, list[int]] = defaultdict(list)
    by_text_new: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(old.rules):
        if i not in pairs:
            by_text_old[text_key(r.text)].append(i)
    for j, r in enumerate(new.rules):
        if j not in taken:
            by_text_new[text_key(r.text)].append(j)
    for text, olds in by_text_old.items():
        news = by_text_new.get(text)
        if len(olds) == 1 and news and len(news) == 1:
            pairs[olds[0]] = news[0]
    return pairs


def _candidates(old: Side, new: Side, rows: list[int], cols: list[int]) -> dict[int, set[int]]:
    """A sparse candidate set: exact and citation-free equal texts, same number, rare features."""
    cand: dict[int, set[int]] = defaultdict(set)
    by_text: dict[str, list[int]] = defaultdict(list)
    by_free: dict[str, list[int]] = defaultdict(list)
    colset = set(cols)
    for j in cols:
        by_text[text_key(new.rules[j].text)].append(j)
        by_free[new.comparable(j)].append(j)
    for i in rows:
        r = old.rules[i]
        cand[i].update(by_text.get(text_key(r.text), ()))
        cand[i].update(by_free.get(old.comparable(i), ()))
        same = new.index.get(r.number)
        if same is not None and same in colset:
            cand[i].add(same)
    for i, js in _shared_features(old, new, rows, cols).items():
        cand[i].update(js)
    return cand


def _shared_features(
    old: Side, new: Side, rows: list[int], cols: list[int]
) -> dict[int, list[int]]:
    """For each old rule, the new rules sharing the most rare features (idf-weighted)."""
    import numpy as np

    vocab: dict[str, int] = {}
    df: list[int] = []
    ncol: list[list[int]] = []
    for j in cols:
        ids = []
        for f in _features(new.comparable(j)):
            k = vocab.setdefault(f, len(vocab))
            if k == len(df):
                df.append(0)
            df[k] += 1
            ids.append(k)
        ncol.append(ids)
    if not vocab:
        return {}
    n = len(cols)
    dfa = np.asarray(df, dtype=np.float64)
    idf = np.where(dfa <= max(30, n // 4), np.log1p(n / dfa), 0.0)
    nmat = _incidence(ncol, len(vocab), None)
    orow = [[vocab[f] for f in _features(old.comparable(i)) if f in vocab] for i in rows]
    omat = _incidence(orow, len(vocab), idf)
    out: dict[int, list[int]] = {}
    k = min(TOP_CANDIDATES, n)
    step = max(1, 2_000_000 // max(1, n))
    for start in range(0, len(rows), step):
        block = (omat[start : start + step] @ nmat.T).toarray()
        top = (
            np.argpartition(-block, k - 1, axis=1)[:, :k]
            if k < n
            else np.tile(np.arange(n), (block.shape[0], 1))
        )
        for x, js in enumerate(top):
            out[rows[start + x]] = [cols[j] for j in js if block[x, j] > 0]
    return out


def _incidence(lists: list[list[int]], width: int, weights: np.ndarray | None) -> csr_matrix:
    """A sparse row-per-rule feature matrix (binary, or with the given feature weights)."""
    import numpy as np
    from scipy.sparse import csr_matrix

    indptr = np.zeros(len(lists) + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(x) for x in lists])
    idx = np.fromiter((k for x in lists for k in x), dtype=np.int64, count=int(indptr[-1]))
    data = np.ones(len(idx)) if weights is None else weights[idx]
    return csr_matrix((data, idx, indptr), shape=(len(lists), width))


def _predict(anchors: list[tuple[int, int]], i: int) -> float:
    """Where old position `i` should land in the new version, from the nearest anchors."""
    if not anchors:
        return float(i)
    k = bisect_right(anchors, (i, math.inf))
    if k == 0:
        a, b = anchors[0]
        return b - (a - i)
    a, b = anchors[k - 1]
    return b + (i - a)


def _score(
    old: Side, new: Side, i: int, j: int, ctx: dict[int, int], sim: float, pred: float
) -> float:
    """Similarity plus context: predicted position, matched parent and neighbours, number, kind."""
    o, n = old.rules[i], new.rules[j]
    s = sim + 0.15 * max(0.0, 1.0 - abs(pred - j) / 25.0)
    if o.parent is not None and n.parent is not None:
        pi, pj = old.index.get(o.parent), new.index.get(n.parent)
        if pi is not None and pj is not None and ctx.get(pi) == pj:
            s += 0.1
    if i > 0 and j > 0 and ctx.get(i - 1) == j - 1:
        s += 0.05
    if ctx.get(i + 1) == j + 1:
        s += 0.05
    if o.number == n.number:
        s += 0.05
    if o.kind != n.kind:
        s -= 0.1
    return s


def _assign(weights: dict[tuple[int, int], float]) -> dict[int, int]:
    """Maximum-weight assignment over a sparse weight set, one dense solve per connected group."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    if not weights:
        return {}
    rows = sorted({i for i, _ in weights})
    cols = sorted({j for _, j in weights})
    ri = {r: k for k, r in enumerate(rows)}
    ci = {c: k for k, c in enumerate(cols)}
    nr = len(rows)
    a = np.fromiter((ri[i] for i, _ in weights), dtype=np.int64, count=len(weights))
    b = np.fromiter((nr + ci[j] for _, j in weights), dtype=np.int64, count=len(weights))
    size = nr + len(cols)
    graph = coo_matrix((np.ones(len(a)), (a, b)), shape=(size, size))
    _, label = connected_components(graph, directed=False)
    groups: dict[int, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    for k, r in enumerate(rows):
        groups[label[k]][0].append(r)
    for k, c in enumerate(cols):
        groups[label[nr + k]][1].append(c)
    out: dict[int, int] = {}
    for grows, gcols in groups.values():
        if len(grows) == 1 and len(gcols) == 1:
            out[grows[0]] = gcols[0]
            continue
        m = np.zeros((len(grows), len(gcols)))
        gci = {c: k for k, c in enumerate(gcols)}
        for x, i in enumerate(grows):
            for c in gcols:
                w = weights.get((i, c))
                if w is not None:
                    m[x, gci[c]] = w
        rr, cc = linear_sum_assignment(m, maximize=True)
        for x, y in zip(rr, cc, strict=True):
            if m[x, y] > 0:
                out[grows[x]] = gcols[y]
    return out


def match_rules(old_rules: Sequence[Rule], new_rules: Sequence[Rule]) -> dict[str, str]:
    """Old rule number → new rule number for every rule found in both versions."""
    return match_sides(Side.of(old_rules), Side.of(new_rules))


def match_sides(old: Side, new: Side) -> dict[str, str]:
    """`match_rules` over prepared sides (a side can be reused for both its neighbours)."""
    pairs = _anchor(old, new)
    taken = set(pairs.values())
    rows = [i for i in range(len(old.rules)) if i not in pairs]
    cols = [j for j in range(len(new.rules)) if j not in taken]
    if rows and cols:
        pairs.update(_solve(old, new, pairs, rows, cols))
    _drop_stray_headings(old, new, pairs)
    pairs.update(_same_number(old, new, pairs))
    return {old.rules[i].number: new.rules[j].number for i, j in sorted(pairs.items())}


def _drop_stray_headings(old: Side, new: Side, pairs: dict[int, int]) -> None:
    """Unpair a heading matched across levels when the rules under it went elsewhere.

    Entries do change level, and those pairs are kept: a rule's text becomes a subrule
    (2025-07-25: 903.11 → 903.11a) and subrules become rules, and a heading moves with its
    rules (2009-07-11: rule 212.2 "Artifacts" became section 301, its subrules 301's rules;
    section 217 "Zones" became chapter 4). A title alone says little, though: matched across
    26 years, chapter 2 "Cards" of 1999 meets section 108 "Cards", and in 2009 rule 212.1
    "General" meets section 500 "General", while the rules under them went elsewhere. A pair
    across levels with a chapter or section on one side, whose old entry has matched rules
    under it, stands only when most of them are under its partner.
    """
    heads = {
        old.rules[i].number: i
        for i, j in pairs.items()
        if old.rules[i].kind != new.rules[j].kind
        and {old.rules[i].kind, new.rules[j].kind} & {"chapter", "section"}
    }
    if not heads:
        return
    tally: dict[int, list[int]] = defaultdict(lambda: [0, 0])  # head → [under its partner, all]
    for k, m in pairs.items():
        up = parent_of(old.rules[k].number)
        while up is not None:
            if (i := heads.get(up)) is not None:
                counts = tally[i]
                counts[1] += 1
                counts[0] += within(new.rules[m].number, new.rules[pairs[i]].number)
            up = parent_of(up)
    for i, (followed, under) in tally.items():
        if 2 * followed <= under:
            del pairs[i]


def _same_number(old: Side, new: Side, pairs: dict[int, int]) -> dict[int, int]:
    """Rules left unmatched on both sides under one number: the same rule with new text.

    Text similarity cannot tell that "Tribals" became "Kindreds" or "EDH" became "Commander", but
    a number kept in place is what the SPEC calls `changed`; without this the rule would read as
    removed and added, and its history would stop there.
    """
    taken = set(pairs.values())
    out: dict[int, int] = {}
    for i, r in enumerate(old.rules):
        if i in pairs:
            continue
        j = new.index.get(r.number)
        if j is not None and j not in taken:
            out[i] = j
    return out


def _solve(
    old: Side, new: Side, anchors: dict[int, int], rows: list[int], cols: list[int]
) -> dict[int, int]:
    cand = _candidates(old, new, rows, cols)
    anchor_list = sorted(anchors.items())
    sims: dict[tuple[int, int], float] = {}
    cutoff = MIN_SIMILARITY / 0.97 * 100
    for i, js in cand.items():
        ci, ti = old.comparable(i), old.tokens(i)
        for j in js:
            if same_text(old.rules[i].text, new.rules[j].text):
                sim = 1.0
            elif ci == new.comparable(j):
                sim = 0.98
            else:
                sim = fuzz.ratio(ti, new.tokens(j), score_cutoff=cutoff) / 100.0 * 0.97
            if sim >= MIN_SIMILARITY:
                sims[(i, j)] = sim
    preds = {i: _predict(anchor_list, i) for i in rows}
    found: dict[int, int] = {}
    for _round in range(2):
        ctx = {**anchors, **found}
        weights = {}
        for (i, j), sim in sims.items():
            w = _score(old, new, i, j, ctx, sim, preds[i]) - ACCEPT
            if w > 0:
                weights[(i, j)] = w
        found = _assign(weights)
    return found


def match_documents(old: Document, new: Document) -> dict[str, str]:
    """Old rule number → new rule number between two versions of one language."""
    return match_rules(old.rules, new.rules)
