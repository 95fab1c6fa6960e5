"""The JSON API under /api/ (described by /api/openapi.json)."""

from __future__ import annotations

from flask import Blueprint, Response, g, jsonify, request

from crkb.errors import BadInput
from crkb.store.db import Store
from crkb.views import params, shapes
from crkb.web.openapi import document
from crkb.web.pages import search_args, searcher
from crkb.web.serving import served

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_IDENTIFY = 2_000_000


@bp.get("/versions")
def versions() -> Response:
    _bid, store = served().current()
    return jsonify(shapes.versions(store))


def _lang_arg(default: str = "en", allowed: tuple[str, ...] = params.SHOW_LANGS) -> str:
    # an empty lang= is a mistake, not the default
    return params.lang(request.args.get("lang", default), allowed)


def resolve_lang(store: Store, name: str | None, lang: str) -> str:
    params.url_version(store, name)  # path tricks and unknown names → 404
    return params.version(store, name, lang)


@bp.get("/rules/<number>")
def rule(number: str) -> Response:
    _bid, store = served().current()
    n = params.url_rule_number(number)
    lang = _lang_arg()
    asked = request.args.get("version")
    found = shapes.rules(store, n, lang, asked, lambda lg: resolve_lang(store, asked, lg))
    return jsonify(shapes.rules_answer(found, lang))


@bp.get("/search")
def search() -> Response:
    _bid, store = served().current()
    q, lang, version, limit = search_args()
    asked = request.args.get("lang")
    if asked is not None:  # the pages also take `both`
        params.lang(asked, params.SEARCH_LANGS)
    if not q.strip():
        raise BadInput("q is required: a word, a phrase or a rule number")
    if version is not None:
        params.url_version(store, version)
    return jsonify(shapes.search(searcher(), q, lang, version, limit))


@bp.get("/diff")
def diff() -> Response:
    _bid, store = served().current()
    a, b = request.args.get("from"), request.args.get("to")
    if not a or not b:
        raise BadInput("both from and to are required (version ids, aliases or latest)")
    lang = _lang_arg(allowed=params.TEXT_LANGS)
    kind = shapes.change_kind(request.args.get("kind"))
    result = shapes.diff(store, resolve_lang(store, a, lang), resolve_lang(store, b, lang), lang)
    if kind is not None:  # the changes of one kind; the summary still counts every kind
        result = {**result, "changes": [c for c in result["changes"] if c["kind"] == kind]}
    return jsonify(result)


@bp.get("/rules/<number>/history")
def history(number: str) -> Response:
    _bid, store = served().current()
    n = params.url_rule_number(number)
    lang = _lang_arg(allowed=params.TEXT_LANGS)
    asked = request.args.get("version")
    vid = resolve_lang(store, asked, lang)
    return jsonify(shapes.history(store, n, vid, lang, pinned=params.names_release(asked)))


@bp.get("/translation")
def translation() -> Response:
    _bid, store = served().current()
    asked = request.args.get("version")
    if asked not in (None, "", "latest"):
        asked = params.url_version(store, asked)
    kind = request.args.get("kind") or None
    chapter = params.chapter(request.args.get("chapter"))
    every = params.flag("all", request.args.get("all"))
    g.no_cache = True  # reviewers mark findings between builds
    return jsonify(
        shapes.translation(
            store, served().data, asked, kind=kind, chapter=chapter, include_reviewed=every
        )
    )


@bp.post("/identify")
def identify() -> Response:
    _bid, store = served().current()
    if request.content_length is not None and request.content_length > MAX_IDENTIFY:
        raise BadInput(f"the text is too long (at most {MAX_IDENTIFY} bytes)")
    text = _sent_text()
    if not isinstance(text, str) or not text.strip():
        raise BadInput('send the text to identify: JSON {"text": "…"}, a form field or a body')
    try:  # JSON may escape half of a UTF-16 pair (\ud800), which is no character
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        where = f"character {e.start + 1}"
        raise BadInput(f"text: {where} is a lone surrogate, not a character") from None
    from crkb.identify import identify_text  # scipy, bs4 (~60 MB): loaded when asked

    return jsonify(identify_text(text, store))


def _sent_text() -> object:
    """The text to identify, however a client sends it: JSON `{"text": …}`, a form's `text`
    field, an uploaded file (`curl -F file=@…`) or the whole body (`curl --data-binary @…`,
    which curl labels as a form). Files and bodies are decoded as source files are."""
    if request.is_json:
        try:
            body = request.get_json(silent=True)
        except RecursionError:  # the JSON decoder's own limit, not a bad request it names
            raise BadInput("the JSON body is nested too deeply") from None
        if body is None and request.get_data(cache=True).strip():
            raise BadInput('the body is not valid JSON: send {"text": "…"}')
        return body.get("text") if isinstance(body, dict) else None
    raw = request.get_data(cache=True)  # kept: the form below is parsed from it
    if request.mimetype in ("multipart/form-data", "application/x-www-form-urlencoded"):
        if "text" in request.form:
            return request.form["text"]
        for upload in request.files.values():
            return _decoded(upload.read(), upload.filename or "the uploaded file")
        if request.mimetype == "multipart/form-data":
            return None
    return _decoded(raw, "the body")


def _decoded(data: bytes, what: str) -> str:
    """Bytes as text, by the rules a corpus file is read with (UTF-8/16, legacy code pages)."""
    from crkb.sources.decode import NotText, decode

    if not data.strip():
        return ""  # nothing sent: the caller says how to send it
    try:
        return decode(data).text
    except NotText as e:
        raise BadInput(f"{what}: {e}") from None


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(document())
