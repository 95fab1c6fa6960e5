"""`crkb search`: ranked hits in either language."""

from __future__ import annotations

import argparse
from typing import Any

from crkb.cli.options import (
    data_dir,
    emit,
    lang_option,
    open_store,
    reads_store,
    version_option,
)
from crkb.errors import BadInput
from crkb.numbers import normalise
from crkb.store.location import INDEX_DIR, current_build
from crkb.views import params, shapes


def cmd_search(args: argparse.Namespace) -> int:
    from crkb.search.engine import Searcher

    if args.limit < 1 or args.limit > 100:
        raise BadInput(f"--limit {args.limit}: expected 1 to 100")
    if not args.query.strip():  # as the API answers an empty `q`
        raise BadInput("QUERY: empty; give words or a rule number to search for")
    store = open_store(args)  # a damaged or foreign build is reported here as by every command
    searcher = Searcher(current_build(data_dir(args)) / INDEX_DIR)
    result = shapes.search(searcher, args.query, args.lang, args.version, args.limit)
    if args.json:
        emit(result)
        return 0
    if result.get("did_you_mean"):
        print(f"did you mean: {result['did_you_mean']}")
    for hit in result["hits"]:
        now = hit.get("current_number", hit["number"])
        moved = (
            " (not in the newest English release)"
            if now is None
            else f" (now {now})"
            if now != hit["number"]
            else ""
        )
        title = f" {hit['title']}" if hit.get("title") else ""
        text = hit["text"] if len(hit["text"]) <= 320 else hit["text"][:300] + " …"  # short: whole
        said = "" if hit["text"] == hit.get("title") else f": {text}"  # a heading is its title
        print(f"{hit['number']}{moved} [{hit['version']} {hit['lang']}]{title}{said}")
        if hit is result["hits"][0] and hit.get("parent"):
            print(f"  in {hit['parent']['number']} {hit['parent']['title']}")
    if not result["hits"]:
        number = normalise(args.query)
        print(
            "no hits"
            + (shapes.went(store, number, result["version"], result["lang"]) if number else "")
        )
    return 0


def register(sub: Any) -> None:
    s = sub.add_parser("search", help="ranked hits in either language")
    s.add_argument("query")
    lang_option(s, params.SEARCH_LANGS, "auto")
    version_option(s, "version id, alias or latest (default: newest of each language)")
    s.add_argument("--limit", type=int, default=10)
    reads_store(s)
    s.set_defaults(func=cmd_search)
