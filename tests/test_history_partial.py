"""History through partial copies: the 2021-09-24 bilingual DokuWiki pages (chapter 4 missing).

Partial copies stay out of the lineage and the diffs, but the build matches each to the official
releases around it: a rule's history shows a copy where the rule is there, under the number the
copy gives it (not always the number a neighbour gives it), and the release selector and the
banner's "Read the current text" follow a rule into and out of a copy the same way.
"""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup

from crkb.diff.history import Lineage
from crkb.diff.partial import Copy, chain_of, follow

PARTIAL = "2021-09-24"


def made_up() -> tuple[Lineage, dict[str, Copy]]:
    """Three releases; a copy between the last two numbers as the next one (a rule was inserted
    before 101.2), and lacks chapter 4; a copy before every release is matched forward only."""
    versions = ["2020-01-01", "2021-01-01", "2022-01-01"]
    texts = {
        "2020-01-01": {"101.1": "a", "101.2": "b", "400.1": "d"},
        "2021-01-01": {"101.1": "a", "101.2": "b", "400.1": "d"},
        "2022-01-01": {"101.1": "a", "101.2": "n", "101.3": "b", "400.1": "d"},
    }
    pairs = {
        ("2020-01-01", "2021-01-01"): {"101.1": "101.1", "101.2": "101.2", "400.1": "400.1"},
        ("2021-01-01", "2022-01-01"): {"101.1": "101.1", "101.2": "101.3", "400.1": "400.1"},
    }
    copies = {
        "2021-06-01": Copy(
            "2021-06-01",
            "2021-01-01",
            "2022-01-01",
            {"101.1": "101.1", "101.2": "101.3"},
            {"101.1": "101.1", "101.2": "101.2", "101.3": "101.3"},
        ),
        "2019-06-01": Copy("2019-06-01", None, "2020-01-01", {}, {"101.1": "101.1"}),
    }
    return Lineage(versions, texts, pairs), copies


def test_a_partial_copy_shows_in_a_history_under_the_number_it_was_matched_to():
    line, copies = made_up()
    assert chain_of(line, copies, "101.3", "2022-01-01") == [
        ("2020-01-01", "101.2"),
        ("2021-01-01", "101.2"),
        ("2021-06-01", "101.3"),  # not 101.2, the number the release before gives it
        ("2022-01-01", "101.3"),
    ]
    # new in the copy: from the copy on; a chapter the copy lacks goes straight past it
    assert chain_of(line, copies, "101.2", "2022-01-01") == [
        ("2021-06-01", "101.2"),
        ("2022-01-01", "101.2"),
    ]
    assert "2021-06-01" not in dict(chain_of(line, copies, "400.1", "2022-01-01"))
    # asked as of a copy: the same history
    assert chain_of(line, copies, "101.3", "2021-06-01") == chain_of(
        line, copies, "101.3", "2022-01-01"
    )
    assert chain_of(line, copies, "101.1", "2019-06-01")[0] == ("2019-06-01", "101.1")


def test_a_rule_is_followed_into_and_out_of_a_partial_copy():
    line, copies = made_up()
    assert follow(line, copies, "101.3", "2022-01-01", "2021-06-01") == "101.3"
    assert follow(line, copies, "101.2", "2020-01-01", "2021-06-01") == "101.3"
    assert follow(line, copies, "101.3", "2021-06-01", "2020-01-01") == "101.2"
    assert follow(line, copies, "101.2", "2021-06-01", "2020-01-01") is None  # new in the copy
    assert follow(line, copies, "101.2", "2021-06-01", "2022-01-01") == "101.2"
    assert follow(line, copies, "400.1", "2022-01-01", "2021-06-01") is None  # chapter 4
    assert follow(line, copies, "101.1", "2019-06-01", "2021-06-01") == "101.1"  # copy to copy


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


@pytest.mark.archive
def test_references_into_other_chapters_of_the_partial_copy_are_not_dangling(client):
    """Each DokuWiki page (a chapter) was resolved alone: "See rule 704" in 104.3b was struck
    through as not in the release, though 704 is. Only chapter 4, which the copy lacks, is."""
    for lang in ("en", "zh"):
        refs = client.get(f"/api/rules/104.3b?version={PARTIAL}&lang={lang}").get_json()
        cited = {r["to"]: r["dangling"] for r in refs["references"]}
        assert cited["704"] is False
    page = client.get(f"/v/{PARTIAL}/rules/104.3b?lang=both").get_data(as_text=True)
    assert "704 is not in this release" not in page
    assert client.get(f"/v/{PARTIAL}/rules/704").status_code == 200


@pytest.mark.archive
def test_only_references_the_partial_copy_cannot_hold_are_dangling(store):
    for lang in ("en", "zh"):
        doc = store.document(PARTIAL, lang)
        held = doc.rule_map()
        dangling = [r for r in doc.references if r.dangling]
        assert all(r.target not in held for r in dangling)
        assert all(r.target in held for r in doc.references if not r.dangling)
        assert sum(r.target.startswith("4") for r in dangling) >= len(dangling) - 3


@pytest.mark.archive
@pytest.mark.parametrize(
    "now, there, text",
    [
        ("103.5", "103.4", "opening hand"),  # not 103.5 of the copy
        ("701.6", "701.5", "Counter"),  # not the copy's 701.6 (Create)
    ],
)
def test_the_release_selector_finds_the_rule_in_the_partial_copy(client, now, there, text):
    latest = client.get("/api/versions").get_json()
    newest = (latest["versions"] if isinstance(latest, dict) else latest)[-1]["id"]
    r = client.get(f"/rules/{now}?version={PARTIAL}&from={newest}")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/v/{PARTIAL}/rules/{there}")
    rows = client.get(f"/api/rules/{now}/history").get_json()["history"]
    assert (PARTIAL, there) in {(h["version"], h["number"]) for h in rows}
    # and back: the banner of the copy's rule reads the current text of the same rule
    page = client.get(f"/v/{PARTIAL}/rules/{there}").get_data(as_text=True)
    link = re.search(r'href="([^"]+)">Read the current text', page)
    assert link is not None
    back = client.get(link.group(1).replace("&amp;", "&"))
    assert back.status_code == 302 and back.headers["Location"].endswith(f"/rules/{now}")


@pytest.mark.archive
def test_history_shows_the_partial_copy_under_its_own_number(client, archive_build, runner):
    """502.3 of 2021-07-23 is 502.4 in the copy, as in 2021-11-19: the copy's row is its 502.4
    (the same text), not its 502.3 (another rule)."""
    rows = client.get("/api/rules/502.4/history").get_json()["history"]
    by = {h["version"]: h for h in rows}
    assert (by["2021-07-23"]["number"], by[PARTIAL]["number"]) == ("502.3", "502.4")
    assert by[PARTIAL]["text"] == by["2021-11-19"]["text"]
    ran = runner("history", "502.4", "--json", data=archive_build)
    assert (PARTIAL, "502.4") in {
        (h["version"], h["number"]) for h in json.loads(ran.out)["history"]
    }
    for now in ("607.2p", "702.103g", "712.8f"):
        got = {
            h["version"]: h["number"]
            for h in client.get(f"/api/rules/{now}/history").get_json()["history"]
        }
        assert got.get(PARTIAL) is not None and got[PARTIAL] == got.get("2021-11-19")


@pytest.mark.archive
def test_a_number_the_partial_copy_lacks_says_where_the_rule_is_in_it(client):
    """A judge types an old number (or one of the chapter the copy lacks) on a page of the copy:
    the 404 names the copy's number for that rule, or says the copy lacks the whole chapter and
    links the rule in the releases around it."""
    rows = client.get("/api/rules/502.9b/history?version=2009-05-01").get_json()["history"]
    in_copy = {h["version"]: h["number"] for h in rows}[PARTIAL]
    assert in_copy != "502.9b"
    r = client.get(f"/v/{PARTIAL}/rules/502.9b")
    assert r.status_code == 404
    went = BeautifulSoup(r.get_data(as_text=True), "html.parser").select_one(".went")
    links = {a.get_text(): a["href"] for a in went.select("a")}
    assert links[in_copy] == f"/v/{PARTIAL}/rules/{in_copy}"
    assert client.get(links[in_copy]).status_code == 200

    r = client.get(f"/v/{PARTIAL}/rules/400.1")
    went = BeautifulSoup(r.get_data(as_text=True), "html.parser").select_one(".went")
    assert "partial copy" in went.get_text() and "not 4" in went.get_text()
    around = [a["href"] for a in went.select("a")]
    assert len(around) == 2 and all(client.get(h).status_code == 200 for h in around)
    assert all(h.endswith("/rules/400.1") and PARTIAL not in h for h in around)
