"""History through partial copies: the 2021-09-24 bilingual DokuWiki pages (chapter 4 missing).

Partial copies stay out of the lineage and the diffs, but a rule's history shows them where the
rule is there, under the number it has in the nearest official release.
"""

from __future__ import annotations

import json

import pytest

from crkb.diff.history import with_partials

PARTIAL = "2021-09-24"


def test_a_partial_copy_takes_the_number_of_the_nearest_release_before_it():
    official = ["2020-01-01", "2021-01-01", "2022-01-01"]
    chain = [("2020-01-01", "101.1"), ("2021-01-01", "101.2"), ("2022-01-01", "101.3")]
    held = {("2021-06-01", "101.2"), ("2019-06-01", "101.1"), ("2020-06-01", "101.9")}
    copies = ["2021-06-01", "2019-06-01", "2020-06-01"]
    rows = with_partials(chain, official, copies, lambda v, n: (v, n) in held)
    assert rows == [
        ("2019-06-01", "101.1"),  # before every release: numbered like the one after it
        ("2020-01-01", "101.1"),
        ("2021-01-01", "101.2"),
        ("2021-06-01", "101.2"),
        ("2022-01-01", "101.3"),
    ]  # 2020-06-01 lacks 101.1 (the number the rule had then): not shown


def test_a_partial_copy_joins_only_a_rule_of_the_releases_beside_it():
    official = ["2020-01-01", "2021-01-01", "2022-01-01"]

    def has(version: str, number: str) -> bool:
        return True  # the copy holds every number

    # new in the release after the copy (which may copy a release the archive lacks): shown
    late = [("2022-01-01", "101.5")]
    assert with_partials(late, official, ["2021-06-01"], has) == [("2021-06-01", "101.5"), *late]
    # gone a release before the copy: the number in the copy is not this rule
    gone = [("2020-01-01", "101.5")]
    assert with_partials(gone, official, ["2021-06-01"], has) == gone


@pytest.mark.archive
def test_chinese_history_starts_with_the_partial_copy(client):
    h = client.get("/api/rules/702.19b/history?lang=zh").get_json()
    first = h["history"][0]
    assert (first["version"], first["number"]) == (PARTIAL, "702.19b")
    shown = client.get(f"/api/rules/702.19b?version={PARTIAL}&lang=zh").get_json()
    assert (shown["version"], shown["lang"]) == (PARTIAL, "zh") and first["text"] == shown["text"]
    later = [r["version"] for r in h["history"][1:]]
    assert later == sorted(later) and later[0] > PARTIAL


@pytest.mark.archive
def test_english_history_shows_the_partial_copy_between_its_neighbours(client):
    versions = [
        r["version"] for r in client.get("/api/rules/702.19b/history").get_json()["history"]
    ]
    k = versions.index(PARTIAL)
    assert versions[k - 1] < PARTIAL < versions[k + 1]
    page = client.get("/rules/702.19b/history").get_data(as_text=True)
    assert f'href="/v/{PARTIAL}/rules/702.19b"' in page
    # chapter 4 is missing from the copy: its rules' histories go straight past it
    chapter4 = [r["version"] for r in client.get("/api/rules/400.1/history").get_json()["history"]]
    assert PARTIAL not in chapter4 and versions[k - 1] in chapter4


@pytest.mark.archive
def test_history_asked_as_of_the_partial_copy(client, archive_build, runner):
    latest = client.get("/api/rules/702.19b/history?lang=zh").get_json()["history"]
    asked = client.get(f"/api/rules/702.19b/history?lang=zh&version={PARTIAL}").get_json()
    assert asked["version"] == PARTIAL and asked["history"] == latest
    ran = runner(
        "history", "702.19b", "--lang", "zh", "--version", PARTIAL, "--json", data=archive_build
    )
    assert ran.code == 0 and json.loads(ran.out)["history"] == latest
    ran = runner("history", "400.1", "--version", PARTIAL, data=archive_build)
    err = ran.err.strip().splitlines()
    assert ran.code == 2
    assert len(err) == 1 and "no rule 400.1" in err[0] and PARTIAL in err[0]
    r = client.get(f"/api/rules/400.1/history?version={PARTIAL}")
    assert r.status_code == 404 and "400.1" in r.get_json()["error"]
