"""Regenerate the expected parse of every parser fixture in tests/fixtures/parse.

Each fixture is an input (a small real snippet of the archive or a seed) beside
`<input>.expected.json`, what `crkb parse tests/fixtures/parse/<input> --json` prints.
`tests/test_parse_fixtures.py` compares the two; after a deliberate change to a parser:

    .venv/bin/python scripts/update_parse_fixtures.py          # rewrite every .expected.json
    git diff tests/fixtures/parse                              # read every change: it is the spec

`--cut` first re-cuts the inputs from the archive as `snippets.json` lists them (source file,
1-based line ranges, kept byte for byte: encoding, BOM and line endings as found; `render`
turns a Markdown snippet into the HTML that markdown-it-py makes of it). Run from the project root.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

from markdown_it import MarkdownIt

FIXTURES = Path("tests/fixtures/parse")
SNIPPETS = FIXTURES / "snippets.json"
EXPECTED = ".expected.json"
_BOMS = {b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}
_UTF8_BOM = b"\xef\xbb\xbf"


def inputs() -> list[Path]:
    """Every fixture input: the files of the folder but the expected outputs and the notes."""
    skip = {SNIPPETS.name, "README.md"}
    return sorted(
        p
        for p in FIXTURES.iterdir()
        if p.is_file() and not p.name.endswith(EXPECTED) and p.name not in skip
    )


def ranges(spec: str) -> list[int]:
    """ "1-3,7" → [1, 2, 3, 7] (1-based line numbers)."""
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def cut(data: bytes, numbers: list[int]) -> bytes:
    """The chosen lines of a file, each with its own line ending, in the file's own encoding."""
    if (enc := _BOMS.get(data[:2])) is not None:
        text = data[2:].decode(enc)
        parts = re.split(r"(\r\n|\r|\n)", text)
        lines = ["".join(parts[i : i + 2]) for i in range(0, len(parts), 2)]
        return data[:2] + "".join(lines[n - 1] for n in numbers if n <= len(lines)).encode(enc)
    bom = _UTF8_BOM if data.startswith(_UTF8_BOM) else b""
    raw = re.split(rb"(\r\n|\r|\n)", data[len(bom) :])
    blines = [b"".join(raw[i : i + 2]) for i in range(0, len(raw), 2)]
    return bom + b"".join(blines[n - 1] for n in numbers if n <= len(blines))


def cut_all() -> None:
    for snip in json.loads(SNIPPETS.read_text(encoding="utf-8")):
        data = cut(Path(snip["source"]).read_bytes(), ranges(snip["lines"]))
        if snip.get("render") == "markdown-it":
            page = MarkdownIt("commonmark", {"html": True}).render(data.decode("utf-8"))
            data = page.encode("utf-8")
        (FIXTURES / snip["name"]).write_bytes(data)
        print(f"cut {snip['name']} ({len(data)} bytes)")


def expected_of(path: Path) -> str:
    """What the CLI prints for this input (its one-line refusal, for a refused input)."""
    proc = subprocess.run(
        [sys.executable, "-m", "crkb", "parse", str(path), "--json"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    if proc.returncode != 0:
        return json.dumps({"exit": proc.returncode, "stderr": proc.stderr}, ensure_ascii=False)
    return proc.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cut", action="store_true", help="re-cut the inputs from the archive")
    args = parser.parse_args(argv)
    if args.cut:
        cut_all()
    for path in inputs():
        out = path.with_name(path.name + EXPECTED)
        out.write_text(expected_of(path), encoding="utf-8")
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
