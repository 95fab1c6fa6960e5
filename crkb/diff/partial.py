"""Partial copies beside the lineage: each matched to the official releases on both sides of it.

A partial copy (a release lacking a chapter the releases around it hold, such as the 2021-09-24
DokuWiki pages without chapter 4) stays out of the lineage: followed, it would read as that
chapter removed and added back. It is still a release of its own, numbered as the publisher
numbered it then, which need not be as either neighbour numbers it (502.3 of 2021-07-23 is 502.4
in the copy, as in 2021-11-19; 701.5 of the copy is 701.6 today). So the build matches the copy
to the official release before it (`into`: a number there → the copy's) and to the one after it
(`out`: a copy's number → the number there), within the chapters both hold, and a rule is
followed into and out of a copy as through any release.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crkb.diff.history import Lineage
from crkb.diff.match import match_rules
from crkb.model import Document, Rule
from crkb.sources.completeness import chapters

PARTIAL = "partial:"  # + lang + ":" + a copy's version: its matches (`Copy.to_json`)


@dataclass(slots=True)
class Copy:
    """A partial copy's matches with the official releases before and after it (None: none)."""

    version: str
    before: str | None
    after: str | None
    into: dict[str, str]  # number in `before` → number in the copy
    out: dict[str, str]  # number in the copy → number in `after`
    _from: dict[str, str] | None = field(default=None, repr=False)  # `into` reversed
    _back: dict[str, str] | None = field(default=None, repr=False)  # `out` reversed

    def to_json(self) -> dict[str, Any]:
        return {"before": self.before, "after": self.after, "into": self.into, "out": self.out}

    @classmethod
    def from_json(cls, version: str, data: Mapping[str, Any]) -> Copy:
        return cls(version, data["before"], data["after"], data["into"], data["out"])

    def came_from(self, number: str) -> str | None:
        """The number in `before` of the copy's rule `number` (None: not there)."""
        if self._from is None:
            self._from = {new: old for old, new in self.into.items()}
        return self._from.get(number)

    def came_back(self, number: str) -> str | None:
        """The copy's number of the rule numbered `number` in `after` (None: not in the copy)."""
        if self._back is None:
            self._back = {new: old for old, new in self.out.items()}
        return self._back.get(number)

    def neighbour(self, number: str) -> tuple[str, str] | None:
        """(official release, number there) of the copy's rule `number`: the release before the
        copy, else the one after it; None when neither holds the rule."""
        if self.before is not None and (n := self.came_from(number)) is not None:
            return self.before, n
        if self.after is not None and (n := self.out.get(number)) is not None:
            return self.after, n
        return None

    def place(self, numbers: Mapping[str, str]) -> str | None:
        """The copy's number of the rule that `numbers` (official release → number, a chain)
        follows: matched from the release before the copy, else back from the one after it."""
        if self.before is not None and self.before in numbers:
            n = self.into.get(numbers[self.before])
            if n is not None:
                return n
        if self.after is not None and self.after in numbers:
            return self.came_back(numbers[self.after])
        return None


def _within(rules: Sequence[Rule], held: frozenset[str]) -> list[Rule]:
    return [r for r in rules if r.number[:1] in held]


def match_copy(copy: Document, before: Document | None, after: Document | None) -> Copy:
    """Match a partial copy to the official releases around it, within the chapters both hold
    (a chapter the copy lacks is not in it, not removed)."""
    held = chapters(copy)
    into: dict[str, str] = {}
    out: dict[str, str] = {}
    if before is not None:
        both = held & chapters(before)
        into = match_rules(_within(before.rules, both), _within(copy.rules, both))
    if after is not None:
        both = held & chapters(after)
        out = match_rules(_within(copy.rules, both), _within(after.rules, both))
    return Copy(
        copy.version,
        before.version if before is not None else None,
        after.version if after is not None else None,
        into,
        out,
    )


def match_copies(official: Sequence[Document], copies: Sequence[Document]) -> dict[str, Copy]:
    """Each copy (one language's, not in `official`, with rules) matched to its neighbours
    among `official` (one language's lineage releases, oldest first)."""
    out: dict[str, Copy] = {}
    for doc in copies:
        if not doc.rules:
            continue
        older = [d for d in official if d.version < doc.version]
        newer = [d for d in official if d.version > doc.version]
        before = older[-1] if older else None
        after = newer[0] if newer else None
        out[doc.version] = match_copy(doc, before, after)
    return out


def follow(
    line: Lineage, copies: Mapping[str, Copy], number: str, version: str, other: str
) -> str | None:
    """The number in `other` of the rule numbered `number` in `version` (None: not in `other`),
    either release a lineage release or a partial copy in `copies`."""
    if version == other:
        return number
    n, v = number, version
    src = copies.get(version)
    if src is not None:  # out of the copy, into the official release on the way to `other`
        out = src.out.get(number) if other > version else src.came_from(number)
        beside = src.after if other > version else src.before
        if out is None or beside is None:
            return None
        n, v = out, beside
    dst = copies.get(other)
    if dst is None:
        return line.follow(n, v, other)
    if v < other:
        if dst.before is None or (m := line.follow(n, v, dst.before)) is None:
            return None
        return dst.into.get(m)
    if dst.after is None or (m := line.follow(n, v, dst.after)) is None:
        return None
    return dst.came_back(m)


def chain_of(
    line: Lineage, copies: Mapping[str, Copy], number: str, version: str
) -> list[tuple[str, str]]:
    """(version, number) for every release, copies included, the rule numbered `number` in
    `version` is in, oldest first; NotFound when `version` (a lineage release) lacks it."""
    copy = copies.get(version)
    if copy is None:
        chain = line.chain(number, version)
    else:
        near = copy.neighbour(number)
        chain = [*(line.chain(*near[::-1]) if near else []), (version, number)]
    numbers = dict(chain)
    for c in copies.values():
        if c.version != version and (n := c.place(numbers)) is not None:
            chain.append((c.version, n))
    return sorted(chain)


def copy_translation_numbers(
    line: Lineage, copies: Mapping[str, Copy], translated: Sequence[str]
) -> dict[str, dict[str, str | None]]:
    """`history.translation_numbers` for the translations whose release is an English partial
    copy: the English releases after the copy that its translation stands beside (until the
    next translated release), each with its numbers the copy numbers otherwise (number → the
    copy's number, None when the copy lacks the rule)."""
    out: dict[str, dict[str, str | None]] = {}
    for z in sorted(set(translated)):
        copy = copies.get(z)
        if copy is None or copy.after is None:
            continue
        forward = dict(copy.out)  # number in the copy → number in the release reached
        for k in range(line.versions.index(copy.after), len(line.versions)):
            w = line.versions[k]
            if any(z < t <= w for t in translated):
                break  # a later translation stands beside w
            if w != copy.after:
                step = line.pairs.get((line.versions[k - 1], w), {})
                forward = {n: step[m] for n, m in forward.items() if m in step}
            back = {m: n for n, m in forward.items()}
            out[w] = {m: back.get(m) for m in line.texts[w] if back.get(m) != m}
    return out
