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
    ("pages.search", {"q": "first strike", "lang": "en"}),  # a space: Flask's own answer
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
