"""The JSON API under /api/ (described by /api/openapi.json)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from crkb.errors import BadInput, NotFound
from crkb.web import data
from crkb.web.pages import _searcher, resolve, search_args
from crkb.web.serving import served

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_IDENTIFY = 2_000_000


@bp.get("/versions")
def versions():
    _bid, store = served().current()
    return jsonify({"versions": [v.to_json() for v in store.versions()]})


def _lang_arg(default: str = "en", allowed: tuple[str, ...] = ("en", "zh", "both")) -> str:
    lang = request.args.get("lang", default)  # an empty lang= is a mistake, not the default
    if lang not in allowed:
        raise BadInput(f"lang must be one of {', '.join(allowed)}, not {lang[:20]!r}")
    return lang


@bp.get("/rules/<number>")
def rule(number: str):
    from crkb.cli import _rule_json

    _bid, store = served().current()
    n = data.rule_number(number)
    lang = _lang_arg()
    asked = request.args.get("version")
    langs = ["en", "zh"] if lang == "both" else [lang]
    out = {}
    for lg in langs:
        try:
            out[lg] = _rule_json(store, resolve_lang(store, asked, lg), lg, n)
        except NotFound:
            if len(langs) == 1:
                raise
    if not out:
        raise NotFound(f"rule {n} not found in version {asked or 'latest'}")
    return jsonify(out[langs[0]] if len(langs) == 1 else out)


def resolve_lang(store, name: str | None, lang: str) -> str:
    resolve(store, name)  # path tricks and unknown names → 404
    return store.resolve_version(name, lang)


@bp.get("/search")
def search():
    _bid, store = served().current()
    q, lang, version, limit = search_args()
    asked = request.args.get("lang")
    if asked is not None and asked not in ("auto", "en", "zh"):  # the pages also take `both`
        raise BadInput(f"lang must be auto, en or zh, not {asked[:20]!r}")
    if not q.strip():
        raise BadInput("q is required: a word, a phrase or a rule number")
    if version is not None:
        resolve(store, version)
    return jsonify(_searcher().search(q, lang=lang, version=version, limit=limit))


@bp.get("/diff")
def diff():
    from crkb.web import derived

    _bid, store = served().current()
    a, b = request.args.get("from"), request.args.get("to")
    if not a or not b:
        raise BadInput("both from and to are required (version ids, aliases or latest)")
    lang = _lang_arg(allowed=("en", "zh"))
    result = derived.diff(store, resolve_lang(store, a, lang), resolve_lang(store, b, lang), lang)
    return jsonify(result)


@bp.get("/rules/<number>/history")
def history(number: str):
    from crkb.web import derived

    _bid, store = served().current()
    n = data.rule_number(number)
    lang = _lang_arg(allowed=("en", "zh"))
    vid = resolve_lang(store, request.args.get("version"), lang)
    return jsonify(derived.history(store, n, vid, lang))


@bp.get("/translation")
def translation():
    from crkb.web import derived

    _bid, store = served().current()
    asked = request.args.get("version")
    if asked not in (None, "", "latest"):
        asked = resolve(store, asked)
    kind = request.args.get("kind") or None
    chapter = derived.scope(request.args.get("chapter"))
    return jsonify(derived.translation(store, asked, kind, chapter))


@bp.post("/identify")
def identify():
    from crkb.identify import identify_text

    _bid, store = served().current()
    if request.content_length is not None and request.content_length > MAX_IDENTIFY:
        raise BadInput(f"the text is too long (at most {MAX_IDENTIFY} bytes)")
    if request.is_json:
        body = request.get_json(silent=True)
        text = body.get("text") if isinstance(body, dict) else None
    else:
        text = request.form.get("text") or request.get_data(as_text=True)
    if not isinstance(text, str) or not text.strip():
        raise BadInput('send the text to identify: JSON {"text": "…"}, a form field or a body')
    return jsonify(identify_text(text, store))


@bp.get("/openapi.json")
def openapi():
    from crkb.web.openapi import document

    return jsonify(document())
