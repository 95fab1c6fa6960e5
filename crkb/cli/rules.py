"""`crkb versions`, `crkb parse` and `crkb show`: releases, one file, one rule."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from crkb.cli.options import emit, lang_option, open_store, reads_store, version_option
from crkb.errors import BadInput
from crkb.model import ParseResult
from crkb.sources.reader import read_file
from crkb.sources.script import TRADITIONAL
from crkb.store.db import Store
from crkb.views import params, shapes


def cmd_versions(args: argparse.Namespace) -> int:
    answer = shapes.versions(open_store(args))
    if args.json:
        emit(answer)
        return 0
    for v in answer["versions"]:
        counts = " ".join(
            f"{lang}:{c['rules']}r/{c['subrules']}s/{c['glossary']}g"
            for lang, c in v["counts"].items()
        )
        aliases = f" (also {', '.join(v['aliases'])})" if v["aliases"] else ""
        flags = f"  [{', '.join(sorted(v['flags']))}]" if v["flags"] else ""
        print(f"{v['id']}{aliases}  {','.join(v['langs'])}  {counts}{flags}")
        print(f"  from {', '.join(v['sources'])}")
    return 0


def cmd_parse(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.exists():
        raise BadInput(f"{path}: no such file")
    result = read_file(path)
    if not result.documents:
        raise BadInput(f"{path}: no rules read: {_why_no_rules(result, str(path))}")
    if args.json:
        emit(shapes.parsed(result))
        return 0
    for d in result.documents:
        c = d.counts()
        dangling = sum(r.dangling for r in d.references)
        stale = sum(r.stale for r in d.references)
        print(
            f"{path}: {d.format} {d.lang} version {d.version}"
            f"{' (alias ' + d.alias + ')' if d.alias else ''}: {c['sections']} sections,"
            f" {c['rules']} rules, {c['subrules']} subrules, {c['examples']} examples,"
            f" {c['glossary']} glossary entries; {len(d.references)} references"
            f" ({dangling} dangling, {stale} stale)"
        )
        for w in d.warnings:
            print(f"  warning: {w}")
    return 0


def _why_no_rules(result: ParseResult, path: str) -> str:
    """Why a file the reader recognised yields no rules documents (a garbled copy, a rules text
    in another language, a page of a rules site), in a few words."""
    if result.garbled:
        return (
            "a garbled copy (spaces and digits stripped by the copying site);"
            " `crkb identify` tells its release by its letters"
        )
    if result.language == TRADITIONAL:
        return (
            f"a rules text in {TRADITIONAL} (recognised, not stored: crkb keeps the translation"
            " in Simplified characters; convert it, e.g. with OpenCC's t2s, to read it)"
        )
    if result.language:
        return (
            f"a rules text in {result.language} (recognised, not stored:"
            " crkb reads English and Chinese)"
        )
    if result.warnings:  # the reader's verdict comes last
        return result.warnings[-1].removeprefix(f"{path}: ")
    return "no numbered rules found"


def _print_rule(d: shapes.Json) -> None:
    head = (
        f"{d['number']} {d['title']}"
        if d["kind"] in ("chapter", "section")
        else f"{d['number']} {d['text']}"
    )
    print(f"[{d['version']} {d['lang']}] {head}")
    for ex in d["examples"]:
        print(f"    Example: {ex}" if d["lang"] == "en" else f"    例如：{ex}")
    for c in d["children"]:
        print(f"  {c['number']} {c['text']}")
        for ex in c["examples"]:
            print(f"      Example: {ex}" if d["lang"] == "en" else f"      例如：{ex}")
    if d["references"]:
        print(
            "  refers to: "
            + ", ".join(
                r["to"]
                + (" (dangling)" if r["dangling"] else "")
                + (" (stale title)" if r["stale"] else "")
                for r in d["references"]
            )
        )
    if d["cited_by"]:
        print("  cited by: " + ", ".join(d["cited_by"]))


def cmd_show(args: argparse.Namespace) -> int:
    number = params.rule_number(args.rule)
    store = open_store(args)
    found = shapes.rules(
        store,
        number,
        args.lang,
        args.version,
        lambda lang: params.version(store, args.version, lang),
    )
    if args.json:
        emit(shapes.rules_answer(found, args.lang))
    else:
        for d in found.values():
            _print_rule(d)
        for d in found.values():
            if d.get("newer_english"):
                print(_renumbered_since(d))
        if args.lang == "both":  # the side left out is said, as the rule page says it
            for lang in ("en", "zh"):
                if lang not in found:
                    print(_not_beside(store, number, lang, next(iter(found.values()))["version"]))
    return 0


def _renumbered_since(d: shapes.Json) -> str:
    """The note under a translation's rule that the newest English release numbers otherwise."""
    newer = d["newer_english"]
    now = f"is {newer['number']}" if newer["number"] else "is no longer a rule"
    if not newer["has_number"]:
        there = f"it has no rule {d['number']}"
    elif newer["its_rule_here"]:
        there = f"its rule {d['number']} is {newer['its_rule_here']} in this translation"
    else:
        there = f"its rule {d['number']} is not in this translation"
    pairs = "; `--lang both` pairs them" if newer["has_number"] else ""
    return f"(this rule {now} in the newest English release, {newer['version']}; {there}{pairs})"


def _not_beside(store: Store, number: str, lang: str, shown: str) -> str:
    """The note for the language `show --lang both` lacks the rule in, beside release `shown`."""
    text = store.newest_text(shown, lang)
    if text is None:
        return f"({lang}: no text as of {shown})"
    return f"({lang}: rule {number} is not in the {text} text)"


def register(sub: Any) -> None:
    v = sub.add_parser("versions", help="list every version")
    reads_store(v)
    v.set_defaults(func=cmd_versions)

    pa = sub.add_parser("parse", help="parse one document without touching the store")
    pa.add_argument("file")
    pa.add_argument("--json", action="store_true")
    pa.set_defaults(func=cmd_parse)

    s = sub.add_parser("show", help="one rule with its children, examples and references")
    s.add_argument("rule")
    version_option(s, "version id, alias or latest")
    lang_option(s, params.SHOW_LANGS, "en")
    reads_store(s)
    s.set_defaults(func=cmd_show)
