"""A learned correction to the weighed product of a candidate's signals: boosted regression trees.

The signals (crkb/search/weights.py) are multiplied, each raised to one learned exponent, which
cannot say "a topic matters in a short question and little in a long one" or "a first subrule
answers a Chinese question more often than an English one". Small trees learned by LambdaRank
on the judged development questions (scripts/train_ranker.py) add that: a candidate's log score
is the weighed sum of its log factors plus the trees' output. The trees are read from
`forest.json` beside this module and evaluated with numpy, every tree on every candidate at once,
so a search loads no learning library.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from crkb.errors import StoreError

MODEL = Path(__file__).with_name("forest.json")
# The languages whose searches the trees correct. In session 15 they helped Chinese questions
# they were not learned from (+0.013 MRR@10 over 137) and English ones not at all (-0.114 over
# ../shared's 18), so they corrected Chinese alone. Learned again in session 17 with a third
# players' question for every rule, they helped English too: cross-validated on the development
# questions 0.743 → 0.799, ../shared's 18 questions 0.831 → 0.847, the unseen batches (115,
# never learned from) 0.694 → 0.787. DEVELOPERS.md, search.
LANGS = frozenset({"en", "zh"})
# What a tree reads of a query besides its candidates' factors.
QUERY_FEATURES = ("terms", "zh", "product")
DEPTH = 3  # the deepest tree read: its 7 splits index a table of 128 outcomes
FLOOR = -30.0  # the log of a factor of 0 (a rule ruled out)
PAST = 1e308  # the threshold of a padded split: every feature is at most this


@dataclass(frozen=True)
class Forest:
    """Trees padded to DEPTH levels, splits in level order (split i of a tree: x <= threshold
    goes to 2i + 1, else to 2i + 2), as one table per tree from the splits' outcomes (a bit
    each, split 0 the lowest) to the leaf's value."""

    features: tuple[str, ...]
    index: Mapping[str, int]  # feature → its column
    feature: np.ndarray  # (trees × splits,) the feature each split reads
    threshold: np.ndarray  # (trees × splits,)
    table: np.ndarray  # (trees × 128,) outcome bits → value, flat
    first: np.ndarray  # each tree's first place in `table`
    bits: np.ndarray  # each split's bit in an outcome

    def rows(
        self,
        factors: Sequence[Mapping[str, float]],
        terms: int,
        zh: bool,
        products: Sequence[float],
    ) -> np.ndarray:
        """The candidates' features in this forest's order (`rows`)."""
        return np.array(_rows(self.index, factors, terms, zh, products))

    def correction(self, x: np.ndarray) -> np.ndarray:
        """Each row's summed tree output (the log of what its score is multiplied by)."""
        if not len(x):
            return np.zeros(0)
        right = (x[:, self.feature] > self.threshold).reshape(len(x), len(self.first), -1)
        out: np.ndarray = self.table[self.first + right @ self.bits].sum(axis=1)
        return out


def rows(
    names: Sequence[str],
    factors: Sequence[Mapping[str, float]],
    terms: int,
    zh: bool,
    products: Sequence[float],
) -> list[list[float]]:
    """Each candidate's features: its factors' logarithms (0, the log of 1, for a factor it
    lacks), then how many content words its query has, its language, and its weighed product's
    log (`names` orders them)."""
    return _rows({name: i for i, name in enumerate(names)}, factors, terms, zh, products)


def _rows(
    at: Mapping[str, int],
    factors: Sequence[Mapping[str, float]],
    terms: int,
    zh: bool,
    products: Sequence[float],
) -> list[list[float]]:
    query = [0.0] * len(at)
    for name, value in (("terms", float(terms)), ("zh", 1.0 if zh else 0.0)):
        if name in at:
            query[at[name]] = value
    product = at.get("product")
    out = []
    for f, p in zip(factors, products, strict=True):
        r = query.copy()
        for k, v in f.items():
            if (i := at.get(k)) is not None:
                r[i] = _log(v)
        if product is not None:
            r[product] = _log(p)
        out.append(r)
    return out


def _log(v: float) -> float:
    return math.log(v) if v > 0 else FLOOR


def from_dump(dump: Mapping[str, Any], features: Sequence[str]) -> dict[str, Any]:
    """The JSON this module reads, from LightGBM's `dump_model()` of a model trained on rows
    made by `rows` (numerical splits only, DEPTH levels at most: the rows hold no missing
    values, and the trainer grows trees of 4 leaves)."""
    splits = 2**DEPTH - 1
    feature: list[int] = []
    threshold: list[float] = []
    leaves: list[float] = []
    for tree in dump["tree_info"]:
        f = [0] * splits
        t = [PAST] * splits  # a padded split sends everything left
        v = [0.0] * (splits + 1)
        _place(tree["tree_structure"], 0, f, t, v)
        feature += f
        threshold += t
        leaves += v
    return {
        "features": list(features),
        "depth": DEPTH,
        "feature": feature,
        "threshold": threshold,
        "leaves": leaves,
    }


def _place(
    node: Mapping[str, Any],
    at: int,
    feature: list[int],
    threshold: list[float],
    leaves: list[float],
) -> None:
    """Put a dumped (sub)tree at split `at` of the padded tree: a leaf above the last level
    fills every leaf below it."""
    level = (at + 1).bit_length() - 1
    if "split_feature" not in node:
        first = (at + 1) * 2 ** (DEPTH - level) - 2**DEPTH
        for k in range(first, first + 2 ** (DEPTH - level)):
            leaves[k] = float(node["leaf_value"])
        return
    if level >= DEPTH:
        raise ValueError(f"a tree deeper than {DEPTH} levels")
    if node.get("decision_type", "<=") != "<=":
        raise ValueError(f"split {node['decision_type']!r}: only numerical splits")
    feature[at], threshold[at] = int(node["split_feature"]), float(node["threshold"])
    _place(node["left_child"], 2 * at + 1, feature, threshold, leaves)
    _place(node["right_child"], 2 * at + 2, feature, threshold, leaves)


def parse(data: Mapping[str, Any]) -> Forest:
    """A Forest from the JSON `from_dump` writes: each tree's leaves become its table."""
    if data["depth"] != DEPTH:
        raise ValueError(f"trees of depth {data['depth']}, not {DEPTH}")
    splits = 2**DEPTH - 1
    leaves = np.asarray(data["leaves"], dtype=np.float64).reshape(-1, splits + 1)
    codes = np.arange(2**splits)
    at = np.zeros(len(codes), dtype=np.intp)
    for _ in range(DEPTH):  # follow each outcome's bits from the root to its leaf
        at = 2 * at + 1 + ((codes >> at) & 1)
    table = leaves[:, at - splits]
    features = tuple(data["features"])
    return Forest(
        features=features,
        index={name: i for i, name in enumerate(features)},
        feature=np.asarray(data["feature"], dtype=np.intp),
        threshold=np.asarray(data["threshold"], dtype=np.float64),
        table=table.ravel(),
        first=np.arange(len(leaves)) * 2**splits,
        bits=1 << np.arange(splits),
    )


@functools.cache
def load(path: Path = MODEL) -> Forest | None:
    """The shipped forest, or None when there is none (the weighed product ranks alone); read
    once per process and shared by every Searcher (nothing changes it)."""
    if not path.is_file():
        return None
    try:
        return parse(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise StoreError(
            f"{path}: unreadable ranking forest ({e}); reinstall crkb, or write it again with"
            " scripts/train_ranker.py --write"
        ) from None
