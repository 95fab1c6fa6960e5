"""Around every request: the language choice, the page cache and the security headers."""

from __future__ import annotations

import re
import time

from flask import Flask, Response, current_app, g, request
from werkzeug.http import dump_cookie
from werkzeug.wrappers import Request

from crkb.views.params import SHOW_LANGS
from crkb.web.state import Served

LANG_CHOICES = SHOW_LANGS
LANG_COOKIE = "crkb_lang"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


LANG_COOKIE_AGE = 365 * 86400
# on every answer, after Set-Cookie (crkb/web/stored.py sends the same on a stored page)
SECURITY_HEADERS = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("Vary", "Cookie"),
)

_RULE_PAGE = re.compile(r"^(/v/[^/]+)?/rules/[^/]+$")
_LANG_ONLY = {f"lang={c}".encode() for c in LANG_CHOICES}


def served() -> Served:
    kept: Served = current_app.extensions["crkb"]
    return kept


def lang_choice() -> str:
    """`?lang=` when given, else the remembered cookie, else both languages."""
    return choice_of(request)


def choice_of(req: Request) -> str:
    """The language choice of a request (see `lang_choice`), outside Flask's context too."""
    asked = req.args.get("lang")
    if asked in LANG_CHOICES:
        return asked
    kept = req.cookies.get(LANG_COOKIE)
    return kept if kept in LANG_CHOICES else "both"


def reading_choice(req: Request) -> str:
    """The language the reader reads the site in: `choice_of`, except on pages whose `?lang=`
    is the language searched (`NOT_A_READING_CHOICE`), where only the cookie says it."""
    if req.path.startswith(NOT_A_READING_CHOICE):
        kept = req.cookies.get(LANG_COOKIE)
        return kept if kept in LANG_CHOICES else "both"
    return choice_of(req)


def page_key(kept: Served, req: Request) -> tuple[object, ...] | None:
    """What a page is cached under: the build, the review file's stamp (rule pages badge open
    findings), the path, the query and the language choice; None for what is never cached."""
    if req.method != "GET" or req.path.startswith("/static/"):
        return None
    build_id, _store = kept.current()
    query = req.query_string
    if query in _LANG_ONLY and _RULE_PAGE.match(req.path):
        query = b""  # a rule page is its path and the language choice: `?lang=` is that choice
    # the script root too: a page's links are below it (a proxy may mount the service on a path)
    where = req.script_root + req.path
    # the query holds `?lang=`; the reading choice is what the page's labels are written in
    return (build_id, kept.reviews_stamp(), where, query, reading_choice(req))


# Paths whose `?lang=` is not the reader's choice of language for the site.
NOT_A_READING_CHOICE = ("/search", "/api/")


def lang_cookie(req: Request) -> str | None:
    """The Set-Cookie value that remembers a `?lang=` the cookie does not hold yet."""
    asked = req.args.get("lang")
    if asked not in LANG_CHOICES or req.cookies.get(LANG_COOKIE) == asked:
        return None
    if req.path.startswith(NOT_A_READING_CHOICE):
        return None  # there `lang` is the language searched or answered, not the one read in
    now = int(time.time())
    kept = _COOKIES.get(asked)
    if kept is None or kept[0] != now:  # the same value all through one second
        value = dump_cookie(
            LANG_COOKIE,
            asked,
            max_age=LANG_COOKIE_AGE,
            expires=now + LANG_COOKIE_AGE,  # what max_age alone gives, to the second
            path="/",
            samesite="Lax",
            httponly=True,
        )
        kept = _COOKIES[asked] = (now, value)
    return kept[1]


_COOKIES: dict[str, tuple[int, str]] = {}  # choice → (second, its Set-Cookie value then)


def _cache_key() -> tuple[object, ...] | None:
    if not current_app.config.get("PAGE_CACHE"):
        return None
    key = page_key(served(), request)
    if key is not None:
        g.reviews_stamp = key[1]  # Last-Modified reads it too
    return key


def cached_page(kept: Served, key: tuple[object, ...]) -> tuple[int, str, bytes] | None:
    """A page from this worker's memory, else from the build's disk cache (then remembered)."""
    hit = kept.pages.get(key)
    if hit is None:
        hit = stored_page(kept, key)
        if hit is not None:
            kept.pages.put(key, hit)
    return hit


def _from_cache() -> Response | None:
    try:
        key = _cache_key()
    except Exception:  # noqa: BLE001 - no build yet: the view reports it properly
        return None
    g.cache_key = key
    if key is None:
        return None
    hit = cached_page(served(), key)
    if hit is None:
        return None
    g.cache_hit = True
    status, mimetype, body = hit
    return Response(body, status=status, mimetype=mimetype)


def _disk_name(key: tuple[object, ...]) -> str:
    """A page's name in the build's disk cache (the build is the file's own)."""
    return "page\t" + repr(key[1:])


def stored_page(kept: Served, key: tuple[object, ...]) -> tuple[int, str, bytes] | None:
    """A page kept on disk by any worker (the pages of a build outlive the worker)."""
    raw = kept.disk().get(_disk_name(key))
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
    cookie = lang_cookie(request)
    if cookie is not None:
        resp.headers.add("Set-Cookie", cookie)
    for name, value in SECURITY_HEADERS:
        resp.headers[name] = value
    return resp


def _flush(_error: BaseException | None) -> None:
    served().flush()  # a column rendered for a page not kept (an error, no page cache)


def register(app: Flask) -> None:
    app.before_request(_from_cache)
    app.after_request(_finish)
    app.teardown_request(_flush)
