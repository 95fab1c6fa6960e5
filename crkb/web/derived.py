"""Diffs, histories and translation checks for the web: the same stored results the CLI prints."""

from __future__ import annotations

from flask import g

from crkb.diff.compare import KINDS
from crkb.store.db import Store
from crkb.web.serving import served

__all__ = ["KINDS", "diff", "history", "translation"]


def diff(store: Store, a: str, b: str, lang: str = "en") -> dict:
    """`{from, to, lang, summary, changes}` between any two versions."""
    from crkb.diff.stored import diff as stored_diff

    return stored_diff(store, a, b, lang=lang)


def history(store: Store, number: str, version: str | None, lang: str = "en") -> dict:
    """`{number, version, lang, history: [{version, number, text}]}` following renumbering."""
    from crkb.diff.stored import history as stored_history

    return stored_history(store, number, version, lang=lang)


def scope(raw: str | None) -> str | None:
    """The `chapter` filter of the translation findings: a chapter, section or rule number."""
    from crkb.web.data import rule_number

    return rule_number(raw) if raw else None


def translation(
    store: Store, version: str | None, kind: str | None = None, chapter: str | None = None
) -> dict:
    """`{version, total, counts, findings}`: open findings of a bilingual release."""
    from crkb.checks.store_findings import report

    g.no_cache = True  # reviewers mark findings between builds
    return report(store, served().data, version, kind=kind, chapter=chapter)
