"""The rule graph's vocabulary: what every parser produces and every later layer reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Lang = str  # "en", "zh" (other languages are recognised and reported, never stored)
Kind = Literal["chapter", "section", "rule", "subrule"]


@dataclass(slots=True)
class Rule:
    """One numbered paragraph of the rules, with what belongs to it.

    `text` is exactly what follows the number on the source line (the source's own characters);
    unnumbered continuation paragraphs are appended after a newline, examples are kept apart.
    """

    number: str
    kind: Kind
    text: str
    title: str | None = None
    examples: list[str] = field(default_factory=list)
    parent: str | None = None
    line: int = 0  # 1-based line of the number in the decoded source, for messages

    # A plain tuple pickles several times faster than slots.
    def __reduce__(self) -> tuple[object, ...]:
        return Rule, (
            self.number,
            self.kind,
            self.text,
            self.title,
            self.examples,
            self.parent,
            self.line,
        )


@dataclass(slots=True)
class GlossaryEntry:
    """A glossary term with its definition text (numbered senses stay in the text, one a line)."""

    term: str
    text: str

    def __reduce__(self) -> tuple[object, ...]:
        return GlossaryEntry, (self.term, self.text)

    @property
    def senses(self) -> list[str]:
        """The numbered senses ("1. …", "2. …"), or the whole text when it has none."""
        import re

        found = re.findall(r"^\d+\.\s*(.+)$", self.text, flags=re.M)
        return found or [self.text]


@dataclass(slots=True)
class Reference:
    """A cross-reference found in a rule or glossary text.

    `source` is a rule number or `glossary:<term>`; `target` a rule number; `raw` the text that
    named it; `title` the quoted title that followed, if any.
    """

    source: str
    target: str
    raw: str
    title: str | None = None
    dangling: bool = False
    stale: bool = False

    def __reduce__(self) -> tuple[object, ...]:
        return Reference, (
            self.source,
            self.target,
            self.raw,
            self.title,
            self.dangling,
            self.stale,
        )


@dataclass(slots=True)
class Document:
    """One language of one release as found in one source file."""

    lang: Lang
    version: str  # effective date as written in the text, else the file's date (YYYY-MM-DD)
    source: str  # file path as given
    format: str  # "txt", "legacy-txt", "markdown", "dokuwiki", "web", "html"
    alias: str | None = None  # the file's own date when it differs from `version`
    title: str = ""
    intro: str = ""
    contents: str = ""
    credits: str = ""
    rules: list[Rule] = field(default_factory=list)
    glossary: list[GlossaryEntry] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    flags: dict[str, object] = field(default_factory=dict)

    def rule_map(self) -> dict[str, Rule]:
        """Rules by number; the first of a doubled number wins (the second stays in `rules`)."""
        out: dict[str, Rule] = {}
        for r in self.rules:
            out.setdefault(r.number, r)
        return out

    def counts(self) -> dict[str, int]:
        """Per-kind tallies as `crkb versions` reports them."""
        c = {
            "sections": 0,
            "rules": 0,
            "subrules": 0,
            "examples": 0,
            "glossary": len(self.glossary),
        }
        for r in self.rules:
            if r.kind == "section":
                c["sections"] += 1
            elif r.kind == "rule":
                c["rules"] += 1
            elif r.kind == "subrule":
                c["subrules"] += 1
            c["examples"] += len(r.examples)
        return c


@dataclass(slots=True)
class ParseResult:
    """What one source file yielded: zero or more documents (one per language) and warnings."""

    format: str
    documents: list[Document] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    language: str | None = None  # a recognised language that is not stored (e.g. "Malay")
    garbled: bool = False
