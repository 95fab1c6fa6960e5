"""Errors rendered once: JSON `{"error": …}` under /api/, a helpful HTML page everywhere else."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, make_response, redirect, render_template, request
from werkzeug.exceptions import HTTPException

from crkb.errors import CrkbError, NotFound

log = logging.getLogger(__name__)


def _suggestions(error: Exception) -> dict[str, Any]:
    """Nearest rules for an unknown rule number (best effort; never fails the error page)."""
    number = getattr(error, "number", None)
    version = getattr(error, "version", None)
    if not number:
        return {}
    try:
        from crkb.web import data
        from crkb.web.serving import served

        _bid, store = served().current()
        vid = version or store.resolve_version(None)
        out = {
            "number": number,
            "version": vid,
            "pinned": version is not None,
            "near": data.nearest(store, vid, "en", number),
        }
    except Exception:  # noqa: BLE001
        return {}
    try:
        from crkb.diff.lookup import whereabouts

        out["went"] = whereabouts(store, number, vid)
    except Exception:  # noqa: BLE001 - a rule page without lineage still gets its nearby rules
        pass
    return out


def render_error(
    status: int, message: str, error: Exception | None = None
) -> tuple[Response | str, int]:
    """The error as JSON under /api/, else the error page (with nearby rules for a 404)."""
    if _is_api():
        return jsonify({"error": message}), status
    extra = _suggestions(error) if error is not None and status == 404 else {}
    if isinstance(error, NotFound) and error.versions:
        extra["releases"] = [(v, _in_release(error.asked, v)) for v in error.versions]
    return render_template("error.html", status=status, message=message, **extra), status


def _in_release(asked: str, version: str) -> str:
    """The page asked for, in another release: each path part or argument that named the
    release `asked` names `version` instead (the release's home when that fails)."""
    from flask import url_for

    args: dict[str, Any] = {**request.args.to_dict(), **(request.view_args or {})}
    try:
        if request.endpoint and asked in args.values():
            moved: dict[str, Any] = {k: version if v == asked else v for k, v in args.items()}
            return url_for(request.endpoint, **moved)
    except Exception:  # noqa: BLE001 - a link is a courtesy; the release's home always works
        pass
    return url_for("pages.home", version=version)


def _without_slash(app: Flask) -> str | None:
    """The address without the trailing slash a link or a hand added (/rules/702.9/), when
    that is a page, with the same query; else None."""
    path = request.path
    if len(path) < 2 or not path.endswith("/"):
        return None
    bare = path.rstrip("/")
    try:
        app.url_map.bind("localhost").match(bare, method=request.method)
    except HTTPException:
        return None
    query = request.query_string.decode("latin-1")
    return request.script_root + bare + (f"?{query}" if query else "")


def _is_api() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def register(app: Flask) -> None:
    @app.errorhandler(CrkbError)
    def crkb_error(e: CrkbError) -> tuple[Response | str, int]:
        if isinstance(e, NotFound):  # an unknown release: where this surface lists them
            api = _is_api()
            return render_error(404, e.where_listed("/api/versions" if api else "the home page"), e)
        return render_error(e.http_status, str(e), e)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> Response:
        message = e.description or e.name
        if e.code == 404 and not isinstance(e, NotFound):
            bare = _without_slash(app)
            if bare is not None:
                return make_response(redirect(bare, code=308))
            message = f"there is no page at {request.path}"
        body, status = render_error(e.code or 500, message, e)
        resp = make_response(body, status)
        for name, value in e.get_headers():  # e.g. `Allow` on a 405, which RFC 9110 requires
            if name.lower() != "content-type":
                resp.headers[name] = value
        return resp

    @app.errorhandler(Exception)
    def unexpected(e: Exception) -> tuple[Response | str, int]:
        log.exception("unexpected error on %s", request.path)
        return render_error(500, "something went wrong on our side; please try again", None)
