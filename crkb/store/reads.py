"""Narrow indexed reads for pages and identification (never a whole Document per request).

Rows come back as plain tuples; the callers shape them. Every SQL outside db.py is here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from crkb.store.db import Store

ParaRow = tuple[str, str, str | None, str, list[str]]  # number, kind, title, text, examples
LinkRow = tuple[str, str, str, int]  # source, target, raw, dangling

_CHUNK = 500  # SQLite's parameter limit is far above; keeps each statement small


def _in(n: int) -> str:
    return ",".join("?" * n)


def _chunks(items: Sequence[str]) -> Iterator[list[str]]:
    for i in range(0, len(items), _CHUNK):
        yield list(items[i : i + _CHUNK])


def _paras(store: Store, doc: int, where: str, args: tuple[object, ...]) -> list[ParaRow]:
    rows = store.conn.execute(
        "SELECT number, kind, title, text, examples FROM rules WHERE doc=? AND "
        + where
        + " ORDER BY ord",
        (doc, *args),
    )
    return [(n, k, ti, t, json.loads(ex)) for n, k, ti, t, ex in rows]


def rule_row(store: Store, doc: int, number: str) -> list[ParaRow]:
    """The rule `number` (a list of at most one row; a doubled number gives the first)."""
    return _paras(store, doc, "number=?", (number,))


def heading_row(store: Store, doc: int, number: str) -> tuple[str, str, str | None, str] | None:
    """number, kind, title, text of the rule `number` (the first, if doubled), without examples:
    the one indexed query a kept rule column needs."""
    row = store.conn.execute(
        "SELECT number, kind, title, text FROM rules WHERE doc=? AND number=? ORDER BY ord LIMIT 1",
        (doc, number),
    ).fetchone()
    return None if row is None else (row[0], row[1], row[2], row[3])


def numbers(store: Store, doc: int) -> list[str]:
    """Every rule number of a document, in document order."""
    return [
        n
        for (n,) in store.conn.execute("SELECT number FROM rules WHERE doc=? ORDER BY ord", (doc,))
    ]


def child_rows(store: Store, doc: int, parent: str) -> list[ParaRow]:
    """The rules whose parent is `parent`, in document order."""
    return _paras(store, doc, "parent=?", (parent,))


def kind_rows(store: Store, doc: int, kind: str) -> list[ParaRow]:
    """Every chapter or every section of a text."""
    return _paras(store, doc, "kind=?", (kind,))


def keyword_rows(store: Store, doc: int, section: str) -> list[ParaRow]:
    """The rules (not subrules) of one section, e.g. 702."""
    return _paras(store, doc, "parent=? AND kind='rule'", (section,))


def titles(store: Store, doc: int, numbers: Sequence[str]) -> Iterator[tuple[str, str | None, str]]:
    """(number, title, text) of each of `numbers` that the text has."""
    for chunk in _chunks(numbers):
        yield from store.conn.execute(
            f"SELECT number, title, text FROM rules WHERE doc=? AND number IN ({_in(len(chunk))})",
            (doc, *chunk),
        )


def links_from(store: Store, doc: int, sources: Sequence[str]) -> Iterator[LinkRow]:
    """(source, target, raw, dangling) of every reference made by one of `sources`."""
    for chunk in _chunks(sources):
        yield from store.conn.execute(
            "SELECT source, target, raw, dangling FROM refs WHERE doc=? AND source IN"
            f" ({_in(len(chunk))})",
            (doc, *chunk),
        )


def glossary_links(store: Store, doc: int | None) -> Iterator[LinkRow]:
    """The references made by glossary entries (their source is `glossary:<term>`)."""
    yield from store.conn.execute(
        "SELECT source, target, raw, dangling FROM refs WHERE doc=? AND source LIKE 'glossary:%'",
        (doc,),
    )


def citing(store: Store, doc: int, target: str) -> set[str]:
    """Every rule or glossary entry that cites `target`."""
    return {
        r[0]
        for r in store.conn.execute(
            "SELECT source FROM refs WHERE doc=? AND target=?", (doc, target)
        )
    }


def glossary(store: Store, doc: int | None) -> list[tuple[str, str]]:
    """(term, text) of every glossary entry, in document order."""
    rows = store.conn.execute("SELECT term, text FROM glossary WHERE doc=? ORDER BY ord", (doc,))
    return [(term, text) for term, text in rows]


def documents(store: Store, lang: str) -> list[tuple[int, str]]:
    """(document id, version) of every text in `lang`, oldest first."""
    rows = store.conn.execute(
        "SELECT id, version FROM documents WHERE lang = ? ORDER BY version", (lang,)
    )
    return [(doc, version) for doc, version in rows]


def rule_texts(store: Store, doc: int) -> Iterator[tuple[str, str, str]]:
    """(number, kind, text) of every rule of a text, in document order."""
    yield from store.conn.execute(
        "SELECT number, kind, text FROM rules WHERE doc = ? ORDER BY ord", (doc,)
    )


def citation_pairs(store: Store, doc: int) -> Iterator[tuple[str, str]]:
    """The distinct (source, target) pairs of a text's references."""
    yield from store.conn.execute("SELECT DISTINCT source, target FROM refs WHERE doc = ?", (doc,))
