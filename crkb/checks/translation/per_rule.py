"""Per-rule comparisons of an English rule and its translation: examples, citations,
quantities, English left untranslated."""

from __future__ import annotations

import re

from crkb.checks import quantities as qty
from crkb.checks.findings import Finding, mark, mark_all
from crkb.checks.translation.common import joined, parts, rule_refs, spans_of
from crkb.model import Rule
from crkb.numbers import sort_key


def example_count(e: Rule, z: Rule) -> list[Finding]:
    """The rule has a different number of examples."""
    if len(e.examples) == len(z.examples):
        return []
    detail = f"{len(e.examples)} example(s) in English, {len(z.examples)} in the translation"
    return [
        Finding(
            e.number,
            "example_count",
            detail,
            "\n".join(mark_all(x) for x in e.examples),
            "\n".join(mark_all(x) for x in z.examples),
            (f"en:{len(e.examples)}", f"zh:{len(z.examples)}"),
        )
    ]


def references(e: Rule, z: Rule) -> list[Finding]:
    """The rule cites a different set of rules."""
    er, zr = rule_refs(e, "en"), rule_refs(z, "zh")
    et, zt = {r.target for r in er}, {r.target for r in zr}
    if et == zt:
        return []
    only_e, only_z = sorted(et - zt, key=sort_key), sorted(zt - et, key=sort_key)
    said = []
    if only_e:
        said.append("English cites " + ", ".join(only_e))
    if only_z:
        said.append("the translation cites " + ", ".join(only_z))
    raw_e = {r.raw for r in er if r.target in set(only_e)}
    raw_z = {r.raw for r in zr if r.target in set(only_z)}
    te, tz = joined(e), joined(z)
    return [
        Finding(
            e.number,
            "references",
            "; ".join(said) + " (not the other)",
            mark(te, spans_of(te, raw_e)),
            mark(tz, spans_of(tz, raw_z)),
            tuple([f"en:{t}" for t in only_e] + [f"zh:{t}" for t in only_z]),
        )
    ]


def numbers(e: Rule, z: Rule) -> list[Finding]:
    """Quantities stated on one side only (rule text against rule text, example against example)."""
    pairs = [("text", e.text, z.text)]
    if len(e.examples) == len(z.examples):
        pairs += [
            (f"example {i}", a, b)
            for i, (a, b) in enumerate(zip(e.examples, z.examples, strict=True), 1)
        ]
    out = []
    for where, a, b in pairs:
        only_e, only_z = qty.differing(qty.quantities(a, "en"), qty.quantities(b, "zh"))
        if not only_e and not only_z:
            continue
        ve = sorted({_num(q.value) for q in only_e})
        vz = sorted({_num(q.value) for q in only_z})
        said = []
        if ve:
            said.append(f"English states {', '.join(ve)}")
        if vz:
            said.append(f"the translation states {', '.join(vz)}")
        detail = f"{where}: " + "; ".join(said) + " (not the other)"
        out.append(
            Finding(
                e.number,
                "numbers",
                detail,
                mark(a, [(q.start, q.end) for q in only_e]),
                mark(b, [(q.start, q.end) for q in only_z]),
                tuple([where] + [f"en:{v}" for v in ve] + [f"zh:{v}" for v in vz]),
            )
        )
    return out


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


# Latin text in the Chinese edition that is not prose: URLs, {symbols}, rule numbers.
_NOT_PROSE = re.compile(
    r"[（(]译注[^）)]*[）)]|[～〜]译注"  # a translator's note may quote English on purpose
    r"|(?:https?://)?(?:[A-Za-z0-9-]+\.)+(?:com|org|net|cn)(?![A-Za-z])(?:/[A-Za-z0-9_\-./]*)?"
    r"|\{[^}]{0,12}\}"
    r"|\d{3}\.\d+[a-z]?(?:\s*[–—-]\s*(?:\d{3}\.)?\d*[a-z]?)?"
)
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z'’\-]*(?:[ ,.'’\-]+[A-Za-z][A-Za-z'’\-]*)*")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")


def is_prose(run: str) -> bool:
    """An English phrase rather than a name: several words, some long words lower-case."""
    words = _WORD.findall(run)
    lower = [w for w in words if w[0].islower() and len(w) >= 2]
    name_like = all(w[0].isupper() for w in words if len(w) >= 4)
    return len(words) >= 3 and len(lower) >= 2 and not name_like


def _quoted(text: str, start: int, end: int) -> bool:
    """A whole quotation in English: the printed wording of a card, quoted on purpose."""
    return text[start - 1 : start] in '“"‘「' and text[end : end + 1] in '”"’」' and start > 0


def untranslated(e: Rule, z: Rule) -> list[Finding]:
    """English phrases left in the Chinese text."""
    out = []
    for i, part in enumerate(parts(z)):
        masked = _NOT_PROSE.sub(lambda m: " " * len(m.group(0)), part)
        runs = [
            m
            for m in _LATIN_RUN.finditer(masked)
            if is_prose(m.group(0)) and not _quoted(masked, m.start(), m.end())
        ]
        if not runs:
            continue
        words = [m.group(0).strip() for m in runs]
        where = "text" if i == 0 else f"example {i}"
        en_part = parts(e)[i] if i < len(parts(e)) else e.text
        out.append(
            Finding(
                e.number,
                "untranslated",
                f"{where}: English left untranslated: " + "; ".join(f"“{w}”" for w in words),
                mark(en_part, []),
                mark(part, [(m.start(), m.end()) for m in runs]),
                tuple([where, *words]),
            )
        )
    return out
