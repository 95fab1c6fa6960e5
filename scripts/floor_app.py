"""The floor of scripts/bench_web.py: a bare Flask app answering every GET with a stored page.

No templates, no database: each path maps (by a checksum of path and query) to one of 64 stored
pages of about 6 KB made once in the factory, so its speed is what Flask and gunicorn cost alone.
"""

from __future__ import annotations

import zlib

from flask import Flask, Response, request

PAGES = 64
PAGE_BYTES = 6 * 1024


def stored_pages(n: int = PAGES, size: int = PAGE_BYTES) -> list[bytes]:
    """`n` distinct HTML pages of `size` bytes (English and Chinese text, like crkb's pages)."""
    out = []
    for i in range(n):
        head = f"<!doctype html><html><head><title>page {i}</title></head><body><main>"
        line = f"<p>{i} Rule text 规则文本 with a <a href='/rules/{i}'>link</a>.</p>\n"
        body = (head + line * (size // len(line.encode()) + 1)).encode()[: size - 20]
        out.append(body + b"</main></body></html>")
    return out


def create_app() -> Flask:
    """The floor app: every path is one of the stored pages."""
    app = Flask(__name__)
    pages = stored_pages()

    @app.get("/", defaults={"path": ""})
    @app.get("/<path:path>")
    def page(path: str) -> Response:
        key = zlib.crc32(request.full_path.encode())
        return Response(pages[key % len(pages)], mimetype="text/html")

    return app
