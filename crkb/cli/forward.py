"""`crkb forward`: carry a Chinese translation to a later English release (handler + parser)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from crkb.carry.draft import draft_text, worklist, worklist_csv, worklist_md
from crkb.carry.release import forward
from crkb.cli.options import emit, open_store, reads_store, release
from crkb.errors import BadInput


def register(sub: Any) -> None:
    """Add the `forward` command to the CLI's subcommands."""
    f = sub.add_parser(
        "forward", help="carry the Chinese translation of a release to a later English release"
    )
    f.add_argument(
        "--zh", required=True, metavar="V", type=release, help="release with the Chinese text"
    )
    f.add_argument("--en", required=True, metavar="W", type=release, help="later English release")
    f.add_argument("--out", metavar="DIR", help="write <W>-zh-draft.txt, worklist.md, worklist.csv")
    reads_store(f)
    f.set_defaults(func=cmd_forward)


def write_outputs(out: Path, name: str, files: dict[str, str]) -> list[Path]:
    """Write the draft and worklists into `out` (created if missing)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BadInput(f"--out {out}: cannot create the directory: {e.strerror}") from None
    if not out.is_dir():
        raise BadInput(f"--out {out}: not a directory")
    written = []
    for fname, text in files.items():
        path = out / fname
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def cmd_forward(args: argparse.Namespace) -> int:
    store = open_store(args)
    c = forward(store, args.zh, args.en)
    if args.out:
        files = {
            f"{c.to_en}-zh-draft.txt": draft_text(c, store.document(c.from_zh, "zh")),
            "worklist.md": worklist_md(c),
            "worklist.csv": worklist_csv(c),
        }
        written = write_outputs(Path(args.out), c.to_en, files)
    else:
        written = []
    if args.json:
        emit(c.to_json())
        return 0
    print(f"Chinese {c.from_zh} → English {c.to_en}: {c.summary()}")
    for r in worklist(c):
        num = r.number or r.old_number or ""
        was = (
            f" (was {r.old_number})"
            if r.old_number and r.number and r.old_number != r.number
            else ""
        )
        print(f"{r.status:<8} {num}{was}{c.untranslated_note(r)}")
    for p in written:
        print(f"wrote {p}")
    return 0
