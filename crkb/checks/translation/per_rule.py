"""Per-rule comparisons of an English rule and its translation: examples, citations,
quantities, English left untranslated."""

from __future__ import annotations

import re
from collections.abc import Mapping

from crkb.checks import quantities as qty
from crkb.checks.findings import Finding, mark_all, marked
from crkb.checks.translation.common import joined, parts, rule_refs, spans_of
from crkb.checks.translation.terms import fold_inflection
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


_TITLE_WORD = re.compile(r"[A-Za-z]{4,}")
_NOT_TOPICAL = {"rule", "rules", "with", "from", "that", "this", "other", "general", "another"}


def _topic(text: str) -> set[str]:
    """The content words of a text, in a common form (restarting/restart → restart)."""
    return {fold_inflection(w) for w in _TITLE_WORD.findall(text) if w.lower() not in _NOT_TOPICAL}


def english_misfit(text: str, cited: str | None, instead: str | None) -> bool:
    """The English text (or the title it quotes) shares words with the title the translation
    cites, none with the title of the rule the English cites: the English probably cites the
    wrong rule."""
    if not cited or not instead:
        return False
    words = _topic(text)
    return bool(words & _topic(instead)) and not words & _topic(cited)


def references(e: Rule, z: Rule, titles: Mapping[str, str] | None = None) -> list[Finding]:
    """The rule cites a different set of rules.

    `titles` (rule number → English title) let it say when the English is the likely culprit:
    801.17 "Effects that restart the game (see rule 723)" where 724 is Restarting the Game.
    """
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
    detail = "; ".join(said) + " (not the other)"
    if titles and len(only_e) == len(only_z) == 1:
        x, y = only_e[0], only_z[0]
        quoted = " ".join(r.title for r in er if r.target == x and r.title)
        if english_misfit(quoted or e.text, titles.get(x), titles.get(y)):
            detail = (
                f"the English is likely wrong: it cites {x} (“{titles[x]}”), but the rule is "
                f"about {y} (“{titles[y]}”), which the translation cites"
            )
    return [
        Finding(
            e.number,
            "references",
            detail,
            marked(te, spans_of(te, raw_e)),
            marked(tz, spans_of(tz, raw_z)),
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
                marked(a, [(q.start, q.end) for q in only_e]),
                marked(b, [(q.start, q.end) for q in only_z]),
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
                marked(en_part, []),
                marked(part, [(m.start(), m.end()) for m in runs]),
                tuple([where, *words]),
            )
        )
    return out
