"""What a page shows, gathered with a few indexed queries (never a whole Document per request)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crkb.numbers import parent_of, sort_key, source_order
from crkb.store import reads
from crkb.store.db import Store
from crkb.views.params import TEXT_LANGS
from crkb.web.render import Link, Terms, glossary_terms, shorten

LANGS = TEXT_LANGS
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


def _paras(rows: list[reads.ParaRow]) -> list[Para]:
    return [Para(n, k, ti, t, ex) for n, k, ti, t, ex in rows]


def hover_texts(store: Store, doc: int, numbers: set[str]) -> dict[str, str]:
    """number → "number text" for hover titles (chapters and sections by their title)."""
    out: dict[str, str] = {}
    for n, title, text in reads.titles(store, doc, sorted(numbers)):
        out.setdefault(n, shorten(f"{n} {title or text}"))
    return out


def _links(store: Store, doc: int, sources: list[str]) -> dict[str, list[Link]]:
    by_source: dict[str, dict[str, Link]] = {}
    for src, target, raw, dangling in reads.links_from(store, doc, sources):
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
    found = _paras(reads.rule_row(store, doc, number))
    if not found:
        return None
    rule = found[0]
    children = _paras(reads.child_rows(store, doc, number))
    links = _links(store, doc, [rule.number] + [c.number for c in children])
    for p in [rule, *children]:
        p.links = links.get(p.number, [])
    targets = {t for p in [rule, *children] for link in p.links for t in link.targets}
    cited = sorted(reads.citing(store, doc, number), key=source_order)
    return Column(lang, version, rule, children, hover_texts(store, doc, targets), cited, terms)


def terms_for(store: Store, version: str, lang: str) -> Terms:
    """The glossary matcher of one text (callers memoise it per build)."""
    return glossary_terms(reads.glossary(store, store.doc_id(version, lang)), lang)


def glossary(store: Store, version: str, lang: str) -> list[tuple[str, str]]:
    return reads.glossary(store, store.doc_id(version, lang))


def glossary_links(store: Store, version: str, lang: str) -> dict[str, list[Link]]:
    """term → its references (glossary entries cite rules as `glossary:<term>`)."""
    doc = store.doc_id(version, lang)
    out: dict[str, dict[str, Link]] = {}
    for src, target, raw, dangling in reads.glossary_links(store, doc):
        link = out.setdefault(src[9:], {}).setdefault(raw, Link(raw, [], False))
        if target not in link.targets:
            link.targets.append(target)
        link.dangling = link.dangling or bool(dangling)
    return {k: list(v.values()) for k, v in out.items()}


def breadcrumb(store: Store, version: str, lang: str, number: str) -> list[tuple[str, str]]:
    """(number, label) of every parent, chapter first."""
    chain: list[str] = []
    p = parent_of(number)
    while p:
        chain.append(p)
        p = parent_of(p)
    doc = store.doc_id(version, lang)
    if doc is None or not chain:
        return []
    found = {n: (ti or t) for n, ti, t in reads.titles(store, doc, chain)}
    return [(n, found.get(n, "")) for n in reversed(chain)]


def nearest(store: Store, version: str, lang: str, number: str, limit: int = 8) -> list[Para]:
    """Rules close to a number that is not there: its siblings or its parent's neighbours."""
    doc = store.doc_id(version, lang)
    if doc is None:
        return []
    p: str | None = number
    while p:
        p = parent_of(p)
        if p is None:
            break
        rows = _paras(reads.child_rows(store, doc, p) or reads.rule_row(store, doc, p))
        if rows:
            key = sort_key(number)
            rows.sort(key=lambda r: abs(_distance(sort_key(r.number), key)))
            return sorted(rows[:limit], key=lambda r: sort_key(r.number))
    return _paras(reads.kind_rows(store, doc, "chapter"))


def _distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return sum((x - y) * 1000 ** (3 - i) for i, (x, y) in enumerate(zip(a, b, strict=True)))


def chapters(store: Store, version: str, lang: str) -> list[Para]:
    doc = store.doc_id(version, lang)
    return [] if doc is None else _paras(reads.kind_rows(store, doc, "chapter"))


def sections(store: Store, version: str, lang: str) -> list[Para]:
    doc = store.doc_id(version, lang)
    return [] if doc is None else _paras(reads.kind_rows(store, doc, "section"))


KEYWORD_SECTIONS = ("701", "702")  # keyword actions, keyword abilities (since 2009-07-11)


def keyword_sections(store: Store, version: str | None) -> tuple[str, ...]:
    """The sections of an English release titled Keyword Actions and Keyword Abilities: 701 and
    702 since the rules were renumbered in 2009, 501 and 502 before (1999 had only 502)."""
    if version is None:
        return KEYWORD_SECTIONS
    found = tuple(
        s.number
        for chapter in ("5", "7")
        for s in store.children(version, "en", chapter)
        if (s.title or "").lower().startswith("keyword")
    )
    return found or KEYWORD_SECTIONS


def keyword_rules(store: Store, version: str, lang: str, section: str) -> list[Para]:
    """The keywords of 701 (keyword actions) or 702 (keyword abilities): their rules but the
    general ones that open the section (702.1 "Most abilities describe …"), which are
    sentences where a keyword's rule has a name (Deathtouch; For Mirrodin! is read as text)."""
    doc = store.doc_id(version, lang)
    if doc is None:
        return []
    return [p for p in _paras(reads.keyword_rows(store, doc, section)) if _names_a_keyword(p)]


def _names_a_keyword(p: Para) -> bool:
    return bool(p.title) or (len(p.text) <= KEYWORD_NAME and not p.text.endswith((".", "。")))


KEYWORD_NAME = 40  # the longest a keyword's name runs (Start Your Engines!: 19)


@dataclass(slots=True)
class Run:
    """Releases in a row that hold a rule with the same number and text (newest first)."""

    number: str
    text: str | None  # as the run's first release wrote it: where its change took effect
    versions: list[str]  # newest first
    change: str = ""  # from the run before it: "renumbered", "text changed" or both ("": first)

    @property
    def since(self) -> str:
        """The release the run starts at: where its change took effect."""
        return self.versions[-1]


def history_runs(rows: list[dict[str, Any]]) -> list[Run]:
    """A rule's history (oldest first) as runs of unchanged releases, newest first: on a phone
    the ~120 releases of an old rule read as the dozen times it changed. A release is unchanged
    as the history says (`text_changed`): a copy that only lost characters, or wrote ’ as ',
    stays in its run."""
    runs: list[Run] = []
    older: dict[str, Any] | None = None
    for row in rows:
        number, text, version = str(row["number"]), row["text"], str(row["version"])
        if runs and older is not None and runs[-1].number == number and not row["text_changed"]:
            runs[-1].versions.insert(0, version)
        else:
            said = [] if older is None else ["renumbered"] if older["number"] != number else []
            if older is not None and row["text_changed"]:
                said.append("text changed")
            runs.append(Run(number, text, [version], ", ".join(said)))
        older = row
    return runs[::-1]
