"""Around every request: the language choice, the page cache and the security headers."""

from __future__ import annotations

import re

from flask import Flask, Response, current_app, g, request

from crkb.views.params import SHOW_LANGS
from crkb.web.state import Served

LANG_CHOICES = SHOW_LANGS
LANG_COOKIE = "crkb_lang"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


_RULE_PAGE = re.compile(r"^(/v/[^/]+)?/rules/[^/]+$")
_LANG_ONLY = {f"lang={c}".encode() for c in LANG_CHOICES}


def served() -> Served:
    kept: Served = current_app.extensions["crkb"]
    return kept


def lang_choice() -> str:
    """`?lang=` when given, else the remembered cookie, else both languages."""
    asked = request.args.get("lang")
    if asked in LANG_CHOICES:
        return asked
    kept = request.cookies.get(LANG_COOKIE)
    return kept if kept in LANG_CHOICES else "both"


def _cache_key() -> tuple[object, ...] | None:
    if request.method != "GET" or not current_app.config.get("PAGE_CACHE"):
        return None
    if request.path.startswith("/static/"):
        return None
    build_id, _store = served().current()
    query = request.query_string
    if query in _LANG_ONLY and _RULE_PAGE.match(request.path):
        query = b""  # a rule page is its path and the language choice: `?lang=` is that choice
    g.reviews_stamp = stamp = served().reviews_stamp()  # Last-Modified reads it too
    return (build_id, stamp, request.path, query, lang_choice())


def _from_cache() -> Response | None:
    try:
        key = _cache_key()
    except Exception:  # noqa: BLE001 - no build yet: the view reports it properly
        return None
    g.cache_key = key
    if key is None:
        return None
    hit = served().pages.get(key)
    if hit is None:
        hit = stored_page(key)
        if hit is None:
            return None
        served().pages.put(key, hit)
    g.cache_hit = True
    status, mimetype, body = hit
    return Response(body, status=status, mimetype=mimetype)


def _disk_name(key: tuple[object, ...]) -> str:
    """A page's name in the build's disk cache (the build is the file's own)."""
    return "page\t" + repr(key[1:])


def stored_page(key: tuple[object, ...]) -> tuple[int, str, bytes] | None:
    """A page kept on disk by any worker (the pages of a build outlive the worker)."""
    raw = served().disk().get(_disk_name(key))
    if raw is None:
        return None
    mimetype, _sep, body = raw.partition(b"\n")
    return 200, mimetype.decode(), body


def store_page(key: tuple[object, ...], page: tuple[int, str, bytes]) -> None:
    status, mimetype, body = page
    if status == 200:
        served().disk().put(_disk_name(key), mimetype.encode() + b"\n" + body)


def _finish(resp: Response) -> Response:
    key = g.get("cache_key")
    if (
        key is not None
        and not g.get("cache_hit")
        and resp.status_code == 200
        and not resp.direct_passthrough
        and not g.get("no_cache")
    ):
        page = (resp.status_code, resp.mimetype or "", resp.get_data())
        served().pages.put(key, page)
        store_page(key, page)
    asked = request.args.get("lang")
    if asked in LANG_CHOICES and request.cookies.get(LANG_COOKIE) != asked:
        resp.set_cookie(LANG_COOKIE, asked, max_age=365 * 86400, samesite="Lax", httponly=True)
    resp.headers["Content-Security-Policy"] = CSP
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "same-origin"
    resp.headers["Vary"] = "Cookie"
    return resp


def register(app: Flask) -> None:
    app.before_request(_from_cache)
    app.after_request(_finish)
