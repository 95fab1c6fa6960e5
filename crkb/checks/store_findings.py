"""Translation findings for a release in a built store, with the reviewers' marks applied."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from crkb.checks.findings import Finding
from crkb.checks.review import ReviewFile
from crkb.errors import BadInput, NotFound, StoreError
from crkb.numbers import within
from crkb.store.db import Store

REVIEWS_FILE = "reviews.json"  # in the data directory, beside the builds: it survives rebuilds


def reviews_path(data: Path) -> Path:
    return data / REVIEWS_FILE


def findings(
    store: Store, version: str | None = None, *, keep: bool = True
) -> tuple[str, list[Finding]]:
    """(version id, every finding) for the Chinese text of a release against its English text.
    `keep`: held by the store for the next call (a translator pages through a report); not
    when the caller keeps what it makes of them instead (a rule page's badge counts)."""
    vid = store.resolve_version(version, "zh")
    if store.doc_id(vid, "en") is None:
        raise NotFound(f"version {vid} has no English text to check the translation against")
    key = f"findings:{vid}"
    if key in store.cache:
        return vid, cast("list[Finding]", store.cache[key])  # only this function fills the key
    stored = store.step_result(key)  # `crkb build` checks every bilingual release and stores it
    if not isinstance(stored, list):
        raise StoreError(f"{store.path}: no translation findings for {vid}; run `crkb build`")
    found = [Finding.from_record(r) for r in stored]
    if keep:
        store.cache[key] = found
    return vid, found


def finding_ids(store: Store, version: str | None) -> tuple[str, set[str]]:
    """(version id, the id of every finding of that release): what `crkb check --mark` may
    mark in it."""
    vid, found = findings(store, version, keep=False)
    return vid, {f.id for f in found}


def report(
    store: Store,
    data: Path,
    version: str | None = None,
    *,
    kind: str | None = None,
    chapter: str | None = None,
    include_reviewed: bool = False,
) -> dict[str, Any]:
    """`{version, findings: [...], counts}` filtered by kind and chapter; reviewed ones hidden."""
    from crkb.checks.translation import KINDS  # the checks themselves: loaded when asked

    if kind and kind not in KINDS:  # a typo would read as "no findings of that kind"
        raise BadInput(f"kind must be one of {', '.join(KINDS)}, not {kind[:40]!r}")
    vid, found = findings(store, version)
    reviews = ReviewFile(reviews_path(data))
    rows = []
    counts: dict[str, int] = {}  # of the findings listed, whatever their kind and chapter
    marked = 0
    for f in found:
        entry = reviews.entry(f.id, vid)
        marked += entry is not None
        if entry is not None and not include_reviewed:
            continue
        counts[f.kind] = counts.get(f.kind, 0) + 1
        if kind and f.kind != kind:
            continue
        if chapter and not within(f.rule, chapter):
            continue
        row = f.to_json()
        row["status"] = entry["status"] if entry else "open"
        if entry and entry.get("note"):
            row["note"] = entry["note"]
        rows.append(row)
    return {
        "version": vid,
        "total": len(found),
        "marked": marked,
        "counts": counts,
        "findings": rows,
    }


def open_counts(store: Store, reviews: ReviewFile, version: str) -> dict[str, int]:
    """Rule number → how many findings nobody has reviewed yet (the badge on rule pages). The
    findings' texts are not kept for it: a worker serving rule pages of every translated release
    held ~6 MB of them for counts it keeps anyway (crkb/web/state.py)."""
    try:
        vid, found = findings(store, version, keep=False)
    except NotFound:
        return {}
    counts: dict[str, int] = {}
    for f in found:
        if not reviews.status(f.id, vid):
            counts[f.rule] = counts.get(f.rule, 0) + 1
    return counts
