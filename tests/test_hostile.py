"""Hostile text: markup in rules, glossary, queries and URLs is shown as text and never run.

A small synthetic corpus (two English releases and a Chinese translation in the official plain-text
layout) carries script, event-handler, template and entity strings in a rule, an example, a child
rule, a section title and glossary entries. Every page shows them literally, the parsed DOM holds no
element or attribute they could have injected, and the JSON API returns the exact source text.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from crkb.web import create_app
from crkb.web.render import Link, highlight, linked

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
BREAKOUT = "\"'><svg onload=alert(1)>"
TEMPLATE = "{{7*7}}"
JS_URL = "javascript:alert(1)"
ENTITIES = "&amp; &lt;b&gt;"
MARK = "</mark><mark>"

RULE = f"These rules apply {SCRIPT} to any game; see rule 100.2 and the Ability glossary."
EXAMPLE = f"A card named {IMG} is shown as text."
CHILD = f"Template {TEMPLATE}, link {JS_URL}, entities {ENTITIES} and {MARK} stay text."
SECTION = f"Hostile {BREAKOUT} Section"
CHANGED = f"A second rule, changed {SCRIPT}."
TERM = f"Hostile {IMG} Term"
DEFINITION = f"Defines {TEMPLATE}, {JS_URL} and {SCRIPT} {ENTITIES}. See rule 100.1."
ZH_RULE = f"这些规则适用{SCRIPT}于任何游戏；参见规则100.2。"
ZH_TERM = f"敌意{IMG}术语"
ZH_DEFINITION = f"定义{TEMPLATE}与{SCRIPT}。参见规则100.1。"

FILLER_EN = "".join(f"100.{i}. Filler rule number {i}.\n\n" for i in range(10, 70))
FILLER_ZH = "".join(f"100.{i}. 填充规则{i}。\n\n" for i in range(10, 70))


def english(date: str, second: str) -> str:
    """One English release in the official layout, hostile strings planted."""
    return (
        "Magic: The Gathering Comprehensive Rules\n\n"
        f"These rules are effective as of {date}.\n\n"
        "Introduction\n\nThis document is the ultimate authority.\n\n"
        f"Contents\n\n1. Game Concepts\n100. General\n101. {SECTION}\n\nGlossary\n\nCredits\n\n"
        "1. Game Concepts\n\n100. General\n\n"
        f"100.1. {RULE}\n\nExample: {EXAMPLE}\n\n100.1a {CHILD}\n\n100.2. {second}\n\n"
        + FILLER_EN
        + f"101. {SECTION}\n\n101.1. A rule in the hostile section.\n\n"
        "Glossary\n\nAbility\n1. Text on an object.\nSee rule 100.1.\n\n"
        f"{TERM}\n{DEFINITION}\n\n"
        "Credits\n\nDesign: Someone\n"
    )


def chinese() -> str:
    return (
        "万智牌完整规则\n\n此规则于2024年6月7日起生效。\n\n前言\n\n本文件。\n\n"
        "目录\n\n1. 游戏概念\n100. 总则\n\n词汇表\n\n版权信息\n\n"
        f"1. 游戏概念\n\n100. 总则\n\n100.1. {ZH_RULE}\n\n例如：名为{IMG}的牌。\n\n"
        "100.2. 第二条规则。\n\n"
        + FILLER_ZH
        + "词汇表\n\n异能\n1. 一个物件上的叙述。\n参见规则100.1。\n\n"
        + f"{ZH_TERM}\n{ZH_DEFINITION}\n\n版权信息\n\n设计\n"
    )


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from crkb.build import build

    corpus = tmp_path_factory.mktemp("hostile-corpus")
    (corpus / "en").mkdir()
    (corpus / "zh").mkdir()
    en = corpus / "en"
    en.joinpath("2024-04-10.txt").write_text(english("April 12, 2024", "A second rule."), "utf-8")
    en.joinpath("2024-06-05.txt").write_text(english("June 7, 2024", CHANGED), "utf-8")
    (corpus / "zh" / "2024-06-05.txt").write_text(chinese(), encoding="utf-8")
    data = tmp_path_factory.mktemp("hostile-data")
    report = build([corpus], data, progress=lambda _msg: None)
    assert report.versions == 2 and report.documents == 3 and not report.skipped
    return data


@pytest.fixture(scope="module")
def app(hostile_build: Path):
    """The web app serving the hostile build (conftest's `client` browses it)."""
    return create_app({"DATA": str(hostile_build), "TESTING": True})


INJECTABLE = ["script", "img", "svg", "iframe", "object", "embed", "style", "base", "meta"]


def inert(resp) -> BeautifulSoup:
    """The page parsed; fails when anything planted became an element, a handler or a link."""
    page = BeautifulSoup(resp.get_data(as_text=True), "html.parser")
    found = [t.name for t in page.find_all(INJECTABLE) if not _is_own_meta(t)]
    assert not found, found
    for tag in page.find_all(True):
        handlers = [a for a in tag.attrs if a.lower().startswith("on")]
        assert not handlers, (tag.name, handlers)
        for name in ("href", "src", "action", "formaction"):
            value = str(tag.get(name, ""))
            assert not value.strip().lower().startswith("javascript:"), (tag.name, value)
    for mark in page.find_all("mark"):
        assert not mark.find(True), mark  # a highlight holds text, never elements
    return page


def _is_own_meta(tag) -> bool:
    return tag.name == "meta" and tag.parent is not None and tag.parent.name == "head"


def text(node) -> str:
    return node.get_text() if node is not None else ""


# pages ------------------------------------------------------------------------------------------
def test_rule_page_shows_rule_example_and_child_as_text(client):
    page = inert(client.get("/rules/100.1?lang=both"))
    en = page.select_one("article.col[lang=en]")
    assert text(en.select_one("#en-100\\.1 p.text")) == f"100.1 {RULE}"
    assert en.select_one("#en-100\\.1 p.text a.ref[href='/rules/100.2']")  # still linked
    assert EXAMPLE in text(en.select_one("#en-100\\.1 p.example"))
    assert text(en.select_one("#en-100\\.1a p.text")) == f"100.1a {CHILD}"
    assert TERM in text(en.select_one(".citedby"))  # the hostile glossary entry cites 100.1
    zh = page.select_one("article.col[lang=zh-Hans]")
    assert text(zh.select_one("#zh-100\\.1 p.text")) == f"100.1 {ZH_RULE}"
    assert IMG in text(zh.select_one("#zh-100\\.1 p.example"))


def test_section_title_is_text_in_heading_breadcrumb_and_contents(client):
    crumbs = inert(client.get("/rules/101.1")).select_one("nav.crumbs")
    assert f"101 {SECTION}" in text(crumbs)
    assert SECTION in text(inert(client.get("/rules/101")).select_one("main"))
    assert SECTION in text(inert(client.get("/?lang=en")).select_one("main"))


def test_glossary_terms_and_definitions_are_text(client):
    page = inert(client.get("/glossary"))
    dts = {text(dt): dt for dt in page.select("section.glossary[lang=en] dt")}
    assert TERM in dts
    assert text(dts[TERM].find_next_sibling("dd")) == DEFINITION
    zh = [dt for dt in page.select("section.glossary[lang=zh-Hans] dt") if ZH_TERM in text(dt)]
    assert zh and text(zh[0].find_next_sibling("dd")) == ZH_DEFINITION


def test_search_hits_and_highlights_are_text(client):
    page = inert(client.get("/search?q=alert&lang=en"))
    hits = {text(h.select_one("a.num")).split()[0]: h for h in page.select(".hit")}
    assert {"100.1", "100.1a", "100.2", "101"} <= set(hits)
    assert text(hits["100.1"].select_one("p.text")) == RULE
    assert text(hits["100.1a"].select_one("p.text")) == CHILD
    assert [m.get_text() for m in hits["100.1"].select("mark")] == ["alert"]
    zh = inert(client.get("/search", query_string={"q": "适用", "lang": "zh"}))
    assert ZH_RULE in [text(p) for p in zh.select(".hit p.text")]


def test_diff_history_and_translation_pages_show_text(client):
    diff = inert(client.get("/diff/2024-04-12/2024-06-07"))
    assert CHANGED in text(diff.select_one(".change"))
    history = inert(client.get("/rules/100.2/history"))
    assert CHANGED in [text(p) for p in history.select(".history p.text")]
    translation = client.get("/translation/2024-06-07")
    assert translation.status_code == 200
    inert(translation)


def test_json_api_returns_the_exact_source_text(client):
    rule = client.get("/api/rules/100.1").get_json()
    assert rule["text"] == RULE and rule["examples"] == [EXAMPLE]
    assert [c["text"] for c in rule["children"]] == [CHILD]
    assert client.get("/api/rules/101").get_json()["title"] == SECTION
    assert client.get("/api/rules/100.1?lang=zh").get_json()["text"] == ZH_RULE
    hits = client.get("/api/search?q=alert&lang=en").get_json()["hits"]
    assert RULE in [h["text"] for h in hits] and CHILD in [h["text"] for h in hits]
    for h in hits:
        # the highlight is HTML: the escaped text with only <mark> tags added
        bare = re.sub(r"</?mark>", "", h["highlight"])
        assert "<" not in bare and html.unescape(bare) == h["text"]
    diff = client.get("/api/diff?from=2024-04-12&to=latest").get_json()
    assert [c["new_text"] for c in diff["changes"]] == [CHANGED]
    history = client.get("/api/rules/100.2/history").get_json()["history"]
    assert [h["text"] for h in history] == ["A second rule.", CHANGED]


# queries ----------------------------------------------------------------------------------------
QUERIES = {
    "script": SCRIPT,
    "breakout": BREAKOUT,
    "template": TEMPLATE,
    "js-url": JS_URL,
    "mark": MARK + "alert",
    "10k": "alert " * 1700,
    "nul": "alert\x00rule",
    "controls": "\x01\x02\x1b[31m\x7f",
    "combining": "\u0301\u0308",
    "rtl": "\u202ealert\u202c \u200f",
    "emoji": "😀🧙‍♂️ alert",
    "zero-width": "al\u200bert\ufeff",
    "cjk-markup": "死触<b>规则</b>",
}


@pytest.mark.parametrize("query", list(QUERIES.values()), ids=list(QUERIES))
def test_hostile_queries_get_a_bounded_answer(client, query):
    page = client.get("/search", query_string={"q": query})
    assert page.status_code in (200, 400), page.status_code
    assert len(query) <= 200 or page.status_code == 400
    body = inert(page)
    if page.status_code == 200:
        box = body.select_one("main input[name=q]")
        # shown back as typed, as text (a control character as the space it reads as)
        assert box is not None and box["value"] == re.sub(
            r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", " ", query
        )
        # a longer paste is cut by the browser to what a search reads, not refused by it
        assert {i["maxlength"] for i in body.select("input[name=q]")} == {"200"}
    api = client.get("/api/search", query_string={"q": query})
    assert api.status_code in (200, 400) and api.is_json
    found = api.get_json()
    if api.status_code == 400:
        assert set(found) == {"error"}
        return
    assert isinstance(found["query"], str) and len(found["query"]) <= 200
    assert found["total"] >= len(found["hits"])
    for h in found["hits"]:
        assert "<" not in re.sub(r"</?mark>", "", h["highlight"])


def test_query_parameters_with_odd_values_are_400_not_500(client):
    for url in (
        "/api/search?q=alert&limit=%C2%B2",  # "²" is a digit to str.isdigit, not to int()
        "/api/search?q=alert&limit=%D9%A3",  # an Arabic-Indic 3
        "/api/search?q=alert&limit=99999999999999999999",
        "/search?q=alert&limit=%C2%B2",
        "/search?q=alert&lang=%3Cscript%3E",
        "/api/rules/100.1?lang=%00",
    ):
        r = client.get(url)
        assert r.status_code == 400, url
        if url.startswith("/api/"):
            assert set(r.get_json()) == {"error"}
        else:
            inert(r)


# URLs -------------------------------------------------------------------------------------------
TRICKS = {
    "dotdot-rule": "/rules/..%2f..%2fetc%2fpasswd",
    "dotdot-versions": "/versions/../",
    "dotdot-v": "/v/..%2F/rules/100.1",
    "nul-rule": "/rules/100.1%00",
    "nul-version": "/v/2024-06-07%00/rules/100.1",
    "long-rule": "/rules/" + "1" * 10000,
    "long-version": "/v/" + "2" * 10000 + "/rules/100.1",
    "sql-version": "/v/2024'%20OR%20'1'='1/rules/100.1",
    "sql-diff": "/diff/2024-04-12'--/latest",
    "script-rule": "/rules/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "breakout-version": "/rules/100.1?version=%22%27%3E%3Csvg%20onload%3Dalert(1)%3E",
    "search-version": "/search?q=alert&version=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
    "glossary-version": "/glossary?version=..%2F..%2F",
    "translation-dotdot": "/translation/..%2f..",
    "release-nul": "/releases/%00",
    "history-long": "/rules/" + "9" * 5000 + "/history",
    "static-dotdot": "/static/..%2f..%2fcrkb%2fconfig.py",
    "static-dotdot2": "/static/../crkb/config.py",
    "api-sql-version": "/api/rules/100.1?version=%27%20OR%201%3D1--",
    "api-nul-diff": "/api/diff?from=%00&to=latest",
    "api-long-rule": "/api/rules/" + "7" * 10000,
    "api-script-history": "/api/rules/%3Cscript%3E/history",
}


@pytest.mark.parametrize("url", list(TRICKS.values()), ids=list(TRICKS))
def test_url_tricks_are_404_pages(client, url):
    # `%2F` decodes to a slash, and Werkzeug merges a doubled slash with a redirect on the site
    r = client.get(url, follow_redirects=True)
    for hop in r.history:
        assert hop.headers["Location"].startswith(("/", "http://localhost/")), hop.headers
    assert r.status_code in (400, 404), r.status_code
    if "/api/" in url:
        assert r.is_json and set(r.get_json()) == {"error"}
        return
    page = inert(r)
    assert page.select_one("main .message") is not None  # the helpful error page
    assert "PROJECT_ROOT" not in r.get_data(as_text=True)  # no file served from outside static/


# headers ----------------------------------------------------------------------------------------
def test_every_kind_of_response_carries_csp_and_nosniff(client):
    responses = {
        "html": client.get("/rules/100.1"),
        "json": client.get("/api/versions"),
        "html-404": client.get("/rules/999.9"),
        "json-404": client.get("/api/rules/999.9"),
        "json-400": client.get("/api/search?q="),
        "html-400": client.get("/search?q=x&limit=0"),
        "static": client.get("/static/crkb.css"),
        "redirect": client.get("/rules/100.1."),
        "json-405": client.delete("/api/versions"),
    }
    assert responses["static"].status_code == 200
    assert responses["redirect"].status_code in (301, 302)
    for kind, r in responses.items():
        csp = r.headers.get("Content-Security-Policy", "")
        policy = dict((p.strip().split(" ", 1) + [""])[:2] for p in csp.split(";") if p.strip())
        assert policy.get("default-src") == "'self'", kind
        assert policy.get("script-src") == "'self'", kind
        assert policy.get("object-src") == "'none'" and policy.get("base-uri") == "'none'", kind
        assert policy.get("frame-ancestors") == "'none'", kind
        assert "unsafe" not in csp, kind
        assert r.headers.get("X-Content-Type-Options") == "nosniff", kind


# the renderers themselves -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("engine", "shown"),
    [
        ("<mark>a</mark><script>x</script>", "a<script>x</script>"),
        ("&lt;img src=x onerror=1&gt; <mark>b</mark>", "<img src=x onerror=1> b"),
        ("&amp;lt;script&amp;gt;", "&lt;script&gt;"),  # unescaped once, never twice
        ("<mark>unbalanced <b>bold</b>", "unbalanced <b>bold</b>"),
        ('<mark onmouseover="x">c</mark>', '<mark onmouseover="x">c'),
    ],
    ids=["tag", "escaped-tag", "double-escaped", "unbalanced", "mark-attribute"],
)
def test_highlight_keeps_only_bare_mark_tags(engine, shown):
    safe = str(highlight(engine))
    page = BeautifulSoup(safe, "html.parser")
    assert page.get_text() == shown
    assert {t.name for t in page.find_all(True)} <= {"mark"}
    assert all(not t.attrs for t in page.find_all(True))


def test_linked_text_escapes_text_titles_and_urls():
    out = str(
        linked(
            f"{SCRIPT} see rule 100.2 {BREAKOUT}",
            [Link("100.2", ["100.2"])],
            lambda n: f"/rules/{n}?x=\"'><b>",
            {"100.2": BREAKOUT},
        )
    )
    page = BeautifulSoup(out, "html.parser")
    assert page.get_text() == f"{SCRIPT} see rule 100.2 {BREAKOUT}"
    (a,) = page.find_all(True)
    assert a.name == "a" and a["title"] == BREAKOUT and a["href"] == "/rules/100.2?x=\"'><b>"
