"""`crkb check`: translation consistency findings, and the reviewers' verdicts on them."""

from __future__ import annotations

import argparse
import csv
import sys
from typing import Any

from crkb.checks.review import ReviewFile
from crkb.checks.store_findings import finding_ids, reviews_path
from crkb.cli.options import data_dir, emit, open_store, version_option
from crkb.errors import BadInput
from crkb.views import params, shapes


def cmd_check(args: argparse.Namespace) -> int:
    data = data_dir(args)
    if args.mark:
        return _mark(args)
    if args.note is not None:
        raise BadInput("--note: give it with --mark ID=STATUS (the verdict it explains)")
    result = shapes.translation(
        open_store(args),
        data,
        args.version,
        kind=args.kind,
        chapter=None if args.chapter is None else params.chapter_option(args.chapter),
        include_reviewed=args.all,
    )
    if args.json:
        emit(result)
    elif args.csv:
        w = csv.writer(sys.stdout)
        w.writerow(["id", "rule", "kind", "status", "detail", "en", "zh", "note"])
        for f in result["findings"]:
            row = [f["id"], f["rule"], f["kind"], f["status"], f["detail"], f["en"], f["zh"]]
            w.writerow([*row, f.get("note") or ""])
    else:
        shown = result["findings"]
        still = sum(1 for f in shown if f["status"] == "open")
        marked = f", {len(shown) - still} marked" if len(shown) > still else ""
        print(f"{result['version']}: {still} open findings{marked} of {result['total']}")
        for f in shown:
            note = f": {f['note']}" if f.get("note") else ""
            verdict = "" if f["status"] == "open" else f"  [{f['status']}{note}]"
            print(f"{f['id']}  {f['rule']:>8}  {f['kind']:<20} {f['detail']}{verdict}")
    return 0


def _mark(args: argparse.Namespace) -> int:
    """Record a verdict on a finding of one release (`--version`, default the newest
    translation); an id that release has no finding with (a typo, a stale copy) is refused,
    though one already marked may be set back to open."""
    fid, _, status = args.mark.partition("=")
    if status not in ("reviewed", "false_alarm", "open"):
        raise BadInput(f"--mark {args.mark!r}: expected ID=reviewed, ID=false_alarm or ID=open")
    reviews = ReviewFile(reviews_path(data_dir(args)))
    vid, ids = finding_ids(open_store(args), args.version)
    undone = status == "open" and reviews.unmark(fid, vid)
    if not undone and fid not in ids:
        raise BadInput(
            f"--mark {args.mark!r}: no finding has the id {fid!r} in {vid}"
            " (`crkb check --all --json` lists them; --version names another release)"
        )
    if status != "open":
        reviews.mark(fid, status, args.note or "", vid)
    reviews.save()
    print(f"{fid}: {status} in {vid}")
    return 0


def register(sub: Any) -> None:
    c = sub.add_parser("check", help="translation consistency findings for a Chinese release")
    version_option(c, "version id, alias or latest (default: newest translation)")
    c.add_argument("--kind", help="only findings of this kind")
    c.add_argument(
        "--chapter", help="only rules of this chapter, section or rule (e.g. 7, 702, 702.19)"
    )
    c.add_argument(
        "--all", action="store_true", help="include findings marked reviewed or false alarm"
    )
    c.add_argument(
        "--mark",
        metavar="ID=STATUS",
        help="mark a finding (its id) of the release --version names reviewed, false_alarm or open",
    )
    c.add_argument("--note", help="a note to keep with --mark")
    fmt = c.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument("--csv", action="store_true")
    c.add_argument("--data", help=argparse.SUPPRESS)
    c.set_defaults(func=cmd_check)
