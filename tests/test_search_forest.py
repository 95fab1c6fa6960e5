"""crkb/search/forest.py: the learned trees that correct the weighed product of the signals."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import lightgbm
import numpy as np
import pytest

from crkb.errors import StoreError
from crkb.search import forest
from crkb.search.engine import Searcher
from crkb.search.index import build_index
from tests.documents import document, english_searcher, numbers, toy_searcher

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from train_ranker import PARAMS  # noqa: E402

NAMES = ["bm25", "coord", "topic", *forest.QUERY_FEATURES]


def _trained(leaves: int, seed: int) -> Any:
    """A LambdaRank booster over made-up candidates whose relevance follows two features."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(600, len(NAMES)))
    y = ((x[:, 0] + 0.5 * x[:, 2] > 0.3) & (x[:, 4] < 0.5)).astype(int)
    data = lightgbm.Dataset(x, y, group=[20] * 30, init_score=x[:, NAMES.index("product")].copy())
    params = {**PARAMS, "num_leaves": leaves, "min_data_in_leaf": 5, "num_iterations": 30}
    return lightgbm.train({**params, "seed": seed}, data), x


@pytest.mark.parametrize("leaves", [2, 3, 4])
def test_the_trees_score_a_row_as_lightgbm_does(leaves: int) -> None:
    # trees of one, two and three levels, padded to three: the same output to the last bit
    booster, x = _trained(leaves, seed=leaves)
    trees = forest.parse(forest.from_dump(booster.dump_model(), NAMES))
    assert len(trees.first) == 30
    np.testing.assert_allclose(trees.correction(x), booster.predict(x), rtol=1e-12, atol=1e-12)


def test_a_tree_deeper_than_three_levels_is_refused() -> None:
    leaf: dict[str, Any] = {"leaf_value": 1.0}
    node = leaf
    for _ in range(4):
        node = {"split_feature": 0, "threshold": 0.5, "decision_type": "<=", "left_child": node}
        node["right_child"] = leaf
    with pytest.raises(ValueError, match="deeper than 3"):
        forest.from_dump({"tree_info": [{"tree_structure": node}]}, NAMES)


def test_a_row_holds_the_logs_of_the_factors_and_what_the_query_is() -> None:
    (row,) = forest.rows(NAMES, [{"bm25": np.e, "coord": 0.0}], terms=4, zh=True, products=[1.0])
    assert row == [1.0, forest.FLOOR, 0.0, 4.0, 1.0, 0.0]  # topic: absent, log 1


def test_no_forest_file_is_no_forest_and_a_damaged_one_is_a_clear_error(tmp_path: Path) -> None:
    assert forest.load(tmp_path / "none.json") is None
    bad = tmp_path / "forest.json"
    bad.write_text('{"features": ["bm25"]', encoding="utf-8")
    with pytest.raises(StoreError, match="forest.json: unreadable ranking forest"):
        forest.load(bad)


def _splitting_bm25(s: Searcher, query: str, lang: str) -> forest.Forest:
    """One tree that takes much from a candidate of `query` with more BM25 than the midpoint
    of 100.1's and 100.2's."""
    bm25 = {n: np.log(f["bm25"]) for n, f in s.candidates(query, lang).scored}
    split = {"split_feature": 0, "threshold": (bm25["100.1"] + bm25["100.2"]) / 2}
    tree = {**split, "left_child": {"leaf_value": 0.0}, "right_child": {"leaf_value": -50.0}}
    return forest.parse(forest.from_dump({"tree_info": [{"tree_structure": tree}]}, ["bm25"]))


def test_the_trees_reorder_the_candidates_of_the_languages_they_correct(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    en = [
        ("100", "section", "Widgets", "Widgets"),
        ("100.1", "rule", "A widget spins; a widget spins twice; widgets spin.", None),
        ("100.2", "rule", "A gadget holds one widget.", None),
    ]
    zh = [
        ("100", "section", "小器具", "小器具"),
        ("100.1", "rule", "小器具会旋转；小器具旋转两次；小器具都旋转。", None),
        ("100.2", "rule", "一个装置持有一个小器具。", None),
    ]
    build_index(tmp_path / "index", [document("en", en, []), document("zh", zh, [])], {})
    s = toy_searcher(tmp_path / "index")
    asked = {"en": "widget spins", "zh": "小器具 旋转"}
    assert {lang: numbers(s.search(q, lang=lang))[0] for lang, q in asked.items()} == {
        "en": "100.1",
        "zh": "100.1",
    }
    for lang, q in asked.items():  # the trees in both languages
        s.forest = _splitting_bm25(s, q, lang)
        assert numbers(s.search(q, lang=lang))[0] == "100.2", lang
    # a language the trees do not correct ranks by the weighed product alone (forest.LANGS)
    monkeypatch.setattr(forest, "LANGS", frozenset({"zh"}))
    assert numbers(s.search(asked["en"], lang="en"))[0] == "100.1"


def test_the_shipped_forest_reads_the_signals_the_engine_computes() -> None:
    shipped = forest.load()
    assert shipped is not None
    data: dict[str, Any] = json.loads(forest.MODEL.read_text(encoding="utf-8"))
    assert data["features"][-3:] == list(forest.QUERY_FEATURES)
    assert {"bm25", "coord", "proximity", "topic"} <= set(shipped.features)


def test_a_searcher_carries_the_shipped_forest(tmp_path: Path) -> None:
    english_searcher(tmp_path / "index", [("100.1", "rule", "A widget spins.", None)])
    assert Searcher(tmp_path / "index").forest is not None
