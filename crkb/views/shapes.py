"""The JSON shapes of SPEC.md, built once for both the CLI (`--json`) and the web API."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crkb.checks.store_findings import report
from crkb.diff.lookup import whereabouts
from crkb.errors import BadInput, NotFound
from crkb.model import ParseResult
from crkb.numbers import source_order
from crkb.store.db import Store
from crkb.views.params import langs, names_release

if TYPE_CHECKING:
    from crkb.search.engine import Searcher

Json = dict[str, Any]


def versions(store: Store) -> Json:
    """`{versions: [{id, aliases, langs, title, sources, counts, flags}]}`, oldest first."""
    return {"versions": [v.to_json() for v in store.versions()]}


def parsed(result: ParseResult) -> Json:
    """The shape of `crkb parse --json`."""
    return {
        "format": result.format,
        "language": result.language,
        "garbled": result.garbled,
        "documents": [
            {
                "lang": d.lang,
                "version": d.version,
                "aliases": [d.alias] if d.alias else [],
                "title": d.title,
                "counts": d.counts(),
                "flags": d.flags,
                "rules": [
                    {
                        "number": r.number,
                        "kind": r.kind,
                        "title": r.title,
                        "text": r.text,
                        "examples": r.examples,
                        "parent": r.parent,
                    }
                    for r in d.rules
                ],
                "glossary": [{"term": g.term, "text": g.text} for g in d.glossary],
                "references": [
                    {
                        "from": x.source,
                        "to": x.target,
                        "raw": x.raw,
                        "title": x.title,
                        "dangling": x.dangling,
                        "stale": x.stale,
                    }
                    for x in d.references
                ],
                "warnings": d.warnings,
            }
            for d in result.documents
        ],
        "warnings": result.warnings,
    }


def rule(store: Store, version: str, lang: str, number: str) -> Json:
    """One rule of one text with its children, outgoing references and who cites it."""
    found = store.rule(version, lang, number)
    if found is None:
        raise NotFound(f"rule {number} does not exist in the {lang} text of {version}")
    return {
        "version": version,
        "lang": lang,
        "number": found.number,
        "kind": found.kind,
        "title": found.title,
        "text": found.text,
        "examples": found.examples,
        "parent": found.parent,
        "children": [
            {
                "number": c.number,
                "kind": c.kind,
                "title": c.title,
                "text": c.text,
                "examples": c.examples,
            }
            for c in store.children(version, lang, number)
        ],
        "references": [
            {
                "to": r.target,
                "raw": r.raw,
                "title": r.title,
                "dangling": r.dangling,
                "stale": r.stale,
            }
            for r in store.references_from(version, lang, number)
        ],
        "cited_by": sorted(
            {r.source for r in store.references_to(version, lang, number)}, key=source_order
        ),
    }


def went(store: Store, number: str, version: str, lang: str) -> str:
    """Where the rule of a number `version` lacks went, as the end of a one-line error ("" when
    the lineage cannot say): a judge types the number of an old printout, or today's number in
    an old release, and reads the number to type instead, as the 404 page says it."""
    return _went_said(_whereabouts(store, number, version, lang), number, version)


def _whereabouts(store: Store, number: str, version: str, lang: str) -> Json | None:
    """`whereabouts`, None where the lineage cannot say."""
    try:
        return whereabouts(store, number, version, lang)
    except NotFound:
        return None


def _went_said(w: Json | None, number: str, version: str) -> str:
    """Whereabouts `w` of a number `version` lacks, as the end of a one-line error."""
    if not w:
        return ""
    if "held" in w:
        around = " and ".join(w["beside"])
        see = f"; it is in {around}" if around else ""
        return f" ({version} is a partial copy without chapter {number[:1]}{see})"
    if "later_version" in w:
        if w["then"]:
            return f" (a later number: that rule of {w['later_version']} is {w['then']} here)"
        return f" (a later number: that rule of {w['later_version']} was not in {version} yet)"
    if w["now"]:
        return f" (last numbered so in {w['last_version']}: the rule is {w['now']} here)"
    return f" (last in {w['last_version']}; the rule was removed after {w['until']})"


def rules(
    store: Store,
    number: str,
    choice: str,
    asked: str | None,
    resolve: Callable[[str], str],
) -> dict[str, Json]:
    """lang → the rule in each language `choice` names (en, zh or both). With both, a language
    that lacks the rule is left out; NotFound only when neither has it. `resolve(lang)`: the
    version asked for, in that language. With both, a release that has no translation is read
    beside the newest translation before it, as its rule page shows it (each rule names its
    version)."""
    wanted = langs(choice)
    out: dict[str, Json] = {}
    read: dict[str, str] = {}  # lang → the release read
    for lang in wanted:
        try:
            version = _beside_release(store, lang, read) if len(wanted) > 1 else None
            version = read[lang] = version or resolve(lang)
            n: str | None = number
            if lang == "zh" and "en" in read:  # the translation may number it otherwise
                n = _beside(store, number, read["en"], version)
            if n is not None:
                out[lang] = rule(store, version, lang, n)
        except NotFound as e:
            if e.versions or (len(wanted) == 1 and lang not in read):  # no such release
                raise
            if len(wanted) == 1:  # the release lacks the number: where its rule went
                raise NotFound(f"{e}{went(store, number, read[lang], lang)}") from None
    if not out:
        where = went(store, number, read["en"], "en") if "en" in read else ""
        raise NotFound(f"rule {number} not found in version {asked or 'latest'}{where}")
    if wanted == ["zh"] and not names_release(asked):
        newer = _newer_english(store, number, out["zh"]["version"])
        if newer:
            out["zh"]["newer_english"] = newer
    return out


def _newer_english(store: Store, number: str, translated: str) -> Json | None:
    """Where the newest English release, newer than the translation `translated`, numbers
    things otherwise: `{version, number: this rule's number there (None: removed), its_rule_here:
    the translation's number of that release's rule `number` (None: that release has no such
    rule, or it is not translated)}`. A judge cites today's numbers: 722.1 of a 2024
    translation is not 722.1 of 2025."""
    from crkb.diff.lookup import english_number, translated_number

    ids = store.version_ids("en")
    if not ids or ids[-1] <= translated:  # no English (a build of a translation alone)
        return None
    english = ids[-1]
    now = english_number(store, number, english)
    here = translated_number(store, number, english)
    if now == number and here == number:
        return None
    has = store.rule(english, "en", number) is not None
    return {"version": english, "number": now, "its_rule_here": here, "has_number": has}


def _beside_release(store: Store, lang: str, read: dict[str, str]) -> str | None:
    """The translation read beside the English release read, when that release has none of
    its own (None otherwise: the release asked for, as `resolve` gives it)."""
    if lang != "zh" or "en" not in read:
        return None
    english = read["en"]
    if english in store.version_ids(lang):
        return None
    return store.newest_text(english, lang)


def _beside(store: Store, number: str, english: str, translated: str) -> str | None:
    """The number, in the newest translation, of the newest English release's rule `number`:
    an older translation's release may number it otherwise, or lack it (None)."""
    if translated == english:
        return number
    from crkb.diff.lookup import translated_number  # the lineage's maps, as rule pages read them

    return translated_number(store, number, english)


def rules_answer(found: dict[str, Json], choice: str) -> Json:
    """What `show --json` and /api/rules answer: the rule itself, or `{en: …, zh: …}`."""
    wanted = langs(choice)
    return found[wanted[0]] if len(wanted) == 1 else found


def search(
    searcher: Searcher, q: str, lang: str, version: str | None, limit: int, *, other: bool = True
) -> Json:
    """`{query, lang, version, total, hits: [{number, version, lang, title, text, highlight,
    score}], did_you_mean}`; `other=False` leaves each hit's other-language text out (None).
    A query longer than the search reads is refused, by the CLI as by the API and the page,
    rather than searched cut short."""
    from crkb.search.planning import MAX_QUERY

    if len(q) > MAX_QUERY:
        raise BadInput(f"the query is too long (at most {MAX_QUERY} characters)")
    return searcher.search(q, lang=lang, version=version, limit=limit, other=other)


def change_kind(raw: str | None) -> str | None:
    """The kind of change a diff is narrowed to (None: every kind), or BadInput."""
    if not raw:
        return None
    from crkb.diff.compare import KINDS  # numpy and scipy: loaded by the diff alone

    if raw not in KINDS:
        raise BadInput(f"kind must be one of {', '.join(KINDS)}, not {raw[:40]!r}")
    return raw


def diff(store: Store, old: str, new: str, lang: str = "en") -> Json:
    """`{from, to, lang, summary, changes}` between any two versions."""
    from crkb.diff import lookup  # scipy and rapidfuzz: loaded by the commands that match

    return lookup.diff(store, old, new, lang=lang)


def history(
    store: Store, number: str, version: str | None, lang: str = "en", *, pinned: bool = True
) -> Json:
    """`{number, version, lang, history: [{version, number, text}]}` following renumbering.

    A number the release lacks: unless the release was asked for (`pinned`), the history of
    the rule the last release to number it so numbered so (a judge holds an old printout, and
    its `version` says which release that is); else NotFound saying where the rule went."""
    from crkb.diff import lookup

    try:
        return lookup.history(store, number, version, lang=lang)
    except NotFound as e:
        if e.versions:  # no such release
            raise
        vid = store.resolve_version(version, lang)
        w = _whereabouts(store, number, vid, lang)
        if not pinned and w and w.get("last_version"):
            return lookup.history(store, number, w["last_version"], lang=lang)
        raise NotFound(f"{e}{_went_said(w, number, vid)}") from None


def translation(
    store: Store,
    data: Path,
    version: str | None,
    *,
    kind: str | None = None,
    chapter: str | None = None,
    include_reviewed: bool = False,
) -> Json:
    """`{version, total, counts, findings}`: the findings of a bilingual release (open ones,
    unless `include_reviewed`), with the reviewers' marks kept in `data`."""
    return report(
        store, data, version, kind=kind, chapter=chapter, include_reviewed=include_reviewed
    )
