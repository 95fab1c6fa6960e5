"""What changed between two versions: every rule added, removed, edited or renumbered."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from crkb.diff.lost import only_lost
from crkb.diff.match import cite_free, cited, match_rules, same_text, text_key
from crkb.model import Document, Rule
from crkb.numbers import sort_key

KINDS = ("added", "removed", "changed", "moved", "moved_changed")


@dataclass(slots=True)
class Change:
    """One rule's change between two versions.

    `kind` is `added`, `removed`, `changed` (same number, new text or examples), `moved` (new
    number, same text) or `moved_changed`. `refs_only` marks a change that only renumbers the
    rules it cites, following the renumbering of those rules: reported, never hidden.
    `lost_only` marks a pair that differs only where one side's copy lost characters
    (`diff.lost`): the same rule, kept out of the changes a diff lists and counted apart.
    """

    kind: str
    old_number: str | None
    new_number: str | None
    old_text: str | None
    new_text: str | None
    refs_only: bool = False
    text_changed: bool = False
    old_examples: list[str] = field(default_factory=list)
    new_examples: list[str] = field(default_factory=list)
    examples_changed: bool = False
    old_title: str | None = None
    new_title: str | None = None
    lost_only: bool = False

    @property
    def title_changed(self) -> bool:
        """A titled rule (chapter, section, keyword) whose title reads differently."""
        return (
            self.old_number is not None
            and self.new_number is not None
            and (self.old_title != self.new_title)
        )

    def to_json(self) -> dict[str, object]:
        """The SPEC shape `{kind, old_number, new_number, old_text, new_text}` plus details."""
        out: dict[str, object] = {
            "kind": self.kind,
            "old_number": self.old_number,
            "new_number": self.new_number,
            "old_text": self.old_text,
            "new_text": self.new_text,
            "refs_only": self.refs_only,
            "lost_only": self.lost_only,
            "text_changed": self.text_changed,
            "examples_changed": self.examples_changed,
            "old_examples": self.old_examples,
            "new_examples": self.new_examples,
        }
        if self.title_changed:
            out["old_title"] = self.old_title
            out["new_title"] = self.new_title
        return out


def compare_text(old: str, new: str, mapping: Mapping[str, str]) -> str:
    """`same`, `lost` (they differ only where one copy lost characters, `diff.lost`), `refs`
    (only cited numbers differ, each as its rule was renumbered, lost characters aside) or
    `edited`."""
    if same_text(old, new):
        return "same"
    old, new = text_key(old), text_key(new)
    if only_lost(old, new):
        return "lost"
    free_old, free_new = cite_free(old), cite_free(new)
    if free_old != free_new and not only_lost(free_old, free_new):
        return "edited"
    if len(cited(old)) != len(cited(new)):  # a lost mark where the other cites a rule
        return "edited"
    for a, b in zip(cited(old), cited(new), strict=True):
        if a != b and mapping.get(a) != b:
            return "edited"
    return "refs"


def compare_examples(old: list[str], new: list[str], mapping: Mapping[str, str]) -> str:
    """The examples' state, as `compare_text` names a text's: the most a pair of them says."""
    if len(old) == len(new) and all(same_text(a, b) for a, b in zip(old, new, strict=True)):
        return "same"
    if len(old) != len(new):
        return "edited"
    states = {compare_text(a, b, mapping) for a, b in zip(old, new, strict=True)}
    return next(s for s in ("edited", "refs", "lost", "same") if s in states)


def same_reading(old: str, new: str) -> bool:
    """Whether two texts of a rule say the same: equal up to whitespace and to characters a
    copy lost (what `crkb diff` and `crkb history` count as no change of text)."""
    return same_text(old, new) or only_lost(text_key(old), text_key(new))


def classify(old: Rule, new: Rule, mapping: Mapping[str, str]) -> Change | None:
    """The change between two matched rules, or None when nothing differs."""
    text = compare_text(old.text, new.text, mapping)
    examples = compare_examples(old.examples, new.examples, mapping)
    moved = old.number != new.number
    if text == "same" and examples == "same" and not moved:
        return None
    edited = "edited" in (text, examples)
    refs = not edited and "refs" in (text, examples)
    kind = ("moved_changed" if edited else "moved") if moved else "changed"
    return Change(
        kind=kind,
        old_number=old.number,
        new_number=new.number,
        old_text=old.text,
        new_text=new.text,
        refs_only=refs,
        text_changed=text not in ("same", "lost"),
        old_examples=list(old.examples),
        new_examples=list(new.examples),
        examples_changed=examples not in ("same", "lost"),
        old_title=old.title,
        new_title=new.title,
        lost_only=not (edited or refs or moved),
    )


def diff_rules(
    old_rules: list[Rule], new_rules: list[Rule], mapping: Mapping[str, str] | None = None
) -> list[Change]:
    """Changes between two rule lists (a precomputed old → new `mapping` may be passed)."""
    if mapping is None:
        mapping = match_rules(old_rules, new_rules)
    old_map = _first_of_each(old_rules)
    new_map = _first_of_each(new_rules)
    changes: list[tuple[tuple[tuple[int, int, int, int], int], Change]] = []
    matched_new = set()
    for o_num, o in old_map.items():
        n_num = mapping.get(o_num)
        n = new_map.get(n_num) if n_num is not None else None
        if n is None:
            ch = Change(
                "removed",
                o.number,
                None,
                o.text,
                None,
                old_examples=list(o.examples),
                old_title=o.title,
            )
            changes.append(((sort_key(o.number), 1), ch))
            continue
        matched_new.add(n.number)
        edit = classify(o, n, mapping)
        if edit is not None:
            changes.append(((sort_key(n.number), 0), edit))
    for n_num, n in new_map.items():
        if n_num not in matched_new:
            ch = Change(
                "added",
                None,
                n.number,
                None,
                n.text,
                new_examples=list(n.examples),
                new_title=n.title,
            )
            changes.append(((sort_key(n.number), 0), ch))
    changes.sort(key=lambda p: p[0])
    return [c for _, c in changes]


def diff_documents(old: Document, new: Document) -> list[Change]:
    """Every change from `old` to `new` (one language), in the new version's rule order."""
    return diff_rules(old.rules, new.rules)


def summary(changes: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Counts per kind of the changes a diff lists (every kind, zero when absent), how many of
    them only renumber citations (`refs_only`), and `lost_only`: the pairs not listed, that
    differ only by lost characters. Over changes as JSON (`Change.to_json`, a stored diff)."""
    out = dict.fromkeys((*KINDS, "refs_only", "lost_only"), 0)
    for c in changes:
        if c.get("lost_only"):
            out["lost_only"] += 1
        else:
            out[str(c["kind"])] += 1
            out["refs_only"] += bool(c.get("refs_only"))
    return out


def diff_summary(changes: Iterable[Change]) -> dict[str, int]:
    """`summary` of the changes `diff_rules` made."""
    return summary(c.to_json() for c in changes)


def _first_of_each(rules: list[Rule]) -> dict[str, Rule]:
    out: dict[str, Rule] = {}
    for r in rules:
        out.setdefault(r.number, r)
    return out
