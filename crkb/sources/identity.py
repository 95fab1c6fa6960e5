"""Which release a text is: the effective date written in it, the file's own date as alias."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

MONTHS = {
    m: i
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        1,
    )
}
_EN_DATE = re.compile(
    r"(?:effective|current|updated)\s+(?:as\s+)?(?:of\s+)?([A-Z][a-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})",
)
_ZH_DATE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日\s*起?生效")
_NUMERIC = re.compile(r"COMPREHENSIVE RULES\s+(\d{2})/(\d{2})/(\d{2})")
_FILE_DATE = re.compile(r"(\d{4})[-_.]?(\d{2})[-_.]?(\d{2})")


def _iso(y: int, m: int, d: int) -> str | None:
    try:
        return date(y, m, d).isoformat()
    except ValueError:
        return None


def stated_date(text: str) -> str | None:
    """The effective date the document states about itself (first mention wins)."""
    head = text[:20000]
    found: list[tuple[int, str]] = []
    for m in _EN_DATE.finditer(head):
        month = MONTHS.get(m.group(1).lower())
        if month and (iso := _iso(int(m.group(3)), month, int(m.group(2)))):
            found.append((m.start(), iso))
            break
    if (zh := _ZH_DATE.search(head)) and (iso := _iso(*(int(g) for g in zh.groups()))):
        found.append((zh.start(), iso))
    if (num := _NUMERIC.search(head)) and (
        iso := _iso(
            1900 + int(num.group(3)) if int(num.group(3)) > 50 else 2000 + int(num.group(3)),
            int(num.group(1)),
            int(num.group(2)),
        )
    ):
        found.append((num.start(), iso))
    return min(found)[1] if found else None


def is_date(version: str) -> bool:
    """Is this a release id (an ISO date), not a placeholder for an unknown one?"""
    return (
        bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", version))
        and _iso(*(int(x) for x in version.split("-"))) is not None
    )


def file_date(path: str | Path) -> str | None:
    """`2024-04-10.txt`, `CR-20240410.txt`, or a folder named by date → `2024-04-10`."""
    p = Path(path)
    for part in (p.stem, p.parent.name):
        if m := _FILE_DATE.search(part):
            iso = _iso(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            if iso:
                return iso
    return None
