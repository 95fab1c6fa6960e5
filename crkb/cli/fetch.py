"""`crkb fetch`: download the official releases listed in the manifest."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from crkb import bundle, config, fetch
from crkb.cli.options import emit
from crkb.errors import CrkbError


def bundled_checksums(archive: Path) -> set[str]:
    """The sha256 of every file in the bundled archive's manifest (none when it is not there)."""
    try:
        return {str(m["sha256"]) for m in bundle.load_manifest(archive)["members"]}
    except CrkbError:
        return set()


def cmd_fetch(args: argparse.Namespace) -> int:
    manifest = (
        Path(args.manifest) if args.manifest else config.PROJECT_ROOT / "corpus" / "releases.json"
    )
    releases = fetch.load_manifest(manifest)
    dest = Path(args.dest) if args.dest else config.user_corpus() / "en" / "txt"
    result: dict[str, Any]
    if args.latest:
        result = {"latest": fetch.check_latest(releases)}
    else:
        log = (lambda m: print(m, file=sys.stderr)) if not args.json else (lambda _m: None)
        have = bundled_checksums(config.bundled_corpus() / "archive.tar.xz")
        result = fetch.fetch_all(releases, dest, progress=log, bundled=have).to_json()
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
            f" {len(result['bundled'])} in the bundled archive,"
            f" {len(result['no_url'])} without a known URL → {dest}"
        )
    return 0


def register(sub: Any) -> None:
    f = sub.add_parser("fetch", help="download the official English releases in the manifest")
    f.add_argument(
        "--manifest", help="releases manifest (default: the project's corpus/releases.json)"
    )
    f.add_argument(
        "--dest",
        help="where to put the files (default: $CRKB_USER_CORPUS/en/txt, layered over the bundle)",
    )
    f.add_argument(
        "--latest",
        action="store_true",
        help="only look for the newest release's link on the official rules page",
    )
    f.add_argument("--json", action="store_true")
    f.set_defaults(func=cmd_fetch)
