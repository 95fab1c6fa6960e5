"""(Re)make the bundled archive, corpus/archive.tar.xz and its manifest corpus/archive.json, from a
corpus folder laid out as the archive is (en/txt/YYYY-MM-DD.txt, zh/…; see corpus/README.md).

    .venv/bin/python scripts/make_bundle.py ../shared/corpus

The same files always give the same bytes (sorted members, fixed times and modes), so remaking the
bundle from an unchanged folder changes nothing in git. The folder's MANIFEST.json, when there,
gives each member's public source.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crkb import bundle  # noqa: E402  (the project's own module, run from a checkout)
from crkb.errors import CrkbError  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", type=Path, help="the corpus folder to bundle")
    ap.add_argument(
        "--out",
        type=Path,
        default=ROOT / "corpus" / "archive.tar.xz",
        help="the archive to write (default: corpus/archive.tar.xz; its manifest goes beside it)",
    )
    args = ap.parse_args(argv)
    try:
        sources: dict[str, str] = {}
        listed = args.source / "MANIFEST.json"
        if listed.is_file():
            sources = bundle.sources_from(json.loads(listed.read_text("utf-8")))
        t = time.perf_counter()
        manifest = bundle.make(args.source, args.out, sources)
        made = time.perf_counter() - t
        t = time.perf_counter()
        members = bundle.read(args.out)
        check = time.perf_counter() - t
    except CrkbError as e:
        print(f"make_bundle: {e}", file=sys.stderr)
        return 2
    a = manifest["archive"]
    print(
        f"{args.out}: {len(members)} files, {a['unpacked_bytes']:,} bytes → {a['bytes']:,} bytes"
        f" (sha256 {a['sha256'][:12]}…) in {made:.0f}s; read back and verified in {check:.2f}s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
