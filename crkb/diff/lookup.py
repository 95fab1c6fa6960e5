"""Diffs and histories served from a built store: neighbour results were made by the build."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from cachetools import LRUCache

from crkb.diff.compare import diff_rules, diff_summary, summary
from crkb.diff.history import Lineage, mark_changes
from crkb.diff.partial import PARTIAL, Copy, chain_of, follow
from crkb.errors import NotFound
from crkb.model import Rule
from crkb.sources.completeness import chapters
from crkb.store.db import Store

DIFF_CACHE = 32  # computed diffs kept per process


class _VersionTexts(Mapping[str, str]):
    """One version's rule texts, read from the store a rule at a time (history needs few)."""

    def __init__(self, store: Store, version: str, lang: str):
        self.store, self.version, self.lang = store, version, lang

    def __getitem__(self, number: str) -> str:
        rule = self.store.rule(self.version, self.lang, number)
        if rule is None:
            raise KeyError(number)
        return rule.text

    def __contains__(self, number: object) -> bool:
        return (
            isinstance(number, str) and self.store.rule(self.version, self.lang, number) is not None
        )

    def __iter__(self) -> Iterator[str]:
        return iter(r.number for r in self.store.document(self.version, self.lang).rules)

    def __len__(self) -> int:
        return len(self.store.document(self.version, self.lang).rules)


class _Texts(Mapping[str, Mapping[str, str]]):
    def __init__(self, store: Store, versions: list[str], lang: str):
        self._v = {v: _VersionTexts(store, v, lang) for v in versions}

    def __getitem__(self, version: str) -> Mapping[str, str]:
        return self._v[version]

    def __iter__(self) -> Iterator[str]:
        return iter(self._v)

    def __len__(self) -> int:
        return len(self._v)


def lineage(store: Store, lang: str = "en") -> Lineage:
    """The lineage the build stored for a language (cached on the store)."""
    key = f"lineage:{lang}"
    if key not in store.cache:
        data = store.step_result(key)
        if not data:
            raise NotFound(f"no {lang} releases to follow a rule through")
        versions = data["versions"]
        pairs = {tuple(k.split("|", 1)): v for k, v in data["pairs"].items()}
        aliases = {}
        for info in store.versions():
            for a in info.aliases:
                aliases[a] = info.id
        # _Texts reads a release's rule texts from the store on first use: a lazy stand-in for
        # the dict of every release's texts that Lineage is typed with.
        store.cache[key] = Lineage(versions, _Texts(store, versions, lang), pairs, aliases)  # type: ignore[arg-type]
    line: Lineage = store.cache[key]
    return line


def history(
    store: Store, number: str, version: str | None = None, lang: str = "en"
) -> dict[str, Any]:
    """`{number, version, history: [{version, number, text}]}` following every renumbering.

    Partial copies (kept out of the lineage) are shown where they hold the rule, under the
    number the build matched it to there; asked for as `version`, one is followed through the
    official release beside it that holds the rule.
    """
    line = lineage(store, lang)
    vid = store.resolve_version(version, lang)
    if vid not in line.texts and store.rule(vid, lang, number) is None:
        raise NotFound(f"no rule {number} in version {vid}")

    def text(v: str, n: str) -> str | None:
        rule = store.rule(v, lang, n)
        return rule.text if rule is not None else None

    rows: list[dict[str, Any]] = [
        {"version": v, "number": n, "text": text(v, n)}
        for v, n in chain_of(line, copies(store, lang), number, vid)
    ]
    mark_changes(rows)
    return {"number": number, "history": rows, "version": vid, "lang": lang}


def whereabouts(store: Store, number: str, version: str, lang: str = "en") -> dict[str, Any] | None:
    """Where a number that `version` lacks went: the last release that had it, what the rule is
    numbered in `version` (`now`, None when it was removed) and the last release that still had
    the rule under any number (`until`). A number no earlier release had, but a later one has:
    the newest such release (`later_version`) and its rule's number in `version` (`then`).

    `version` may be a partial copy: the rule is followed into it as into any release, and when
    the copy lacks the number's whole chapter, `held` lists the chapters it holds and `beside`
    the official releases around it that have the number."""
    line = lineage(store, lang)
    matched = copies(store, lang)
    copy = matched.get(version)
    if copy is None and version not in line.versions:
        return None
    if copy is not None:
        held = sorted(chapters(store.document(version, lang)))
        if number[:1] not in held:
            around = (copy.before, copy.after)
            beside = [v for v in around if v and store.rule(v, lang, number) is not None]
            return {"number": number, "held": held, "beside": beside}
    for v in reversed([w for w in line.versions if w < version]):
        if store.rule(v, lang, number) is None:
            continue
        now = follow(line, matched, number, v, version)
        until = version if now else [w for w, _n in line.chain(number, v) if w < version][-1]
        return {"number": number, "last_version": v, "now": now, "until": until}
    # a number only later releases have: the newest of them (a reader most likely holds today's
    # number), and what that rule was numbered in `version` (None: not in it yet)
    for v in reversed([w for w in line.versions if w > version]):
        if store.rule(v, lang, number) is not None:
            then = follow(line, matched, number, v, version)
            return {"number": number, "later_version": v, "then": then}
    return None


TRANSLATION_NUMBERS = "zh-numbers:"  # + an English release: `history.translation_numbers`
TRANSLATION_CACHE = 16  # releases' maps kept per process (a few hundred numbers each)


def translated_number(store: Store, number: str, version: str) -> str | None:
    """The number, in the older translation that stands beside English release `version` (the
    newest one not newer), of the rule `number` of `version` (None: that translation's release
    lacks it), from the map the build kept: a rule page never loads the whole lineage."""
    numbers = _translation_map(store, version)
    if numbers is not None and number in numbers:
        return numbers[number]
    # not renumbered, or not a release the build mapped (a partial copy): the same number,
    # unless the English release lacks the rule, when nothing stands beside it whatever the
    # translation's own release numbered so (509.5 of a 2024 translation is 509.3 of 2025,
    # which has no 509.5)
    return None if _lacks_english(store, version, number) else number


def english_number(store: Store, number: str, version: str) -> str | None:
    """The number English release `version` gives the rule that the older translation read
    beside it numbers `number` (None: the English release no longer has that rule), from the
    same kept map as `translated_number`, read the other way: no lineage is loaded."""
    numbers = _translation_map(store, version)
    if numbers is None:  # not a release the build mapped (a partial copy): the same number
        return number
    for english, there in numbers.items():
        if there == number:
            return english
    if number in numbers or store.rule(version, "en", number) is None:
        return None  # the English number is another rule's, or no rule's: this one is gone
    return number


def _translation_map(store: Store, version: str) -> dict[str, str | None] | None:
    """The build's map for English release `version`: its numbers that the older translation
    beside it numbers otherwise (None: not a release the build mapped), kept per store."""
    cache: LRUCache[str, dict[str, str | None] | None] = store.cache.setdefault(
        "translation numbers", LRUCache(maxsize=TRANSLATION_CACHE)
    )
    if version not in cache:
        cache[version] = store.step_result(TRANSLATION_NUMBERS + version)
    return cache[version]


def _lacks_english(store: Store, version: str, number: str) -> bool:
    """True when English release `version` has its own text and no rule `number`."""
    return store.newest_text(version, "en") == version and store.rule(version, "en", number) is None


def number_in(store: Store, number: str, version: str, other: str) -> str | None:
    """The number the English rule `number` of `version` has in the release `other`, following
    renumbering (into and out of partial copies too): None when `other` does not hold that
    rule, `number` itself when the lineage cannot say (`version` lacks the number, or a partial
    copy was not matched by the build).

    Numbers are the English ones: a translation is numbered as the English text it translates,
    so this also says which rule of an older translation stands beside a newer English rule.
    """
    if version == other:
        return number
    try:
        line = lineage(store, "en")
    except NotFound:
        return number
    matched = copies(store, "en")
    if not all(v in line.texts or v in matched for v in (version, other)):
        return number
    if version in line.texts:
        lacks = number not in line.texts[version]
    else:
        lacks = store.rule(version, "en", number) is None
    if lacks:
        return number
    return follow(line, matched, number, version, other)


def copies(store: Store, lang: str = "en") -> dict[str, Copy]:
    """The partial copies of a language the build matched to the releases around them (cached
    on the store): version → `Copy`."""
    key = f"copies:{lang}"
    if key not in store.cache:
        known = set(lineage(store, lang).versions)
        found = {}
        for v in store.version_ids(lang):
            if v not in known and (data := store.step_result(f"{PARTIAL}{lang}:{v}")) is not None:
                found[v] = Copy.from_json(v, data)
        store.cache[key] = found
    matched: dict[str, Copy] = store.cache[key]
    return matched


def diff(store: Store, old: str, new: str, lang: str = "en") -> dict[str, Any]:
    """Changes between any two releases: stored for neighbours, computed (and cached) otherwise."""
    a = store.resolve_version(old, lang)
    b = store.resolve_version(new, lang)
    key = f"diff:{lang}:{a}:{b}"
    cache: LRUCache[str, list[dict[str, Any]]] = store.cache.setdefault(
        "diffs", LRUCache(maxsize=DIFF_CACHE)
    )
    found = cache.get(key)
    if found is None:
        found = store.step_result(key)
        if found is None:
            found = [c.to_json() for c in diff_rules(*_comparable(store, a, b, lang))]
        cache[key] = found
    # a pair that differs only where a copy lost characters is no change: counted, not listed
    return {
        "from": a,
        "to": b,
        "lang": lang,
        "summary": summary(found),
        "changes": [c for c in found if not c.get("lost_only")],
        "lost_only": [c["new_number"] for c in found if c.get("lost_only")],
    }


def _comparable(store: Store, a: str, b: str, lang: str) -> tuple[list[Rule], list[Rule]]:
    """Both releases' rules, within the chapters both hold when either is a partial copy: a
    chapter a copy lacks is not in it, not removed from the rules (nor added back after it)."""
    old, new = store.document(a, lang), store.document(b, lang)
    if not (old.flags.get("partial") or new.flags.get("partial")):
        return old.rules, new.rules
    both = chapters(old) & chapters(new)
    return [r for r in old.rules if r.number[0] in both], [
        r for r in new.rules if r.number[0] in both
    ]


__all__ = ["lineage", "history", "number_in", "whereabouts", "diff", "summary", "diff_summary"]
