"""Stored pages answered in front of Flask: a page seen before (by any worker, or pre-rendered by
the build) is a lookup plus its headers, with no routing, context or hooks in between.

Everything else, and any request this path is not sure of (conditional requests, a missing build,
a page not kept yet), goes on to the Flask app, which renders the page and keeps it. The answer is
the one the Flask app gives for the same request, headers included (tests/test_stored.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from flask import Flask
from werkzeug.http import http_date, quote_etag
from werkzeug.utils import get_content_type
from werkzeug.wrappers import Request

from crkb.errors import CrkbError
from crkb.web import conditional, serving
from crkb.web.state import Served

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

# asked for a check, not a page: Flask's own handling answers these
_CONDITIONAL = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_MATCH", "HTTP_RANGE")


class StoredPages:
    """WSGI middleware: a kept page's answer, or the wrapped app's."""

    def __init__(self, app: Flask, inner: WSGIApplication) -> None:
        self.app = app
        self.inner = inner

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if (
            environ.get("REQUEST_METHOD") == "GET"
            and self.app.config.get("PAGE_CACHE")
            and not any(h in environ for h in _CONDITIONAL)
        ):
            answer = self.answer(Request(environ))
            if answer is not None:
                headers, body = answer
                start_response("200 OK", headers)
                return [body]
        return self.inner(environ, start_response)

    def answer(self, req: Request) -> tuple[list[tuple[str, str]], bytes] | None:
        """(headers, body) of the kept page `req` asks for, or None to let Flask answer."""
        served: Served = self.app.extensions["crkb"]
        try:
            key = serving.page_key(served, req)
        except CrkbError:  # no build yet: the app says so properly
            return None
        if key is None:
            return None
        page = serving.cached_page(served, key)
        if page is None or page[0] != 200 or served.build_id is None:
            return None
        _status, mimetype, body = page
        headers = [("Content-Type", get_content_type(mimetype, "utf-8"))]
        cookie = serving.lang_cookie(req)
        if cookie is not None:
            headers.append(("Set-Cookie", cookie))
        headers += serving.SECURITY_HEADERS
        if mimetype not in conditional.COMPRESSIBLE:
            headers.insert(1, ("Content-Length", str(len(body))))
            return headers, body
        headers[-1] = ("Vary", "Cookie, Accept-Encoding")  # SECURITY_HEADERS' last, widened
        etag = conditional.entity_tag(served.build_id, body)
        packed = conditional.packs(req.headers.get("Accept-Encoding", ""), len(body))
        headers.append(("ETag", quote_etag(etag + "-gz" if packed else etag)))
        stamp = key[1]
        modified = conditional.last_modified(served, stamp if isinstance(stamp, int) else None)
        if modified is not None:
            headers.append(("Last-Modified", http_date(modified)))
        headers.append(("Cache-Control", "no-cache"))
        if packed:
            body = conditional.gzipped(self.app).get(etag, body)
            headers.append(("Content-Encoding", "gzip"))
        headers.insert(1, ("Content-Length", str(len(body))))
        return headers, body


def register(app: Flask) -> None:
    """Put the stored pages in front of the app (the test client goes through them too)."""
    app.wsgi_app = StoredPages(app, app.wsgi_app)  # type: ignore[method-assign]  # Flask's documented way to add WSGI middleware
