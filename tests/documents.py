"""Small made-up Documents for tests that build a search index of their own."""

from __future__ import annotations

from crkb.model import Document, GlossaryEntry, Rule
from crkb.numbers import parent_of

Row = tuple[str, str, str, str | None]  # number, kind, text, title


def document(lang: str, rows: list[Row], glossary: list[GlossaryEntry]) -> Document:
    """A document of `rows` in `lang`, dated 2030-01-01 (after every real release)."""
    rules = [Rule(n, k, t, title, parent=parent_of(n)) for n, k, t, title in rows]
    return Document(
        lang, "2030-01-01", f"{lang}/2030-01-01.txt", "txt", rules=rules, glossary=glossary
    )
