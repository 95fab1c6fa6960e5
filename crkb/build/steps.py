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
from crkb.diff.partial import PARTIAL, Copy, copy_translation_numbers, follow, match_copies
from crkb.graph.terms import build_dictionary, pair_glossaries, parse_terms_list
from crkb.model import OFFICIAL_FORMATS, Document
from crkb.search.index import GONE, build_index
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


def partial_copies(docs: Docs, official: Iterable[Document], lang: str) -> list[Document]:
    """One language's documents kept out of its lineage (`official`): the partial copies."""
    known = {d.version for d in official}
    return [d for (v, lg), d in sorted(docs.items()) if lg == lang and v not in known]


def write_lineage(
    docs: Docs, build_dir: Path, progress: Progress
) -> tuple[dict[str, Lineage], dict[str, dict[str, Copy]]]:
    """Match every release to the next, per language; keep the maps and the neighbour diffs;
    match each partial copy to the releases around it (crkb.diff.partial)."""
    lineages: dict[str, Lineage] = {}
    matched: dict[str, dict[str, Copy]] = {}
    with db.step_results(build_dir / db.DB_NAME) as conn:
        for lang in ("en", "zh"):
            chosen = official_documents(docs, lang)
            if not chosen:
                continue
            progress(f"lineage {lang}: {len(chosen)} releases")
            lineage = build_lineage(chosen)
            lineages[lang] = lineage
            matched[lang] = match_copies(chosen, partial_copies(docs, chosen, lang))
            for vid, copy in matched[lang].items():
                db.put_step_result(conn, f"{PARTIAL}{lang}:{vid}", copy.to_json())
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
            numbers = translation_numbers(lineages["en"], translated)
            numbers.update(copy_translation_numbers(lineages["en"], matched["en"], translated))
            for vid, found in numbers.items():
                db.put_step_result(conn, TRANSLATION_NUMBERS + vid, found)
    return lineages, matched


def current_numbers(
    docs: Docs, lineages: Mapping[str, Lineage], copies: Mapping[str, Copy] | None = None
) -> dict[tuple[str, str], str]:
    """(version, number) of each Chinese rule → its number in the newest English release, or
    `GONE` when that release no longer has it: a judge reading an older translation must know
    (`copies`: the English partial copies, matched to the releases around them)."""
    en = lineages.get("en")
    out: dict[tuple[str, str], str] = {}
    if en is None:
        return out
    matched = copies or {}
    latest = en.versions[-1]
    for (vid, lang), doc in docs.items():
        if lang != "zh" or vid == latest:
            continue
        if vid in en.texts:
            held: Iterable[str] = en.texts[vid]
        elif vid in matched and (vid, "en") in docs:
            held = docs[(vid, "en")].rule_map()
        else:
            continue
        for r in doc.rules:
            if r.number in held:
                now = follow(en, matched, r.number, vid, latest)
                if now != r.number:
                    out[(vid, r.number)] = now or GONE
    return out


def write_index(
    docs: Docs,
    terms: dict[str, str],
    lineages: Mapping[str, Lineage],
    build_dir: Path,
    copies: Mapping[str, Copy] | None = None,
    *,
    aliases: Mapping[str, str] | None = None,
) -> None:
    """The Whoosh index over every version, with the term dictionary it was built with;
    `aliases`: every alias of a release the store knows (a second copy's date among them)."""
    moves = current_numbers(docs, lineages, copies)
    build_index(build_dir / INDEX_DIR, list(docs.values()), terms, moves=moves, aliases=aliases)


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
