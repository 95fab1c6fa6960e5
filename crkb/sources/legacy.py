"""The official English plain-text layouts of 1999 to May 2009, hard-wrapped or not.

Read in steps over the decoded lines: `split_parts` (front, intro, contents, rules, glossary,
back matter) → `is_wrapped` → `paragraphs` (one per source paragraph; hard-wrapped lines are
joined with one space, the one place where text is rebuilt) → `parse_rules` → `parse_glossary`
→ titles. A rule's text is what follows its number, character for character.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from crkb.model import Document, GlossaryEntry, Kind, Rule
from crkb.numbers import parent_of
from crkb.sources.plaintext import _block, attach_titles, body_start

# "100.1. Text", "102.8 Text", "212.2a Text", "305.3.Text"; "408.f Text" (number slip) too.
NUMBERED = re.compile(r"^\s*(\d{3})\.(\d*)([a-z]{0,2})(?![\d])\.? *(.*)$")
SECTION = re.compile(r"^\s*(\d{3})\.?\s+(\S.*)$")
CHAPTER = re.compile(r"^\s*(\d)\.\s+(\S.*)$")
# "606. 8b Players win …": a space after the section's dot (read only inside section 606).
SLIPPED = re.compile(r"^\s*(\d{3})\. (\d+)([a-z]{0,2})(?![\d])\.? ?(\S.*)$")
EXAMPLE = re.compile(r"^\s*(?:EXAMPLE|Example)\s*:\s?")
SENSE = re.compile(r"^\d+\.\s")  # a glossary entry's numbered sense ("2. A game ends …")
DECORATION = re.compile(r"^\s*[-=_*]{3,}\s*$")
HYPHEN_END = re.compile(r"[^\s-]-$")  # "state-\nbased", "\"at end of turn\"-\ntriggered"
# A minus sign the line broke after: "gets -\n1/-1" is "gets -1/-1" (2004-02-01, 415.1).
MINUS_END = re.compile(r"(?:^|\s)-$")
MINUS_TAIL = re.compile(r"\s*[0-9X]")
# Text after a number that shows a wrapped reference ("rule\n212.2c).") rather than a rule.
_NOT_RULE_START = re.compile(r"^[\s,;:)\]a-z]")

GLOSSARY_HEADINGS = ("Glossary", "GLOSSARY")
BACK_HEADINGS = ("Index", "INDEX", "Credits", "CREDITS")
PARA_INDENT = 3  # a line indented this much deeper than the line before starts a paragraph


@dataclass(slots=True)
class Paragraph:
    """One source paragraph: its first line (1-based), indentation and text."""

    line: int
    indent: int
    text: str


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _blank(line: str) -> bool:
    return not line.strip() or bool(DECORATION.match(line))


def rule_match(line: str) -> re.Match[str] | None:
    """The numbered-rule reading of a line, or None when it is not a rule line."""
    m = NUMBERED.match(line)
    if not m or not m.group(4).strip() or _NOT_RULE_START.match(m.group(4)):
        return None
    if not m.group(2) and not m.group(3):
        return None
    return m


def split_parts(lines: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Line ranges of front, intro, contents, rules, glossary and back matter (half-open)."""
    n = len(lines)
    body = body_start(lines, rule_match, CHAPTER, SECTION)
    glossary = next((i for i in range(body, n) if lines[i].strip() in GLOSSARY_HEADINGS), n)
    back = next((i for i in range(glossary, n) if lines[i].strip() in BACK_HEADINGS), n)
    head = [ln.strip() for ln in lines[:body]]
    intro = max((i for i, s in enumerate(head) if s == "Introduction"), default=0)
    contents = next((i for i, s in enumerate(head) if s in ("Contents", "CONTENTS")), None)
    if contents is None:
        parts = {"front": (0, intro), "intro": (intro, body), "contents": (body, body)}
    elif contents < intro:  # 1999: contents first, then the introduction
        parts = {"front": (0, contents), "contents": (contents, intro), "intro": (intro, body)}
    else:
        parts = {"front": (0, intro), "intro": (intro, contents), "contents": (contents, body)}
    return {**parts, "rules": (body, glossary), "glossary": (glossary, back), "back": (back, n)}


def is_wrapped(lines: Sequence[str], start: int, end: int) -> bool:
    """Hard-wrapped text: rule lines are mostly followed by more lines of the same paragraph."""
    numbered = followed = 0
    for i in range(start, end - 1):
        if not rule_match(lines[i]):
            continue
        numbered += 1
        nxt = lines[i + 1]
        if not _blank(nxt) and not rule_match(nxt) and not EXAMPLE.match(nxt):
            followed += 1
    return numbered > 0 and followed / numbered > 0.2


def _join(head: str, tail: str, hyphen_break: bool) -> str:
    """Join a hard-wrapped line to its paragraph: one space, none after a broken hyphen."""
    return head.rstrip() + ("" if hyphen_break else " ") + tail.strip()


def paragraphs(
    lines: Sequence[str], start: int, end: int, wrapped: bool, terms: bool = False
) -> list[Paragraph]:
    """The paragraphs of a line range; decoration (`-----`) counts as a blank line.

    With `terms` (the glossary), an unindented line after a blank line is a term: a paragraph
    of its own even when its definition follows on the next line.
    """
    out: list[Paragraph] = []
    after_blank = True
    term = False
    prev_indent = 0
    for i in range(start, end):
        line = lines[i]
        if _blank(line):
            after_blank = True
            continue
        indent = _indent(line)
        starts = (
            not wrapped
            or after_blank
            or term
            or not out
            or EXAMPLE.match(line) is not None
            or indent >= prev_indent + PARA_INDENT
        )  # so a number inside a wrapped sentence ("see rule\n212.2c).") stays text
        if starts:
            text = line if rule_match(line) else line.lstrip()
            out.append(Paragraph(i + 1, indent, text.rstrip() if wrapped else text))
        else:
            # "state-" ends its line only where the line broke inside the compound; "power- "
            # (with its space) is a suspended hyphen and keeps the space.
            head = lines[i - 1]  # its trailing space kept: "power- " is a suspended hyphen
            broken = HYPHEN_END.search(head) or (MINUS_END.search(head) and MINUS_TAIL.match(line))
            out[-1].text = _join(out[-1].text, line, bool(broken))
        term = terms and after_blank and indent == 0
        prev_indent = indent
        after_blank = False
    return out


@dataclass(slots=True)
class _State:
    """What `parse_rules` carries from one paragraph to the next."""

    chapter: int = 0
    section: int = 0
    current: Rule | None = None
    last_rule: str | None = None


def _numbered(p: Paragraph, st: _State, warnings: list[str]) -> Rule | None:
    m = rule_match(p.text)
    if not m:
        m = SLIPPED.match(p.text)
        if not m or int(m.group(1)) != st.section or _NOT_RULE_START.match(m.group(4)):
            return None
        slip = p.text[: m.start(4)].strip()
        warnings.append(
            f"line {p.line}: {slip!r}, a space after the dot, read as rule "
            f"{m.group(1)}.{m.group(2)}{m.group(3)}"
        )
    head, rule, letters, text = m.groups()
    if not rule:  # "408.f": the rule number was dropped; it is the previous rule's
        prev = st.last_rule
        if not prev or not prev.startswith(head + "."):
            return None
        rule = prev.split(".", 1)[1]
        warnings.append(f"line {p.line}: {head}.{letters} read as {head}.{rule}{letters}")
    number = f"{head}.{rule}{letters}"
    kind: Kind = "subrule" if letters else "rule"
    st.last_rule = f"{head}.{rule}"
    return Rule(number, kind, text, parent=parent_of(number), line=p.line)


def _heading(p: Paragraph, st: _State, warnings: list[str]) -> Rule | None:
    text = p.text  # the heading's text keeps the source's characters, trailing ones too
    if (m := CHAPTER.match(text)) and int(m.group(1)) == st.chapter + 1 and len(text) < 60:
        st.chapter += 1
        title = m.group(2).strip()
        return Rule(m.group(1), "chapter", m.group(2), title=title, line=p.line)
    m = SECTION.match(text)
    if not m:
        return None
    number = int(m.group(1))
    if number <= st.section or number // 100 not in (st.chapter, st.chapter + 1):
        return None
    if number // 100 != st.chapter:
        warnings.append(f"line {p.line}: section {number} before its chapter heading")
    st.section = number
    # An emptied section ("215. This section is now empty. See rule …") has no title.
    title = m.group(2).strip()
    if len(title) > 80 or re.search(r"[.\]]$", title):
        title = None
    return Rule(m.group(1), "section", m.group(2), title=title, parent=m.group(1)[0], line=p.line)


def parse_rules(paras: Sequence[Paragraph]) -> tuple[list[Rule], list[str]]:
    """Numbered paragraphs become rules; examples and unnumbered paragraphs attach to the last."""
    rules: list[Rule] = []
    warnings: list[str] = []
    seen: set[str] = set()
    st = _State()
    for p in paras:
        rule = _numbered(p, st, warnings) or _heading(p, st, warnings)
        if rule is None:
            cur = st.current
            if cur is None:
                warnings.append(f"line {p.line}: text before the first rule: {p.text[:40]!r}")
            elif m := EXAMPLE.match(p.text):
                cur.examples.append(p.text[m.end() :])
            elif cur.examples and p.indent < PARA_INDENT:
                cur.examples[-1] += "\n" + p.text.lstrip()
            else:
                cur.text += "\n" + p.text.lstrip()
            continue
        if rule.number in seen:
            warnings.append(f"line {p.line}: rule number {rule.number} appears twice; both kept")
        seen.add(rule.number)
        rules.append(rule)
        st.current = rule
    return rules, warnings


def parse_glossary(paras: Sequence[Paragraph], lines: Sequence[str]) -> list[GlossaryEntry]:
    """A term is an unindented paragraph after a blank line; its definition follows it."""
    entries: list[GlossaryEntry] = []
    for p in paras:
        if p.text.strip() in GLOSSARY_HEADINGS:
            continue
        prev = lines[p.line - 2] if p.line >= 2 else ""
        if p.indent == 0 and _blank(prev) and len(p.text) < 80 and not SENSE.match(p.text):
            entries.append(GlossaryEntry(p.text.strip(), ""))
        elif entries:
            e = entries[-1]
            e.text = f"{e.text}\n{p.text.strip()}" if e.text else p.text.strip()
    return entries


def _title(lines: Sequence[str], end: int) -> str:
    for line in lines[:end]:
        if re.search(r"comprehensive\s+rules", line, re.I):
            return " ".join(line.split())
    return "Comprehensive Rules"


def parse_document(
    text: str, *, lang: str, source: str, version: str, alias: str | None
) -> Document:
    """Parse one decoded plain-text document of a 1999–2009 layout."""
    lines = text.split("\n")
    parts = split_parts(lines)
    wrapped = is_wrapped(lines, *parts["rules"])
    rules, warnings = parse_rules(paragraphs(lines, *parts["rules"], wrapped))
    attach_titles(rules)
    gstart, gend = parts["glossary"]
    glossary = parse_glossary(paragraphs(lines, gstart, gend, wrapped, terms=True), lines)
    doc = Document(
        lang=lang,
        version=version,
        alias=alias,
        source=source,
        format="legacy-txt",
        title=_title(lines, parts["rules"][0]),
        intro=_block(lines, parts["intro"]),
        contents=_block(lines, parts["contents"]),
        credits=_block(lines, parts["back"]),
        rules=rules,
        glossary=glossary,
        warnings=warnings,
    )
    if wrapped:
        doc.flags["wrapped"] = True
    if not rules:
        doc.warnings.append("no numbered rules found")
    if gstart >= len(lines) or parts["back"][0] >= len(lines):
        doc.flags["truncated"] = True
        doc.warnings.append("document ends before its glossary and credits: truncated")
    return doc
