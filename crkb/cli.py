"""The `crkb` command: a thin layer over the library; every expected failure is one line, exit 2."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from crkb import config
from crkb.errors import BadInput, CrkbError, NotFound

Handler = Callable[[argparse.Namespace], int]


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line instead of usage + traceback-ish noise."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(
            f"crkb: {message} (see `crkb {self.prog.split()[-1]} --help`)"
            if " " in self.prog
            else f"crkb: {message} (see `crkb --help`)",
            file=sys.stderr,
        )
        raise SystemExit(2)


def _emit(obj: object) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=2))


def _open_store(args: argparse.Namespace):
    from crkb.store.db import DB_NAME, Store
    from crkb.store.location import current_build

    data = Path(getattr(args, "data", None) or config.data_dir())
    return Store(current_build(data) / DB_NAME)


# build -------------------------------------------------------------------------------------------
def cmd_build(args: argparse.Namespace) -> int:
    from crkb.build import build
    from crkb.web.prerender import prerender

    corpus = [Path(p) for p in args.corpus] if args.corpus else config.corpus_dirs()
    data = Path(args.data) if args.data else config.data_dir()
    report = build(corpus, data, strict=args.strict)
    _count, report.steps["pages"] = prerender(data)  # the newest release's rule pages
    report.seconds += report.steps["pages"]
    for _path, reason in report.skipped:
        print(f"skipped: {reason}", file=sys.stderr)
    for _path, reason in report.flagged:
        print(f"flagged: {reason}", file=sys.stderr)
    for path, what in report.reported:
        print(f"recognised, not stored: {path}: {what}", file=sys.stderr)
    steps = ", ".join(f"{k} {v:.1f}s" for k, v in report.steps.items())
    print(
        f"built {report.versions} versions, {report.documents} documents in {report.seconds:.1f}s"
        f" ({steps}); {len(report.skipped)} file(s) skipped → {report.path}"
    )
    return 0


# versions ----------------------------------------------------------------------------------------
def cmd_versions(args: argparse.Namespace) -> int:
    store = _open_store(args)
    versions = [v.to_json() for v in store.versions()]
    if args.json:
        _emit({"versions": versions})
        return 0
    for v in versions:
        counts = " ".join(
            f"{lang}:{c['rules']}r/{c['subrules']}s/{c['glossary']}g"
            for lang, c in v["counts"].items()
        )
        aliases = f" (also {', '.join(v['aliases'])})" if v["aliases"] else ""
        flags = f"  [{', '.join(sorted(v['flags']))}]" if v["flags"] else ""
        print(f"{v['id']}{aliases}  {','.join(v['langs'])}  {counts}{flags}")
    return 0


# parse -------------------------------------------------------------------------------------------
def parse_json(result) -> dict:
    """The SPEC shape of `crkb parse --json`."""
    return {
        "format": result.format,
        "language": result.language,
        "garbled": result.garbled,
        "documents": [
            {
                "lang": d.lang,
                "version": d.version,
                "aliases": [d.alias] if d.alias else [],
                "title": d.title,
                "counts": d.counts(),
                "flags": d.flags,
                "rules": [
                    {
                        "number": r.number,
                        "kind": r.kind,
                        "title": r.title,
                        "text": r.text,
                        "examples": r.examples,
                        "parent": r.parent,
                    }
                    for r in d.rules
                ],
                "glossary": [{"term": g.term, "text": g.text} for g in d.glossary],
                "references": [
                    {
                        "from": x.source,
                        "to": x.target,
                        "raw": x.raw,
                        "title": x.title,
                        "dangling": x.dangling,
                        "stale": x.stale,
                    }
                    for x in d.references
                ],
                "warnings": d.warnings,
            }
            for d in result.documents
        ],
        "warnings": result.warnings,
    }


def cmd_parse(args: argparse.Namespace) -> int:
    from crkb.sources.reader import read_file

    path = Path(args.file)
    if not path.exists():
        raise BadInput(f"{path}: no such file")
    result = read_file(path)
    if args.json:
        _emit(parse_json(result))
        return 0
    if result.language:
        print(
            f"{path}: {result.format}; a rules text in {result.language} (recognised, not stored)"
        )
    if result.garbled:
        print(
            f"{path}: {result.format}; garbled copy (numbers and spaces lost):"
            " identify it by content"
        )
    if not result.documents:
        for w in result.warnings:
            print(w)
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


# show --------------------------------------------------------------------------------------------
def _rule_json(store, version: str, lang: str, number: str) -> dict:
    rule = store.rule(version, lang, number)
    if rule is None:
        raise NotFound(f"rule {number} does not exist in the {lang} text of {version}")
    return {
        "version": version,
        "lang": lang,
        "number": rule.number,
        "kind": rule.kind,
        "title": rule.title,
        "text": rule.text,
        "examples": rule.examples,
        "parent": rule.parent,
        "children": [
            {
                "number": c.number,
                "kind": c.kind,
                "title": c.title,
                "text": c.text,
                "examples": c.examples,
            }
            for c in store.children(version, lang, number)
        ],
        "references": [
            {
                "to": r.target,
                "raw": r.raw,
                "title": r.title,
                "dangling": r.dangling,
                "stale": r.stale,
            }
            for r in store.references_from(version, lang, number)
        ],
        "cited_by": sorted({r.source for r in store.references_to(version, lang, number)}),
    }


def _print_rule(d: dict) -> None:
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
    from crkb.numbers import normalise

    number = normalise(args.rule)
    if number is None:
        raise BadInput(f"{args.rule!r}: not a rule number (e.g. 901.3a, 702, 9)")
    store = _open_store(args)
    langs = ["en", "zh"] if args.lang == "both" else [args.lang]
    out = {}
    for lang in langs:
        try:
            version = store.resolve_version(args.version, lang)
            out[lang] = _rule_json(store, version, lang, number)
        except NotFound:
            if len(langs) == 1:
                raise
    if not out:
        raise NotFound(f"rule {number} not found in version {args.version or 'latest'}")
    if args.json:
        _emit(out[langs[0]] if len(langs) == 1 else out)
    else:
        for d in out.values():
            _print_rule(d)
    return 0


# wiring ------------------------------------------------------------------------------------------
def reads_store(p: argparse.ArgumentParser) -> None:
    """The options of every command that reads a build: JSON output and the data directory
    (hidden: `$CRKB_DATA` is the documented way)."""
    p.add_argument("--json", action="store_true")
    p.add_argument("--data", help=argparse.SUPPRESS)


def make_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="crkb", description="Comprehensive Rules knowledge base (English / 简体中文)")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    b = sub.add_parser(
        "build", help="ingest every document found; build store, index, derived data"
    )
    b.add_argument(
        "--corpus", action="append", help="corpus directory (repeatable); default $CRKB_CORPUS"
    )
    b.add_argument("--data", help="data directory; default $CRKB_DATA or ./instance")
    b.add_argument("--strict", action="store_true", help="fail on any file that cannot be used")
    b.set_defaults(func=cmd_build)

    v = sub.add_parser("versions", help="list every version")
    reads_store(v)
    v.set_defaults(func=cmd_versions)

    pa = sub.add_parser("parse", help="parse one document without touching the store")
    pa.add_argument("file")
    pa.add_argument("--json", action="store_true")
    pa.set_defaults(func=cmd_parse)

    s = sub.add_parser("show", help="one rule with its children, examples and references")
    s.add_argument("rule")
    s.add_argument("--version", help="version id, alias or latest")
    s.add_argument("--lang", choices=["en", "zh", "both"], default="en")
    reads_store(s)
    s.set_defaults(func=cmd_show)

    from crkb import cli_more

    cli_more.register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except CrkbError as e:
        print(f"crkb {args.command}: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print(f"crkb {args.command}: interrupted; nothing was changed", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
