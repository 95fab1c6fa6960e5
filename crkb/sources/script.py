"""Chinese script: which characters are Han, and Traditional → Simplified.

One OpenCC converter serves the process (identify, search and the offline pack each asked for
their own before): it is loaded on first use, so importing this costs nothing.
"""

from __future__ import annotations

import functools
import re
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
