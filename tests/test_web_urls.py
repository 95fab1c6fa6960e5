"""The page links built from kept patterns (crkb/web/urls.py) are the ones Flask builds, whatever
the values, the script root or the host a request comes with."""

from __future__ import annotations

import re
from pathlib import Path

import flask
import pytest

from crkb.web import create_app, urls

pytestmark = pytest.mark.archive

CALLS: list[tuple[str, dict[str, object]]] = [
    ("pages.home", {}),
    ("pages.home", {"version": "2024-04-12"}),
    ("pages.rule", {"number": "702.19b"}),
    ("pages.versioned_rule", {"version": "2024-04-12", "number": "702.19b"}),
    ("pages.versioned_rule", {"number": "100.1", "version": "1999-04-23"}),  # names reordered
    ("pages.versioned_rule", {"version": "QcrkbUrlArg1Q", "number": "QcrkbUrlArg0Q"}),
    ("pages.glossary", {"version": "2024-04-12"}),
    ("pages.glossary", {"version": None}),
    ("pages.history", {"number": "702.19b"}),
    ("pages.search", {"q": "double strike", "lang": "en"}),  # a space: Flask's own answer
    ("pages.search", {"q": "先攻"}),
    ("pages.rule", {"number": "a/b?c#d"}),
    ("pages.rule", {"number": "{0}"}),
    ("pages.rule", {"number": 702}),
    ("pages.rule", {"number": "702.1", "_anchor": "x"}),
    ("pages.translation", {"version": "2024-04-12", "chapter": "7"}),
    ("static", {"filename": "crkb.css"}),
    ("api.openapi", {}),
]


def test_kept_patterns_build_what_flask_builds(archive_build: Path) -> None:
    app = create_app({"DATA": str(archive_build)})
    for _round in range(2):  # the first call keeps a pattern, the second uses it
        for base in ("http://localhost/", "http://localhost/pre/", "http://h.test:8443/a/b/"):
            with app.test_request_context("/", base_url=base):
                for endpoint, values in CALLS:
                    assert urls.url_for(endpoint, **values) == flask.url_for(endpoint, **values)


def test_a_page_under_a_script_root_links_under_it(archive_build: Path) -> None:
    """Served below a path (a proxy's SCRIPT_NAME), a release's home page links below it: every
    link Flask builds (its language links keep the request's path, as before)."""
    client = create_app({"DATA": str(archive_build), "PAGE_CACHE": False}).test_client()
    assert client.get("/v/2012-07-01/?lang=en").status_code == 200  # patterns kept at the root
    for _round in range(2):
        page = client.get("/v/2012-07-01/?lang=en", base_url="http://localhost/crkb/")
        links = re.findall(r'(?:href|action)="(/[^"]*)"', page.get_data(as_text=True))
        built = [link for link in links if not link.startswith("/v/2012-07-01/?lang=")]
        assert len(built) > 100 and all(link.startswith("/crkb/") for link in built), built
        assert "/crkb/v/2012-07-01/rules/702" in built and "/crkb/static/crkb.css" in built


def test_a_rule_page_under_a_script_root_links_under_it_whoever_rendered_it_first(
    archive_build: Path,
) -> None:
    """Columns and pages are kept for every worker: one rendered at the root (as the build
    pre-renders the newest release) still links below a proxy's path when served there, and one
    rendered there first still links at the root when served at the root."""
    client = create_app({"DATA": str(archive_build)}).test_client()

    def links(page: bytes) -> list[str]:
        return re.findall(r'(?:href|action)="(/[^"]*)"', page.decode())

    for url in ("/rules/702.19?lang=both", "/v/2012-07-01/rules/613.1?lang=zh"):
        at_root = client.get(url)
        below = client.get(url, base_url="http://localhost/crkb/")
        again = client.get(url)
        assert at_root.status_code == below.status_code == again.status_code == 200
        assert again.get_data() == at_root.get_data()
        rule_links = [x for x in links(below.get_data()) if "/rules/" in x]
        assert len(rule_links) > 5 and all(x.startswith("/crkb/") for x in rule_links), rule_links
        assert not any(x.startswith("/crkb/") for x in links(at_root.get_data()))
    first_below = client.get("/v/2013-02-01/rules/702.2?lang=en", base_url="http://localhost/crkb/")
    then_root = client.get("/v/2013-02-01/rules/702.2?lang=en")
    assert all(x.startswith("/crkb/") for x in links(first_below.get_data()))
    assert not any(x.startswith("/crkb/") for x in links(then_root.get_data()))
