"""A page read into lines, headings and rulers: its glossary blocks and title, then the line engine.

The Markdown and HTML readers reduce a page to `PageLine`s (one per source line, markup gone); this
module takes the bilingual term blocks out (a `### English / 中文` heading up to the next heading
or ruler), finds the page's title, and hands the remaining lines to `lines.build_documents`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from crkb.model import GlossaryEntry, ParseResult
from crkb.sources.lines import Line, build_documents, lang_of, other, split_title

_TERM_PAIR = re.compile(r"^(.+?)\s+/\s+(.+?)\s*$")
TERM_LEVEL = 3  # a glossary term is a third-level heading
Block = tuple[tuple[str, str], list[str]]  # ((English term, Chinese term), definition lines)


@dataclass(frozen=True, slots=True)
class PageLine:
    """One source line as a reader sees it: its words, and whether it is a heading or a ruler."""

    no: int  # 1-based source line
    text: str
    heading: int = 0  # heading level, 0 for none
    ruler: bool = False


def glossary_term(line: PageLine) -> tuple[str, str] | None:
    """A term heading "Abandon / 终止" → ("Abandon", "终止"), English first; else None."""
    if line.heading != TERM_LEVEL:
        return None
    m = _TERM_PAIR.match(line.text.strip())
    if not m:
        return None
    a, b = m.group(1), m.group(2)
    if lang_of(a) == "zh" and lang_of(b) != "zh":
        a, b = b, a
    return a, b


def pair_blocks(blocks: Sequence[Block]) -> dict[str, list[GlossaryEntry]]:
    """Term pairs with their bilingual definition lines → entries per language.

    A definition line goes to the language of its content; a line with no letters to tell by goes
    to the language the previous line did not.
    """
    out: dict[str, list[GlossaryEntry]] = {"en": [], "zh": []}
    for (en, zh), lines in blocks:
        texts: dict[str, list[str]] = {"en": [], "zh": []}
        prev: str | None = None
        for line in lines:
            lang = lang_of(line) or (other(prev) if prev else "en")
            texts[lang].append(line)
            prev = lang
        out["en"].append(GlossaryEntry(en, "\n".join(texts["en"])))
        out["zh"].append(GlossaryEntry(zh, "\n".join(texts["zh"])))
    return out


def split_glossary(
    page: Sequence[PageLine],
) -> tuple[list[Line], dict[str, list[GlossaryEntry]]]:
    """Glossary blocks (a term heading up to the next heading or ruler) out; other lines kept."""
    rest: list[Line] = []
    blocks: list[Block] = []
    block: list[str] | None = None
    for line in page:
        if term := glossary_term(line):
            block = []
            blocks.append((term, block))
            continue
        if block is not None and (line.heading or line.ruler):
            block = None
        if block is not None:
            if line.text.strip():
                block.append(line.text)
        else:
            rest.append((line.no, line.text))
    return rest, pair_blocks(blocks) if blocks else {}


def page_title(page: Sequence[PageLine]) -> dict[str, str]:
    """The first top-level heading, split into its languages when it holds both."""
    for line in page:
        if line.heading == 1:
            pair = split_title(re.sub(r"^\d+\.\s*", "", line.text))
            if pair:
                return {"zh": pair[0], "en": pair[1]}
            return {lang_of(line.text) or "zh": line.text}
    return {}


def parse_page(
    page: Sequence[PageLine],
    *,
    text: str,
    source: str,
    file_date: str | None,
    fmt: str,
    chrome: bool = False,
) -> ParseResult:
    """A page's lines → a Document per language that has rules or glossary entries."""
    rest, glossary = split_glossary(page)
    return build_documents(
        rest,
        text=text,
        source=source,
        file_date=file_date,
        fmt=fmt,
        glossary=glossary,
        titles=page_title(page),
        chrome=chrome,
    )
