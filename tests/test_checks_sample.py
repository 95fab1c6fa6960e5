"""The hand-judged sample of 2024-04-12's findings (tests/fixtures/checks_sample_2024-04-12.json)
still comes out of `crkb check`, so its verdicts keep describing what users see."""

from __future__ import annotations

import json
from pathlib import Path

from crkb.cli import main

SAMPLE = Path(__file__).parent / "fixtures" / "checks_sample_2024-04-12.json"


def test_the_judged_sample_still_comes_out(archive_build: Path, capsys) -> None:
    sample = json.loads(SAMPLE.read_text("utf-8"))
    argv = ["check", "--version", sample["version"], "--json", "--all"]
    assert main([*argv, "--data", str(archive_build)]) == 0
    found = {f["id"]: f for f in json.loads(capsys.readouterr().out)["findings"]}
    missing = [s for s in sample["findings"] if s["id"] not in found]
    assert missing == []
    for s in sample["findings"]:
        assert (found[s["id"]]["rule"], found[s["id"]]["kind"]) == (s["rule"], s["kind"])
    judged = sample["findings"]
    real = sum(1 for s in judged if s["verdict"] == "real")
    assert real == sample["precision"]["real"] and len(judged) == sample["precision"]["sampled"]
    assert real / len(judged) >= 0.9
