"""Parsing many files on every core gives exactly what parsing them one by one gives."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from crkb.parsing import parse_all, parse_one, split_work


def test_work_is_split_into_runs_that_cover_every_file_once():
    sizes = [100, 5_000_000, 3_000_000, 2_000_000, 4_000_000, 1_000_000, 7_000_000, 10]
    names = [f"f{i}" for i in range(len(sizes))]
    for workers in (1, 2, 3):
        mine, batches = split_work(names, sizes, workers)
        order = [i for b in batches for i in b] + mine
        assert order == list(range(len(sizes)))  # neighbours stay together, nothing twice
        parent = sum(sizes[i] for i in mine) / sum(sizes)
        assert 0.2 < parent < 0.8


@pytest.mark.archive
def test_parallel_parse_equals_one_by_one(archive: Path):
    files = sorted((archive / "en" / "txt").glob("202[45]-*.txt")) + sorted(
        (archive / "zh" / "txt").glob("*.txt")
    )
    files += [archive / "en" / "txt" / "1999-04-21.txt"]  # refused: its reason comes back too
    seen: list[str] = []
    together = parse_all(files, seen.append, workers=1)
    assert len(seen) == len(files) and len({s.split()[-1] for s in seen}) == len(files)
    for (path, result, why), file in zip(together, files, strict=True):
        alone = parse_one(str(file))
        assert path == str(file) == alone[0]
        assert why == alone[2]
        assert result == alone[1]
        if result:  # what crossed the process boundary survives another round trip intact
            assert pickle.loads(pickle.dumps(result)) == result
    assert together[-1][1] is None and "not a rules document" in together[-1][2]
