"""The offline pack of the build being served as a zip download (made once per build, then kept)."""

from __future__ import annotations

from flask import Blueprint, Response, send_file

from crkb.export.pack import pack_zip
from crkb.web.rendering import signature
from crkb.web.serving import served

bp = Blueprint("download", __name__)


@bp.get("/pack.zip")
def pack() -> Response:
    """The zip of the newest pack (made on the first request after a build or an upgrade of
    crkb, in seconds)."""
    path = pack_zip(served().data, signature())
    return send_file(path, mimetype="application/zip", as_attachment=True, download_name=path.name)
