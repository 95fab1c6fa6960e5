"""Derived build steps, run after the store is written: term dictionary, search index, diffs.

Each step is `(name, function(assembly, build_dir, progress))`; it writes beside the store in the
build directory that is about to be published, so a failing step fails the whole build atomically.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from crkb.graph.terms import build_dictionary, pair_glossaries, parse_terms_list
from crkb.store import db

TERMS_FILE = "terms.json"


def term_dictionary(asm, build_dir: Path, progress) -> dict[str, str]:
    """English → Chinese game terms from every bilingual release (newest first) and terms lists."""
    pair_lists = []
    for (vid, lang), zh in sorted(asm.docs.items(), reverse=True):
        if lang == "zh" and (vid, "en") in asm.docs:
            pair_lists.append(pair_glossaries(asm.docs[(vid, "en")], zh))
    for text in asm.terms_texts:  # read by the build (a terms list may lie in a bundle)
        pair_lists.append(parse_terms_list(text))
    return build_dictionary(pair_lists)


def step_terms(asm, build_dir: Path, progress) -> None:
    terms = term_dictionary(asm, build_dir, progress)
    (build_dir / TERMS_FILE).write_text(json.dumps(terms, ensure_ascii=False, indent=0), "utf-8")
    conn = sqlite3.connect(build_dir / db.DB_NAME)
    with conn:
        db.put_derived(conn, "terms", terms)
    conn.close()


def official_documents(asm, lang: str) -> list:
    """One language's official releases (not partial copies), for lineage and diffs."""
    from crkb.build import OFFICIAL

    return [d for (_v, lg), d in sorted(asm.docs.items()) if lg == lang and d.format in OFFICIAL]


def step_lineage(asm, build_dir: Path, progress) -> None:
    """Match every release to the next, per language; keep the maps and the neighbour diffs."""
    from crkb.diff.compare import diff_rules
    from crkb.diff.history import build_lineage

    conn = sqlite3.connect(build_dir / db.DB_NAME)
    lineages = {}
    with conn:
        for lang in ("en", "zh"):
            docs = official_documents(asm, lang)
            if not docs:
                continue
            progress(f"lineage {lang}: {len(docs)} releases")
            lineage = build_lineage(docs)
            lineages[lang] = lineage
            db.put_derived(
                conn,
                f"lineage:{lang}",
                {
                    "versions": lineage.versions,
                    "pairs": {f"{a}|{b}": m for (a, b), m in lineage.pairs.items()},
                },
            )
            by_version = {d.version: d for d in docs}
            for (a, b), mapping in lineage.pairs.items():
                changes = diff_rules(by_version[a].rules, by_version[b].rules, mapping)
                db.put_derived(conn, f"diff:{lang}:{a}:{b}", [c.to_json() for c in changes])
    conn.close()
    asm.lineages = lineages


def current_numbers(asm) -> dict[tuple[str, str], str]:
    """(version, number) of each Chinese rule → its number in the newest English release."""
    en = getattr(asm, "lineages", {}).get("en")
    out: dict[tuple[str, str], str] = {}
    if en is None:
        return out
    for (vid, lang), doc in asm.docs.items():
        if lang != "zh" or vid not in en.texts or vid == en.versions[-1]:
            continue
        for r in doc.rules:
            if r.number in en.texts[vid]:
                now = en.locate(r.number, vid)
                if now and now != r.number:
                    out[(vid, r.number)] = now
    return out


def step_index(asm, build_dir: Path, progress) -> None:
    """The Whoosh index over every version, with the term dictionary it was built with."""
    from crkb.search.index import build_index

    terms = json.loads((build_dir / TERMS_FILE).read_text("utf-8"))
    build_index(build_dir / "index", list(asm.docs.values()), terms, moves=current_numbers(asm))


def step_checks(asm, build_dir: Path, progress) -> None:
    """Translation findings of every bilingual release, so pages can badge rules without waiting
    for a check to run."""
    from crkb.checks.translation import check

    terms = json.loads((build_dir / TERMS_FILE).read_text("utf-8")) or None
    english = sorted((v, d) for (v, lg), d in asm.docs.items() if lg == "en")
    conn = sqlite3.connect(build_dir / db.DB_NAME)
    with conn:
        for (vid, lang), zh in sorted(asm.docs.items()):
            if lang != "zh" or (vid, "en") not in asm.docs:
                continue
            progress(f"checks: {vid}")
            later = [d for v, d in english if v > vid]
            found = check(asm.docs[(vid, "en")], zh, later_en=later, terms=terms)
            db.put_derived(conn, f"findings:{vid}", [f.to_record() for f in found])
    conn.close()


STEPS = [
    ("terms", step_terms),
    ("lineage", step_lineage),
    ("checks", step_checks),
    ("index", step_index),
]
