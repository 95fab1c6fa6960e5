"""One file in, documents out: decode, decide the shape and language, hand to that shape's parser.

Each shape has its own module (`plaintext`, `legacy`, `markdown`, `dokuwiki`, `webcopy`, `html`);
this module only decides which one reads a file and fills in version identity afterwards.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from crkb.corpus import MAX_BYTES, file_bytes
from crkb.errors import NotARulesDocument
from crkb.graph.references import link_document
from crkb.model import Document, ParseResult
from crkb.sources import dokuwiki, html, identity, legacy, markdown, plaintext, webcopy
from crkb.sources.decode import NotText, decode
from crkb.sources.language import cjk_share
from crkb.sources.script import TRADITIONAL, simplified_copy

MAX_LINE = 100_000
_RULE_LINE = re.compile(r"^ ?\d{3}\.\d+[a-z]?\.? ?\S", re.M)
_MODERN_START = "2009-07-01"
_SITE_LINK = re.compile(r"\]\(\.?/|\[\[:?[^\]]*\|")
_SITE_PAGE = re.compile(r"^[#=\s]*(?:前言|目录|版权信息|Introduction|Contents|Credits)", re.M)
_PAIRED_LINES = re.compile(r"\n(\d{3}\.\d+[a-z]?)\.? .*\n+\1\.? ")  # "\n" first: a fast scan
# Rulings summaries of the same era share the subject but hold no numbered rules.
_SUMMARY = re.compile(r"Rulings? Summar|Rules Summary|Rulings are collected", re.I)
# A character a lossy copy lost: `?` between two Latin letters (`can?t`, `player?s`, `cards?even`,
# `409.1f?h`), which English rules never write; a web address's query (`default.asp?x=`) aside.
_LOST = re.compile(r"\?(?=[A-Za-z])")  # and a letter before it: the `?` first, found fast
_ADDRESS = re.compile(r"www\.|://|\.aspx?\?")  # a word holding one is a web address
# In-word `?` a file holds before it reads as a lossy copy: whole releases hold none outside web
# addresses; the 2008-05-01 copy (every ’ and “ lost) holds ~1,660, that of 2009-05-01 (every
# dash lost) 70.
LOST_CHARACTERS_MIN = 10
# A text whose opening is this Chinese (`cjk_share`) is a Chinese one; a bilingual page is too.
CHINESE_SHARE = 0.3
TRADITIONAL_SAMPLE = 30_000  # characters read to tell Traditional characters from Simplified


def detect_format(text: str) -> str:
    """The shape of a decoded text, by what only that shape contains."""
    head = text[:400_000]
    if re.search(r"</(?:p|h[1-6]|div)>", head) and len(re.findall(r"<[a-z]+[\s>]", head)) > 20:
        return "html"  # before Markdown: a rendered Markdown page keeps its anchor tags
    # One search per literal start: an alternation of different first characters scans slowly.
    if "<BOOKMARK:cr" in head or "[[cr:" in head:
        return "dokuwiki"
    if re.search(r"<(?:b|span) id=['\"]cr\d", head) or re.search(r"\]\(\.?/\d#cr\d", head):
        return "markdown"
    if (
        re.search(r"<(?:html|body|div|p|h[1-6])[\s>]", head, re.I)
        and len(re.findall(r"<[a-z]+[\s>]", head)) > 20
    ):
        return "html"
    # "900.1. English" then "900.1. 中文": a web copy, which shows its pairs early
    paired = _PAIRED_LINES.finditer(head, 0, 150_000)
    if sum(1 for _ in itertools.islice(paired, 3)) >= 3:
        return "web"
    title = "\n".join(head.split("\n", 40)[:40])
    official = re.search(r"Comprehensive\s+Rules|COMPREHENSIVE\s+RULES|万智牌完整规则", title)
    if official and sum(1 for _ in itertools.islice(_RULE_LINE.finditer(head), 50)) >= 50:
        return "txt"
    return "web"


def _refuse(path: str, reason: str) -> NotARulesDocument:
    return NotARulesDocument(f"{path}: not a rules document: {reason}")


def read_bytes(data: bytes, path: str) -> ParseResult:
    """Parse one file's bytes (the path is for naming and for its date)."""
    if len(data) > MAX_BYTES:
        raise _refuse(path, f"{len(data)} bytes is larger than any rules document")
    try:
        decoded = decode(data)
    except NotText as e:
        raise _refuse(path, str(e)) from None
    text = decoded.text
    if max((len(line) for line in text.split("\n")), default=0) > MAX_LINE:
        raise _refuse(path, f"a line longer than {MAX_LINE} characters")
    if _SUMMARY.search(text[:5000]) and not _RULE_LINE.search(text):
        raise _refuse(path, "a rulings summary with no numbered rules, not the Comprehensive Rules")
    fmt = detect_format(text)
    if _in_traditional(text):
        # The translation is kept in Simplified characters, which searches and checks read:
        # a text in Traditional ones is named, not stored beside it nor converted (its text
        # would no longer be the source's).
        return ParseResult(
            format=fmt, language=TRADITIONAL, warnings=[f"written in {TRADITIONAL}: not stored"]
        )
    fdate = identity.file_date(path)
    try:
        result = _dispatch(fmt, text, path, fdate)
    except webcopy.NotRulesText as e:
        raise _refuse(path, str(e)) from None
    lost = lost_characters(text)
    for doc in result.documents:
        if decoded.replacement_chars:
            doc.flags["replacement_chars"] = decoded.replacement_chars
            doc.warnings.append(
                f"{decoded.replacement_chars} replacement characters (U+FFFD) in the source"
            )
        if lost >= LOST_CHARACTERS_MIN:
            doc.flags["lost_characters"] = lost
            doc.warnings.append(
                f"{lost} characters lost as `?` inside words in the source (a lossy copy)"
            )
        doc.flags.setdefault("encoding", decoded.encoding)
        link_document(doc)
    if not result.documents and not result.language and not result.garbled:
        site = fmt in ("markdown", "dokuwiki") or _SITE_LINK.search(text[:3000])
        if site and (identity.stated_date(text) or _SITE_PAGE.search(text)):
            # An index or credits page of a rules site: it names its release, holds no rules.
            result.warnings.append(f"{path}: a page of a rules site with no rules on it")
            return result
        raise _refuse(path, "no numbered rules found")
    return result


def _in_traditional(text: str) -> bool:
    """True for a Chinese text written in Traditional characters (its opening is enough)."""
    head = text[:TRADITIONAL_SAMPLE]
    return cjk_share(head) > CHINESE_SHARE and simplified_copy(head) is not None


def lost_characters(text: str) -> int:
    """How many characters a lossy copy replaced by `?` inside a word (`can?t`): a count of the
    in-word `?` outside web addresses. The text itself is kept as it is. Each `?` found is
    judged by its own word, the few of them there are: a pattern for an address anywhere
    tried from every character of a file (~50 ms a file) made a third of a parse."""
    count = 0
    for m in _LOST.finditer(text):
        start = end = m.start()
        if not start or not ("A" <= text[start - 1] <= "Z" or "a" <= text[start - 1] <= "z"):
            continue
        while start and not text[start - 1].isspace():
            start -= 1
        while end < len(text) and not text[end].isspace():
            end += 1
        count += _ADDRESS.search(text, start, end) is None
    return count


def _dispatch(fmt: str, text: str, path: str, fdate: str | None) -> ParseResult:
    if fmt == "txt":
        return _read_official(text, path, fdate)
    if fmt == "markdown":
        return markdown.parse(text, source=path, file_date=fdate)
    if fmt == "dokuwiki":
        return dokuwiki.parse(text, source=path, file_date=fdate)
    if fmt == "html":
        return html.parse(text, source=path, file_date=fdate)
    return webcopy.parse(text, source=path, file_date=fdate)


def _read_official(text: str, path: str, fdate: str | None) -> ParseResult:
    stated = identity.stated_date(text)
    version = stated or fdate
    if version is None:
        raise _refuse(path, "no effective date in the text and none in the file name")
    alias = fdate if fdate and fdate != version else None
    lang = "zh" if cjk_share(text[:30_000]) > CHINESE_SHARE else "en"
    if version < _MODERN_START:
        doc: Document = legacy.parse_document(
            text, lang=lang, source=path, version=version, alias=alias
        )
    else:
        doc = plaintext.parse_document(text, lang=lang, source=path, version=version, alias=alias)
    if stated and fdate and stated != fdate:
        doc.warnings.append(
            f"the text states release {stated}; filed under it ({fdate} kept as alias)"
        )
    return ParseResult(format=doc.format, documents=[doc], warnings=list(doc.warnings))


def read_file(path: str | Path) -> ParseResult:
    """Parse one file from disk."""
    p = Path(path)
    try:
        data = file_bytes(p)
    except IsADirectoryError:
        raise _refuse(str(path), "it is a directory") from None
    except OSError as e:
        raise NotARulesDocument(f"{path}: cannot read: {e.strerror or e}") from None
    return read_bytes(data, str(path))
