"""Rule numbers written in a query: `901.3a`, `rule 704.5j`, `cr 901.3`, `规则704.5j`, `第9章`,
`第九章`, `section 9`, and full-width as a Chinese keyboard types them (`７０２．１９ｂ`)."""

from __future__ import annotations

import re

from crkb.numbers import fold_width, normalise

_IN_TEXT = re.compile(
    r"(?:(?<![\w.])|(?<=规则)|(?<=規則)|(?<=第))(\d{3}\.\d{1,3}[a-z]{0,2}|\d{3}(?=\s|$|章))(?![\w.]*\d)",
    re.I,
)


def whole_number(query: str) -> str | None:
    """The rule number when the whole query is one (in any of the accepted forms)."""
    q = fold_width(query).strip().strip("。.,，?？")  # a number asked about: "702.19b？"
    if len(q) > 30:
        return None
    return normalise(q)


def numbers_in(query: str) -> list[str]:
    """Dotted or three-digit rule numbers written inside a longer query, in order."""
    out: list[str] = []
    for m in _IN_TEXT.finditer(fold_width(query)):
        n = normalise(m.group(1))
        if n and n not in out:
            out.append(n)
    return out
