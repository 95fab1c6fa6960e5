"""Around every request: the language choice, the page cache and the security headers."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, g, request

from crkb.views.params import SHOW_LANGS
from crkb.web.state import Served

LANG_CHOICES = SHOW_LANGS
LANG_COOKIE = "crkb_lang"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def served() -> Served:
    state: Served = current_app.extensions["crkb"]
    return state


def lang_choice() -> str:
    """`?lang=` when given, else the remembered cookie, else both languages."""
    asked = request.args.get("lang")
    if asked in LANG_CHOICES:
        return asked
    kept = request.cookies.get(LANG_COOKIE)
    return kept if kept in LANG_CHOICES else "both"


def _cache_key() -> tuple[Any, ...] | None:
    if request.method != "GET" or not current_app.config.get("PAGE_CACHE"):
        return None
    if request.path.startswith("/static/"):
        return None
    build_id, _store = served().current()
    return (build_id, served().reviews_stamp(), request.path, request.query_string, lang_choice())


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
        return None
    g.cache_hit = True
    status, mimetype, body = hit
    return Response(body, status=status, mimetype=mimetype)


def _finish(resp: Response) -> Response:
    key = g.get("cache_key")
    if (
        key is not None
        and not g.get("cache_hit")
        and resp.status_code == 200
        and not resp.direct_passthrough
        and not g.get("no_cache")
    ):
        served().pages.put(key, (resp.status_code, resp.mimetype or "", resp.get_data()))
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
