"""`crkb forward`: the carry measured against what the translators really published, the draft
read back by the parser and the checks, the CLI's refusals."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from flask.testing import FlaskClient

from crkb.carry.draft import draft_text
from crkb.carry.release import forward, mapping_between
from crkb.checks.draft import NEW_MARK, REVIEW_MARK
from crkb.checks.translation import check
from crkb.cli import main
from crkb.diff.compare import diff_documents
from crkb.diff.match import cited
from crkb.sources.reader import read_file
from crkb.store.db import DB_NAME, Store
from crkb.store.location import current_build


def _store(data: Path) -> Store:
    return Store(current_build(data) / DB_NAME)


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_forward_json_has_the_spec_shape(archive_build: Path, capsys) -> None:
    out = _json(
        capsys, "forward", "--zh", "2023-10-13", "--en", "2024-02-02", "--json",
        "--data", str(archive_build),
    )  # fmt: skip
    assert (out["from_zh"], out["to_en"]) == ("2023-10-13", "2024-02-02")
    assert set(out["counts"]) == {"carried", "renumbered", "review", "new", "removed"}
    assert sum(out["counts"].values()) == len(out["rules"])
    row = out["rules"][0]
    for key in ("number", "old_number", "status", "zh", "en_old", "en_new", "terms"):
        assert key in row
    new = [r for r in out["rules"] if r["status"] == "new"]
    assert new and all(r["zh"] is None and r["en_new"] for r in new)
    assert any(t["zh"] for r in new for t in r["terms"])  # suggestions from the dictionary
    review = [r for r in out["rules"] if r["status"] == "review"]
    assert review and all(r["changed"] and r["zh"] for r in review)


def test_carry_matches_what_the_translators_published(archive_build: Path) -> None:
    """2023-10-13 → 2024-02-02 against the real Chinese of 2024-02-06 (effective 2024-02-02)."""
    store = _store(archive_build)
    c = forward(store, "2023-10-13", "2024-02-02")
    real = store.document("2024-02-02", "zh").rule_map()
    kept = [r for r in c.rules if r.status in ("carried", "renumbered")]
    equal = [
        r
        for r in kept
        if r.number in real
        and real[r.number].text == r.zh
        and real[r.number].examples == r.zh_examples
    ]
    assert len(equal) / len(kept) >= 0.95
    status = {r.number: r.status for r in c.rules}
    changes = diff_documents(store.document("2023-10-13", "en"), store.document("2024-02-02", "en"))
    edited = [
        ch.new_number
        for ch in changes
        if ch.kind in ("added", "moved_changed") or (ch.kind == "changed" and not ch.refs_only)
    ]
    assert edited
    assert all(status[n] in ("review", "new") for n in edited)


def test_renumbered_rules_carry_renumbered_citations(archive_build: Path, capsys) -> None:
    out = _json(
        capsys, "forward", "--zh", "2024-04-12", "--en", "2025-07-25", "--json",
        "--data", str(archive_build),
    )  # fmt: skip
    rules = {r["number"]: r for r in out["rules"] if r["number"]}
    # 104.6 cites "restarting the game": rule 724 of 2024-04-12 is rule 726 of 2025-07-25
    assert rules["104.6"]["status"] == "renumbered"
    assert "参见规则726，“重新开始游戏。”" in rules["104.6"]["zh"]
    # a trailing space is no change: 727.2i moved to 729.2i and is carried, not reviewed
    assert (rules["729.2i"]["status"], rules["729.2i"]["old_number"]) == ("renumbered", "727.2i")
    assert out["counts"]["removed"] == 9
    # a rule under review cites the renumbered rules too: 613.2a's "see rule 727" (merging with
    # a permanent) is rule 729 of 2025-07-25, where 727 is another rule
    assert rules["613.2a"]["status"] == "review"
    assert "参见规则729" in rules["613.2a"]["zh"] and "规则727" not in rules["613.2a"]["zh"]
    # every rule whose translation cited what its English cited, and whose English citations
    # moved only with the renumbering, cites in the draft what its new English cites
    store = _store(archive_build)
    old_zh = store.document("2024-04-12", "zh").rule_map()
    moves = mapping_between(store, "2024-04-12", "2025-07-25")
    checked = {"review": 0, "renumbered": 0}
    for r in out["rules"]:
        z = old_zh.get(r["old_number"] or "")
        if None in (r["zh"], r["en_old"], r["en_new"]) or z is None:
            continue
        if cited(z.text) != cited(r["en_old"]):
            continue
        if [moves.get(c, c) for c in cited(r["en_old"])] != cited(r["en_new"]):
            continue
        assert cited(r["zh"]) == cited(r["en_new"]), r["number"]
        if cited(z.text) != cited(r["zh"]) and r["status"] in checked:
            checked[r["status"]] += 1
    assert checked["review"] >= 3 and checked["renumbered"] >= 20, checked


def test_diff_ignores_whitespace(archive_build: Path, capsys) -> None:
    out = _json(capsys, "diff", "2025-06-06", "2025-07-25", "--json", "--data", str(archive_build))
    moved = [c for c in out["changes"] if c["old_number"] == "728.2i"]
    assert [(c["kind"], c["new_number"]) for c in moved] == [("moved", "729.2i")]


def test_draft_parses_back_as_chinese_w(archive_build: Path, tmp_path: Path, capsys) -> None:
    argv = ["forward", "--zh", "2024-04-12", "--en", "2025-07-25", "--out", str(tmp_path)]
    assert main([*argv, "--data", str(archive_build)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("Chinese 2024-04-12 → English 2025-07-25: carried ")
    draft = tmp_path / "2025-07-25-zh-draft.txt"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "2025-07-25-zh-draft.txt",
        "worklist.csv",
        "worklist.md",
    ]
    parsed = _json(capsys, "parse", str(draft), "--json")
    (doc,) = parsed["documents"]
    assert (doc["lang"], doc["version"]) == ("zh", "2025-07-25")
    english = [r.number for r in _store(archive_build).document("2025-07-25", "en").rules]
    assert [r["number"] for r in doc["rules"]] == english
    with (tmp_path / "worklist.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {r["status"] for r in rows} == {"review", "new", "removed"}
    statuses = [r["status"] for r in rows]
    assert statuses == sorted(statuses, key=lambda s: s == "removed")  # removed come last
    assert "## 100.4 — review" in (tmp_path / "worklist.md").read_text("utf-8")


def test_a_rule_whose_examples_changed_carries_each_example_as_it_must_be_done(
    archive_build: Path, tmp_path: Path, capsys
) -> None:
    """W's examples, each from V's Chinese where V had it: a reworded one flagged to review, a
    new one in English to translate, a dropped one left out; the worklist names each."""
    argv = ["forward", "--zh", "2024-04-12", "--en", "2025-07-25", "--out", str(tmp_path)]
    assert main([*argv, "--data", str(archive_build)]) == 0
    capsys.readouterr()
    store = _store(archive_build)
    en_old, en_new = store.document("2024-04-12", "en"), store.document("2025-07-25", "en")
    (draft,) = read_file(tmp_path / "2025-07-25-zh-draft.txt").documents
    drafted = draft.rule_map()
    for w in en_new.rules:  # as many examples as English W, rule by rule
        assert len(drafted[w.number].examples) == len(w.examples), w.number
    c = forward(store, "2024-04-12", "2025-07-25")
    review = [r for r in c.rules if r.status == "review"]
    old = en_old.rule_map()
    grew = next(r for r in review if len(r.en_examples) > len(old[r.old_number].examples))
    reworded = next(
        r
        for r in review
        if len(r.en_examples) == len(old[r.old_number].examples) == len(r.zh_examples)
        and not (r.en_old_changes or r.en_new_changes)
    )
    added = [x for x in grew.en_examples if x not in old[grew.old_number].examples]
    assert [NEW_MARK + x for x in added] == [
        x for x in drafted[grew.number].examples if x.startswith(NEW_MARK)
    ]
    # the text did not change: the rule is still to do, by its example marked for review
    assert not drafted[reworded.number].text.startswith(REVIEW_MARK)
    assert any(x.startswith(REVIEW_MARK) for x in drafted[reworded.number].examples)
    md = (tmp_path / "worklist.md").read_text("utf-8")
    section = md.split(f"## {reworded.number} — review")[1].split("\n## ")[0]
    assert "its examples changed" in section and "- example reworded, en old: " in section
    section = md.split(f"## {grew.number}")[1].split("\n## ")[0]
    assert all(f"- example new: {x}" in section for x in added)


def test_check_on_a_draft_reports_the_worklist_and_nothing_the_carry_made(
    archive_build: Path, tmp_path: Path
) -> None:
    store = _store(archive_build)
    c = forward(store, "2024-04-12", "2025-07-25")
    path = tmp_path / "2025-07-25-zh-draft.txt"
    path.write_text(draft_text(c, store.document("2024-04-12", "zh")), encoding="utf-8")
    (zh,) = read_file(path).documents
    terms = store.step_result("terms")
    assert isinstance(terms, dict)
    found = check(store.document("2025-07-25", "en"), zh, terms=terms)
    kinds = {f.kind for f in found}
    assert not kinds & {"missing_rule", "extra_rule", "doubled_rule"}
    todo = {r.number for r in c.rules if r.status in ("review", "new")}
    assert {f.rule for f in found if f.kind in ("draft_review", "draft_new")} >= todo
    # every other finding was already there in the translation that was carried
    before = {(f.rule, f.kind) for f in check(
        store.document("2024-04-12", "en"), store.document("2024-04-12", "zh"), terms=terms
    )}  # fmt: skip
    back = {r.number: r.old_number for r in c.rules if r.number}
    introduced = [
        f
        for f in found
        if not f.kind.startswith("draft") and (back.get(f.rule, f.rule), f.kind) not in before
    ]
    assert introduced == []


def test_latest_names_the_newest_translation_and_the_newest_english(
    archive_build: Path, capsys
) -> None:
    from crkb.store.db import DB_NAME, Store
    from crkb.store.location import current_build

    store = Store(current_build(archive_build) / DB_NAME)
    out = _json(
        capsys, "forward", "--zh", "latest", "--en", "latest", "--json",
        "--data", str(archive_build),
    )  # fmt: skip
    assert out["from_zh"] == store.version_ids("zh")[-1]
    assert out["to_en"] == store.version_ids("en")[-1]


@pytest.mark.parametrize(
    ("zh", "en", "says"),
    [
        ("2025-07-25", "2025-07-25", "has no Chinese text"),
        ("2024-04-12", "2023-10-13", "is not later than"),
        ("2024-04-12", "2024-04-12", "is not later than"),
        ("1066-10-14", "2025-07-25", "unknown version"),
        ("2024-04-12", "someday", "unknown version"),
    ],
)
def test_bad_pairs_are_refused_in_one_line(archive_build: Path, capsys, zh, en, says) -> None:
    assert main(["forward", "--zh", zh, "--en", en, "--data", str(archive_build)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and err.startswith("crkb forward: ")


def test_forward_page_counts_filters_and_draft(client: FlaskClient) -> None:
    r = client.get("/translation/forward/2024-04-12/2025-07-25")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert "renumbered 407" in page and "removed 9" in page
    assert 'href="/translation/forward/2024-04-12/2025-07-25/draft.txt"' in page
    r = client.get("/translation/forward/2024-04-12/2025-07-25?status=new&chapter=7")
    rows = r.get_data(as_text=True).count('data-status="new"')
    api = client.get("/api/translation/forward?zh=2024-04-12&en=2025-07-25").get_json()
    assert rows == sum(
        1
        for x in api["rules"]
        if x["status"] == "new" and x["number"] and x["number"].startswith("7")
    )
    assert 'data-status="review"' not in r.get_data(as_text=True)
    # each example a rule to review gained, reworded or dropped is on the page, as in the API
    r = client.get("/translation/forward/2024-04-12/2025-07-25?status=review")
    shown = r.get_data(as_text=True).count('class="example-change"')
    assert shown and shown == sum(len(x["example_changes"]) for x in api["rules"])
    r = client.get("/translation/forward/2024-04-12/2025-07-25/draft.txt")
    assert r.status_code == 200
    assert r.headers["Content-Disposition"].endswith('filename="2025-07-25-zh-draft.txt"')
    assert "此规则于2025年7月25日起生效。" in r.get_data(as_text=True)
    # the worklists the CLI writes with --out, linked from the page, the same files
    from crkb.carry.draft import worklist_csv, worklist_md

    carry = forward(_store(Path(client.application.config["DATA"])), "2024-04-12", "2025-07-25")
    links = BeautifulSoup(page, "html.parser").select("a[download]")
    for name, made in (("worklist.md", worklist_md), ("worklist.csv", worklist_csv)):
        href = f"/translation/forward/2024-04-12/2025-07-25/{name}"
        assert href in [a["href"] for a in links]
        r = client.get(href)
        assert r.status_code == 200 and r.get_data(as_text=True) == made(carry)
        assert r.headers["Content-Disposition"].endswith(f'filename="2025-07-25-{name}"')
    assert client.get("/translation/forward/2024-04-12/2025-07-25/notes.txt").status_code == 404


def test_forward_api_shape_and_refusals(client: FlaskClient) -> None:
    body = client.get("/api/translation/forward?zh=2024-04-12&en=2025-07-25").get_json()
    assert (body["from_zh"], body["to_en"]) == ("2024-04-12", "2025-07-25")
    assert body["counts"]["removed"] == 9
    doc = client.get("/api/openapi.json").get_json()
    assert "/api/translation/forward" in doc["paths"]
    assert "/translation/forward/{zh}/{en}" in doc["paths"]
    for url, code in [
        ("/api/translation/forward?zh=2024-04-12", 400),
        ("/api/translation/forward?zh=1066-10-14&en=2025-07-25", 404),
        ("/api/translation/forward?zh=2025-07-25&en=2025-07-25", 404),  # no Chinese text
        ("/api/translation/forward?zh=2024-04-12&en=2023-10-13", 400),
        ("/translation/forward/2024-04-12/2025-07-25?status=bogus", 400),
        ("/translation/forward/nope/2025-07-25", 404),
    ]:
        r = client.get(url)
        assert r.status_code == code, url
        if url.startswith("/api/"):
            assert list(r.get_json()) == ["error"]


def test_rules_a_partial_translation_lacks_are_said_apart_from_new_rules(
    archive_build: Path, client: FlaskClient, capsys
) -> None:
    """The 2021-09-24 pages hold no chapter 4: carried to 2022-06-10, its rules are to be
    translated like new ones, but the worklist says the translation lacked them, not the rules."""
    store = _store(archive_build)
    c = forward(store, "2021-09-24", "2022-06-10")
    new = [r for r in c.rules if r.status == "new"]
    said = {r.number for r in new if r.untranslated}
    chapter4 = {r.number for r in new if (r.number or "").startswith("4")}
    assert chapter4 and chapter4 <= said
    # a rule 2022-06-10 added to a chapter the pages hold is new, not untranslated
    earlier = store.document("2021-09-24", "en").rule_map()
    truly = [r for r in new if r.number[0] != "4" and r.old_number is None]
    assert truly and not any(r.untranslated for r in truly)
    assert all(r.old_number in earlier or r.number[0] == "4" for r in new if r.untranslated)
    assert (
        main(["forward", "--zh", "2021-09-24", "--en", "2022-06-10", "--data", str(archive_build)])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert f"new {len(new)} ({len(said)} not translated in 2021-09-24)" in lines[0]
    rule4 = sorted(chapter4)[0]
    assert f"new      {rule4} (not translated in 2021-09-24)" in lines
    page = client.get("/translation/forward/2021-09-24/2022-06-10?status=new&chapter=4")
    text = BeautifulSoup(page.get_data(as_text=True), "html.parser").get_text(" ", strip=True)
    assert f"({len(said)} not translated in 2021-09-24)" in text
    assert text.count("not translated in 2021-09-24") == len(chapter4) + 1
    body = client.get("/api/translation/forward?zh=2021-09-24&en=2022-06-10").get_json()
    assert body["untranslated"] == len(said)
    assert {r["number"] for r in body["rules"] if r["untranslated"]} == said


def test_every_sense_of_a_new_glossary_entry_is_marked_to_translate(archive_build: Path) -> None:
    """A translator searching the draft for 【待译】 finds each English line to translate: a new
    entry's second sense ("2. …") too, not only its first line."""
    store = _store(archive_build)
    c = forward(store, "2024-04-12", "2025-07-25")
    draft = draft_text(c, store.document("2024-04-12", "zh")).split("\n")
    lines = [
        line
        for g in c.glossary
        if g.status == "new" and "\n" in (g.en_new or "")
        for line in (g.en_new or "").split("\n")
    ]
    assert lines
    for line in lines:
        assert NEW_MARK + line in draft, line
