"""Rules pages as HTML (the Markdown pages rendered, or saved from a site): text, headings, anchors.

`page_lines` walks the parsed page once and writes what a reader sees as Markdown-shaped lines:
a heading as `## text`, a paragraph's lines split at `<br>`, `<hr>` as `----`, entities decoded,
inline markup (links, emphasis, anchor tags) reduced to its words. Those lines then take the
Markdown page's path (`page.parse_page`), glossary term pairs included.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup
from bs4.element import Comment, NavigableString, Tag

from crkb.model import ParseResult
from crkb.sources.lines import lang_of
from crkb.sources.page import PageLine, parse_page

_SKIP = {
    "script",
    "style",
    "noscript",
    "template",
    "nav",
    "header",
    "footer",
    "aside",
    "form",
    "head",
    "button",
    "select",
    "svg",
}
_BLOCK = {
    "p",
    "div",
    "li",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "table",
    "tr",
    "td",
    "th",
    "section",
    "article",
    "main",
    "blockquote",
    "pre",
    "body",
    "html",
    "figure",
    "figcaption",
    "tbody",
    "thead",
}
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_SPACE = re.compile(r"[ \t\r\f\v]+")
_HEADING_MARK = re.compile(r"^(#{1,6}) (.*)$")


def _walk(node: Tag, lines: list[str], buf: list[str]) -> None:
    for child in node.children:
        if isinstance(child, Comment):
            continue
        if isinstance(child, NavigableString):
            buf.append(str(child))
            continue
        if not isinstance(child, Tag) or child.name in _SKIP:
            continue
        name = child.name
        if name == "br":
            _flush(lines, buf)
        elif name == "hr":
            _flush(lines, buf)
            lines.append("----")
        elif name in _HEADINGS:
            _flush(lines, buf)
            inner: list[str] = []
            _walk(child, [], inner)
            text = _SPACE.sub(" ", "".join(inner).replace("\n", " ")).strip()
            lines.append("#" * _HEADINGS[name] + " " + text)
        elif name == "ol":
            _flush(lines, buf)
            _numbered_list(child, lines)
        elif name in _BLOCK:
            _flush(lines, buf)
            _walk(child, lines, buf)
            _flush(lines, buf)
        else:
            _walk(child, lines, buf)


def _numbered_list(ol: Tag, lines: list[str]) -> None:
    """`<ol>` items get their numbers back, counted per language: a bilingual list renders
    "1. 中文 / 1. English" as four items, and each language's senses run 1, 2 …"""
    start_attr = str(ol.get("start") or "1")
    start = int(start_attr) if start_attr.isdigit() else 1
    count: dict[str | None, int] = {}
    for li in ol.find_all("li", recursive=False):
        item: list[str] = []
        pending: list[str] = []
        _walk(li, item, pending)
        _flush(item, pending)
        if not item:
            continue
        lang = lang_of(item[0])
        count[lang] = count.get(lang, start - 1) + 1
        item[0] = f"{count[lang]}. {item[0]}"
        lines.extend(item)


def _flush(lines: list[str], buf: list[str]) -> None:
    """The pending inline text as one line (a newline in HTML source is only a space)."""
    text = _SPACE.sub(" ", "".join(buf).replace("\n", " ")).strip()
    if text:
        lines.append(text)
    buf.clear()


def page_lines(text: str) -> list[str]:
    """The page as Markdown-shaped plain lines, in reading order."""
    soup = BeautifulSoup(text, "html.parser")
    lines: list[str] = []
    buf: list[str] = []
    _walk(soup, lines, buf)
    _flush(lines, buf)
    return lines


def as_page(lines: list[str]) -> list[PageLine]:
    """The Markdown-shaped lines as page lines: `#` marks become heading levels, `----` a ruler."""
    out: list[PageLine] = []
    for no, line in enumerate(lines, 1):
        if line == "----":
            out.append(PageLine(no, "", ruler=True))
        elif m := _HEADING_MARK.match(line):
            out.append(PageLine(no, m.group(2), heading=len(m.group(1))))
        else:
            out.append(PageLine(no, line))
    return out


def parse(text: str, *, source: str, file_date: str | None) -> ParseResult:
    """One HTML page → a Document per language (none for a page without rules or glossary)."""
    lines = page_lines(text)
    plain = "\n".join(lines)
    return parse_page(
        as_page(lines), text=plain, source=source, file_date=file_date, fmt="html", chrome=True
    )
