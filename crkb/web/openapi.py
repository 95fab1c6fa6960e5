"""The OpenAPI 3 description of /api/: what each endpoint takes and the JSON it returns."""

from __future__ import annotations

from typing import Any

from crkb import __version__
from crkb.search.planning import MAX_QUERY

_S = {"type": "string"}
_NS = {"type": ["string", "null"]}
_B = {"type": "boolean"}
_I = {"type": "integer"}
_COUNTS = {"type": "object", "additionalProperties": _I}


def _obj(
    props: dict[str, Any], required: list[str] | None = None, extra: bool = True
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "object",
        "properties": props,
        "required": list(props) if required is None else required,
    }
    if not extra:
        out["additionalProperties"] = False
    return out


def _arr(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


SCHEMAS: dict[str, dict[str, Any]] = {
    "Error": _obj({"error": _S}),
    "Version": _obj(
        {
            "id": _S,
            "aliases": _arr(_S),
            "langs": _arr(_S),
            "title": _S,
            "sources": _arr(_S),
            "counts": {
                "type": "object",
                "additionalProperties": {"type": "object", "additionalProperties": _I},
            },
            "flags": {"type": "object"},
        }
    ),
    "Versions": _obj({"versions": _arr(_ref("Version"))}),
    "Child": _obj({"number": _S, "kind": _S, "title": _NS, "text": _S, "examples": _arr(_S)}),
    "Rule": _obj(
        {
            "version": _S,
            "lang": _S,
            "number": _S,
            "kind": {"type": "string", "enum": ["chapter", "section", "rule", "subrule"]},
            "title": _NS,
            "text": _S,
            "examples": _arr(_S),
            "parent": _NS,
            "children": _arr(_ref("Child")),
            "references": _arr(
                _obj({"to": _S, "raw": _S, "title": _NS, "dangling": _B, "stale": _B})
            ),
            "cited_by": _arr(_S),
            # lang=zh, no version: the newest English release, newer than the translation,
            # numbers this rule (`number`) or its own rule of this number (`its_rule_here`, in
            # the translation) otherwise
            "newer_english": _obj(
                {"version": _S, "number": _NS, "its_rule_here": _NS, "has_number": _B}
            ),
        },
        required=[
            "version",
            "lang",
            "number",
            "kind",
            "title",
            "text",
            "examples",
            "parent",
            "children",
            "references",
            "cited_by",
        ],
    ),
    "RuleBoth": {
        "type": "object",
        "properties": {"en": _ref("Rule"), "zh": _ref("Rule")},
        "minProperties": 1,
        "additionalProperties": False,
    },
    "Hit": _obj(
        {
            "number": _S,
            "version": _S,
            "lang": _S,
            "title": _NS,
            "text": _S,
            "highlight": _S,
            "score": {"type": "number"},
            "current_number": {
                **_NS,
                "description": "a hit of an older translation: its rule's number in the newest"
                " English release, null when that release no longer has the rule (absent: the"
                " same number)",
            },
            "other": {
                **_NS,
                "description": "the same rule's text (a heading's title) in the other language"
                " of the same release; null when that release has no such text",
            },
            "parent": {
                **_obj({"number": _S, "title": _NS}),
                "description": "the rule the hit belongs to, whose title says what it is about",
            },
        },
        required=["number", "version", "lang", "title", "text", "highlight", "score"],
    ),
    "Search": _obj(
        {
            "query": _S,
            "lang": _S,
            "version": {
                **_NS,
                "description": "the release the hits are read in: a release with no text in"
                " `lang` is read in the newest one before it (a translation lags the English)",
            },
            "total": _I,
            "hits": _arr(_ref("Hit")),
            "did_you_mean": _NS,
        },
        required=["query", "lang", "version", "total", "hits"],
    ),
    "Change": _obj(
        {
            "kind": {
                "type": "string",
                "enum": ["added", "removed", "changed", "moved", "moved_changed"],
            },
            "old_number": _NS,
            "new_number": _NS,
            "old_text": _NS,
            "new_text": _NS,
            "old_title": _NS,
            "new_title": _NS,
            "old_examples": _arr(_S),
            "new_examples": _arr(_S),
            "text_changed": {**_B, "description": "the rule's own text says something else"},
            "examples_changed": {**_B, "description": "its examples were reworded, added or cut"},
            "refs_only": {**_B, "description": "only the rule numbers it cites changed"},
            "lost_only": {
                **_B,
                "description": "the texts differ only where a copy lost characters",
            },
        },
        required=["kind", "old_number", "new_number", "old_text", "new_text"],
    ),
    "Diff": _obj(
        {
            "from": _S,
            "to": _S,
            "lang": _S,
            "summary": _COUNTS,
            "changes": _arr(_ref("Change")),
            "lost_only": {
                **_arr(_S),
                "description": "rules whose texts differ only where a copy lost characters"
                " (`?` or U+FFFD for a character it could not hold): no rule change, not in"
                " `changes`",
            },
        }
    ),
    "History": _obj(
        {
            "number": _S,
            "version": _S,
            "lang": _S,
            "history": _arr(
                _obj(
                    {
                        "version": _S,
                        "number": _S,
                        "text": _S,
                        "text_changed": {
                            **_B,
                            "description": "the text differs from the release before it's,"
                            " other than where a copy lost characters",
                        },
                    }
                )
            ),
        }
    ),
    "Finding": _obj(
        {
            "rule": _S,
            "kind": _S,
            "detail": _S,
            "en": _S,
            "zh": _S,
            "en_marked": _S,
            "zh_marked": _S,
            "id": _S,
            # open, reviewed or false_alarm (the last two listed only with all=1), and the
            # reviewer's note on the verdict
            "status": _S,
            "note": _S,
        },
        required=["rule", "kind", "detail", "en", "zh", "id"],
    ),
    "Translation": _obj(
        {
            "version": _S,
            "total": _I,  # every finding of the release, marked ones included
            "marked": _I,  # those marked reviewed or false alarm
            "counts": _COUNTS,  # of the findings listed (open ones, or all with all=1), by kind
            "findings": _arr(_ref("Finding")),
        }
    ),
    "Forward": _obj(
        {
            "from_zh": _S,
            "to_en": _S,
            "counts": _COUNTS,
            # how many new rules V's translation lacked, not the rules (a partial copy)
            "untranslated": _I,
            # the glossary carried the same way: each English term with its status
            "glossary": _arr(
                _obj(
                    {
                        "term": _S,
                        "status": {
                            "type": "string",
                            "enum": ["carried", "renumbered", "review", "new", "removed"],
                        },
                        "zh_term": _NS,
                        "zh": _NS,
                        "en_old": _NS,
                        "en_new": _NS,
                    }
                )
            ),
            "glossary_counts": _COUNTS,
            "rules": _arr(
                _obj(
                    {
                        "number": _NS,
                        "old_number": _NS,
                        "untranslated": _B,
                        "status": {
                            "type": "string",
                            "enum": [
                                "carried",
                                "renumbered",
                                "review",
                                "new",
                                "removed",
                            ],  # STATUSES
                        },
                        "kind": {
                            "type": "string",
                            "enum": ["chapter", "section", "rule", "subrule"],
                        },
                        "zh": _NS,
                        "en_old": _NS,
                        "en_new": _NS,
                        "zh_examples": _arr(_S),
                        "en_examples": _arr(_S),
                        "en_old_examples": _arr(_S),
                        # what the English says differently: the new text's changed phrases,
                        # and [start, end) spans of the old and new texts that differ
                        "changed": _arr(_S),
                        "en_old_changes": _arr(_arr(_I)),
                        "en_new_changes": _arr(_arr(_I)),
                        "terms": _arr(_obj({"en": _S, "zh": _NS})),
                        # a rule to review: its examples W rewords, adds or drops
                        "example_changes": _arr(
                            _obj(
                                {
                                    "state": {
                                        "type": "string",
                                        "enum": ["changed", "new", "removed"],
                                    },
                                    "en_old": _NS,
                                    "en_new": _NS,
                                    "zh": _NS,
                                }
                            )
                        ),
                    }
                )
            ),
        },
        required=["from_zh", "to_en", "counts", "rules"],
    ),
    "Identified": _obj(
        {
            "lang": _NS,
            "versions": _arr(_S),
            "rules_matched": _I,
            # rules of the copy changed, renumbered or removed in the newest release
            "changed_since": _arr(
                _obj(
                    {
                        "number": _S,
                        "number_now": _NS,
                        "kind": {
                            "type": "string",
                            "enum": ["changed", "moved", "moved_changed", "removed"],
                        },
                        "number_reused": _B,
                        "old_text": _S,
                        "new_text": _NS,
                    }
                )
            ),
            "latest": {**_S, "description": "the newest release of the copy's language"},
            "method": {
                "type": "string",
                "enum": ["text", "fingerprint", "structure"],
                "description": "how the copy was matched: by its rules' texts, by its letters"
                " (a copy that lost its numbers, or a quote), or by its numbers and references"
                " (a copy in another language)",
            },
            "language": {**_NS, "description": "the copy's language, when it is not en or zh"},
            "garbled": {**_B, "description": "the copy's characters were damaged (mojibake)"},
            "rules": {**_I, "description": "how many rules of the copy were compared"},
        },
        required=["lang", "versions", "rules_matched", "changed_since"],
    ),
}


def _param(
    name: str,
    where: str = "query",
    required: bool = False,
    schema: dict[str, Any] | None = None,
    description: str = "",
) -> dict[str, Any]:
    return {
        "name": name,
        "in": where,
        "required": required or where == "path",
        "schema": schema or _S,
        "description": description,
    }


def _ok(schema: str, description: str, errors: tuple[int, ...] = (400, 404)) -> dict[str, Any]:
    out = {
        "200": {
            "description": description,
            "content": {"application/json": {"schema": _ref(schema)}},
        }
    }
    for code in errors:
        out[str(code)] = {
            "description": {
                400: "bad parameter",
                404: "unknown rule or version",
                503: "no build or index",
            }[code],
            "content": {"application/json": {"schema": _ref("Error")}},
        }
    return out


# What `pages.resolve` accepts; anything else (path tricks included) is an unknown version.
VERSION_NAME = {
    "type": "string",
    "pattern": "^[0-9A-Za-z][0-9A-Za-z._-]{0,31}$",
    "examples": ["latest"],
}
VERSION = _param(
    "version",
    schema={
        "type": "string",
        "pattern": "^([0-9A-Za-z][0-9A-Za-z._-]{0,31})?$",
        "examples": ["latest"],
    },
    description="version id, alias or latest (default latest)",
)
TEXT_LANG = _param(
    "lang",
    schema={"type": "string", "enum": ["en", "zh"]},
    description="which language's releases (default en)",
)
NUMBER = _param(
    "number",
    "path",
    schema={"type": "string", "maxLength": 16, "examples": ["702.2", "901.3a", "9"]},
    description="rule number, e.g. 702.2, 901.3a, 9",
)


STATUSES = ("carried", "renumbered", "review", "new", "removed")
ZH_RELEASE = {**VERSION_NAME, "examples": ["2024-04-12"]}  # a release with a Chinese text
EN_RELEASE = {**VERSION_NAME, "examples": ["2025-07-25"]}  # a later English release

QUOTED = "702.2a Deathtouch is a static ability."  # a rules text identify recognises


def document() -> dict[str, Any]:
    """The OpenAPI 3.1 document served at /api/openapi.json."""
    from crkb.checks.translation import KINDS  # the checks' own list (loaded when asked)
    from crkb.diff.compare import KINDS as CHANGE_KINDS  # the diff's own list

    langs = {"type": "string", "enum": ["en", "zh", "both"]}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "crkb",
            "version": __version__,
            "description": "Magic: The Gathering Comprehensive Rules, English and 简体中文.",
        },
        "paths": {
            "/api/versions": {
                "get": {
                    "summary": "every release",
                    "responses": _ok("Versions", "the releases", ()),
                }
            },
            "/api/rules/{number}": {
                "get": {
                    "summary": "one rule with children, examples and references",
                    "parameters": [NUMBER, VERSION, _param("lang", schema=langs)],
                    "responses": {
                        **_ok("Rule", "the rule"),
                        "200": {
                            "description": "the rule (both languages: {en, zh})",
                            "content": {
                                "application/json": {
                                    "schema": {"oneOf": [_ref("Rule"), _ref("RuleBoth")]}
                                }
                            },
                        },
                    },
                }
            },
            "/api/rules/{number}/history": {
                "get": {
                    "summary": "the rule through every release, following renumbering",
                    "description": (
                        "The rule as numbered in `version`. With no version, a number the newest"
                        " release lacks is the rule the last release to number it so had; the"
                        " answer's `version` names that release."
                    ),
                    "parameters": [NUMBER, VERSION, TEXT_LANG],
                    "responses": _ok("History", "the history"),
                }
            },
            "/api/search": {
                "get": {
                    "summary": "ranked hits",
                    "parameters": [
                        _param(
                            "q",
                            required=True,
                            schema={
                                "type": "string",
                                "minLength": 1,
                                "maxLength": MAX_QUERY,
                                # blank queries, and control characters alone, are refused
                                "pattern": r"[^\s\x00-\x1f\x7f-\x9f]",
                                "examples": ["deathtouch", "死触", "702.2", "vigilance"],
                            },
                        ),
                        _param("lang", schema={"type": "string", "enum": ["auto", "en", "zh"]}),
                        VERSION,
                        _param("limit", schema={"type": "integer", "minimum": 1, "maximum": 100}),
                    ],
                    "responses": _ok("Search", "the hits", (400, 404, 503)),
                }
            },
            "/api/diff": {
                "get": {
                    "summary": "changes between two releases",
                    "parameters": [
                        _param("from", required=True, schema=VERSION_NAME),
                        _param("to", required=True, schema=VERSION_NAME),
                        TEXT_LANG,
                        _param(
                            "kind",
                            description="only changes of this kind (the summary counts all)",
                            schema={"type": "string", "enum": ["", *CHANGE_KINDS]},
                        ),
                    ],
                    "responses": _ok("Diff", "the changes"),
                }
            },
            "/api/translation": {
                "get": {
                    "summary": "translation consistency findings of a bilingual release",
                    "parameters": [
                        VERSION,
                        _param(
                            "kind",
                            description="only findings of this kind (empty: every kind)",
                            schema={"type": "string", "enum": ["", *KINDS]},
                        ),
                        _param(
                            "chapter",
                            description="only rules within this chapter, section or rule (7, 702)",
                        ),
                        _param(
                            "all",
                            description="1: list the findings marked reviewed or false alarm too",
                            schema={"type": "string", "enum": ["", "0", "1"]},
                        ),
                    ],
                    "responses": _ok("Translation", "the open findings"),
                }
            },
            "/api/translation/forward": {
                "get": {
                    "summary": "the Chinese translation of release zh carried to English release en",  # noqa: E501
                    "parameters": [
                        _param("zh", required=True, schema=ZH_RELEASE),
                        _param("en", required=True, schema=EN_RELEASE),
                    ],
                    "responses": _ok("Forward", "every rule of en with its status"),
                }
            },
            "/translation/forward/{zh}/{en}": {
                "get": {
                    "summary": "page: the carry's counts, worklist (by status, chapter), draft",
                    "parameters": [
                        _param("zh", "path", required=True, schema=ZH_RELEASE),
                        _param("en", "path", required=True, schema=EN_RELEASE),
                        _param("status", schema={"type": "string", "enum": list(STATUSES)}),
                        _param("chapter", description="only rules within this chapter (7, 702)"),
                    ],
                    "responses": {
                        code: {"description": what, "content": {"text/html": {"schema": _S}}}
                        for code, what in (
                            ("200", "the page"),
                            ("400", "a bad filter or a pair that cannot be carried"),
                            ("404", "an unknown release"),
                        )
                    },
                }
            },
            "/api/identify": {
                "post": {
                    "summary": "which release(s) a copied rules text comes from",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": _obj({"text": {"type": "string", "minLength": 1}}),
                                "example": {"text": QUOTED},
                            },
                            "text/plain": {
                                "schema": {"type": "string", "minLength": 1},
                                "example": QUOTED,
                            },
                            "multipart/form-data": {  # a form field or a file (curl -F)
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "text": {"type": "string"},
                                        "file": {"type": "string", "format": "binary"},
                                    },
                                }
                            },
                            "application/x-www-form-urlencoded": {  # a form, or a file as
                                # `curl --data-binary @file` sends it: the whole body
                                "schema": {"type": "string", "minLength": 1},
                            },
                        },
                    },
                    "responses": _ok("Identified", "the best-fitting releases", (400,)),
                }
            },
        },
        "components": {"schemas": SCHEMAS},
    }
