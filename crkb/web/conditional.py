"""Conditional and compressed answers: an ETag and Last-Modified tied to the build (a repeat
visit is a 304 without a body) and gzip for HTML and JSON above a size threshold."""

from __future__ import annotations

import functools
import gzip
import hashlib
import threading
import zlib
from datetime import UTC, datetime
from pathlib import Path

from cachetools import LRUCache
from flask import Flask, Response, current_app, g, request

from crkb.web.state import Served

GZIP_MIN_BYTES = 1024  # below this the header costs more than it saves
GZIP_LEVEL = 6
GZIP_CACHE_BYTES = 2 * 1024 * 1024  # compressed bodies by ETag, per worker
COMPRESSIBLE = ("text/html", "application/json")


class Gzipped:
    """Compressed bodies by ETag (the same page is compressed once), bounded in bytes."""

    def __init__(self, max_bytes: int = GZIP_CACHE_BYTES) -> None:
        self._items: LRUCache[str, bytes] = LRUCache(maxsize=max_bytes, getsizeof=len)
        self._lock = threading.Lock()

    def get(self, etag: str, body: bytes) -> bytes:
        with self._lock:
            hit: bytes | None = self._items.get(etag)
        if hit is not None:
            return hit
        packed = gzip.compress(body, GZIP_LEVEL, mtime=0)
        if len(packed) < GZIP_CACHE_BYTES // 8:
            with self._lock:
                self._items[etag] = packed
        return packed


def _served() -> Served:
    kept: Served = current_app.extensions["crkb"]
    return kept


@functools.lru_cache(maxsize=16)
def _build_tag(build_id: str) -> str:
    return hashlib.sha256(build_id.encode()).hexdigest()[:12]


def entity_tag(build_id: str, body: bytes) -> str:
    """The build and the body: a rebuild changes it, and so does a review verdict that changes
    a page of the same build."""
    return f"{_build_tag(build_id)}-{zlib.crc32(body):08x}-{len(body):x}"


@functools.lru_cache(maxsize=16)
def _modified(store_path: Path, reviews_stamp: int) -> datetime | None:
    try:
        built = store_path.stat().st_mtime
    except OSError:
        return None
    return datetime.fromtimestamp(int(max(built, reviews_stamp / 1e9)), UTC)


def last_modified(served: Served, reviews_stamp: int | None = None) -> datetime | None:
    """When the build being served (or the review file, if later) last changed."""
    if served.store is None:
        return None
    stamp = served.reviews_stamp() if reviews_stamp is None else reviews_stamp
    return _modified(served.store.path, stamp)


def packs(accept_encoding: str, size: int) -> bool:
    """Whether an answer of `size` bytes goes out gzipped to a client that accepts these."""
    return size >= GZIP_MIN_BYTES and "gzip" in accept_encoding.lower()


def gzipped(app: Flask) -> Gzipped:
    """The app's compressed bodies."""
    kept: Gzipped = app.extensions["crkb gzip"]
    return kept


def _finish(resp: Response) -> Response:
    if (
        request.method not in ("GET", "HEAD")
        or resp.status_code != 200
        or resp.direct_passthrough
        or resp.mimetype not in COMPRESSIBLE
        or "Content-Encoding" in resp.headers
    ):
        return resp
    served = _served()
    if served.build_id is None:
        return resp
    body = resp.get_data()
    etag = entity_tag(served.build_id, body)
    packed = packs(request.headers.get("Accept-Encoding", ""), len(body))
    resp.set_etag(etag + "-gz" if packed else etag)  # each encoding its own tag
    modified = last_modified(served, g.get("reviews_stamp"))
    if modified is not None:
        resp.last_modified = modified
    resp.headers["Cache-Control"] = "no-cache"  # always ask; the answer is a 304 when unchanged
    resp.vary.add("Accept-Encoding")
    if "If-None-Match" in request.headers or "If-Modified-Since" in request.headers:
        resp.make_conditional(request)  # in place: a 304 without a body when the tag matches
    if packed and resp.status_code == 200:
        resp.set_data(gzipped(current_app).get(etag, body))
        resp.headers["Content-Encoding"] = "gzip"
    return resp


def register(app: Flask) -> None:
    """Register before crkb.web.serving: after-request hooks run last-registered first, so the
    page cache keeps the plain body and this runs on every answer, cached or not."""
    app.extensions["crkb gzip"] = Gzipped()
    app.after_request(_finish)
