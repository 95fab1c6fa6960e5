"""`crkb export DIR [--version V] [--lang en,zh]`: the offline pack of the current build."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from crkb.cli.options import data_dir, open_store, version_option


def cmd_export(args: argparse.Namespace) -> int:
    """Write the pack and print one summary line (progress on stderr)."""
    from crkb.export.pack import export, parse_langs

    langs = parse_langs(args.lang) if args.lang is not None else None
    data = data_dir(args)
    summary = export(
        data,
        Path(args.dir),
        version=args.version,
        langs=langs,
        progress=lambda m: print(f"export: {m} …", file=sys.stderr, flush=True),
    )
    asked = open_store(args).resolve_version(args.version) if args.version else None
    if asked is not None and summary.release != asked:  # a Chinese pack of an English release
        print(
            f"note: {asked} has no Chinese text of its own; the pack holds the translation of"
            f" {summary.release}, the newest before it",
            file=sys.stderr,
        )
    versions = ", ".join(f"{lang} {v}" for lang, v in summary.versions.items())
    print(
        f"pack of {summary.release} ({versions}): {summary.files} files,"
        f" {summary.bytes / 1e6:.1f} MB in {summary.seconds:.1f}s → {summary.dest}"
    )
    return 0


def register(sub: Any) -> None:
    """Add the `export` command to the `crkb` parser."""
    p = sub.add_parser("export", help="write the offline pack (a static site) of the current build")
    p.add_argument("dir", help="folder to write (new, empty, or an earlier pack)")
    version_option(p, "release id, alias or latest (default: the newest)")
    p.add_argument(
        "--lang",
        help="languages: en,zh (default; zh left out before the first translation), en, zh",
    )
    p.add_argument("--data", help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_export)
