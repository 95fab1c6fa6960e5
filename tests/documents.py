"""Small made-up Documents for tests that build a search index of their own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crkb.model import Document, GlossaryEntry, Rule
from crkb.numbers import parent_of
from crkb.search.engine import Searcher
from crkb.search.index import build_index

Row = tuple[str, str, str, str | None]  # number, kind, text, title


def document(lang: str, rows: list[Row], glossary: list[GlossaryEntry]) -> Document:
    """A document of `rows` in `lang`, dated 2030-01-01 (after every real release)."""
    rules = [Rule(n, k, t, title, parent=parent_of(n)) for n, k, t, title in rows]
    return Document(
        lang, "2030-01-01", f"{lang}/2030-01-01.txt", "txt", rules=rules, glossary=glossary
    )


def english_searcher(index_dir: Path, rows: list[Row]) -> Searcher:
    """A searcher over an index of one made-up English document of `rows`, built in `index_dir`."""
    build_index(index_dir, [document("en", rows, [])], {})
    return toy_searcher(index_dir)


def toy_searcher(index_dir: Path) -> Searcher:
    """A searcher over a made-up index that ranks by the weighed product of the signals alone:
    the ranking forest (crkb/search/forest.py) is learned from the real archive's signals,
    whose sizes a few made-up rules do not have, so a mechanism is asserted where it acts.
    The real archive's tests rank with the forest."""
    s = Searcher(index_dir)
    s.forest = None
    return s


def numbers(result: dict[str, Any]) -> list[str]:
    """The rule numbers of a search result's hits, in order."""
    return [h["number"] for h in result["hits"]]
