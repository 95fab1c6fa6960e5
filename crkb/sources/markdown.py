"""The bilingual Markdown pages of the Chinese translation: chapters, glossary, index.

A page is read through markdown-it-py's token stream (CommonMark, inline HTML on): `page_lines`
walks the block tokens and writes each source line as a reader sees it (links as their labels,
emphasis, anchor tags and entities gone; a list item keeps its marker, since "901. 竞逐时空" and
a glossary's numbered senses are list items to Markdown). A line made only of links is navigation
and reads as empty. The lines then go to `page.parse_page`: glossary term blocks out, the rest to
the line engine. The two languages of a pair are told apart by content, since their order differs
between releases.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from crkb.model import ParseResult
from crkb.sources.page import PageLine, glossary_term, parse_page

_TAG = re.compile(r"<[^<>]*>")
_LINK_GAP = re.compile(r"\s*\|?\s*")  # what may stand between the links of a navigation line


@cache
def _reader() -> MarkdownIt:
    """One CommonMark reader, made on first use (nothing is built at import time)."""
    return MarkdownIt("commonmark", {"html": True})


def _is_navigation(chunk: Sequence[Token]) -> bool:
    """A line made only of links ("返回完整规则目录 | 第八章 …", contents entries)."""
    depth, links = 0, 0
    for tok in chunk:
        if tok.type == "link_open":
            depth += 1
            links += 1
        elif tok.type == "link_close":
            depth -= 1
        elif depth == 0 and not (tok.type == "text" and _LINK_GAP.fullmatch(tok.content)):
            return False
    return links > 0


def _words(chunk: Sequence[Token]) -> str:
    """The words of one line's inline tokens: text as is, markup and inline HTML gone."""
    out: list[str] = []
    for tok in chunk:
        if tok.type in ("text", "text_special", "code_inline"):
            out.append(tok.content)
        elif tok.type == "image":
            out.append(_words(tok.children or []))
    return "".join(out).rstrip()


def _inline_lines(inline: Token) -> list[list[Token]]:
    """An inline token's children cut at its line breaks: one list per source line."""
    lines: list[list[Token]] = [[]]
    for tok in inline.children or []:
        if tok.type in ("softbreak", "hardbreak"):
            lines.append([])
        else:
            lines[-1].append(tok)
            if tok.type == "html_inline":  # a tag may span lines; it is dropped, its lines count
                lines.extend([] for _ in range(tok.content.count("\n")))
    return lines


def _marker(item: Token) -> str:
    """A list item's marker as written before its first line: "901. ", "1. ", "- "."""
    return f"{item.info}{item.markup} " if item.info else f"{item.markup} "


def page_lines(text: str) -> list[PageLine]:
    """Every source line of a Markdown page as a reader sees it (empty for blank lines)."""
    count = text.count("\n") + 1
    out = {no: PageLine(no, "") for no in range(1, count + 1)}
    tokens = _reader().parse(text)
    markers: dict[int, str] = {}  # 0-based line → the list markers that open on it
    level = 0
    for tok in tokens:
        first = tok.map[0] if tok.map else 0
        if tok.type == "list_item_open":
            markers[first] = markers.get(first, "") + _marker(tok)
        elif tok.type == "heading_open":
            level = int(tok.tag[1])
        elif tok.type == "heading_close":
            level = 0
        elif tok.type == "hr":
            out[first + 1] = PageLine(first + 1, "", ruler=True)
        elif tok.type == "inline":
            for i, chunk in enumerate(_inline_lines(tok)):
                no = first + i
                words = _words(chunk)
                if not level:
                    marker = markers.pop(no, "")
                    words = "" if _is_navigation(chunk) else marker + words
                out[no + 1] = PageLine(no + 1, words, heading=level)
        elif tok.type in ("html_block", "code_block", "fence"):
            body = tok.content.split("\n")
            start = first + (1 if tok.type == "fence" else 0)
            for i, raw in enumerate(body[:-1] if body and not body[-1] else body):
                line = raw if tok.type != "html_block" else html.unescape(_TAG.sub("", raw))
                out[start + i + 1] = PageLine(start + i + 1, line.rstrip())
    return [out[no] for no in range(1, count + 1)]


def clean_line(line: str) -> str:
    """One source line without markup; headings lose their #s, navigation lines vanish."""
    return page_lines(line)[0].text


def glossary_pairs(text: str) -> list[tuple[str, str]]:
    """(English term, Chinese term) for every term heading of a bilingual glossary page."""
    return [p for line in page_lines(text) if (p := glossary_term(line))]


def parse(text: str, *, source: str, file_date: str | None) -> ParseResult:
    """One Markdown page → a Document per language (none for a page without rules or glossary)."""
    return parse_page(
        page_lines(text), text=text, source=source, file_date=file_date, fmt="markdown"
    )
