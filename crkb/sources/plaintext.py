"""The official plain-text layout (July 2009 on), English and Chinese alike.

A document is read in four steps, each a small function over the decoded lines:
`split_parts` (front matter, contents, rules, glossary, credits) → `parse_rules` →
`parse_glossary` → `attach_titles`. Rule text is the source line minus its number, character for
character; the publisher's slips (`119.1d.`, `606.5 ` without a dot, `901.4.All`, a leading space,
`702. 37a` with a space after the section's dot) change where the number ends, never the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from crkb.model import Document, GlossaryEntry, Kind, Rule
from crkb.numbers import parent_of

# A numbered line: optional single leading space, the number, an optional dot, optional space.
NUMBERED = re.compile(r"^ ?(\d{3})\.(\d+)([a-z]{0,2})(?![\d])\.?(?: *)(.*)$")
SECTION = re.compile(r"^ ?(\d{3})\.? +(\S.*)$")
CHAPTER = re.compile(r"^ ?(\d)\. +(\S.*)$")
EXAMPLE = re.compile(r"^ ?(?:Example:|例如[：:])\s?")
# "702. 37a Storm is …": a rule line with a space after the section's dot (read only inside an
# open section, where a second heading of that section cannot be meant).
SLIPPED = re.compile(r"^ ?(\d{3})\. (\d+)([a-z]{0,2})(?![\d])\.?(?: ?)(\S.*)$")
# A line that ends a sentence, or closes a bracket or quotation, is not a title. Full-width
# closers end Chinese sentences: "…生物可以进行攻击和阻挡。（参见规则508。）".
SENTENCE_END = re.compile(r"[.。:：;；!?！？”)）」』】\]]$|[,，。] ")

GLOSSARY_HEADINGS = ("Glossary", "词汇表")
CREDITS_HEADINGS = ("Credits", "版权信息")
# An appendix some translations print between glossary and credits, "English: 中文" lines of
# provisional names (2022-06-10): not glossary entries, it ends the glossary as credits do.
APPENDIX_HEADINGS = ("暂译名称列表",)
CONTENTS_HEADINGS = ("Contents", "目录")
INTRO_HEADINGS = ("Introduction", "前言")


def _strip(line: str) -> str:
    return line.strip().strip("\ufeff")


def body_start(
    lines: Sequence[str],
    is_rule: Callable[[str], object],
    chapter: re.Pattern[str] = CHAPTER,
    section: re.Pattern[str] = SECTION,
) -> int:
    """Where the rules begin: the chapter (or section) heading just before the first rule."""
    first_rule = next((i for i, ln in enumerate(lines) if is_rule(ln)), len(lines))
    body = first_rule
    for i in range(first_rule - 1, max(-1, first_rule - 40), -1):
        if chapter.match(lines[i]):
            return i
        if section.match(lines[i]):
            body = i
    return body


def split_parts(lines: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Line ranges of front, intro, contents, rules, glossary and credits (half-open)."""
    n = len(lines)
    body = body_start(lines, NUMBERED.match)
    glossary = next(
        (
            i
            for i in range(body, n)
            if _strip(lines[i]) in GLOSSARY_HEADINGS and not NUMBERED.match(lines[i])
        ),
        n,
    )
    ends = (*CREDITS_HEADINGS, *APPENDIX_HEADINGS)
    credits = next((i for i in range(glossary, n) if _strip(lines[i]) in ends), n)
    intro = next((i for i in range(0, body) if _strip(lines[i]) in INTRO_HEADINGS), 0)
    contents = next((i for i in range(intro, body) if _strip(lines[i]) in CONTENTS_HEADINGS), body)
    return {
        "front": (0, intro),
        "intro": (intro, contents),
        "contents": (contents, body),
        "rules": (body, glossary),
        "glossary": (glossary, credits),
        "credits": (credits, n),
    }


def looks_like_title(text: str) -> bool:
    """A keyword rule's line is a bare title ("Deathtouch", "死触"), not a sentence."""
    t = text.strip()
    if not t or len(t) > 60:
        return False
    return not SENTENCE_END.search(t)


def _numbered_rule(m: re.Match[str], line: int) -> Rule:
    """A rule or subrule from a `NUMBERED` (or `SLIPPED`) match: its text is group 4, as is."""
    number = f"{m.group(1)}.{m.group(2)}{m.group(3)}"
    kind: Kind = "subrule" if m.group(3) else "rule"
    return Rule(number, kind, m.group(4), parent=parent_of(number), line=line)


def parse_rules(lines: Sequence[str], start: int, end: int) -> tuple[list[Rule], list[str]]:
    """Numbered lines become rules; examples and unnumbered paragraphs attach to the last one."""
    rules: list[Rule] = []
    warnings: list[str] = []
    current: Rule | None = None
    seen: set[str] = set()
    chapter = 0
    for i in range(start, end):
        line = lines[i]
        if not line.strip():
            continue
        m = NUMBERED.match(line)
        if m:
            current = _numbered_rule(m, i + 1)
        elif (m := SLIPPED.match(line)) and m.group(1) in seen:
            current = _numbered_rule(m, i + 1)
            slip = line[: m.start(4)].strip()
            warnings.append(
                f"line {i + 1}: {slip!r}, a space after the dot, read as rule {current.number}"
            )
        elif (m := SECTION.match(line)) and int(m.group(1)) // 100 == chapter:
            number = m.group(1)
            current = Rule(
                number,
                "section",
                m.group(2),
                title=m.group(2).strip(),
                parent=number[0],
                line=i + 1,
            )
        elif (m := CHAPTER.match(line)) and int(m.group(1)) == chapter + 1:
            chapter += 1
            number = m.group(1)
            current = Rule(number, "chapter", m.group(2), title=m.group(2).strip(), line=i + 1)
        elif current is not None and (m := EXAMPLE.match(line)):
            current.examples.append(line[m.end() :])
            continue
        elif current is not None:
            if current.examples:
                current.examples[-1] += "\n" + line
            else:
                current.text += "\n" + line
            continue
        else:
            warnings.append(f"line {i + 1}: text before the first rule: {line[:40]!r}")
            continue
        if current.number in seen:
            warnings.append(f"line {i + 1}: rule number {current.number} appears twice; both kept")
        seen.add(current.number)
        rules.append(current)
    return rules, warnings


# A glossary line that closes a definition: a sentence's end, or a closing quote or bracket.
_DEFINITION_END = tuple('.。”"’)）')
HEADWORD_MAX = 60  # characters: "Active Player, Nonactive Player Order" is 37


def _headword(line: str) -> bool:
    """A line that can be a glossary headword: short, no sentence's end, no sense number."""
    s = line.strip()
    return (
        0 < len(s) <= HEADWORD_MAX
        and not s.endswith((*_DEFINITION_END, ":", "：", ","))
        and not s[0].isdigit()
        and not s[0].islower()
    )


def _entries(block: Sequence[str]) -> list[list[str]]:
    """One blank-line block as its entries: some releases lost the blank line between two
    entries (2021-11-15: "…“Adventurer Cards.”" then "Affinity" and its definition), so a
    headword line after a finished definition, with a definition after it, starts another."""
    out = [list(block[:2])]
    for i in range(2, len(block)):
        line = block[i]
        if (
            i + 1 < len(block)
            and _headword(line)
            and block[i - 1].rstrip().endswith(_DEFINITION_END)
            and not _headword(block[i + 1])
        ):
            out.append([line])
        else:
            out[-1].append(line)
    return out


def parse_glossary(lines: Sequence[str], start: int, end: int) -> list[GlossaryEntry]:
    """Blank-line separated blocks: the term, then its definition lines."""
    entries: list[GlossaryEntry] = []
    block: list[str] = []
    for line in [*lines[start + 1 : end], ""]:
        if line.strip():
            block.append(line)
            continue
        for entry in _entries(block) if block else []:
            entries.append(GlossaryEntry(entry[0].strip(), "\n".join(entry[1:])))
        block = []
    return entries


def attach_titles(rules: list[Rule]) -> None:
    """Keyword and other titled rules: a rule whose whole line is a title names its subrules."""
    for r in rules:
        if r.kind == "rule" and "\n" not in r.text and looks_like_title(r.text):
            r.title = r.text.strip()


def _block(lines: Sequence[str], span: tuple[int, int]) -> str:
    return "\n".join(lines[span[0] : span[1]]).strip("\n")


def parse_document(
    text: str, *, lang: str, source: str, version: str, alias: str | None
) -> Document:
    """Parse one decoded plain-text document of the modern layout."""
    lines = text.split("\n")
    parts = split_parts(lines)
    rules, warnings = parse_rules(lines, *parts["rules"])
    attach_titles(rules)
    glossary = (
        parse_glossary(lines, *parts["glossary"]) if parts["glossary"][0] < len(lines) else []
    )
    title = next((ln.strip() for ln in lines if ln.strip()), "")
    doc = Document(
        lang=lang,
        version=version,
        alias=alias,
        source=source,
        format="txt",
        title=title,
        intro=_block(lines, parts["intro"]),
        contents=_block(lines, parts["contents"]),
        credits=_block(lines, parts["credits"]),
        rules=rules,
        glossary=glossary,
        warnings=warnings,
    )
    if parts["glossary"][0] >= len(lines) or parts["credits"][0] >= len(lines):
        doc.flags["truncated"] = True
        doc.warnings.append("document ends before its glossary and credits: truncated")
    return doc
