"""`crkb identify`: which release(s) a copied rules text comes from."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from crkb.cli.options import emit, open_store, reads_store
from crkb.corpus import file_bytes
from crkb.errors import BadInput
from crkb.sources.decode import NotText, decode


def cmd_identify(args: argparse.Namespace) -> int:
    from crkb.identify import identify_text  # scipy and rapidfuzz: loaded when needed

    path = Path(args.file)
    try:
        text = decode(file_bytes(path)).text
    except (OSError, NotText) as e:
        raise BadInput(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    result = identify_text(text, open_store(args), source=str(path))
    if args.json:
        emit(result)
        return 0
    vs = result["versions"]
    span = vs[0] if len(vs) == 1 else f"{vs[0]} … {vs[-1]} ({len(vs)} releases)"
    how = {
        "text": "rule texts",
        "fingerprint": "letters of rule texts",
        "structure": "rule numbers and cross-references",
    }[result["method"]]
    if result["garbled"]:
        how += " (garbled copy)"
    lang = result["language"] or result["lang"]
    n = result["rules_matched"]
    print(f"{path}: {lang} text fits {span}; {n} rule{'s' if n != 1 else ''} matched by {how}")
    if vs[-1] == result["latest"]:
        print("  current: fits the newest release")
    changed = result["changed_since"]
    print(
        f"  {len(changed)} of its rules differ or were renumbered in the newest release"
        f" ({result['latest']})"
    )
    for c in changed:
        print(f"    {_change_line(c)}")
    return 0


_HOW = {
    "changed": "text changed",
    "moved": "renumbered, same text",
    "moved_changed": "renumbered, text changed",
    "removed": "removed",
}


def _change_line(c: dict[str, Any]) -> str:
    """`903.11 → 903.11a (renumbered, same text; 903.11 is now another rule)`."""
    number = c["number"]
    head = number if c["number_now"] in (None, number) else f"{number} → {c['number_now']}"
    how = _HOW[c["kind"]]
    if c["number_reused"]:
        how += f"; {number} is now another rule"
    return f"{head} ({how})"


def register(sub: Any) -> None:
    i = sub.add_parser("identify", help="which release(s) a copied rules text comes from")
    i.add_argument("file")
    reads_store(i)
    i.set_defaults(func=cmd_identify)
