"""The web service over the full archive build: what a reader sees on pages and in the JSON API."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from crkb.cli import main
from crkb.diff.lookup import translated_number
from crkb.store.location import current_build
from crkb.web import create_app

pytestmark = pytest.mark.archive


def soup(resp) -> BeautifulSoup:
    return BeautifulSoup(resp.get_data(as_text=True), "html.parser")


def column(page: BeautifulSoup, lang: str):
    return page.select_one(f"article.col[lang={lang}]")


# rule pages ---------------------------------------------------------------------------------------
def test_rule_page_shows_rule_children_and_their_exact_text(client, store):
    latest = store.version_ids()[-1]
    r = client.get("/rules/702.2?lang=en")
    assert r.status_code == 200
    page = soup(r)
    assert "702.2" in page.h1.text and "Deathtouch" in page.h1.text
    en = column(page, "en")
    for child in store.children(latest, "en", "702.2"):
        shown = en.find(id=f"en-{child.number}")
        assert shown is not None, child.number
        text = shown.select_one("p.text").get_text()
        assert text == f"{child.number} {child.text}"  # links change nothing in the words


def test_examples_read_as_the_source_writes_them_in_both_languages(client, store):
    """ "Example: …" with its space, "例如：…" without one: copied from the page, an example is
    the source's line."""
    shown = {}
    for lang, html_lang, label in (("en", "en", "Example: "), ("zh", "zh-Hans", "例如：")):
        version = store.version_ids(lang)[-1]
        col = column(soup(client.get(f"/rules/702.19?lang={lang}")), html_lang)
        for child in store.children(version, lang, "702.19"):
            rule = col.find(id=f"{lang}-{child.number}")
            texts = [p.get_text() for p in rule.select("p.example")]
            assert texts == [label + ex for ex in child.examples], child.number
            shown[lang] = shown.get(lang, 0) + len(texts)
    assert shown["en"] and shown["zh"]


def test_cross_references_link_with_target_text_on_hover(client, store):
    latest = store.version_ids()[-1]
    page = soup(client.get("/rules/702.2?lang=en"))
    links = {a["href"]: a for a in column(page, "en").select("a.ref")}
    assert "/rules/704" in links  # 702.2b: "See rule 704."
    assert links["/rules/704"]["title"].startswith("704 " + store.rule(latest, "en", "704").title)
    # a range ("510.1c–d") links both ends
    assert "/rules/510.1c" in links and "/rules/510.1d" in links


def test_cited_by_lists_incoming_references_as_links(client, store):
    latest = store.version_ids()[-1]
    page = soup(client.get("/rules/702.2?lang=en"))
    cited = column(page, "en").select(".citedby a")
    sources = {r.source for r in store.references_to(latest, "en", "702.2")}
    rule_sources = {s for s in sources if not s.startswith("glossary:")}
    hrefs = {a["href"] for a in cited}
    assert rule_sources and {f"/rules/{s}" for s in rule_sources} <= hrefs
    assert any("#g-deathtouch" in h for h in hrefs)  # the glossary entry cites it too


def test_glossary_terms_link_to_entries_that_exist(client):
    page = soup(client.get("/rules/702.2?lang=en"))
    terms = column(page, "en").select("a.term")
    assert terms
    href = next(a["href"] for a in terms if a.text.lower() == "deathtouch")
    path, _, frag = href.partition("#")
    glossary = soup(client.get(path))
    assert glossary.find(id=frag) is not None
    assert glossary.find(id=frag).get_text().startswith("Deathtouch")


def _term_links(client, number: str, lang: str = "en") -> dict[str, str]:
    """The glossary links of one rule's text on its page: linked words → glossary anchor."""
    page = soup(client.get(f"/rules/{number}?lang={lang}"))
    col = column(page, "zh-Hans" if lang == "zh" else "en")
    text = col.find(id=f"{lang}-{number}").select_one("p.text")
    return {a.get_text(): a["href"].partition("#")[2] for a in text.select("a.term")}


def test_a_subtype_is_a_glossary_term_only_where_the_rules_write_it_as_a_name(client, store):
    """The glossary's subtypes (Case, Class, Role, Saga, Aura …) are names the rules write
    capitalised: "in that case" (702.19b), "class level bar", "the role of a famous character"
    are everyday words, not links to the enchantment subtypes."""
    latest = store.version_ids()[-1]
    text = store.rule(latest, "en", "702.19b").text
    assert "in that case" in text
    trample = _term_links(client, "702.19b")
    assert trample["trample"] == "g-trample" and trample["lethal damage"] == "g-lethal-damage"
    assert "g-case" not in trample.values()
    page = soup(client.get("/rules/702.19b?lang=en"))
    assert column(page, "en").select_one("p.text").get_text() == f"702.19b {text}"
    assert "g-class" not in _term_links(client, "716.2").values()  # "A class level bar is …"
    assert "g-role" not in _term_links(client, "902.1").values()  # "play the role of …"
    # where the rules write the name, it is linked; and the other terms as before
    assert _term_links(client, "719.1")["Case"] == "g-case"  # "Each Case card’s illustration"
    assert _term_links(client, "716.4")["Class"] == "g-class"
    assert _term_links(client, "303.4")["Aura"] == "g-aura"
    assert _term_links(client, "714.1")["Saga"] == "g-saga"
    assert _term_links(client, "202.3")["mana value"] == "g-mana-value"
    assert "g-践踏" in _term_links(client, "702.19b", "zh").values()


def test_both_languages_side_by_side_and_the_choice_is_remembered(client):
    both = soup(client.get("/rules/702.2?lang=both"))
    assert column(both, "en") is not None and column(both, "zh-Hans") is not None
    assert "死触" in column(both, "zh-Hans").get_text()
    r = client.get("/rules/702.2?lang=zh")
    assert "crkb_lang=zh" in r.headers.get("Set-Cookie", "")
    page = soup(client.get("/rules/702.2"))  # the cookie now chooses
    assert column(page, "en") is None and column(page, "zh-Hans") is not None
    page = soup(client.get("/rules/702.2?lang=en"))
    assert column(page, "zh-Hans") is None


def test_the_language_searched_is_not_the_language_the_site_is_read_in(client):
    """A reader of Chinese who searches the English text once still reads Chinese after."""
    client.get("/rules/702.2?lang=zh")
    for url in ("/search?q=trample&lang=en", "/api/search?q=trample&lang=en"):
        r = client.get(url)
        assert r.status_code == 200 and "crkb_lang" not in r.headers.get("Set-Cookie", ""), url
    page = soup(client.get("/rules/702.2"))
    assert column(page, "en") is None and column(page, "zh-Hans") is not None


def test_a_side_by_side_page_names_each_rule_once(client):
    """Each column's rule and children have ids of their own language (an anchor finds one)."""
    page = soup(client.get("/rules/702.2?lang=both"))
    ids = [e["id"] for e in page.select("[id]")]
    assert len(ids) == len(set(ids))
    assert page.select_one("#en-702\\.2") and page.select_one("#zh-702\\.2")


def test_latest_chinese_column_says_which_translation_it_is(client, store):
    zh_latest = store.version_ids("zh")[-1]
    page = soup(client.get("/rules/702.2?lang=both"))
    zh = column(page, "zh-Hans")
    assert zh_latest in zh.select_one(".colhead").text


def test_old_version_has_banner_and_version_links(client, store):
    latest = store.version_ids()[-1]
    r = client.get("/v/2024-04-12/rules/702.2?lang=both")
    assert r.status_code == 200
    page = soup(r)
    banner = page.select_one(".banner")
    assert banner is not None and "2024-04-12" in banner.text and latest in banner.text
    followed = client.get(banner.a["href"])
    assert followed.status_code == 302 and followed.headers["Location"] == "/rules/702.2"
    en_refs = [a["href"] for a in column(page, "en").select("a.ref")]
    assert en_refs and all(h.startswith("/v/2024-04-12/rules/") for h in en_refs)
    zh_text = column(page, "zh-Hans").get_text()
    assert store.rule("2024-04-12", "zh", "702.2b").text in zh_text
    # the latest page has no banner
    assert soup(client.get("/rules/702.2")).select_one(".banner") is None


def _moves(client, old: str, new: str = "latest") -> list[tuple[str, str]]:
    """(old number, new number) of the rules `crkb diff` says only moved between two releases,
    where `crkb history` follows the old number to the new one."""
    changes = client.get(f"/api/diff?from={old}&to={new}").get_json()["changes"]
    out = []
    for c in changes:
        if c["kind"] == "moved" and c["old_number"] != c["new_number"]:
            hist = client.get(f"/api/rules/{c['new_number']}/history").get_json()["history"]
            if (old, c["old_number"]) in {(h["version"], h["number"]) for h in hist}:
                out.append((c["old_number"], c["new_number"]))
    return out


def test_an_older_translation_stands_beside_the_rule_it_translates(client, store):
    """The newest Chinese text is an older release's: beside a renumbered English rule it shows
    the same rule under that release's number (never another rule that has the number now)."""
    zh = store.version_ids("zh")[-1]
    old, new = _moves(client, zh)[0]
    page = soup(client.get(f"/rules/{new}?lang=both"))
    text = column(page, "zh-Hans").get_text()
    assert store.rule(zh, "zh", old).text in text
    held = store.rule(zh, "zh", new)
    assert held is None or held.text not in text
    assert f"此规则在该版中为 {old}" in column(page, "zh-Hans").select_one(".note").text
    both = client.get(f"/api/rules/{new}?lang=both").get_json()
    assert both["zh"]["number"] == old and both["zh"]["version"] == zh
    # the newest release named by its id is read as `latest` is: the same translation beside it
    named = store.version_ids("en")[-1]
    assert client.get(f"/api/rules/{new}?lang=both&version={named}").get_json() == both
    # a rule added since that release has no Chinese beside it, and the page says so
    changes = client.get(f"/api/diff?from={zh}&to=latest").get_json()["changes"]
    added = next(c["new_number"] for c in changes if c["kind"] == "added")
    page = soup(client.get(f"/rules/{added}?lang=both"))
    assert column(page, "zh-Hans") is None
    assert any(f"not in the {zh} text" in p.text for p in page.select("p.note"))
    assert "zh" not in client.get(f"/api/rules/{added}?lang=both").get_json()


def test_an_older_translations_references_follow_their_rules_into_the_pages_release(client, store):
    """The newest Chinese text is an older release's, numbered as that release: a reference in
    it is followed from there to the rule as the page's release numbers it, so a reader of the
    newest rules stays in them (it used to open the older release, under its old-page banner)."""
    zh = store.version_ids("zh")[-1]
    page = soup(client.get("/rules/702.2?lang=both"))
    refs = [a["href"] for a in column(page, "zh-Hans").select("a.ref")]
    assert refs and all(h.endswith(f"?version=latest&from={zh}") for h in refs)
    r = client.get(refs[0])
    assert r.status_code == 302 and r.headers["Location"].startswith("/rules/")
    # a rule the newest release numbers otherwise is reached under its new number
    old, new = next((o, n) for o, n in _moves(client, zh) if "." in o)
    r = client.get(f"/rules/{old}?version=latest&from={zh}")
    assert r.headers["Location"] == f"/rules/{new}"
    # on a page of the translation's own release the references are that release's
    page = soup(client.get(f"/v/{zh}/rules/702.2?lang=zh"))
    refs = [a["href"] for a in column(page, "zh-Hans").select("a.ref")]
    assert refs and all(h.startswith(f"/v/{zh}/rules/") and "?" not in h for h in refs)


def test_an_old_pages_way_to_the_current_text_follows_renumbering(client, store):
    older = store.version_ids()[-2]
    old, new = _moves(client, older)[0]
    page = soup(client.get(f"/v/{older}/rules/{old}"))
    followed = client.get(page.select_one(".banner").a["href"])
    assert followed.status_code == 302 and followed.headers["Location"] == f"/rules/{new}"
    # the release picker follows the rule too, both ways
    form = page.select_one("form.vsel")
    hidden = {i["name"]: i["value"] for i in form.select("input[type=hidden]")}
    r = client.get(form["action"], query_string={**hidden, "version": "latest"})
    assert r.headers["Location"] == f"/rules/{new}"
    r = client.get(f"/rules/{new}", query_string={"version": older, "from": "latest"})
    assert r.headers["Location"] == f"/v/{older}/rules/{old}"


def test_the_release_picker_shows_where_a_rule_went_when_the_release_lacks_it(client, store):
    zh = store.version_ids("zh")[-1]
    changes = client.get(f"/api/diff?from={zh}&to=latest").get_json()["changes"]
    added = next(c["new_number"] for c in changes if c["kind"] == "added")
    r = client.get(f"/rules/{added}", query_string={"version": zh, "from": "latest"})
    assert r.status_code == 302 and r.headers["Location"].startswith(f"/rules/{added}/history")
    page = client.get(r.headers["Location"])
    first = client.get(f"/api/rules/{added}/history").get_json()["history"][0]["version"]
    assert page.status_code == 200 and first > zh
    said = [b.get_text(" ", strip=True) for b in soup(page).select(".banner")]
    assert f"Not in the rules of {zh}: the rule first appears in {first}" in said[0]


def test_a_history_asked_for_by_a_later_number_links_to_the_rule_it_was(client):
    """702.19b (trample) was 502.9b in 1999: the 404 of its history there links to it."""
    r = client.get("/rules/702.19b/history?version=1999-04-23")
    assert r.status_code == 404
    went = soup(r).select_one(".went")
    assert went.get_text(" ", strip=True).startswith(
        "No rule of 1999-04-23 is numbered 702.19b: that number is a later release's."
    )
    assert "/v/1999-04-23/rules/502.9b" in [a["href"] for a in went.select("a")]


def test_the_current_text_of_a_removed_rule_says_it_was_removed(client, store):
    """Mana burn (300.3 of 2009-02-01) went in 2009-07-11: "Read the current text" says so."""
    page = soup(client.get("/v/2009-02-01/rules/300.3"))
    link = page.select_one(".banner a")
    assert link.get_text() == "Read the current text"
    r = client.get(link["href"], follow_redirects=True)
    said = soup(r).select_one(".banner.ended").get_text(" ", strip=True)
    latest = store.version_ids()[-1]
    assert said.startswith(
        f"This rule was removed: it last appears in 2009-05-01, and the newest release is {latest}"
    )
    # a rule in force says nothing of the kind
    assert soup(client.get("/rules/702.19b/history")).select_one(".banner.ended") is None


def test_alias_and_latest_name_the_same_release(client):
    a = soup(client.get("/v/2024-04-10/rules/702.2?lang=en"))
    b = soup(client.get("/v/2024-04-12/rules/702.2?lang=en"))
    assert column(a, "en").get_text() == column(b, "en").get_text()
    assert client.get("/v/latest/rules/702.2").status_code == 200


def test_version_selector_redirects_to_permalinks(client, store):
    r = client.get("/rules/702.2?version=2024-04-10")
    assert r.status_code == 302 and r.headers["Location"].endswith("/v/2024-04-12/rules/702.2")
    r = client.get(f"/rules/702.2?version={store.version_ids()[-1]}")
    assert r.status_code == 302 and r.headers["Location"].endswith("/rules/702.2")
    page = soup(client.get("/rules/702.2"))
    assert page.select_one("form.vsel select[name=version]") is not None
    assert page.select_one("a.permalink")["href"].startswith("/v/")


def test_breadcrumb_and_section_contents(client, store):
    page = soup(client.get("/rules/702.2b?lang=en"))
    crumbs = [a["href"] for a in page.select(".crumbs a")]
    assert crumbs == ["/", "/rules/7", "/rules/702", "/rules/702.2"]
    chapter = soup(client.get("/rules/7?lang=en"))
    latest = store.version_ids()[-1]
    sections = [r.number for r in store.children(latest, "en", "7")]
    hrefs = [a["href"] for a in column(chapter, "en").select(".contents a")]
    assert hrefs == [f"/rules/{n}" for n in sections]


def test_number_forms_redirect_to_the_canonical_page(client):
    r = client.get("/rules/702.2B.")
    assert r.status_code in (301, 308) and r.headers["Location"].endswith("/rules/702.2b")
    r = client.get("/v/2024-04-10/rules/702.2B.?lang=zh")  # the language asked for is kept
    assert r.headers["Location"].endswith("/v/2024-04-10/rules/702.2b?lang=zh")


# errors -------------------------------------------------------------------------------------------
def test_unknown_rule_is_a_helpful_404(client):
    r = client.get("/rules/702.999")
    assert r.status_code == 404
    page = soup(r)
    near = [a["href"] for a in page.select(".near a")]
    assert near and all(h.startswith("/rules/702.") for h in near)
    assert page.find("a", href=re.compile(r"^/search\?q="))


def test_an_old_rule_number_says_where_the_rule_went(client):
    """A judge types the number from an old printout: the page names today's number."""
    chain = client.get("/api/rules/702.7a/history?version=2015-01-23").get_json()["history"]
    old = next(h for h in reversed(chain) if h["number"] != "702.7a")
    r = client.get(f"/v/2015-01-23/rules/{old['number']}")
    assert r.status_code == 404
    went = soup(r).select_one(".went")
    assert f"last appeared in {old['version']}" in went.get_text(" ", strip=True)
    links = {a.get_text(): a["href"] for a in went.select("a")}
    assert links["702.7a"] == "/v/2015-01-23/rules/702.7a"  # the version asked for stays
    assert links["Its history"].startswith(f"/rules/{old['number']}/history")
    near = [a["href"] for a in soup(r).select(".near a")]
    assert near and all(h.startswith("/v/2015-01-23/rules/") for h in near)


def _gone_since_translation(store) -> tuple[list[str], str]:
    """(the rule numbers of the newest translation that the newest English release lacks, that
    translation's release): numbers a Chinese player reads in the translation in force."""
    latest = store.version_ids()[-1]
    zh = store.newest_text(latest, "zh")
    english = {r.number for r in store.document(latest, "en").rules}
    translated = [r.number for r in store.document(zh, "zh").rules if r.kind != "chapter"]
    return [n for n in translated if n not in english], zh


def test_a_number_the_release_lacks_is_not_filled_by_an_older_translation(client, store):
    """The translation in force is older than the English release: its rule of a number that
    release has dropped is another rule today, and the page says where it went instead."""
    gone, zh = _gone_since_translation(store)
    # renumbered or removed since: each says where its rule went (or that it was removed)
    assert {client.get(f"/rules/{n}").status_code for n in gone} == {404}
    number = gone[0]
    for lang in ("en", "zh", "both"):
        r = client.get(f"/rules/{number}?lang={lang}")
        assert r.status_code == 404, lang
        assert soup(r).select_one(".went") is not None
    r = client.get(f"/api/rules/{number}?lang=both")
    assert r.status_code == 404 and number in r.get_json()["error"]
    r = client.get(f"/v/{zh}/rules/{number}?lang=zh")  # in its own release it is there
    assert r.status_code == 200
    shown = soup(r).select_one(f"[id='zh-{number}']")
    assert shown is not None and store.rule(zh, "zh", number).text in shown.get_text()


def test_a_rule_newer_than_the_translation_asked_in_chinese_says_it_is_shown_in_english(
    client, store
):
    latest = store.version_ids()[-1]
    zh = store.newest_text(latest, "zh")
    before = {r.number for r in store.document(zh, "en").rules}
    number = next(r.number for r in store.document(latest, "en").rules if r.number not in before)
    page = soup(client.get(f"/rules/{number}?lang=zh"))
    assert column(page, "en") is not None and column(page, "zh-Hans") is None
    notes = [n.get_text(" ", strip=True) for n in page.select(".note")]
    assert any(f"rule {number} is not in the {zh} text" in n for n in notes)


def test_what_nobody_typed_is_no_query_and_spaces_around_a_release_are_not_part_of_it(client):
    """A control character alone is no query (400, as an empty one is), and beside words it is
    dropped; spaces alone show the empty search form; a pasted release id's trailing space is
    the release."""
    r = client.get("/api/search?q=%00")
    assert r.status_code == 400 and "q is required" in r.get_json()["error"]
    plain = client.get("/api/search?q=trample").get_json()
    assert client.get("/api/search?q=%01trample%00").get_json()["hits"] == plain["hits"]
    page = soup(client.get("/search?q=%20%20"))
    assert "results for" not in page.get_text() and "No rule holds" not in page.get_text()
    r = client.get("/api/rules/702.19b?version=2024-04-12%20")
    assert r.status_code == 200 and r.get_json()["version"] == "2024-04-12"


def test_a_rule_the_translation_numbers_as_its_sibling_shows_that_text_on_its_page(client, store):
    """The translation check finds rule numbers a translation gives twice where English has a
    rule the translation lacks; the English rule's page shows the Chinese text it was given."""
    from crkb.checks.translation.numbering import misnumbered

    versions = [v for v in store.version_ids() if store.newest_text(v, "zh") == v]
    found = [
        (v, e, z)
        for v in versions
        for e, z in misnumbered(store.document(v, "en"), store.document(v, "zh"))
    ]
    assert found  # the real archive's translations have some
    for v, e, z in found:
        page = soup(client.get(f"/v/{v}/rules/{e.number}?lang=zh"))
        note = page.select_one(".note.misnumbered")
        assert note is not None, (v, e.number)
        said = note.get_text(" ", strip=True)
        assert f"the {v} translation numbers this rule {z.number}" in said
        assert [p.get_text() for p in note.select(".quoted")] == z.text.split("\n")
        assert f"rule {e.number} is not in the" not in page.get_text()


def test_an_unknown_release_says_where_this_surface_lists_them(client, archive_build, capsys):
    page = soup(client.get("/v/someday/rules/702.9"))
    assert page.select_one(".message").get_text() == (
        "unknown version 'someday'; the home page lists every release"
    )
    r = client.get("/api/rules/702.9?version=someday")
    assert r.get_json()["error"] == "unknown version 'someday'; /api/versions lists every release"
    assert main(["show", "702.9", "--version", "someday", "--data", str(archive_build)]) == 2
    err = capsys.readouterr().err
    assert err == "crkb show: unknown version 'someday'; `crkb versions` lists every release\n"
    # a date that is no date is said so, not matched to the releases around it
    r = client.get("/api/rules/702.9?version=2024-13-45")
    assert "not a date" in r.get_json()["error"]


@pytest.mark.parametrize(
    ("typed", "page"),
    [
        ("/rules/702.9/", "/rules/702.9"),
        ("/glossary/", "/glossary"),
        ("/rules/702.9/history/?version=2010-07-16", "/rules/702.9/history?version=2010-07-16"),
        ("/api/versions/", "/api/versions"),
    ],
)
def test_a_trailing_slash_leads_to_the_page(client, typed, page):
    r = client.get(typed)
    assert r.status_code == 308 and r.headers["Location"] == page
    assert client.get(page).status_code == 200


def test_the_api_answers_json_at_its_root_too(client):
    for path in ("/api", "/api/", "/api/nothing"):
        r = client.get(path)
        assert r.status_code == 404 and "error" in r.get_json()
    assert client.get("/nowhere/").status_code == 404


def test_searching_an_old_number_leads_to_where_its_rule_went(client):
    chain = client.get("/api/rules/704.5j/history").get_json()["history"]
    old = next(h for h in chain if h["number"] != "704.5j")
    r = client.get(f"/search?q={old['number']}")
    assert r.status_code == 302 and r.headers["Location"] == f"/rules/{old['number']}"
    went = soup(client.get(r.headers["Location"])).select_one(".went")
    assert "704.5j" in [a.get_text() for a in went.select("a")]


def test_an_older_translations_contents_and_glossary_link_into_its_own_release(client, store):
    """The translation in force is numbered as its own release (2024's 722 is 2025's 724): its
    contents and its glossary's rule links open that release's rules, not today's numbers."""
    latest = store.version_ids()[-1]
    zh = store.newest_text(latest, "zh")
    assert zh != latest
    home = soup(client.get("/?lang=zh"))
    hrefs = [a["href"] for a in home.select("#contents-zh a")]
    assert hrefs and all(h.startswith(f"/v/{zh}/rules/") for h in hrefs)
    assert all(
        a["href"].startswith("/rules/")
        for a in soup(client.get("/?lang=en")).select("#contents-en a")
    )
    glossary = soup(client.get("/glossary?lang=zh"))
    zh_links = [a["href"] for a in glossary.select("#glossary-zh dd a")]
    assert zh_links and all(h.startswith(f"/v/{zh}/rules/") for h in zh_links)
    assert all(a["href"].startswith("/rules/") for a in glossary.select("#glossary-en dd a"))


def test_todays_number_in_an_old_release_says_what_the_rule_was_numbered_then(client):
    """A judge reads an old printout with today's number: the page names that release's one."""
    chain = client.get("/api/rules/702.7a/history").get_json()["history"]
    then = next(h for h in chain if h["number"] != "702.7a")
    r = client.get(f"/v/{then['version']}/rules/702.7a")
    assert r.status_code == 404
    went = soup(r).select_one(".went")
    links = {a.get_text(): a["href"] for a in went.select("a")}
    assert links[then["number"]] == f"/v/{then['version']}/rules/{then['number']}"


@pytest.mark.parametrize(
    "path",
    [
        "/v/1999-13-45/rules/100.1",
        "/v/..%2F..%2Fetc/rules/1",
        "/rules/..%2F..%2Fetc%2Fpasswd",
        "/rules/%00",
        "/v/%3Cscript%3E/rules/1",
        "/nowhere",
    ],
)
def test_unknown_versions_and_path_tricks_are_404_pages(client, path):
    r = client.get(path)
    assert r.status_code == 404
    assert "<script" not in r.get_data(as_text=True)


def test_an_unknown_release_date_offers_the_releases_beside_it(client, store):
    """A judge types the event's date: the page names the releases on either side of it and
    links the same page in each; a release with no translation links the one before it."""
    import datetime

    ids = store.version_ids()
    day = datetime.timedelta(days=1)
    before, after = ids[-3], ids[-2]
    between = (datetime.date.fromisoformat(before) + day).isoformat()
    assert before < between < after  # releases are months apart
    r = client.get(f"/v/{between}/rules/100.1?lang=en")
    assert r.status_code == 404
    page = soup(r)
    assert f"nearest: {before}, {after}" in page.select_one("p.message").text
    offered = [a["href"] for a in page.select("p.releases a")]
    assert offered == [f"/v/{before}/rules/100.1?lang=en", f"/v/{after}/rules/100.1?lang=en"]
    assert all(client.get(href).status_code == 200 for href in offered)
    zh = store.version_ids("zh")  # a translation's page offers translated releases only
    pairs = zip(zh, zh[1:], strict=False)
    early, late = next((x, y) for x, y in pairs if any(x < v < y for v in ids))
    day_after = (datetime.date.fromisoformat(early) + day).isoformat()
    page = soup(client.get(f"/translation/{day_after}"))
    assert [a["href"] for a in page.select("p.releases a")] == [
        f"/translation/{early}",
        f"/translation/{late}",
    ]
    newest, translated = ids[-1], zh[-1]
    page = soup(client.get(f"/translation/{newest}"))
    assert [a["href"] for a in page.select("p.releases a")] == [f"/translation/{translated}"]
    assert client.get(f"/translation/{translated}").status_code == 200


def test_api_errors_are_json(client):
    r = client.get("/api/rules/702.999")
    assert r.status_code == 404 and "702.999" in r.get_json()["error"]
    r = client.get("/api/rules/1?version=1900-01-01")
    assert r.status_code == 404 and "error" in r.get_json()
    for bad in (
        "/api/search?q=x&limit=0",
        "/api/search?q=x&limit=abc",
        "/api/search?q=x&lang=fr",
        "/api/search",
        "/api/rules/1?lang=de",
        "/api/diff?from=latest",
    ):
        r = client.get(bad)
        assert r.status_code == 400, bad
        assert set(r.get_json()) == {"error"}
    assert client.get("/search?q=x&limit=abc").status_code == 400


# home, glossary, keywords -------------------------------------------------------------------------
def test_home_has_search_chapters_and_every_version(client, store):
    page = soup(client.get("/?lang=en"))
    assert page.select_one("form[role=search] input[name=q]") is not None
    assert len(column_or_section(page).select(".contents > li")) == 9
    listed = [a.text for a in page.select(".vlist li > a:first-child")]
    assert listed == list(reversed(store.version_ids()))


def test_home_takes_translators_to_each_releases_translation_check(client, store):
    """The translation checks were reached only through a rule's badge: the home page opens the
    newest one, and every release that has a Chinese text opens its own."""
    page = soup(client.get("/"))
    newest_zh = store.version_ids("zh")[-1]
    check = page.select_one("nav.parts a[href^='/translation/']")
    assert check["href"] == f"/translation/{newest_zh}"
    assert soup(client.get(check["href"])).select_one("h1 small").get_text() == newest_zh
    tagged = [a["href"].rsplit("/", 1)[1] for a in page.select(".vlist a.tag")]
    assert tagged == list(reversed(store.version_ids("zh")))
    older = soup(client.get(f"/translation/{tagged[-1]}"))
    assert older.select_one("h1 small").get_text() == tagged[-1]
    # each translation check leads on to its worklist against the newest English release
    onward = older.select_one("p.note a[href^='/translation/forward/']")
    newest_en = store.version_ids("en")[-1]
    assert onward["href"] == f"/translation/forward/{tagged[-1]}/{newest_en}"
    assert client.get(onward["href"]).status_code == 200


def test_home_parts_are_each_a_jump_away(client):
    """Stacked on a phone, every release was 13,000 pixels down: each part is linked at the top."""
    page = soup(client.get("/?lang=both"))
    jumps = [a["href"] for a in page.select("nav.parts a[href^='#']")]
    assert jumps == ["#contents-en", "#contents-zh", "#releases"]
    assert all(page.find(id=j[1:]) is not None for j in jumps)
    assert page.select_one("#releases .vlist") is not None
    pinned = soup(client.get("/v/2024-04-12/?lang=zh"))
    assert [a["href"] for a in pinned.select("nav.parts a[href^='#']")] == [
        "#contents-zh",
        "#releases",
    ]


def column_or_section(page):
    return page.select_one("section.col[lang=en]")


def test_glossary_english_alphabetical_chinese_by_pinyin(client):
    from pypinyin import lazy_pinyin

    page = soup(client.get("/glossary"))
    en = [dt.get_text() for dt in page.select("section.glossary[lang=en] dt")]
    assert len(en) > 600 and en == sorted(en, key=str.lower)
    zh = [dt.contents[0].strip() for dt in page.select("section.glossary[lang=zh-Hans] dt")]
    keys = [[p.lower() for p in lazy_pinyin(t)] for t in zh]  # syllable by syllable
    assert len(zh) > 600 and keys == sorted(keys)
    entry = page.find(id="g-deathtouch").find_next_sibling("dd")
    assert entry.find("a", href="/rules/702.2")


def test_keywords_index_in_both_languages(client):
    page = soup(client.get("/keywords"))
    row = page.find("a", href="/rules/702.2").find_parent("tr")
    assert "Deathtouch" in row.get_text() and "死触" in row.get_text()
    assert page.find("a", href="/rules/701.2")  # keyword actions too


# search -------------------------------------------------------------------------------------------
def test_search_page_hits_link_to_rules_and_number_jumps(client):
    page = soup(client.get("/search?q=deathtouch&lang=en"))
    hits = [a["href"] for a in page.select(".hit a.num")]
    assert "/rules/702.2" in hits
    assert page.select_one(".hit mark") is not None
    r = client.get("/search?q=rule+702.2b")
    assert r.status_code == 302 and r.headers["Location"].endswith("/rules/702.2b")
    # a number searched in one language opens the rule in that language
    r = client.get("/search?q=702.2b&lang=zh")
    assert r.status_code == 302 and r.headers["Location"].endswith("/rules/702.2b?lang=zh")
    zh = soup(client.get("/search?q=死触"))
    assert any("702.2" in a["href"] for a in zh.select(".hit a.num"))


def test_search_page_reaches_past_its_first_twenty_hits(client):
    """A query meeting hundreds of rules lists the best 20, says so, and links to more, up to
    the bound of 100; one meeting few lists them all and offers nothing more."""
    q = "trample damage assignment"
    total = client.get(f"/api/search?q={q}").get_json()["total"]
    assert total > 100  # the words of a common query
    page = soup(client.get(f"/search?q={q}"))
    assert len(page.select(".hit")) == 20
    assert page.select_one(".count").get_text().startswith(f"The best 20 of {total} results")
    seen = [a.get_text() for a in page.select(".hit a.num")]
    more = page.select_one(".more a")["href"]
    page = soup(client.get(more))
    assert len(page.select(".hit")) == 50
    longer = [a.get_text() for a in page.select(".hit a.num")]
    assert longer[:20] == seen and len(set(longer)) == 50  # what was read stays where it was
    page = soup(client.get(page.select_one(".more a")["href"]))
    assert len(page.select(".hit")) == 100 and page.select_one(".more a") is None
    assert [a.get_text() for a in page.select(".hit a.num")][:50] == longer
    assert "add words to narrow" in page.select_one(".more").get_text()
    few = soup(client.get("/search?q=deathtouch"))
    n = len(few.select(".hit"))
    assert few.select_one(".count").get_text().startswith(f"{n} result")
    assert few.select_one(".more") is None


def test_search_with_no_hits_says_what_to_try(client):
    """A query no rule meets says so and points to the glossary, in both languages; a query
    with hits shows no such hint."""
    page = soup(client.get("/search?q=qwxzvbnm"))
    assert page.select(".hit") == []
    assert page.select_one(".count").get_text().startswith("0 results")
    hint = page.select_one(".hint")
    assert "No rule holds these words" in hint.get_text() and "词汇表" in hint.get_text()
    for a in hint.select("a"):
        assert client.get(a["href"]).status_code == 200
    assert soup(client.get("/search?q=deathtouch")).select_one(".hint") is None
    # a subrule letter no rule has: l and o are skipped, said so
    lettered = [h.get_text() for h in soup(client.get("/search?q=702.2l")).select(".hint")]
    assert lettered[0].startswith("702.2l is no rule number: subrule letters skip l and o")
    assert "skip l and o" not in soup(client.get("/search?q=qwxzvbnm")).get_text()


def test_search_with_version_and_did_you_mean(client):
    page = soup(client.get("/search?q=deathtouch&version=2010-07-16&lang=en"))
    assert all("/v/2010-07-16/" in a["href"] for a in page.select(".hit a.num"))
    # the hits are the corrected words': the page says it shows them, not "did you mean"
    page = soup(client.get("/search?q=dethtouch&lang=en"))
    dym = page.select_one(".dym")
    assert dym is not None and dym.get_text(" ", strip=True).startswith("Showing results for")
    assert dym.strong.text == "deathtouch" and "“dethtouch”" in dym.get_text()
    assert "for “deathtouch”" in page.select_one(".count").get_text()
    # a Chinese slip of pinyin input (避邪 for 辟邪, Hexproof), on the page and in the API
    page = soup(client.get("/search?q=避邪能被指定吗"))
    dym = page.select_one(".dym strong")
    assert dym is not None and dym.text == "辟邪能被指定吗"
    assert page.select(".hit a.num")[0].text.startswith("702.11")
    api = client.get("/api/search?q=避邪&lang=zh").get_json()
    assert api["did_you_mean"] == "辟邪" and api["hits"][0]["number"] == "702.11"


def test_a_reader_of_chinese_reads_the_labels_in_chinese(client):
    """中文 chosen, the site's labels are Chinese (the header, a rule page's tools, a search's
    count, a diff's kinds, a history, an error page); English chosen, they stay English."""
    client.get("/rules/702.2?lang=zh")
    rule = soup(client.get("/rules/702.19"))
    assert rule.html["lang"] == "zh-Hans"
    assert [a.get_text() for a in rule.select("header nav.nav a")] == ["词汇表", "关键字"]
    assert {a.get_text() for a in rule.select(".tools a")} >= {"历史"}
    count = soup(client.get("/search?q=践踏&lang=en")).select_one(".count").get_text()
    assert "“践踏”的结果" in count
    diff = soup(client.get("/diff/2024-03-08/2024-04-12"))
    assert diff.h1.get_text().startswith("改动") and "新增" in diff.select_one(".summary").text
    missing = soup(client.get("/rules/999.9"))
    assert missing.html["lang"] == "zh-Hans" and missing.h1.get_text().startswith("未找到")
    client.get("/rules/702.2?lang=en")
    rule = soup(client.get("/rules/702.19"))
    assert [a.get_text() for a in rule.select("header nav.nav a")] == ["Glossary", "Keywords"]
    count = soup(client.get("/search?q=trample")).select_one(".count").get_text()
    assert count.startswith("15 results for “trample”") or "results for “trample”" in count


def test_the_search_form_keeps_the_release_searched(client, store):
    """The release dropdown shows the release a search ran in (or "newest"), and only it."""
    newest = soup(client.get("/search?q=deathtouch&lang=en"))
    chosen = [o.get("value") for o in newest.select("select[name=version] option[selected]")]
    assert chosen == [""]
    for version in ("2010-07-16", store.version_ids()[0], store.version_ids()[-2]):
        page = soup(client.get(f"/search?q=deathtouch&version={version}&lang=en"))
        chosen = [o.get("value") for o in page.select("select[name=version] option[selected]")]
        assert chosen == [version]
        options = [o.get("value") for o in page.select("select[name=version] option")]
        assert options == [o.get("value") for o in newest.select("select[name=version] option")]


def test_search_query_is_escaped(client):
    body = client.get("/search?q=%3Cscript%3Ealert(1)%3C/script%3E").get_data(as_text=True)
    assert "<script>alert" not in body and "&lt;script&gt;" in body


def test_a_search_in_a_release_without_chinese_says_whose_translation_it_shows(client, store):
    """Pinned to a release with no Chinese text, the page says the hits are the newest earlier
    translation's, naming it, as the API's `version` does; a release translated says nothing."""
    zh = store.version_ids("zh")
    en_only = next(v for v in reversed(store.version_ids("en")) if v not in zh)
    before = max(v for v in zh if v < en_only)
    page = soup(client.get(f"/search?q=践踏&lang=zh&version={en_only}"))
    notice = page.select_one(".older")
    assert notice is not None and en_only in notice.get_text() and before in notice.get_text()
    assert "no Chinese translation" in notice.get_text()
    metas = [m.get_text() for m in page.select(".hit .meta")]
    assert metas and all(m == f"zh · {before}" for m in metas)
    api = client.get(f"/api/search?q=践踏&lang=zh&version={en_only}&limit=20").get_json()
    assert api["version"] == before and {h["version"] for h in api["hits"]} == {before}
    assert [a["href"].rsplit("/", 1)[1] for a in page.select(".hit a.num")] == [
        h["number"] for h in api["hits"]
    ]
    for quiet in (f"/search?q=践踏&lang=zh&version={before}", "/search?q=践踏&lang=zh"):
        assert soup(client.get(quiet)).select_one(".older") is None, quiet
    page = soup(client.get(f"/search?q=trample&lang=en&version={en_only}"))
    assert page.select(".hit") and page.select_one(".older") is None


# JSON API -----------------------------------------------------------------------------------------
def _inline(schema, components):
    if isinstance(schema, dict):
        if "$ref" in schema:
            return _inline(components[schema["$ref"].rsplit("/", 1)[1]], components)
        return {k: _inline(v, components) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_inline(v, components) for v in schema]
    return schema


def _valid(value, schema) -> bool:
    """The part of JSON Schema the API document uses."""
    if "oneOf" in schema:
        return sum(_valid(value, s) for s in schema["oneOf"]) == 1
    types = schema.get("type")
    if types is not None:
        names = types if isinstance(types, list) else [types]
        py = {
            "string": str,
            "integer": int,
            "number": (int, float),
            "boolean": bool,
            "array": list,
            "object": dict,
            "null": type(None),
        }
        if not any(
            isinstance(value, py[n])
            and not (n in ("integer", "number") and isinstance(value, bool))
            for n in names
        ):
            return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if isinstance(value, dict):
        if any(k not in value for k in schema.get("required", [])):
            return False
        if len(value) < schema.get("minProperties", 0):
            return False
        for k, v in value.items():
            sub = schema.get("properties", {}).get(k)
            extra = schema.get("additionalProperties", True)
            if sub is None and extra is False:
                return False
            if sub is None and isinstance(extra, dict):
                sub = extra
            if sub is not None and not _valid(v, sub):
                return False
    if isinstance(value, list) and "items" in schema:
        return all(_valid(v, schema["items"]) for v in value)
    return True


def _undocumented(value, schema, at: str = "") -> list[str]:
    """The keys of `value` its schema names nowhere (an object schema with properties and no
    schema for the rest): what a client reading the document would not know of."""
    out: list[str] = []
    if isinstance(value, dict) and "properties" in schema:
        extra = schema.get("additionalProperties", True)
        for k, v in value.items():
            sub = schema["properties"].get(k)
            if sub is None and not isinstance(extra, dict):
                out.append(f"{at}.{k}")
            elif sub is not None or isinstance(extra, dict):
                out += _undocumented(v, sub if sub is not None else extra, f"{at}.{k}")
    elif isinstance(value, dict) and isinstance(schema.get("additionalProperties"), dict):
        for k, v in value.items():
            out += _undocumented(v, schema["additionalProperties"], f"{at}.{k}")
    elif isinstance(value, list) and "items" in schema:
        for v in value:
            out += _undocumented(v, schema["items"], f"{at}[]")
    return sorted(set(out))


@pytest.mark.parametrize(
    "url, path",
    [
        ("/api/versions", "/api/versions"),
        ("/api/rules/702.2", "/api/rules/{number}"),
        ("/api/rules/702.2?lang=both&version=2024-04-10", "/api/rules/{number}"),
        ("/api/rules/9?lang=zh", "/api/rules/{number}"),
        ("/api/search?q=trample&limit=5", "/api/search"),
        ("/api/search?q=践踏&lang=zh", "/api/search"),
        ("/api/diff?from=2024-04-12&to=latest", "/api/diff"),
        ("/api/rules/702.2/history", "/api/rules/{number}/history"),
        ("/api/translation?version=2024-04-12", "/api/translation"),
        ("/api/translation/forward?zh=2024-04-12&en=latest", "/api/translation/forward"),
        ("/api/identify", "/api/identify"),
    ],
)
def test_api_responses_match_the_openapi_document(client, url, path):
    """Every answer conforms to the document, and every field of it is documented."""
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    if path == "/api/identify":
        quote = "702.19b The controller of an attacking creature with trample first assigns"
        r = client.post(url, data=quote + " damage.", content_type="text/plain")
    else:
        r = client.get(url)
    assert r.status_code == 200, r.get_data(as_text=True)[:200]
    op = next(iter(doc["paths"][path].values()))
    schema = _inline(
        op["responses"]["200"]["content"]["application/json"]["schema"],
        doc["components"]["schemas"],
    )
    assert _valid(r.get_json(), schema)
    assert _undocumented(r.get_json(), schema) == []
    err = _inline({"$ref": "#/components/schemas/Error"}, doc["components"]["schemas"])
    assert not _valid({"nope": 1}, err)  # the validator can fail


def test_api_rule_and_versions_agree_with_the_store(client, store):
    versions = client.get("/api/versions").get_json()["versions"]
    assert [v["id"] for v in versions] == store.version_ids()
    both = client.get("/api/rules/702.2?lang=both").get_json()
    assert both["zh"]["version"] == store.version_ids("zh")[-1]
    assert both["en"]["version"] == store.version_ids("en")[-1]
    assert both["en"]["text"] == store.rule(both["en"]["version"], "en", "702.2").text
    hits = client.get("/api/search?q=deathtouch&lang=en&limit=3").get_json()
    assert hits["hits"] and len(hits["hits"]) <= 3 and hits["hits"][0]["number"].startswith("702.2")


def test_diff_history_and_translation_pages(client):
    d = soup(client.get("/diff/2024-04-12/latest"))
    assert d.select(".change") and d.find("a", href=re.compile(r"^/v/2024-04-12/rules/"))
    # a changed rule's two links stand apart, each its own tap target
    kind = next(k for k in d.select(".change.changed .kind"))
    assert re.match(r"changed \S+ · new text", kind.get_text(" ", strip=True))
    h = soup(client.get("/rules/702.2/history"))
    versions = [a.text for a in h.select(".history .meta a")]
    assert any("502.63" in v for v in versions)  # deathtouch was 502.63 before the 2009 renumbering
    t = client.get("/translation/2024-04-12")
    assert t.status_code == 200 and soup(t).select(".finding")
    # a mistyped filter is said to be one, not shown as "no findings"
    for url in ("/translation/2024-04-12?kind=bogus", "/api/translation?kind=bogus"):
        r = client.get(url)
        assert r.status_code == 400 and "missing_rule" in r.get_data(as_text=True), url


def test_a_history_page_shows_each_wording_once_and_every_release_a_click_away(client):
    rows = client.get("/api/rules/702.2/history").get_json()["history"]
    page = soup(client.get("/rules/702.2/history?lang=en"))
    items = page.select("ol.history > li")
    starts = [0] + [
        k
        for k in range(1, len(rows))
        if rows[k]["text_changed"] or rows[k]["number"] != rows[k - 1]["number"]
    ]
    assert len(items) == len(starts) < len(rows)
    # newest first, each wording as the release it took effect in wrote it, dated there
    for li, k in zip(items, reversed(starts), strict=True):
        assert li.select_one("p.text").get_text() == rows[k]["text"]
        assert li.select_one(".meta a").get_text().startswith(rows[k]["version"])
    links = {a["href"] for a in page.select("ol.history a")}
    assert {f"/v/{r['version']}/rules/{r['number']}" for r in rows} <= links


def test_a_history_dates_each_change_where_it_took_effect_and_no_quote_is_one(client):
    """Trample's 702.19b first named battles in 2023-04-14; 2019-01-25 wrote its ’ as ' and
    2019-05-03 curled them back, which changed no rule."""
    page = soup(client.get("/rules/702.19b/history"))
    runs = {
        li.select_one(".meta a").get_text(" ", strip=True).split(" · ")[0]: li
        for li in page.select("ol.history > li")
    }
    battle = runs["2023-04-14"]
    assert "text changed" in battle.select_one(".meta").get_text()
    assert "battle" in " ".join(x.get_text() for x in battle.select("p.text ins"))
    assert not {"2019-01-25", "2019-05-03"} & set(runs)
    diff = client.get("/api/diff?from=2018-10-05&to=2019-01-25").get_json()
    assert diff["summary"]["changed"] < 50  # not the 1,419 rules whose quotes were restyled


def test_a_plain_text_releases_typed_typography_is_no_change(client):
    """2008-2014's plain-text releases typed _Magic_, (TM), -- and <Wizards.com/…> where
    2014-05-01 printed italics, ™, — and bare addresses: a judge asking what changed there
    sees the rules that say something new, not the ninety whose typing was restyled."""
    diff = client.get("/api/diff?from=2014-02-01&to=2014-05-01").get_json()
    changed = {c["old_number"]: c for c in diff["changes"] if c["kind"] == "changed"}
    assert diff["summary"]["changed"] == len(changed) < 20
    assert "207.2c" in changed and "constellation" in changed["207.2c"]["new_text"]
    assert "100.1" not in changed  # "These _Magic_ rules" → "These Magic rules"
    page = soup(client.get("/rules/100.1/history"))
    runs = [li.select_one(".meta a").get_text() for li in page.select("ol.history > li")]
    assert runs and not [r for r in runs if r.startswith("2014-05-01")]


def test_a_diff_marks_only_the_words_that_changed(client, store):
    """A judge reads what changed in a long rule at a glance: each changed rule's old and new
    texts are shown whole, as the source has them, and only the words taken out and put in are
    marked; with both languages chosen the page leads to the Chinese text's changes."""
    zh = store.version_ids("zh")
    a, b = zh[-2], zh[-1]
    changed = [
        c
        for c in client.get(f"/api/diff?from={a}&to={b}").get_json()["changes"]
        if c["kind"] == "changed"
    ]
    page = soup(client.get(f"/diff/{a}/{b}?lang=en&kind=changed"))
    items = page.select("li.change")
    assert len(items) == len(changed) > 0
    shown = marked = 0
    for li, c in zip(items, changed, strict=True):
        assert li.select_one("p.old").get_text() == c["old_text"]
        assert li.select_one("p.new").get_text() == c["new_text"]
        assert li.select("p.old del") or li.select("p.new ins")  # something is marked
        shown += len(c["new_text"])
        marked += sum(len(x.get_text()) for x in li.select("p.new ins"))
    assert marked < shown / 4  # the words put in, not every changed rule's whole text
    both = soup(client.get(f"/diff/{a}/{b}?lang=both"))
    link = both.select_one("p.other-lang a")
    assert link is not None and "lang=zh" in link["href"]
    assert soup(client.get(link["href"])).select_one("ol.changes")["lang"] == "zh-Hans"


def test_diff_and_history_pages_in_chinese(client, store):
    zh = store.version_ids("zh")
    a, b = zh[-2], zh[-1]
    d = soup(client.get(f"/diff/{a}/{b}?lang=zh"))
    shown = d.select_one("ol.changes")
    assert shown["lang"] == "zh-Hans"
    api = client.get(f"/api/diff?from={a}&to={b}&lang=zh").get_json()["changes"]
    first = next(c for c in api if c["new_text"])
    assert first["new_text"] in shown.get_text()
    assert all("lang=zh" in x["href"] for x in d.select(".summary a"))  # the filters keep it
    # a release with no Chinese text: the English changes, and the page says why
    latest = store.version_ids()[-1]
    d = soup(client.get(f"/diff/{b}/{latest}?lang=zh"))
    assert d.select_one("ol.changes")["lang"] == "en"
    assert f"{latest}: no Chinese text" in d.select_one("p.note").text
    h = soup(client.get(f"/rules/702.2/history?lang=zh&version={b}"))
    assert h.select_one("ol.history")["lang"] == "zh-Hans"
    assert store.rule(b, "zh", "702.2").text in h.select_one("ol.history").get_text()
    # a rule added since the translation: its English history, and a number no rule has: 404
    added = next(
        r.number
        for r in store.document(latest, "en").rules
        if "." in r.number and translated_number(store, r.number, latest) is None
    )
    h = soup(client.get(f"/rules/{added}/history?lang=zh"))
    assert h.select_one("ol.history")["lang"] == "en"
    assert store.rule(latest, "en", added).text in h.select_one("ol.history").get_text()
    assert client.get("/rules/999.9z/history?lang=zh").status_code == 404


# serving ------------------------------------------------------------------------------------------
def test_headers_no_scripts_no_external_resources(client):
    for url in ("/", "/rules/702.2", "/glossary", "/search?q=trample"):
        r = client.get(url)
        assert "default-src 'self'" in r.headers["Content-Security-Policy"]
        page = soup(r)
        assert not page.find("script")
        assert page.find("meta", attrs={"name": "viewport"})
        for tag in page.find_all(["link", "img", "script"]):
            ref = tag.get("href") or tag.get("src") or ""
            assert not re.match(r"^(https?:)?//", ref), ref
    css = client.get("/static/crkb.css")
    assert css.status_code == 200 and "WenQuanYi Micro Hei" in css.get_data(as_text=True)


def test_a_new_build_is_picked_up_without_restart(archive_build: Path, tmp_path: Path):
    """Two build links over the same store: switching `current` reopens the store."""
    real = current_build(archive_build)
    (tmp_path / "builds").mkdir()
    for name in ("a", "b"):
        os.symlink(real, tmp_path / "builds" / name)
    os.symlink("builds/a", tmp_path / "current")
    app = create_app({"DATA": str(tmp_path)})
    c = app.test_client()
    assert c.get("/rules/702.2").status_code == 200
    served = app.extensions["crkb"]
    assert served.build_id == "builds/a" and len(served.pages) >= 1
    os.symlink("builds/b", tmp_path / "next")
    os.replace(tmp_path / "next", tmp_path / "current")
    assert c.get("/rules/702.2").status_code == 200
    assert served.build_id == "builds/b"
    os.remove(tmp_path / "current")
    os.symlink("builds/missing", tmp_path / "current")  # a broken switch keeps the old store
    assert c.get("/rules/702.2").status_code == 200
    assert served.build_id == "builds/b"


def test_identify_a_pasted_text(client, archive):
    doc = client.get("/api/openapi.json").get_json()
    raw = (archive / "en" / "txt" / "2024-04-10.txt").read_bytes().decode("utf-8", "replace")
    r = client.post("/api/identify", json={"text": raw[20000:40000]})
    assert r.status_code == 200
    body = r.get_json()
    assert "2024-04-12" in body["versions"]
    schema = doc["paths"]["/api/identify"]["post"]["responses"]["200"]["content"]
    assert _valid(body, _inline(schema["application/json"]["schema"], doc["components"]["schemas"]))
    r = client.post("/api/identify", data="", content_type="text/plain")
    assert r.status_code == 400 and "error" in r.get_json()


@pytest.mark.parametrize("how", ["file", "form-labelled body", "form field", "latin-1 body"])
def test_identify_takes_a_file_however_curl_sends_it(client, archive, how):
    """`curl -F file=@x`, `curl --data-binary @x` (labelled a form) and `-d text=…` all work."""
    raw = (archive / "en" / "txt" / "2024-04-10.txt").read_bytes()[20000:40000]
    raw = raw.decode("utf-8", "ignore").encode("utf-8")
    if how == "file":
        r = client.post("/api/identify", data={"file": (io.BytesIO(raw), "rules.txt")})
    elif how == "form field":
        r = client.post("/api/identify", data={"text": raw.decode()})
    else:
        body = raw if how == "form-labelled body" else raw.decode().encode("cp1252", "replace")
        r = client.post(
            "/api/identify", data=body, content_type="application/x-www-form-urlencoded"
        )
    assert r.status_code == 200, r.get_json()
    assert "2024-04-12" in r.get_json()["versions"]


def test_identify_refuses_deeply_nested_json_in_one_line(client):
    r = client.post("/api/identify", data="[" * 100000, content_type="application/json")
    assert r.status_code == 400 and "nested" in r.get_json()["error"]


def test_identify_names_a_body_that_is_not_json(client):
    r = client.post("/api/identify", data='{"text": "702.2a Death', content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"].startswith("the body is not valid JSON")


def test_identify_refuses_a_lone_surrogate_with_a_400(client):
    """JSON can escape half of a UTF-16 pair; the text is then no text, and says so."""
    body = '{"text": "\\ud800 702.9b A creature with flying can\'t be blocked."}'
    r = client.post("/api/identify", data=body, content_type="application/json")
    assert r.status_code == 400 and "surrogate" in r.get_json()["error"]


def test_page_cache_is_bounded_by_bytes():
    from crkb.web.state import PageCache

    cache = PageCache(max_bytes=8000)
    for i in range(10):
        cache.put(("k", i), (200, "text/html", b"x" * 800))
    assert cache.bytes <= 8000 and len(cache) == 8
    cache.put(("big",), (200, "text/html", b"x" * 2000))  # over an eighth of the bound: not kept
    assert cache.get(("big",)) is None and len(cache) == 8
    assert cache.get(("k", 0)) is None and cache.get(("k", 9)) is not None


def test_no_build_is_a_clear_503(tmp_path: Path):
    c = create_app({"DATA": str(tmp_path)}).test_client()
    r = c.get("/rules/702.2")
    assert r.status_code == 503 and "crkb build" in r.get_data(as_text=True)
    r = c.get("/api/versions")
    assert r.status_code == 503 and "crkb build" in r.get_json()["error"]


def test_release_page_shows_what_changed_since_the_previous_release(client):
    r = client.get("/releases/2024-02-06", follow_redirects=True)
    assert r.status_code == 200
    page = soup(r)
    assert "2023-11-17" in page.h1.get_text() and "2024-02-02" in page.h1.get_text()
    assert "moved 115" in page.select_one(".summary").get_text(" ", strip=True)
    assert client.get("/releases/1999-04-23").status_code == 404


# translation badges ------------------------------------------------------------------------------
@pytest.fixture()
def own_reviews(archive_build: Path, tmp_path: Path) -> Path:
    """A data directory serving the shared build but keeping its own reviews file."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "builds").symlink_to(archive_build / "builds")
    (data / "current").symlink_to(os.readlink(archive_build / "current"))
    return data


def test_rule_page_badges_open_translation_findings(own_reviews: Path, capsys):
    from crkb.cli import main as cli_main

    client = create_app({"DATA": str(own_reviews), "TESTING": True}).test_client()
    found = client.get("/api/translation?version=2024-04-12&chapter=115.3").get_json()["findings"]
    assert found and {f["rule"] for f in found} == {"115.3"}
    assert any(f["kind"] == "references" for f in found)

    page = soup(client.get("/v/2024-04-12/rules/115"))
    badge = column(page, "zh-Hans").select_one("#zh-115\\.3 a.badge")
    assert badge is not None and badge.get_text(strip=True) == f"翻译问题 {len(found)}"
    assert column(page, "en").select("a.badge") == []  # findings belong to the translation
    listed = soup(client.get(badge["href"]))
    rules = {a.get_text() for a in listed.select(".finding .kind a")}
    assert rules == {"115.3"} and len(listed.select(".finding")) == len(found)

    # 115.3's neighbours on the page carry a badge only when they have findings themselves
    for child in column(page, "zh-Hans").select(".children .rule"):
        number = child["id"].removeprefix("zh-")
        n = len(
            client.get(f"/api/translation?version=2024-04-12&chapter={number}").get_json()[
                "findings"
            ]
        )
        assert len(child.select("a.badge")) == (1 if n else 0), number

    # a translator marks them all: the badge goes at once (no stale cached page)
    env = {"CRKB_DATA": str(own_reviews)}
    with pytest.MonkeyPatch.context() as mp:
        for k, v in env.items():
            mp.setenv(k, v)
        for f in found:
            assert cli_main(["check", "--mark", f"{f['id']}=reviewed"]) == 0
    capsys.readouterr()
    page = soup(client.get("/v/2024-04-12/rules/115"))
    assert column(page, "zh-Hans").select("#zh-115\\.3 a.badge") == []


def test_a_badge_stands_beside_the_rule_text_not_in_it(client, store):
    """Copying a badged rule's text copies the rule alone: the badge is outside its p.text (and a
    section's outside its heading), still shown and linked to the findings."""
    page = soup(client.get("/v/2024-04-12/rules/115?lang=zh"))
    rule = column(page, "zh-Hans").select_one("#zh-115\\.3")
    badge = rule.select_one("a.badge")
    assert badge is not None and badge.get_text(strip=True).startswith("翻译问题")
    assert "/translation/2024-04-12" in badge["href"] and "chapter=115.3" in badge["href"]
    assert rule.select("p.text a.badge") == []
    text = store.rule("2024-04-12", "zh", "115.3").text
    assert rule.select_one("p.text").get_text() == f"115.3 {text}"
    section = column(soup(client.get("/v/2024-04-12/rules/308?lang=zh")), "zh-Hans")
    assert section.select_one("a.badge") is not None
    assert section.select("h3 a.badge, p.text a.badge") == []
    assert (
        section.select_one("h3.title").get_text()
        == "308 " + store.rule("2024-04-12", "zh", "308").title
    )


def test_translation_page_filters_by_chapter(client):
    whole = client.get("/api/translation?version=2024-04-12").get_json()["findings"]
    seven = client.get("/api/translation?version=2024-04-12&chapter=7").get_json()["findings"]
    in_seven = [f for f in whole if re.match(r"7\d\d(\.|$)", f["rule"])]
    assert seven and seven == in_seven
    page = soup(client.get("/translation/2024-04-12?chapter=7"))
    assert len(page.select(".finding")) == len(seven)
    assert client.get("/translation/2024-04-12?chapter=x%3Cb%3E").status_code == 404
    assert client.get("/api/translation?version=2024-04-12&chapter=junk").status_code == 404


def test_findings_carry_the_texts_as_they_are_and_marked(client, store):
    found = client.get("/api/translation?version=2024-04-12&chapter=115.3").get_json()["findings"]
    ref = next(f for f in found if f["kind"] == "references")
    assert ref["en"] == store.rule("2024-04-12", "en", "115.3").text  # character for character
    assert ref["zh"] == store.rule("2024-04-12", "zh", "115.3").text
    assert "<mark>115.7</mark>" in ref["en_marked"] and "<mark>115.6</mark>" in ref["zh_marked"]
    page = soup(client.get("/translation/2024-04-12?chapter=115.3"))
    assert [m.get_text() for m in page.select(".finding [lang=en] mark")][:1] == ["115.7"]


def test_latest_means_the_newest_translation_on_the_translation_page(client, store):
    newest_zh = store.version_ids("zh")[-1]
    r = client.get("/translation/latest")
    assert r.status_code == 200
    assert soup(r).select_one("h1 small").get_text() == newest_zh


def test_numbers_are_written_without_a_trailing_dot(client):
    number_dot = re.compile(r"^\d{1,3}(?:\.\d+[a-z]*)?\.(?:\s|$)")
    for url in ["/", "/rules/9", "/rules/702", "/keywords", "/rules/702.2"]:
        page = soup(client.get(url))
        labels = [e.get_text(" ", strip=True) for e in page.select("main a, main h1, main h3")]
        assert labels and not [t for t in labels if number_dot.match(t)], url


def test_api_diff_and_history_in_either_language(client, store):
    zh = store.version_ids("zh")
    r = client.get(f"/api/diff?from={zh[-2]}&to={zh[-1]}&lang=zh").get_json()
    assert r["lang"] == "zh" and r["from"] == zh[-2] and r["to"] == zh[-1]
    assert client.get(f"/api/diff?from={zh[-2]}&to={zh[-1]}&lang=fr").status_code == 400
    en_only = store.version_ids("en")[-1]
    assert client.get(f"/api/diff?from={zh[-1]}&to={en_only}&lang=zh").status_code == 404
    h = client.get("/api/rules/702.19b/history?lang=zh").get_json()
    assert h["lang"] == "zh" and h["history"][-1]["version"] == zh[-1]
    assert all(v["version"] in zh for v in h["history"])


def test_chinese_search_in_a_release_without_a_translation_reads_the_one_before(client, store):
    zh = store.version_ids("zh")
    en_only = next(v for v in reversed(store.version_ids("en")) if v not in zh)
    before = max(v for v in zh if v < en_only)
    r = client.get(f"/api/search?q=践踏&lang=zh&version={en_only}").get_json()
    assert r["version"] == before and r["hits"]
    assert {h["version"] for h in r["hits"]} == {before}
    oldest = store.version_ids("en")[0]
    missing = client.get(f"/api/search?q=践踏&lang=zh&version={oldest}")
    assert missing.status_code == 404 and "no zh text" in missing.get_json()["error"]
    page = client.get(f"/search?q=践踏&version={oldest}")  # the page says so and offers the form
    assert page.status_code == 200 and "no zh text" in soup(page).select_one(".note").get_text()
    assert soup(page).select_one("form input[name=q]")["value"] == "践踏"


def test_a_translation_older_than_the_english_says_where_the_english_changed_since(client, store):
    """A rule page beside an older translation says, under the Chinese column, when the
    English of that rule changed after the translation's release (the translation is stale
    there), linking the rule's history; rules whose English is unchanged say nothing."""
    latest, zh = store.version_ids("en")[-1], store.version_ids("zh")[-1]
    assert zh < latest
    said = {True: 0, False: 0}
    for r in store.children(latest, "en", "100") + store.children(latest, "en", "702.2"):
        then = store.rule(zh, "en", r.number)  # 100.x and 702.2x kept their numbers
        if then is None or store.rule(zh, "zh", r.number) is None:
            continue
        changed = (then.text, then.examples) != (r.text, r.examples)
        page = soup(client.get(f"/rules/{r.number}?lang=both"))
        note = page.select_one(".col[lang=zh-Hans] .note").get_text()
        assert ("The English of this rule has changed since" in note) == changed, r.number
        said[changed] += 1
        if changed:
            link = page.select_one(".col[lang=zh-Hans] .note a")["href"]
            assert link == f"/rules/{r.number}/history"
    assert said[True] >= 1 and said[False] >= 3, said


def test_the_diff_api_lists_one_kind_of_change_as_the_diff_page_does(client):
    """kind= narrows /api/diff's changes as it narrows the page's; the summary still counts
    every kind, and a kind that is none is refused, as on the page."""
    every = client.get("/api/diff?from=2025-06-06&to=2025-07-25").get_json()
    kinds = {c["kind"] for c in every["changes"]}
    assert len(kinds) >= 2
    for kind in kinds:
        one = client.get(f"/api/diff?from=2025-06-06&to=2025-07-25&kind={kind}").get_json()
        assert one["changes"] == [c for c in every["changes"] if c["kind"] == kind]
        assert one["summary"] == every["summary"]
        page = soup(client.get(f"/diff/2025-06-06/2025-07-25?kind={kind}"))
        assert len(page.select("li.change")) == len(one["changes"]), kind
    bad = client.get("/api/diff?from=2025-06-06&to=2025-07-25&kind=bogus")
    assert bad.status_code == 400 and "kind must be one of" in bad.get_json()["error"]
    assert client.get("/diff/2025-06-06/2025-07-25?kind=bogus").status_code == 400


def test_a_term_the_release_does_not_say_points_to_the_releases_that_did(client, store):
    """Mana burn left the rules in 2009; max speed is newer than the translation's release:
    the search page says which releases say the term, with their rules and a search there."""
    latest = store.version_ids()[-1]
    page = soup(client.get("/search?q=mana+burn"))
    said = page.select_one(".elsewhere")
    assert said.get_text(" ", strip=True).startswith(f"No rule of {latest} says “mana burn”.")
    last = said.select("a")[-1]
    version = last["href"].split("version=")[1]
    assert version < "2009-07-11" and last.get_text() == f"search {version}"
    for a in said.select("a")[:-1]:
        number = a["href"].rsplit("/", 1)[1]
        assert "mana burn" in store.rule(version, "en", number).text.lower()
    assert soup(client.get(last["href"])).select_one(".elsewhere") is None
    older = soup(client.get("/search?q=deathtouch&version=2004-02-01")).select_one(".elsewhere")
    assert "The rules of " in older.get_text() and f"to {latest} do:" in older.get_text()
    # a term the release says, a typo and a question get no such note
    for q in ("trample", "tramle", "what happens when a creature dies"):
        assert soup(client.get("/search", query_string={"q": q})).select_one(".elsewhere") is None
