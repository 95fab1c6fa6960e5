"""Derived build steps, run after the store is written: term dictionary, search index, diffs.

Each step is `(name, function(assembly, build_dir, progress))`; it writes beside the store in the
build directory that is about to be published, so a failing step fails the whole build atomically.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from crkb.graph.terms import build_dictionary, pair_glossaries, parse_terms_list
from crkb.sources.decode import decode
from crkb.store import db

TERMS_FILE = "terms.json"


def term_dictionary(asm, build_dir: Path, progress) -> dict[str, str]:
    """English → Chinese game terms from every bilingual release (newest first) and terms lists."""
    pair_lists = []
    for (vid, lang), zh in sorted(asm.docs.items(), reverse=True):
        if lang == "zh" and (vid, "en") in asm.docs:
            pair_lists.append(pair_glossaries(asm.docs[(vid, "en")], zh))
    for path in asm.terms_files:
        pair_lists.append(parse_terms_list(decode(Path(path).read_bytes()).text))
    return build_dictionary(pair_lists)


def step_terms(asm, build_dir: Path, progress) -> None:
    terms = term_dictionary(asm, build_dir, progress)
    (build_dir / TERMS_FILE).write_text(json.dumps(terms, ensure_ascii=False, indent=0), "utf-8")
    conn = sqlite3.connect(build_dir / db.DB_NAME)
    with conn:
        db.put_derived(conn, "terms", terms)
    conn.close()


STEPS = [("terms", step_terms)]
