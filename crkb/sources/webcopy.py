"""Web copies: a rules page saved as text, with menus, counters and comments around the rules.

Its lines go to the line engine (`lines`) as they are, with `chrome` on so that page text around
the rules is left out. Garbled copies and copies in other languages are recognised and reported,
never stored.
"""

from __future__ import annotations

import re

from crkb.model import ParseResult
from crkb.sources.language import name_language
from crkb.sources.lines import Line, build_documents

_RUN_ON = re.compile(r"[A-Za-z]{25,}")  # words glued together by a site that strips spaces
# Words of the rules that survive in a garbled copy's glued runs ("Aplayermaycastaninstant…").
_GAME_WORD = re.compile(r"player|spell|abilit|priority|permanent|battlefield|creature|mana")
MIN_GAME_WORDS = 10
GLUED_SHARE = 0.3  # more of a text's letters than this in glued runs: spaces were stripped
# A rule number starting a line, after any list bullet: "901.3a …", "  • 901.1. Dalam …".
_LISTED_RULE = re.compile(r"^[\s•·*\-–]*([1-9]\d{2}\.\d{1,3}[a-z]?)(?![\da-z])", re.M)
# A copy in another language is a rules text only with this many numbered rules (the Malay
# Planechase page holds 35); prose, JSON or a list that merely reads as French or Portuguese
# holds none.
MIN_FOREIGN_RULES = 10


class NotRulesText(ValueError):
    """A text in a language crkb does not store that does not read as rules either."""


def glued_runs(text: str) -> tuple[int, list[str]]:
    """The text's Latin letters, and its runs of letters too long to be one word."""
    latin_words = re.findall(r"[A-Za-z]+", text)
    return sum(len(w) for w in latin_words), [w for w in latin_words if _RUN_ON.fullmatch(w)]


def is_garbled(text: str) -> bool:
    """Spaces stripped by a copying site: long runs of letters glued into one 'word', and the
    runs read as the game's rules (a DNA sequence or a hash list is glued letters too)."""
    letters, runs = glued_runs(text)
    glued = sum(len(w) for w in runs)
    if letters <= 200 or glued / letters <= GLUED_SHARE:
        return False
    return len(_GAME_WORD.findall(" ".join(runs).lower())) >= MIN_GAME_WORDS


def numbered_rules(text: str) -> int:
    """How many distinct rule numbers start a line (after any list bullet)."""
    return len(set(_LISTED_RULE.findall(text)))


def plain_lines(text: str) -> list[Line]:
    """A saved page's lines, numbered, trailing spaces dropped."""
    return [(i, ln.rstrip()) for i, ln in enumerate(text.split("\n"), 1)]


def parse(text: str, *, source: str, file_date: str | None) -> ParseResult:
    """A rules page saved as text: the rules it holds, or why it holds none we can store.

    Raises `NotRulesText` for a text in another language that holds too few numbered rules.
    """
    if is_garbled(text):
        return ParseResult(
            format="web",
            garbled=True,
            warnings=["garbled copy: spaces and digits stripped by the copying site; not stored"],
        )
    language = name_language(text)
    if language not in (None, "English", "Chinese"):
        if (found := numbered_rules(text)) < MIN_FOREIGN_RULES:
            # Named only to say it is not stored; without rules it is no rules text at all.
            raise NotRulesText(
                f"only {found} numbered rules found, too few for a rules text"
                if found
                else "no numbered rules found"
            )
        return ParseResult(
            format="web",
            language=language,
            warnings=[f"written in {language}: recognised, not stored"],
        )
    return build_documents(
        plain_lines(text), text=text, source=source, file_date=file_date, fmt="web", chrome=True
    )
