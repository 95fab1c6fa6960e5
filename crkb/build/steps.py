"""The build's steps after the store is written: term dictionary, lineage and diffs,
translation findings, search index.

Each step gets its inputs as arguments and writes beside the store in the build directory that
is about to be published (crkb.build.pipeline runs them in order), so a failing step fails the
whole build atomically.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from crkb.checks.translation import check
from crkb.diff.compare import diff_rules
from crkb.diff.history import Lineage, build_lineage, translation_numbers
from crkb.diff.lookup import TRANSLATION_NUMBERS
from crkb.graph.terms import build_dictionary, pair_glossaries, parse_terms_list
from crkb.model import OFFICIAL_FORMATS, Document
from crkb.search.index import build_index
from crkb.store import db
from crkb.store.location import INDEX_DIR, TERMS_FILE

Docs = Mapping[tuple[str, str], Document]  # (version, lang) → Document
Progress = Callable[[str], None]


def term_dictionary(docs: Docs, terms_texts: Iterable[str]) -> dict[str, str]:
    """English → Chinese game terms from every bilingual release (newest first) and terms lists
    (their texts, read by the build: a terms list may lie in a bundle)."""
    pair_lists = []
    for (vid, lang), zh in sorted(docs.items(), reverse=True):
        if lang == "zh" and (vid, "en") in docs:
            pair_lists.append(pair_glossaries(docs[(vid, "en")], zh))
    for text in terms_texts:
        pair_lists.append(parse_terms_list(text))
    return build_dictionary(pair_lists)


def write_terms(docs: Docs, terms_texts: Iterable[str], build_dir: Path) -> dict[str, str]:
    """The term dictionary, written beside the store (the index reads it) and into it."""
    terms = term_dictionary(docs, terms_texts)
    (build_dir / TERMS_FILE).write_text(json.dumps(terms, ensure_ascii=False, indent=0), "utf-8")
    with db.step_results(build_dir / db.DB_NAME) as conn:
        db.put_step_result(conn, "terms", terms)
    return terms


def official_documents(docs: Docs, lang: str) -> list[Document]:
    """One language's official releases (not partial copies), for lineage and diffs: an official
    file that lacks a chapter the releases around it hold is a partial copy too (followed, it
    would read as that chapter removed and added back)."""
    from crkb.sources.completeness import missing_chapters  # kept within this function

    partial = missing_chapters(docs)
    return [
        d
        for key, d in sorted(docs.items())
        if key[1] == lang and d.format in OFFICIAL_FORMATS and key not in partial
    ]


def write_lineage(docs: Docs, build_dir: Path, progress: Progress) -> dict[str, Lineage]:
    """Match every release to the next, per language; keep the maps and the neighbour diffs."""
    lineages: dict[str, Lineage] = {}
    with db.step_results(build_dir / db.DB_NAME) as conn:
        for lang in ("en", "zh"):
            chosen = official_documents(docs, lang)
            if not chosen:
                continue
            progress(f"lineage {lang}: {len(chosen)} releases")
            lineage = build_lineage(chosen)
            lineages[lang] = lineage
            db.put_step_result(
                conn,
                f"lineage:{lang}",
                {
                    "versions": lineage.versions,
                    "pairs": {f"{a}|{b}": m for (a, b), m in lineage.pairs.items()},
                },
            )
            by_version = {d.version: d for d in chosen}
            for (a, b), mapping in lineage.pairs.items():
                changes = diff_rules(by_version[a].rules, by_version[b].rules, mapping)
                db.put_step_result(conn, f"diff:{lang}:{a}:{b}", [c.to_json() for c in changes])
        if "en" in lineages:
            translated = sorted(v for v, lg in docs if lg == "zh")
            for vid, numbers in translation_numbers(lineages["en"], translated).items():
                db.put_step_result(conn, TRANSLATION_NUMBERS + vid, numbers)
    return lineages


def current_numbers(docs: Docs, lineages: Mapping[str, Lineage]) -> dict[tuple[str, str], str]:
    """(version, number) of each Chinese rule → its number in the newest English release."""
    en = lineages.get("en")
    out: dict[tuple[str, str], str] = {}
    if en is None:
        return out
    for (vid, lang), doc in docs.items():
        if lang != "zh" or vid not in en.texts or vid == en.versions[-1]:
            continue
        for r in doc.rules:
            if r.number in en.texts[vid]:
                now = en.locate(r.number, vid)
                if now and now != r.number:
                    out[(vid, r.number)] = now
    return out


def write_index(
    docs: Docs, terms: dict[str, str], lineages: Mapping[str, Lineage], build_dir: Path
) -> None:
    """The Whoosh index over every version, with the term dictionary it was built with."""
    build_index(
        build_dir / INDEX_DIR, list(docs.values()), terms, moves=current_numbers(docs, lineages)
    )


def write_findings(
    docs: Docs,
    terms: dict[str, str],
    lineages: Mapping[str, Lineage],
    build_dir: Path,
    progress: Progress,
) -> None:
    """Translation findings of every bilingual release, so pages can badge rules without waiting
    for a check to run. Stale translations follow the English lineage (moves are not changes)."""
    english = sorted((v, d) for (v, lg), d in docs.items() if lg == "en")
    line = lineages.get("en")
    known = set(line.versions) if line is not None else set()
    steps = line.pairs if line is not None else None
    with db.step_results(build_dir / db.DB_NAME) as conn:
        for (vid, lang), zh in sorted(docs.items()):
            if lang != "zh" or (vid, "en") not in docs:
                continue
            progress(f"checks: {vid}")
            later = [d for v, d in english if v > vid and (not known or v in known)]
            found = check(docs[(vid, "en")], zh, later_en=later, terms=terms or None, steps=steps)
            db.put_step_result(conn, f"findings:{vid}", [f.to_record() for f in found])
