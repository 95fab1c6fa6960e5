"""The search page's hit list: what a reader sees of each hit, and links to the right release."""

from __future__ import annotations

from bs4 import BeautifulSoup
from markupsafe import Markup, escape

from crkb.web.hits import hits_html


def href(number: str, version: str | None = None, lang: str | None = None) -> str:
    path = f"/v/{version}/rules/{number}" if version else f"/rules/{number}"
    return path + (f"?lang={lang}&x=1" if lang else "")


def hit(number: str, parent: str | None, version: str = "2025-07-25", **more: object) -> dict:
    return {
        "number": number,
        "lang": "en",
        "version": version,
        "title": None,
        "text": f"Text of {number} <b>",
        "highlight": None,
        "parent": {"number": parent, "title": f"Title {parent}"} if parent else None,
        **more,
    }


def render(hits: list[dict]) -> BeautifulSoup:
    html = hits_html(hits, "2025-07-25", href, lambda t: Markup(escape(t)))
    return BeautifulSoup(str(html), "html.parser")


def test_a_parent_is_named_once_for_a_run_of_hits_under_it() -> None:
    page = render([hit("702.2a", "702.2"), hit("702.2b", "702.2"), hit("510.1", "510")])
    contexts = [p.get_text() for p in page.select("p.context")]
    assert contexts == ["in 702.2 Title 702.2", "in 510 Title 510"]
    assert [a["href"] for a in page.select("a.num")] == [
        "/rules/702.2a",
        "/rules/702.2b",
        "/rules/510.1",
    ]


def test_an_older_release_links_its_own_rules_and_the_side_by_side_page() -> None:
    page = render([hit("100.1", "100", version="2013-07-11", title="Old <Title>")])
    assert page.select_one("a.num")["href"] == "/v/2013-07-11/rules/100.1"
    assert page.select_one("a.num").get_text() == "100.1 Old <Title>"
    assert page.select_one("a.other")["href"] == "/v/2013-07-11/rules/100.1?lang=both&x=1"
    assert page.select_one("p.text").get_text() == "Text of 100.1 <b>"
    assert page.select_one(".meta").get_text() == "en · 2013-07-11"


def test_a_renumbered_rule_links_its_number_now() -> None:
    page = render([hit("702.19", None, version="2013-07-11", current_number="702.19b")])
    now = page.select_one(".meta a")
    assert now.get_text() == "702.19b" and now["href"] == "/rules/702.19b"
    assert page.select_one("p.context") is None


def test_escaped_is_markupsafe_escape() -> None:
    from crkb.web.render import escaped

    for text in ["", "plain", "a & b < c > d", 'player\'s "card"', "&amp; already", "死触 «x» ’"]:
        assert escaped(text) == str(escape(text))
