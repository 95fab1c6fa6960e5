"""What every translation check shares: a rule's parts and the citations in them."""

from __future__ import annotations

import re

from crkb.graph.references import extract
from crkb.model import Reference, Rule

# "See 706, “Rolling a Die.”": a section cited by number and title without the word "rule".
_SECTION_TITLED = re.compile(r"(?<![\d.])(\d{3})(?=[,，]\s*[“\"])")


def parts(rule: Rule) -> list[str]:
    return [rule.text, *rule.examples]


# "规则509.1b至c": a letter range written with 至, which the reference grammar reads as a list.
_ZH_LETTER_RANGE = re.compile(r"(\d{3}\.\d+[a-z])\s*至\s*([a-z])(?![a-z])")


def extract_refs(source: str, text: str, lang: str) -> list[Reference]:
    """References of a text, plus sections cited by number and title alone."""
    if lang == "zh":
        text = _ZH_LETTER_RANGE.sub(lambda m: f"{m.group(1)}-{m.group(2)}", text)
    refs = extract(source, text, lang)
    refs += [Reference(source, m.group(1), m.group(1)) for m in _SECTION_TITLED.finditer(text)]
    return refs


def rule_refs(rule: Rule, lang: str) -> list[Reference]:
    return [r for part in parts(rule) for r in extract_refs(rule.number, part, lang)]


def spans_of(text: str, needles: set[str]) -> list[tuple[int, int]]:
    spans = []
    for needle in needles:
        for m in re.finditer(re.escape(needle) + r"(?![\d.]\d)", text):
            spans.append((m.start(), m.end()))
    return spans


def joined(rule: Rule) -> str:
    return "\n".join(parts(rule))
