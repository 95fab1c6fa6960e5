"""DokuWiki page sources of the Chinese translation: chapter pages and glossaries.

`clean_line` strips the wiki markup (bookmarks, `[[target|label]]` links, `//italics//`,
`**bold**`, `\\\\` line breaks, `====== headings ======`, `<WRAP>`); a chapter page's lines then
go to the line engine in `lines`, a glossary page's `----` blocks to the same
term pairing the Markdown glossary uses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from crkb.model import ParseResult
from crkb.sources.lines import Line, build_documents, lang_of
from crkb.sources.page import pair_blocks

_BOOKMARK = re.compile(r"<BOOKMARK:[^>]*>")
_LINK = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")
# A link with a bracket missing in the source: "[cr:1#cr103-2c|103.2c]]".
_BROKEN_LINK = re.compile(r"\[{1,2}([a-z]+:[^\[\]|\s]*)\|([^\[\]]*)\]{1,2}")
_ITALIC = re.compile(r"(?<!:)//(?=\S)(.+?)(?<=\S)(?<!:)//")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_MONO = re.compile(r"''(.+?)''")
_UNDERLINE = re.compile(r"__(.+?)__")
_NOWIKI = re.compile(r"%%(.*?)%%")
_TAG = re.compile(r"</?(?:WRAP|wrap|del|sup|sub|nowiki|html|code|file)(?:\s[^<>]*)?>")
_INCLUDE = re.compile(r"\{\{[^{}]*\}\}")
# BBCode a wiki copy carries: `[url]…[/url]`, `[color=blue]…[/color]`. A colour or size tag
# opens only with its value: a bare `[color]` is the rules' own placeholder ("devotion to
# [color]"), words to keep.
_BBCODE = re.compile(
    r"\[/(?:url|color|b|i|u|size)\]|\[(?:url|b|i|u)\]|\[(?:url|color|size)=[^\]]*\]"
)
_HEADING = re.compile(r"^\s*(={2,6})\s*(.*?)\s*={2,6}\s*$")
_RULER = re.compile(r"^\s*-{4,}\s*$")
_BREAK = re.compile(r"\s*\\\\(?=\s|$)")
_NAV_ONLY = re.compile(r"^\s*(?:\[\[[^\]]*\]\]\s*(?:[|-]\s*)?)+$")
_RULE_ANCHOR = re.compile(r"<BOOKMARK:cr\d")


def link_label(m: re.Match[str]) -> str:
    """`[[cr:8#cr806|806]]` → `806`; a bare `[[page]]` → `page`."""
    return m.group(2) if m.group(2) is not None else m.group(1).split(":")[-1]


def clean_inline(text: str) -> str:
    """Wiki markup → the words a reader sees."""
    text = _BOOKMARK.sub("", text)
    text = _INCLUDE.sub("", text)
    text = _TAG.sub("", text)
    text = _BBCODE.sub("", text)
    text = _LINK.sub(link_label, text)
    text = _BROKEN_LINK.sub(r"\2", text)
    text = _NOWIKI.sub(r"\1", text)
    text = _BOLD.sub(r"\1", text)
    text = _ITALIC.sub(r"\1", text)
    text = _MONO.sub(r"\1", text)
    text = _UNDERLINE.sub(r"\1", text)
    return _BREAK.sub("", text).rstrip()


def clean_line(line: str) -> str:
    """One source line without markup; headings lose their `=`s, navigation lines vanish."""
    if _NAV_ONLY.match(line) or _RULER.match(line):
        return ""
    if m := _HEADING.match(line):
        line = m.group(2)
    return clean_inline(line)


def glossary_blocks(lines: Sequence[str]) -> list[tuple[tuple[str, str], list[str]]]:
    """`----`-separated blocks: the term line pair first, then the definition lines."""
    blocks: list[tuple[tuple[str, str], list[str]]] = []
    chunk: list[str] = []
    for raw in [*lines, "----"]:
        if _RULER.match(raw):
            if len(chunk) >= 2:
                a, b = chunk[0], chunk[1]
                if lang_of(a) == "zh" and lang_of(b) != "zh":
                    a, b = b, a
                blocks.append(((a, b), chunk[2:]))
            chunk = []
        elif not _HEADING.match(raw) and (text := clean_line(raw)).strip():
            chunk.append(text)
    return blocks


def parse(text: str, *, source: str, file_date: str | None) -> ParseResult:
    """One DokuWiki page → a Document per language (none for a page without rules or glossary)."""
    lines = text.split("\n")
    glossary = None
    if not _RULE_ANCHOR.search(text) and (blocks := glossary_blocks(lines)):
        glossary = pair_blocks(blocks)
        rest: list[Line] = []
    else:
        rest = [(no, clean_line(raw)) for no, raw in enumerate(lines, 1)]
    titles: dict[str, str] = {}
    for raw in lines:
        if (m := _HEADING.match(raw)) and len(m.group(1)) == 6:
            title = clean_inline(m.group(2))
            titles = {lang_of(title) or "zh": title}
            break
    return build_documents(
        rest,
        text=text,
        source=source,
        file_date=file_date,
        fmt="dokuwiki",
        glossary=glossary,
        titles=titles,
    )
