"""The carry-forward page and API: `/translation/forward/<V>/<W>` and `/api/translation/forward`."""

from __future__ import annotations

from typing import cast

from cachetools import LRUCache
from flask import Blueprint, Response, jsonify, render_template, request, url_for

from crkb.carry.draft import draft_text, worklist, worklist_csv, worklist_md
from crkb.carry.release import forward
from crkb.carry.rules import STATUSES, CarriedRule, Carry, Span
from crkb.errors import BadInput, NotFound
from crkb.numbers import within
from crkb.store.db import Store
from crkb.views import params
from crkb.web.pages import _common
from crkb.web.serving import served

bp = Blueprint("forward", __name__)

CARRY_CACHE = 8  # carries kept per store (each takes a second or two to make)


def _carry(store: Store, zh: str | None, en: str | None) -> Carry:
    """The carry of a pair (cached on the store, which a rebuild replaces)."""
    for name in (zh, en):
        if name:
            params.url_version(store, name)  # path tricks and unknown names → 404
    cache = cast(  # only this function fills the key
        "LRUCache[tuple[str | None, str | None], Carry]",
        store.cache.setdefault("forward", LRUCache(maxsize=CARRY_CACHE)),
    )
    key = (zh, en)
    if key not in cache:
        cache[key] = forward(store, zh, en, ("zh=", "en="))
    carried: Carry = cache[key]
    return carried


def pieces(text: str | None, spans: list[Span]) -> list[tuple[str, bool]]:
    """A text cut into (piece, changed) runs for the template to mark (it escapes them)."""
    if not text:
        return []
    out: list[tuple[str, bool]] = []
    pos = 0
    for a, b in sorted(spans):
        if a > pos:
            out.append((text[pos:a], False))
        out.append((text[a:b], True))
        pos = b
    if pos < len(text):
        out.append((text[pos:], False))
    return out


@bp.get("/translation/forward/<zh>/<en>")
def page(zh: str, en: str) -> str:
    _bid, store = served().current()
    c = _carry(store, zh, en)
    status = request.args.get("status") or None
    if status is not None and status not in STATUSES:
        raise BadInput(f"status must be one of {', '.join(STATUSES)}, not {status[:20]!r}")
    chapter = params.chapter(request.args.get("chapter"))

    def keep(r: CarriedRule) -> bool:
        number = r.number or r.old_number or ""
        return (status is None or r.status == status) and (
            chapter is None or within(number, chapter)
        )

    rows = [r for r in (worklist(c) if status is None else c.rules) if keep(r)]
    return render_template(
        "forward.html",
        carry=c,
        counts=c.counts(),
        untranslated=c.untranslated(),
        rows=rows,
        status=status,
        chapter=chapter,
        pieces=pieces,
        draft_url=url_for("forward.draft", zh=c.from_zh, en=c.to_en),
        **_common(store, c.to_en),
    )


@bp.get("/translation/forward/<zh>/<en>/draft.txt")
def draft(zh: str, en: str) -> Response:
    _bid, store = served().current()
    c = _carry(store, zh, en)
    text = draft_text(c, store.document(c.from_zh, "zh"))
    return Response(
        text,
        mimetype="text/plain",
        headers={"Content-Disposition": f'attachment; filename="{c.to_en}-zh-draft.txt"'},
    )


@bp.get("/translation/forward/<zh>/<en>/<name>")
def worklist_file(zh: str, en: str, name: str) -> Response:
    """worklist.md or worklist.csv: the rules to do, as `crkb forward --out` writes them."""
    made = {
        "worklist.md": (worklist_md, "text/markdown"),
        "worklist.csv": (worklist_csv, "text/csv"),
    }
    if name not in made:
        raise NotFound(f"no file {name[:40]!r}: draft.txt, worklist.md and worklist.csv are")
    _bid, store = served().current()
    c = _carry(store, zh, en)
    make, mimetype = made[name]
    return Response(
        make(c),
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{c.to_en}-{name}"'},
    )


@bp.get("/api/translation/forward")
def api() -> Response:
    _bid, store = served().current()
    zh, en = request.args.get("zh"), request.args.get("en")
    if not zh or not en:
        raise BadInput("zh= and en=: give the translated release and the later English one")
    return jsonify(_carry(store, zh, en).to_json())
