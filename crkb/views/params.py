"""One parser each for what users type: rule numbers, versions, languages and the chapter filter.

The CLI and the web call these, so "not a rule number", the version look-up and the `lang`
check are written once. A command-line argument that cannot be used is `BadInput`; a rule number
or version in a URL that names nothing is `NotFound` (a 404, as for any unknown page).
"""

from __future__ import annotations

import re

from crkb.errors import BadInput, NotFound
from crkb.numbers import normalise
from crkb.store.db import Store

TEXT_LANGS = ("en", "zh")  # the languages a text is stored in
SHOW_LANGS = ("en", "zh", "both")  # a rule in one language or side by side
SEARCH_LANGS = ("en", "zh", "auto")  # `auto`: the query's own language decides

_URL_VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._-]{0,31}$")
_MAX_URL_NUMBER = 16

# How each choice of languages is named in an error (the wording users already know).
_LANG_WORDS = {
    SHOW_LANGS: "one of en, zh, both",
    TEXT_LANGS: "one of en, zh",
    SEARCH_LANGS: "auto, en or zh",
    (*SEARCH_LANGS, "both"): "en, zh or auto",  # the search page also takes `both`
}


def rule_number(raw: str) -> str:
    """A rule number given as an argument, in normal form (`702.` → `702`), or BadInput."""
    number = normalise(raw)
    if number is None:
        raise BadInput(f"{raw[:40]!r}: not a rule number (e.g. 901.3a, 702, 9)")
    return number


def url_rule_number(raw: str) -> str:
    """A rule number from a URL, or NotFound (path tricks included)."""
    number = normalise(raw) if len(raw) <= _MAX_URL_NUMBER else None
    if number is None:
        raise NotFound(f"{raw[:40]!r} is not a rule number (e.g. 702.2, 901.3a, 9)")
    return number


def _scope(raw: str) -> str | None:
    """A chapter, section or rule number (`7`, `702.`, `702.19`) in normal form, else None (a
    two-digit head, `10`, numbers nothing; nor does chapter 0, or a section 0xx)."""
    number = normalise(raw) if len(raw) <= _MAX_URL_NUMBER else None
    if number is None or len(number.split(".")[0]) == 2 or number.startswith("0"):
        return None
    return number


def chapter(raw: str | None) -> str | None:
    """The chapter filter of translation findings from a URL: a chapter, section or rule."""
    if not raw:
        return None
    number = _scope(raw)
    if number is None:
        # 404 as a rule number that is none: the OpenAPI document gives the filter no pattern
        # (the forms `normalise` reads are too many for one), so a schema-valid value the store
        # names nothing by is "not found", not a bad request
        raise NotFound(f"chapter {raw[:40]!r} is not a chapter, section or rule number (7, 702)")
    return number


def names_release(asked: str | None) -> bool:
    """True when a release was asked for by name, not left to the newest (`latest` or none)."""
    return asked not in (None, "", "latest")


FLAG_VALUES = {"": False, "0": False, "1": True}  # as the OpenAPI document says


def flag(name: str, raw: str | None) -> bool:
    """A yes/no URL argument (`all=1`); anything else is refused rather than read as no."""
    if raw is None:
        return False
    value = FLAG_VALUES.get(raw)
    if value is None:
        raise BadInput(f"{name} must be 1 or 0, not {raw[:20]!r}")
    return value


def chapter_option(raw: str, name: str = "--chapter") -> str:
    """The same filter as a command-line option, or BadInput naming the option."""
    number = _scope(raw)
    if number is None:
        raise BadInput(
            f"{name} {raw[:40]!r}: not a chapter, section or rule number (e.g. 7, 702, 702.19)"
        )
    return number


def version(store: Store, name: str | None, lang: str | None = None) -> str:
    """A version id from an id, an alias or `latest` (the newest with a `lang` text, if given)."""
    return store.resolve_version(name, lang)


def url_version(store: Store, name: str | None, lang: str | None = None) -> str:
    """A version id from a URL or form value (spaces around it, as a pasted id carries, are
    not part of it); path tricks are unknown versions."""
    name = name.strip() if name else name
    if name and name != "latest" and not _URL_VERSION.match(name):
        unknown = NotFound(f"unknown version {name[:40]!r}")
        unknown.listed = True
        raise unknown
    return store.resolve_version(name, lang)


def lang(value: str, allowed: tuple[str, ...]) -> str:
    """`value` when it is one of `allowed`, else BadInput naming the choices."""
    if value not in allowed:
        words = _LANG_WORDS.get(allowed) or "one of " + ", ".join(allowed)
        raise BadInput(f"lang must be {words}, not {value[:20]!r}")
    return value


def langs(choice: str) -> list[str]:
    """The texts a choice shows: `both` is English then Chinese."""
    return list(TEXT_LANGS) if choice == "both" else [choice]
