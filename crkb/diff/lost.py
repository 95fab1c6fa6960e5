"""Two texts of a rule that differ only where a lossy copy lost characters.

A copy can lose what its encoding could not hold: the archive's 2008-05-01 text has `?` for every
’ and “ (`can?t`), its 2009-05-01 text `?` for every dash (`cards?even`), and a few early files
U+FFFD for ® or a dash. The copy's text is stored as it is; only a comparison across releases
looks through the loss, so that a lost character does not read as a change of the rule.

The texts are aligned character by character, and every stretch where they differ must be a
lost mark on one side standing for what the other side has there:

- a run of `?` stands for as many typographic characters (or up to four `?` for each, as a
  multi-byte character lost byte by byte): a non-ASCII character, or what the releases written
  in plain ASCII put there (`'`, `"`, a dash of one to three hyphens, `(tm)`, `(r)`);
- a run of U+FFFD stands for anything up to four characters for each one.

Whitespace around a mark may differ with it (`Gathering� Compr` / `Gathering-Compr`). Any other
difference, alone or beside lost characters, is a change.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

MARKS = ("?", "\ufffd")
PER_MARK = 4  # characters (U+FFFD) or bytes (`?`) one lost mark may stand for
# what a `?` stands for: one non-ASCII character or its plain-ASCII rendering
_STAND_IN = re.compile(r"[^\x00-\x7f]|-{1,3}|['\"`]|_?\((?:tm|r|c)\)", re.I)
_SPACE = re.compile(r"\s+")
# what may differ between a text and a copy that lost characters as `?`: taken out of both, the
# rest must be the same
_SKELETON = re.compile(r"\?|[^\x00-\x7f]|-|['\"`_]|\((?:tm|r|c)\)|\s", re.I)
_RUN = re.compile(r"\s*\?+\s*")


def _lost_as(lossy: str, real: str) -> bool:
    """Whether a copy of `real` could read `lossy`: `lossy` word for word, each of its runs of
    `?` (with the space around it) one stand-in of `real` for every one to PER_MARK marks. One
    pass, taking stand-ins greedily; a pair it cannot settle so is left to the alignment."""
    pos, last = 0, 0
    for m in _RUN.finditer(lossy):
        piece = lossy[last : m.start()]
        if not real.startswith(piece, pos):
            return False
        pos += len(piece)
        while pos < len(real) and real[pos].isspace():
            pos += 1
        n, k = m.group().strip().count("?"), 0
        while k < n and (stand_in := _STAND_IN.match(real, pos)):
            pos, k = stand_in.end(), k + 1
        if k < -(-n // PER_MARK):
            return False
        while pos < len(real) and real[pos].isspace():
            pos += 1
        last = m.end()
    return real[pos:] == lossy[last:]


def only_lost(a: str, b: str) -> bool:
    """True when `a` and `b` differ, and only where one of them has lost characters."""
    if a == b or not any(m in a or m in b for m in MARKS):
        return False
    if "\ufffd" not in a + b:  # `?` marks: two quick answers before aligning
        if _SKELETON.sub("", a) != _SKELETON.sub("", b):
            return False  # they differ in what no lost mark stands for
        for lossy, real in ((a, b), (b, a)):
            if "?" not in real and _lost_as(lossy, real):
                return True
    # characters aligned: quadratic in the texts' length (~0.5 s for a 4,000-character rule),
    # so only for the few pairs the answers above leave
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return all(
        op == "equal" or _stands_for(a[i1:i2], b[j1:j2]) or _stands_for(b[j1:j2], a[i1:i2])
        for op, i1, i2, j1, j2 in ops
    )


def _stands_for(lossy: str, real: str) -> bool:
    """Whether the stretch `lossy`, lost marks only, can be what a copy made of `real`."""
    lossy, real = _SPACE.sub("", lossy), _SPACE.sub("", real)
    if not lossy or not real:
        return False
    marks = set(lossy)
    if marks == {"\ufffd"}:
        return len(real) <= PER_MARK * len(lossy)
    if marks == {"?"}:
        pieces = _STAND_IN.findall(real)
        return "".join(pieces) == real and len(pieces) <= len(lossy) <= PER_MARK * len(pieces)
    return False
