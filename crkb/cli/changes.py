"""`crkb diff` and `crkb history`: what changed between releases, and a rule through them."""

from __future__ import annotations

import argparse
from typing import Any

from crkb.cli.options import emit, lang_option, open_store, reads_store, release, version_option
from crkb.views import params, shapes


def cmd_diff(args: argparse.Namespace) -> int:
    result = shapes.diff(open_store(args), args.old, args.new, lang=args.lang)
    if args.json:
        emit(result)
        return 0
    s = dict(result["summary"])
    lost = s.pop("lost_only", 0)
    print(
        f"{result['from']} → {result['to']} ({result['lang']}): "
        + ", ".join(f"{v} {k}" for k, v in s.items())
    )
    if lost:
        print(f"{lost} rules differ only where a copy lost characters (`?`, U+FFFD); not listed")
    for c in result["changes"]:
        num = c["new_number"] or c["old_number"]
        arrow = f"{c['old_number']} → {c['new_number']}" if c["kind"].startswith("moved") else num
        note = " (citations renumbered only)" if c.get("refs_only") else ""
        print(f"{c['kind']:>13} {arrow}{note}")
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    store = open_store(args)
    number = params.rule_number(args.rule)
    pinned = params.names_release(args.version)
    result = shapes.history(store, number, args.version, lang=args.lang, pinned=pinned)
    if args.json:
        emit(result)
        return 0
    asked = store.resolve_version(args.version, args.lang)
    if result["version"] != asked:  # an old number, followed from the last release to have it
        print(f"({number} is not in {asked}: the rule numbered so in {result['version']})")
    for i, row in enumerate(result["history"]):
        marker = "  (text changed)" if row["text_changed"] else ""
        print(f"{row['version']}  {row['number']}{marker}")
        if (i == 0 or row["text_changed"]) and row["text"] is not None:
            print(f"    {row['text']}")  # each wording once, where it begins
    return 0


def register(sub: Any) -> None:
    d = sub.add_parser("diff", help="changes between any two versions")
    d.add_argument("old", metavar="FROM", type=release)
    d.add_argument("new", metavar="TO", type=release)
    lang_option(d, params.TEXT_LANGS, "en")
    reads_store(d)
    d.set_defaults(func=cmd_diff)

    h = sub.add_parser("history", help="a rule through every version, following renumbering")
    h.add_argument("rule")
    version_option(h, "the version RULE is numbered in (default latest)")
    lang_option(h, params.TEXT_LANGS, "en")
    reads_store(h)
    h.set_defaults(func=cmd_history)
