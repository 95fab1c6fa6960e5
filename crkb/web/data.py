"""What a page shows, gathered with a few indexed queries (never a whole Document per request)."""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field

from crkb.errors import NotFound
from crkb.numbers import normalise, parent_of, sort_key
from crkb.store.db import Store
from crkb.web.render import Link, Terms, glossary_terms

LANGS = ("en", "zh")
LANG_NAMES = {"en": "English", "zh": "简体中文"}


@dataclass(slots=True)
class Para:
    """One numbered paragraph as a page shows it."""

    number: str
    kind: str
    title: str | None
    text: str
    examples: list[str]
    links: list[Link] = field(default_factory=list)


@dataclass(slots=True)
class Column:
    """One language's view of a rule: the rule, its children and who cites it."""

    lang: str
    version: str
    rule: Para
    children: list[Para]
    hover: dict[str, str]
    cited_by: list[str]
    terms: Terms | None


def rule_number(raw: str) -> str:
    """A rule number from a URL, or NotFound (path tricks included)."""
    number = normalise(raw) if len(raw) <= 16 else None
    if number is None:
        raise NotFound(f"{raw[:40]!r} is not a rule number (e.g. 702.2, 901.3a, 9)")
    return number


def version_for(store: Store, version: str, lang: str) -> str | None:
    """The newest `lang` text not newer than `version` (a translation can lag the English)."""
    ids = store.version_ids(lang)
    i = bisect.bisect_right(ids, version)
    return ids[i - 1] if i else None


def _paras(store: Store, doc: int, where: str, args: tuple) -> list[Para]:
    rows = store.conn.execute(
        "SELECT number, kind, title, text, examples FROM rules WHERE doc=? AND "
        + where
        + " ORDER BY ord",
        (doc, *args),
    )
    return [Para(n, k, ti, t, json.loads(ex)) for n, k, ti, t, ex in rows]


def _in(n: int) -> str:
    return ",".join("?" * n)


def hover_texts(store: Store, doc: int, numbers: set[str]) -> dict[str, str]:
    """number → "number text" for hover titles (chapters and sections by their title)."""
    from crkb.web.render import shorten

    out: dict[str, str] = {}
    nums = sorted(numbers)
    for i in range(0, len(nums), 500):
        chunk = nums[i : i + 500]
        for n, title, text in store.conn.execute(
            f"SELECT number, title, text FROM rules WHERE doc=? AND number IN ({_in(len(chunk))})",
            (doc, *chunk),
        ):
            out.setdefault(n, shorten(f"{n} {title or text}"))
    return out


def _links(store: Store, doc: int, sources: list[str]) -> dict[str, list[Link]]:
    by_source: dict[str, dict[str, Link]] = {}
    for i in range(0, len(sources), 500):
        chunk = sources[i : i + 500]
        for src, target, raw, dangling in store.conn.execute(
            "SELECT source, target, raw, dangling FROM refs WHERE doc=? AND source IN"
            f" ({_in(len(chunk))})",
            (doc, *chunk),
        ):
            link = by_source.setdefault(src, {}).setdefault(raw, Link(raw, [], False))
            if target not in link.targets:
                link.targets.append(target)
            link.dangling = link.dangling or bool(dangling)
    return {s: sorted(v.values(), key=lambda x: x.raw) for s, v in by_source.items()}


def column(
    store: Store, version: str, lang: str, number: str, terms: Terms | None
) -> Column | None:
    """The rule `number` in one language of one version, or None when that text lacks it."""
    doc = store.doc_id(version, lang)
    if doc is None:
        return None
    found = _paras(store, doc, "number=?", (number,))
    if not found:
        return None
    rule = found[0]
    children = _paras(store, doc, "parent=?", (number,))
    links = _links(store, doc, [rule.number] + [c.number for c in children])
    for p in [rule, *children]:
        p.links = links.get(p.number, [])
    targets = {t for p in [rule, *children] for link in p.links for t in link.targets}
    cited = sorted(
        {
            r[0]
            for r in store.conn.execute(
                "SELECT source FROM refs WHERE doc=? AND target=?", (doc, number)
            )
        },
        key=lambda s: (s.startswith("glossary:"), sort_key(s) if ":" not in s else (0,), s),
    )
    return Column(lang, version, rule, children, hover_texts(store, doc, targets), cited, terms)


def terms_for(store: Store, version: str, lang: str) -> Terms:
    """The glossary matcher of one text (callers memoise it per build)."""
    doc = store.doc_id(version, lang)
    rows = store.conn.execute("SELECT term, text FROM glossary WHERE doc=? ORDER BY ord", (doc,))
    return glossary_terms(rows.fetchall(), lang)


def glossary(store: Store, version: str, lang: str) -> list[tuple[str, str]]:
    doc = store.doc_id(version, lang)
    rows = store.conn.execute("SELECT term, text FROM glossary WHERE doc=? ORDER BY ord", (doc,))
    return rows.fetchall()


def glossary_links(store: Store, version: str, lang: str) -> dict[str, list[Link]]:
    """term → its references (glossary entries cite rules as `glossary:<term>`)."""
    doc = store.doc_id(version, lang)
    out: dict[str, dict[str, Link]] = {}
    for src, target, raw, dangling in store.conn.execute(
        "SELECT source, target, raw, dangling FROM refs WHERE doc=? AND source LIKE 'glossary:%'",
        (doc,),
    ):
        link = out.setdefault(src[9:], {}).setdefault(raw, Link(raw, [], False))
        if target not in link.targets:
            link.targets.append(target)
        link.dangling = link.dangling or bool(dangling)
    return {k: list(v.values()) for k, v in out.items()}


def breadcrumb(store: Store, version: str, lang: str, number: str) -> list[tuple[str, str]]:
    """(number, label) of every parent, chapter first."""
    chain = []
    p = parent_of(number)
    while p:
        chain.append(p)
        p = parent_of(p)
    doc = store.doc_id(version, lang)
    if doc is None or not chain:
        return []
    found = {
        n: (ti or t)
        for n, ti, t in store.conn.execute(
            f"SELECT number, title, text FROM rules WHERE doc=? AND number IN ({_in(len(chain))})",
            (doc, *chain),
        )
    }
    return [(n, found.get(n, "")) for n in reversed(chain)]


def nearest(store: Store, version: str, lang: str, number: str, limit: int = 8) -> list[Para]:
    """Rules close to a number that is not there: its siblings or its parent's neighbours."""
    doc = store.doc_id(version, lang)
    if doc is None:
        return []
    p = number
    while p:
        p = parent_of(p)
        if p is None:
            break
        rows = _paras(store, doc, "parent=?", (p,)) or _paras(store, doc, "number=?", (p,))
        if rows:
            key = sort_key(number)
            rows.sort(key=lambda r: abs(_distance(sort_key(r.number), key)))
            return sorted(rows[:limit], key=lambda r: sort_key(r.number))
    return _paras(store, doc, "kind='chapter'", ())


def _distance(a: tuple, b: tuple) -> int:
    return sum((x - y) * 1000 ** (3 - i) for i, (x, y) in enumerate(zip(a, b, strict=True)))


def chapters(store: Store, version: str, lang: str) -> list[Para]:
    doc = store.doc_id(version, lang)
    return [] if doc is None else _paras(store, doc, "kind='chapter'", ())


def sections(store: Store, version: str, lang: str) -> list[Para]:
    doc = store.doc_id(version, lang)
    return [] if doc is None else _paras(store, doc, "kind='section'", ())


def keyword_rules(store: Store, version: str, lang: str, section: str) -> list[Para]:
    """The rules of 701 (keyword actions) or 702 (keyword abilities)."""
    doc = store.doc_id(version, lang)
    return [] if doc is None else _paras(store, doc, "parent=? AND kind='rule'", (section,))
