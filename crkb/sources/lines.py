"""The line engine: rules text once markup is gone, numbered lines in one or two languages.

Every non-official shape ends up here. Markdown, DokuWiki and HTML pages strip their markup to
plain lines and call `build_documents`; a web copy (`webcopy`) is such lines already. The steps,
each a small function: `classify` (what each line is, in which language) → `accept_headings` (a
section or chapter line must lead into its own rules) → `assemble` (rules, examples and
continuations per language). A no-break space (a page's `&nbsp;`) is read as the space it stands
for; no other character changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from crkb.model import Document, GlossaryEntry, Kind, ParseResult, Rule
from crkb.numbers import parent_of
from crkb.sources import identity
from crkb.sources.language import cjk_share
from crkb.sources.plaintext import (
    CHAPTER,
    EXAMPLE,
    NUMBERED,
    SECTION,
    attach_titles,
    looks_like_title,
)

_LETTER = re.compile(r"[A-Za-z\u4e00-\u9fff]")
# "竞逐时空 Planechase", "APNAP顺序 APNAP Order": Chinese title, then the English one.
_PAIRED_TITLE = re.compile(
    r"^(?P<zh>.*[\u3000-\u9fff\uff00-\uffef])\s+(?P<en>[A-Za-z][ -~’‘“”–—]*)$"
)
_SENTENCE_END = re.compile(r"[.。:：;；!?！？”\"')）]$")
LANGS = ("en", "zh")
Line = tuple[int, str]  # (1-based source line, text without markup)
# A language holding fewer numbered rules than this share of the other's, on the same page, is a
# few translated lines in a page of the other language (a wiki page part-way through its
# translation), not a copy in that language: stored, it would stand as that release's whole
# translation, checked and searched as one.
MIN_LANG_SHARE = 0.25
_NAMES = {"en": "English", "zh": "Chinese"}


@dataclass(slots=True)
class Item:
    """One classified line."""

    line: int
    kind: str  # "chapter", "section", "rule", "subrule", "example", "text"
    lang: str | None  # None: no letters to tell by
    text: str
    number: str | None = None
    pair: tuple[str, str] | None = None  # (zh, en) titles of a bilingual heading


def lang_of(text: str) -> str | None:
    """ "zh" for a mostly-Chinese line, "en" for a Latin one, None when there are no letters."""
    if not _LETTER.search(text):
        return None
    return "zh" if cjk_share(text) > 0.15 else "en"


def other(lang: str) -> str:
    """The other of the two stored languages."""
    return "en" if lang == "zh" else "zh"


def split_title(text: str) -> tuple[str, str] | None:
    """A bilingual heading "竞逐时空 Planechase" → ("竞逐时空", "Planechase"); else None."""
    m = _PAIRED_TITLE.match(text.strip())
    if not m or lang_of(m.group("zh")) != "zh":
        return None
    return m.group("zh").strip(), m.group("en").strip()


def classify(lines: Iterable[Line]) -> list[Item]:
    """What each non-empty line is: a numbered rule, a heading candidate, an example or text."""
    items: list[Item] = []
    for no, text in lines:
        if not text.strip():
            continue
        if m := NUMBERED.match(text):
            number = f"{m.group(1)}.{m.group(2)}{m.group(3)}"
            kind = "subrule" if m.group(3) else "rule"
            body = m.group(4)
            pair = split_title(body) if looks_like_title(body) else None
            items.append(Item(no, kind, lang_of(body), body, number, pair))
        elif (m := SECTION.match(text)) or (m := CHAPTER.match(text)):
            kind = "section" if len(m.group(1)) == 3 else "chapter"
            title = m.group(2).strip()
            items.append(Item(no, kind, lang_of(title), title, m.group(1), split_title(title)))
        elif m := EXAMPLE.match(text):
            lang = "zh" if text.lstrip().startswith("例") else "en"
            items.append(Item(no, "example", lang, text[m.end() :]))
        else:
            items.append(Item(no, "text", lang_of(text), text))
    return items


def leads_into(heading: str, rule: str) -> bool:
    """Whether a chapter or section heading can precede this rule (a section may hold none)."""
    if len(heading) == 1:
        return rule[0] == heading
    return rule[0] == heading[0] and rule[:3] >= heading


def accept_headings(items: list[Item]) -> list[Item]:
    """Keep a section or chapter line only when the next numbered rule belongs to it."""
    out: list[Item] = []
    next_rule: str | None = None
    for item in reversed(items):
        if item.kind in ("rule", "subrule"):
            next_rule = item.number
        elif item.kind in ("section", "chapter"):
            assert item.number is not None
            if next_rule is None or not leads_into(item.number, next_rule):
                item = Item(item.line, "text", lang_of(item.text), f"{item.number}. {item.text}")
        out.append(item)
    out.reverse()
    return out


def _heading_lang_texts(item: Item, first: str) -> list[tuple[str, str]]:
    if item.pair:
        return [("zh", item.pair[0]), ("en", item.pair[1])]
    return [(item.lang or first, item.text)]


def _new_rule(item: Item, text: str) -> Rule:
    assert item.number is not None
    kind = item.kind  # chapter, section, rule or subrule
    if kind == "chapter":
        return Rule(item.number, "chapter", text, title=text, line=item.line)
    if kind == "section":
        return Rule(item.number, "section", text, title=text, parent=item.number[0], line=item.line)
    rule_kind: Kind = "subrule" if kind == "subrule" else "rule"
    return Rule(item.number, rule_kind, text, parent=parent_of(item.number), line=item.line)


def _sentence_like(text: str) -> bool:
    t = text.strip()
    return len(t) >= 15 and bool(_SENTENCE_END.search(t))


def assemble(
    items: Sequence[Item], *, chrome: bool, first: str = "en"
) -> tuple[dict[str, list[Rule]], list[str]]:
    """Rules per language; unnumbered lines attach to the last rule of their language.

    With `chrome` (a saved web page), an unnumbered line only continues a rule when it reads as a
    sentence: menus, counters and comment widgets around the rules are left out.
    """
    rules: dict[str, list[Rule]] = {lang: [] for lang in LANGS}
    current: dict[str, Rule | None] = {lang: None for lang in LANGS}
    seen: dict[str, set[str]] = {lang: set() for lang in LANGS}
    warnings: list[str] = []
    ignored = 0
    prev_numbered: Item | None = None
    from_pair: set[tuple[str, str]] = set()  # (lang, number) made from a bilingual heading
    for item in items:
        if item.kind in ("chapter", "section") or item.pair:
            assert item.number is not None
            for lang, text in _heading_lang_texts(item, first):
                last = current[lang]
                if last is not None and last.number == item.number:
                    last.text = text  # the single-language line after a paired one
                    last.title = text if last.title else None
                    continue
                rule = _new_rule(item, text)
                _add(rules, seen, warnings, lang, rule)
                current[lang] = rule
                if item.pair:
                    from_pair.add((lang, item.number))
            prev_numbered = item
        elif item.kind in ("rule", "subrule"):
            if item.lang is None:
                same = prev_numbered is not None and prev_numbered.number == item.number
                item.lang = other(prev_numbered.lang or first) if same and prev_numbered else first
            lang = item.lang
            last = current[lang]
            if last is not None and (lang, item.number) in from_pair and last.number == item.number:
                last.text = item.text  # the single-language line after a paired heading
                from_pair.discard((lang, item.number))
            else:
                rule = _new_rule(item, item.text)
                _add(rules, seen, warnings, lang, rule)
                current[lang] = rule
            prev_numbered = item
        else:
            target = current.get(item.lang) if item.lang else None
            if target is None or (
                chrome and (item.kind == "text" and not _sentence_like(item.text))
            ):
                ignored += 1
                continue
            if item.kind == "example":
                target.examples.append(item.text)
            elif target.examples:
                target.examples[-1] += "\n" + item.text
            else:  # a number alone on its line takes the next line as its text
                target.text = f"{target.text}\n{item.text}" if target.text else item.text
    if ignored and chrome and any(rules.values()):
        warnings.append(f"{ignored} lines of page text around the rules left out")
    for lang_rules in rules.values():
        attach_titles(lang_rules)
    return rules, warnings


def _add(
    rules: dict[str, list[Rule]],
    seen: dict[str, set[str]],
    warnings: list[str],
    lang: str,
    rule: Rule,
) -> None:
    if rule.number in seen[lang]:
        warnings.append(
            f"line {rule.line}: {lang} rule number {rule.number} appears twice; both kept"
        )
    seen[lang].add(rule.number)
    rules[lang].append(rule)


def order_of(items: Sequence[Item]) -> str:
    """Which language comes first in a pair of lines with the same number (default English)."""
    votes = {"en": 0, "zh": 0}
    for a, b in zip(items, items[1:], strict=False):
        if a.number and a.number == b.number and a.lang and b.lang and a.lang != b.lang:
            votes[a.lang] += 1
    return "zh" if votes["zh"] > votes["en"] else "en"


def version_of(text: str, file_date: str | None) -> tuple[str, str | None, list[str]]:
    """(version, alias, warnings): the effective date the text states, else the file's date."""
    stated = identity.stated_date(text)
    version = stated or file_date
    if version is None:
        return "unknown", None, ["no effective date in the text and none in the file name"]
    alias = file_date if file_date and file_date != version else None
    return version, alias, []


def _numbered(rules: Sequence[Rule]) -> int:
    return sum(1 for r in rules if r.kind in ("rule", "subrule"))


def stray_languages(
    rules: dict[str, list[Rule]], glossary: dict[str, list[GlossaryEntry]]
) -> dict[str, tuple[int, int]]:
    """Languages with only a few rules beside the other's: lang → (its rules, the other's).

    Pure: what a page holds decides it, so a snippet with half its rules translated stays
    bilingual while the whole page with a sixth of them does not.
    """
    size = {lang: _numbered(rules[lang]) + len(glossary.get(lang, [])) for lang in LANGS}
    return {
        lang: (size[lang], size[other(lang)])
        for lang in LANGS
        if (rules[lang] or glossary.get(lang)) and size[lang] < MIN_LANG_SHARE * size[other(lang)]
    }


def build_documents(
    lines: Sequence[Line],
    *,
    text: str,
    source: str,
    file_date: str | None,
    fmt: str,
    chrome: bool = False,
    glossary: dict[str, list[GlossaryEntry]] | None = None,
    titles: dict[str, str] | None = None,
) -> ParseResult:
    """One Document per language that has rules or glossary entries, all of one version."""
    items = accept_headings(classify((no, ln.replace("\xa0", " ")) for no, ln in lines))
    rules, warnings = assemble(items, chrome=chrome, first=order_of(items))
    version, alias, vwarn = version_of(text, file_date)
    glossary = glossary or {}
    stray = stray_languages(rules, glossary)
    for lang, (few, many) in stray.items():
        warnings.append(
            f"{few} {_NAMES[lang]} rules beside {many} {_NAMES[other(lang)]} ones: a few"
            f" translated lines in a page of {_NAMES[other(lang)]} rules, not a copy in"
            f" {_NAMES[lang]}; left out"
        )
    docs: list[Document] = []
    for lang in LANGS:
        if lang in stray or (not rules[lang] and not glossary.get(lang)):
            continue
        title = (titles or {}).get(lang) or next(
            (r.text for r in rules[lang] if r.kind == "chapter"), ""
        )
        doc = Document(
            lang=lang,
            version=version,
            source=source,
            format=fmt,
            alias=alias,
            title=title,
            rules=rules[lang],
            glossary=glossary.get(lang, []),
            warnings=[*vwarn, *warnings],
        )
        docs.append(doc)
    result_warnings = [*vwarn, *warnings]
    if not docs:
        result_warnings.append("no numbered rules and no glossary found")
    return ParseResult(format=fmt, documents=docs, warnings=result_warnings)
