"""A rule through every version: neighbouring versions matched once, then followed link by link."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from crkb.diff.compare import same_reading
from crkb.diff.match import Side, match_sides
from crkb.errors import NotFound
from crkb.model import Document

Pair = tuple[str, str]


@dataclass(slots=True)
class Lineage:
    """One language's versions (oldest first), their rule texts, and neighbour matches.

    `pairs[(v_old, v_new)]` maps each rule number of `v_old` to its number in the next version
    `v_new`; a rule absent from the map did not carry over. The maps are all a store needs to keep.
    """

    versions: list[str]
    texts: dict[str, dict[str, str]]
    pairs: dict[Pair, dict[str, str]]
    aliases: dict[str, str] = field(default_factory=dict)
    _back: dict[Pair, dict[str, str]] = field(default_factory=dict)
    _pos: dict[str, int] = field(default_factory=dict)

    def version_id(self, version: str | None) -> str:
        """A version id, alias or None (the latest) → the version id; NotFound otherwise."""
        if not self.versions:
            raise NotFound("no versions to follow a rule through")
        if version is None or version == "latest":
            return self.versions[-1]
        v = self.aliases.get(version, version)
        if v not in self.texts:
            raise NotFound(f"unknown version: {version}")
        return v

    def _index(self, version: str) -> int:
        if not self._pos:
            self._pos.update({v: k for k, v in enumerate(self.versions)})
        return self._pos[version]

    def _backward(self, pair: Pair) -> dict[str, str]:
        back = self._back.get(pair)
        if back is None:
            back = {new: old for old, new in self.pairs.get(pair, {}).items()}
            self._back[pair] = back
        return back

    def _walk(self, number: str, k: int, forward: bool) -> Iterator[tuple[str, str]]:
        """(version, number) release by release from the `k`-th version, later or earlier, for
        as long as the rule carries over."""
        cur = number
        steps = range(k, len(self.versions) - 1) if forward else range(k, 0, -1)
        for i in steps:
            if forward:
                there = self.versions[i + 1]
                nxt = self.pairs.get((self.versions[i], there), {}).get(cur)
            else:
                there = self.versions[i - 1]
                nxt = self._backward((there, self.versions[i])).get(cur)
            if nxt is None:
                return
            cur = nxt
            yield there, cur

    def chain(self, number: str, version: str | None = None) -> list[tuple[str, str]]:
        """(version, number) for every version the rule exists in, following renumbering."""
        v = self.version_id(version)
        if number not in self.texts[v]:
            raise NotFound(f"no rule {number} in version {v}")
        k = self._index(v)
        before = list(self._walk(number, k, forward=False))
        return before[::-1] + [(v, number)] + list(self._walk(number, k, forward=True))

    def follow(self, number: str, version: str, other: str) -> str | None:
        """The number in `other` of the rule numbered `number` in `version` (None: it is not in
        `other`), walking only the releases between the two."""
        i, k = self._index(version), self._index(other)
        if i == k:
            return number
        return next((n for v, n in self._walk(number, i, forward=k > i) if v == other), None)

    def history(self, number: str, version: str | None = None) -> dict[str, object]:
        """`{number, history: [{version, number, text}]}`, oldest first (SPEC `crkb history`)."""
        rows: list[dict[str, object]] = [
            {"version": v, "number": n, "text": self.texts[v][n]}
            for v, n in self.chain(number, version)
        ]
        mark_changes(rows)
        return {"number": number, "history": rows}

    def locate(self, old_number: str, old_version: str) -> str | None:
        """The latest version's number for a rule of an older version, or None if it is gone."""
        v = self.version_id(old_version)
        if old_number not in self.texts[v]:
            raise NotFound(f"no rule {old_number} in version {v}")
        last_v, last_n = self.chain(old_number, v)[-1]
        return last_n if last_v == self.versions[-1] else None


def mark_changes(rows: Sequence[dict[str, object]]) -> None:
    """Give each history row `text_changed`: whether its text says otherwise than the row before
    (whitespace and characters a copy lost are no change, as in `crkb diff`)."""
    before: object = None
    for k, row in enumerate(rows):
        text = row["text"]
        row["text_changed"] = k > 0 and not (
            text == before
            or (isinstance(text, str) and isinstance(before, str) and same_reading(before, text))
        )
        before = text


def pick_versions(docs: Iterable[Document]) -> list[Document]:
    """One document per version, oldest first; of duplicates, the one filed under its own date."""
    best: dict[str, Document] = {}
    for d in docs:
        held = best.get(d.version)
        if held is None or (held.alias is not None and d.alias is None):
            best[d.version] = d
    return [best[v] for v in sorted(best)]


def build_lineage(
    docs: list[Document],
    cache: Mapping[Pair, dict[str, str]] | None = None,
) -> Lineage:
    """Match each version to the next (reusing `cache` pairs when given) for one language."""
    chosen = pick_versions(docs)
    versions = [d.version for d in chosen]
    texts = {d.version: {n: r.text for n, r in d.rule_map().items()} for d in chosen}
    aliases = {d.alias: d.version for d in docs if d.alias and d.alias not in texts}
    pairs: dict[Pair, dict[str, str]] = {}
    prev: Side | None = None
    for k in range(1, len(chosen)):
        pair = (versions[k - 1], versions[k])
        if cache is not None and pair in cache:
            pairs[pair] = dict(cache[pair])
            prev = None
            continue
        old = prev or Side.of(chosen[k - 1].rules)
        new = Side.of(chosen[k].rules)
        pairs[pair] = match_sides(old, new)
        prev = new
    return Lineage(versions, texts, pairs, aliases)


def translation_numbers(
    line: Lineage, translated: Sequence[str]
) -> dict[str, dict[str, str | None]]:
    """For each English release that an older translation stands beside (the newest of
    `translated` not newer than it), its rule numbers that the translation's release numbers
    otherwise: number → the number there, or None when that release lacks the rule.

    A translation is numbered as the English release it translates, so a rule page pairs a
    newer English rule with the older translation's rule by these; a number not listed is the
    same in both. Releases outside the lineage (partial copies) are not listed: their pages
    pair rules by number. Built once, by walking each translation's release forward.
    """
    out: dict[str, dict[str, str | None]] = {}
    known = [z for z in sorted(set(translated)) if z in line.texts]
    for z in known:
        start = line._index(z)
        forward = {n: n for n in line.texts[z]}  # number in z → number in the release reached
        for k in range(start + 1, len(line.versions)):
            w = line.versions[k]
            if w in translated:
                break  # w's own translation stands beside it, and beside the releases after it
            step = line.pairs.get((line.versions[k - 1], w), {})
            forward = {n: step[m] for n, m in forward.items() if m in step}
            back = {m: n for n, m in forward.items()}
            out[w] = {m: back.get(m) for m in line.texts[w] if back.get(m) != m}
    return out
