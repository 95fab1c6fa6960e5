"""A page seen before is answered in front of Flask (crkb/web/stored.py): the same answer, headers
included, as the app gives when it renders it, and without the app's dispatch at all."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from flask import Flask

from crkb.web import create_app

pytestmark = pytest.mark.archive

URLS = [
    "/rules/702.19",
    "/rules/702.19?lang=en",
    "/rules/702.19?lang=zh",
    "/v/2015-01-23/rules/702.19",
    "/rules/1",
    "/search?q=trample",
    "/search?q=%E5%85%88%E6%94%BB",
    "/api/rules/702.19",
    "/api/search?q=first+strike&limit=10",
]
ASKING = [{}, {"Accept-Encoding": "gzip, deflate, br"}, {"Cookie": "crkb_lang=zh"}]


def _shown(headers: dict[str, str]) -> dict[str, str]:
    """Headers as a client compares them (a cookie's Expires moves with the clock)."""
    out = dict(headers)
    if "Set-Cookie" in out:
        out["Set-Cookie"] = "; ".join(
            p for p in out["Set-Cookie"].split("; ") if not p.startswith("Expires=")
        )
    return out


def _no_dispatch(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> None:
        raise AssertionError("the app dispatched a request the stored pages should answer")

    monkeypatch.setattr(app, "full_dispatch_request", refuse)


@pytest.mark.parametrize("asking", ASKING, ids=["plain", "gzip", "cookie"])
@pytest.mark.parametrize("url", URLS)
def test_a_stored_page_is_the_page_the_app_renders(
    archive_build: Path, monkeypatch: pytest.MonkeyPatch, url: str, asking: dict[str, str]
) -> None:
    app = create_app({"DATA": str(archive_build)})
    rendered = app.test_client().get(url, headers=asking)
    assert rendered.status_code == 200
    _no_dispatch(app, monkeypatch)
    stored = app.test_client().get(url, headers=asking)
    assert stored.status_code == 200
    assert stored.get_data() == rendered.get_data()
    assert _shown(dict(stored.headers)) == _shown(dict(rendered.headers))


def test_another_worker_answers_a_kept_page_without_the_app(
    archive_build: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = "/v/2012-07-01/rules/613.1?lang=zh"
    first = create_app({"DATA": str(archive_build)}).test_client().get(url)
    other = create_app({"DATA": str(archive_build)})
    _no_dispatch(other, monkeypatch)
    packed = other.test_client().get(url, headers={"Accept-Encoding": "gzip"})
    assert packed.status_code == 200 and packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == first.get_data()


def test_checks_errors_and_other_methods_still_reach_the_app(archive_build: Path) -> None:
    """A conditional request, a page never kept, a HEAD and a POST are the app's to answer."""
    client = create_app({"DATA": str(archive_build)}).test_client()
    first = client.get("/rules/702.2")
    again = client.get("/rules/702.2", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    assert client.get("/rules/99999").status_code == 404
    assert client.get("/rules/99999").status_code == 404  # an error is never stored
    head = client.head("/rules/702.2")
    assert head.status_code == 200 and head.get_data() == b""
    assert client.post("/rules/702.2").status_code == 405


def test_without_a_build_the_app_says_so(tmp_path: Path) -> None:
    answer = create_app({"DATA": str(tmp_path)}).test_client().get("/rules/702.2")
    assert answer.status_code == 503
    assert b"crkb build" in answer.get_data()


@pytest.mark.parametrize(
    ("number", "version", "lang"),
    [
        ("702.19", None, None),
        ("702.19a", "2015-01-23", "both"),
        ("1", None, "both"),
        ("7 2", "x/y", None),
    ],
)
def test_a_search_hit_links_where_url_for_does(
    app: Flask, number: str, version: str | None, lang: str | None
) -> None:
    """Search pages make their ~80 rule links from kept patterns (crkb/web/pages.rule_hrefs over
    crkb/web/urls.py); each is the address Flask's url_for gives, under a mount point too."""
    from flask import url_for

    from crkb.web.pages import rule_hrefs

    for root in ("", "/crkb"):
        with app.test_request_context("/search", base_url=f"http://localhost{root}"):
            query = {"lang": lang} if lang else {}
            want = (
                url_for("pages.rule", number=number, **query)
                if version is None
                else url_for("pages.versioned_rule", version=version, number=number, **query)
            )
            assert rule_hrefs()(number, version, lang) == want
