"""Chinese script: which characters are Han, and Traditional → Simplified.

One OpenCC converter serves the process (identify, search and the offline pack each asked for
their own before): it is loaded on first use, so importing this costs nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

HAN = re.compile(r"[\u4e00-\u9fff]")  # the common CJK ideographs


@functools.cache
def _t2s() -> Any:
    import opencc  # the converter's tables are read once, on first use

    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    """The text with Traditional characters written in Simplified ones (OpenCC t2s): a query
    or a copy typed in Taiwan or Hong Kong meets the translation's own characters."""
    return str(_t2s().convert(text))


TRADITIONAL = "Traditional Chinese"  # the language a text in Traditional characters is named
TRADITIONAL_SHARE = 0.02  # of a text's Han characters OpenCC changes: written in Traditional


def simplified_copy(text: str, convert: Callable[[str], str] | None = None) -> str | None:
    """The text in Simplified characters when it is written in Traditional ones (typed so in
    Taiwan or Hong Kong, or converted), else None: a Simplified text has next to nothing that
    OpenCC's t2s changes. `convert`: t2s by default."""
    han = len(HAN.findall(text))
    if not han:
        return None
    converted = (convert or to_simplified)(text)
    changed = sum(1 for a, b in zip(text, converted, strict=False) if a != b)
    if len(converted) != len(text) or changed < TRADITIONAL_SHARE * han:
        return None
    return converted
