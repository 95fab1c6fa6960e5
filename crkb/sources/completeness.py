"""Whether a copy holds its whole release: the chapters releases on both sides of it hold.

A copy that lacks a whole chapter (the 2021-09-24 DokuWiki pages have no chapter 4) is a
partial copy, whatever its shape: followed as a release, it would read as that chapter removed
and, a release later, added back. Chapters are only ever added, so a chapter that some release
before a copy and some release after it both hold belongs in the copy too. Rules of both
languages count: a translation is numbered as the English text it translates. The newest and
the oldest releases have no releases on one side and are never judged partial here.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping

from crkb.model import Document

Key = tuple[str, str]  # (version, lang)


def chapters(doc: Document) -> frozenset[str]:
    """The chapters a document holds rules of (`7` for 702.19b)."""
    return frozenset(r.number[0] for r in doc.rules if r.number[:1].isdigit())


def missing_chapters(docs: Mapping[Key, Document]) -> dict[Key, list[str]]:
    """The documents that lack a chapter held before and after them: (version, lang) → the
    chapters they lack, in order. Documents with no rules (a glossary alone) are not judged."""
    held = {key: chapters(doc) for key, doc in docs.items()}
    by_chapter: dict[str, list[str]] = {}
    for (version, _lang), found in held.items():
        for ch in found:
            by_chapter.setdefault(ch, []).append(version)
    for versions in by_chapter.values():
        versions.sort()
    out: dict[Key, list[str]] = {}
    for key, found in held.items():
        if not found:
            continue
        lacking = [
            ch for ch, vs in sorted(by_chapter.items()) if ch not in found and _around(vs, key[0])
        ]
        if lacking:
            out[key] = lacking
    return out


def _around(versions: list[str], version: str) -> bool:
    """Whether sorted `versions` hold one release before `version` and one after it."""
    return bisect_left(versions, version) > 0 and bisect_right(versions, version) < len(versions)
