"""`crkb fetch`: download the official releases listed in the manifest."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from crkb import config, fetch
from crkb.cli.options import emit


def cmd_fetch(args: argparse.Namespace) -> int:
    manifest = (
        Path(args.manifest) if args.manifest else config.PROJECT_ROOT / "corpus" / "releases.json"
    )
    releases = fetch.load_manifest(manifest)
    dest = Path(args.dest) if args.dest else config.corpus_dirs()[0] / "en" / "txt"
    result: dict[str, Any]
    if args.latest:
        result = {"latest": fetch.check_latest(releases)}
    else:
        log = (lambda m: print(m, file=sys.stderr)) if not args.json else (lambda _m: None)
        result = fetch.fetch_all(releases, dest, progress=log).to_json()
        result["dest"] = str(dest)
    if args.json:
        emit(result)
    elif args.latest:
        lt = result["latest"]
        news = "newer than" if lt["newer"] else "not newer than"
        print(
            f"newest on the rules page: {lt['file_date']} ({lt['url']}), {news} the manifest's"
            f" newest ({lt['manifest_newest']})"
        )
    else:
        print(
            f"{len(result['downloaded'])} downloaded, {len(result['present'])} already present,"
            f" {len(result['no_url'])} without a known URL → {dest}"
        )
    return 0


def register(sub: Any) -> None:
    f = sub.add_parser("fetch", help="download the official English releases in the manifest")
    f.add_argument(
        "--manifest", help="releases manifest (default: the project's corpus/releases.json)"
    )
    f.add_argument("--dest", help="where to put the files (default: <first corpus dir>/en/txt)")
    f.add_argument(
        "--latest",
        action="store_true",
        help="only look for the newest release's link on the official rules page",
    )
    f.add_argument("--json", action="store_true")
    f.set_defaults(func=cmd_fetch)
