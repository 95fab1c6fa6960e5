"""The bilingual Markdown pages of the Chinese translation: chapters, glossary, index.

A page is read in three steps: `clean_line` strips the markup from each line (anchors, links,
emphasis, entities, trailing line breaks), `split_glossary` takes the term blocks out, and the
numbered lines left go to the shared bilingual assembly in `webcopy`. The two languages of a pair
are told apart by content, since their order differs between releases.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence

from crkb.model import GlossaryEntry, ParseResult
from crkb.sources.webcopy import Line, build_documents, lang_of, other

_ANCHOR_TAG = re.compile(r"</?(?:b|span|a|strong|em|i|u|sup|sub)(?:\s[^<>]*)?>", re.I)
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\[\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
_EMPHASIS = re.compile(r"(?<![A-Za-z0-9*\\])(\*{1,3})(?=\S)(.+?)(?<=\S)\1(?![A-Za-z0-9*])")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>])")
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_RULER = re.compile(r"^ {0,3}(?:-{3,}|\*{3,}|_{3,})\s*$")
_NAV_ONLY = re.compile(r"^\s*(?:[-*+]\s+)?(?:\[[^\]]*\]\([^)]*\)\s*(?:\|\s*)?)+$")
_GLOSSARY_TERM = re.compile(r"^###\s+(.+?)\s+/\s+(.+?)\s*$")


def clean_inline(text: str) -> str:
    """Markdown and inline HTML → the words a reader sees ("[806](./8#cr806)" → "806")."""
    text = _ANCHOR_TAG.sub("", text)
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _EMPHASIS.sub(r"\2", text)
    text = _ESCAPE.sub(r"\1", text)
    return html.unescape(text).rstrip()


def is_navigation(line: str) -> bool:
    """A line made only of links ("返回完整规则目录 | 第八章 …", contents entries)."""
    return bool(_NAV_ONLY.match(line))


def clean_line(line: str) -> str:
    """One source line without markup; headings lose their #s, navigation lines vanish."""
    if is_navigation(line) or _RULER.match(line):
        return ""
    if m := _HEADING.match(line):
        line = m.group(2)
    return clean_inline(line.rstrip("\\ \t"))


def _glossary_term(line: str) -> tuple[str, str] | None:
    """`### <span id='Abandon'>Abandon</span> / <span id='终止'>终止</span>` → (en, zh)."""
    m = _GLOSSARY_TERM.match(line.strip())
    if not m:
        return None
    a, b = clean_inline(m.group(1)), clean_inline(m.group(2))
    if lang_of(a) == "zh" and lang_of(b) != "zh":
        a, b = b, a
    return a, b


def glossary_pairs(text: str) -> list[tuple[str, str]]:
    """(English term, Chinese term) for every term heading of a bilingual glossary page."""
    return [p for line in text.split("\n") if (p := _glossary_term(line))]


def pair_blocks(
    blocks: Sequence[tuple[tuple[str, str], list[str]]],
) -> dict[str, list[GlossaryEntry]]:
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
    lines: Sequence[str], clean: Callable[[str], str] = clean_line
) -> tuple[list[Line], dict[str, list[GlossaryEntry]]]:
    """Glossary blocks (a term heading up to the next heading or ruler) out; other lines kept."""
    rest: list[Line] = []
    blocks: list[tuple[tuple[str, str], list[str]]] = []
    block: list[str] | None = None
    for no, raw in enumerate(lines, 1):
        if term := _glossary_term(raw):
            block = []
            blocks.append((term, block))
            continue
        if block is not None and (_HEADING.match(raw) or _RULER.match(raw)):
            block = None
        cleaned = clean(raw)
        if block is not None:
            if cleaned.strip():
                block.append(cleaned)
        else:
            rest.append((no, cleaned))
    return rest, pair_blocks(blocks) if blocks else {}


def page_title(lines: Sequence[str]) -> dict[str, str]:
    """The first `#` heading, split into its languages when it holds both."""
    from crkb.sources.webcopy import split_title

    for raw in lines:
        m = _HEADING.match(raw)
        if m and len(m.group(1)) == 1:
            title = clean_inline(m.group(2))
            pair = split_title(re.sub(r"^\d+\.\s*", "", title))
            if pair:
                return {"zh": pair[0], "en": pair[1]}
            return {lang_of(title) or "zh": title}
    return {}


def parse_lines(
    lines: Sequence[str],
    *,
    text: str,
    source: str,
    file_date: str | None,
    fmt: str,
    clean: Callable[[str], str] = clean_line,
    chrome: bool = False,
) -> ParseResult:
    """Markdown-shaped lines (also what `html` reduces a page to) → documents."""
    rest, glossary = split_glossary(lines, clean)
    return build_documents(
        rest,
        text=text,
        source=source,
        file_date=file_date,
        fmt=fmt,
        glossary=glossary,
        titles=page_title(lines),
        chrome=chrome,
    )


def parse(text: str, *, source: str, file_date: str | None) -> ParseResult:
    """One Markdown page → a Document per language (none for a page without rules or glossary)."""
    return parse_lines(
        text.split("\n"), text=text, source=source, file_date=file_date, fmt="markdown"
    )
