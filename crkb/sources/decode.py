"""Bytes to text: every encoding and line ending the archive holds, wording untouched.

The publisher's files are UTF-8 (with or without BOM), UTF-16 (LE/BE, with BOM), cp1252 or
MacRoman, and some otherwise-ASCII files carry a few stray bytes from yet another code page (CP437
`Dand\\x83n`, MacRoman `El-Hajj\\x89j`); a Chinese text saved on Windows in Chinese is GB18030
(GBK). A single-byte file is decoded wholly in the likeliest code
page that reads every high byte in place as a letter or punctuation (a file is written in one);
only when none does is it mended byte by byte: the code page that makes its punctuation
plausible, and a high byte inside a word read in whichever code page makes it a lower-case Latin
letter, since that is what an accented card name is.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from crkb.sources.script import HAN

_SINGLE_BYTE = ("cp1252", "mac_roman", "cp437")
_GOOD_PUNCT = set("’‘“”—–™®©…•°½¼¾±×")
_HIGH = re.compile(rb"[\x80-\xff]")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f]")
_PRIVATE = re.compile(r"[\ue000-\uf8ff]")  # private use: GB18030's reading of another code page
# A GB18030 reading's share of Chinese characters that makes it a Chinese text: a Chinese rules
# text is about three quarters Chinese, a bilingual page about half; an English file in a single
# byte code page, read as GB18030, less than one character in ten thousand.
CHINESE_SHARE = 0.1


@dataclass(slots=True)
class Decoded:
    """Decoded text with LF line endings, and what it took to get there."""

    text: str
    encoding: str
    replacement_chars: int  # U+FFFD present in the source (or produced by an undecodable byte)


class NotText(ValueError):
    """The bytes are not a text document (binary, or empty)."""


def _is_good_punct(ch: str) -> bool:
    return ch in _GOOD_PUNCT


def _is_latin_letter(ch: str) -> bool:
    return "\u00c0" <= ch <= "\u00ff" and ch.isalpha()


def _is_latin_lower(ch: str) -> bool:
    return _is_latin_letter(ch) and ch.islower()


def _plausibility(text: str) -> int:
    score = 0
    for ch in text:
        if ord(ch) < 128:
            continue
        if ch in _GOOD_PUNCT or ("\u00c0" <= ch <= "\u00ff" and ch.isalpha()):
            score += 1
        else:
            score -= 2
    return score


def _pick(b: int, order: tuple[str, ...], in_word: bool) -> str:
    """The character a high byte stands for, by the code pages in `order` of preference."""
    cands = [bytes([b]).decode(enc, errors="replace") for enc in order]
    if in_word:
        if (ch := bytes([b]).decode("cp1252", errors="replace")) in _GOOD_PUNCT:
            return ch  # we’re, don’t: the apostrophe is the commonest in-word byte
        tests = (_is_latin_lower, _is_good_punct)
    else:
        tests = (_is_good_punct, _is_latin_letter)
    for test in tests:
        for ch in cands:
            if test(ch):
                return ch
    return cands[0]


def _fits(ch: str, before: int, after: int) -> bool:
    """Whether `ch` is a plausible reading of a high byte between bytes `before` and `after`.

    Punctuation fits anywhere; a letter must touch another letter, and may not be upper case
    right after a lower-case one (`DandÉn` is a misreading, `Æther` is not).
    """
    if ch in _GOOD_PUNCT:
        return True
    if not _is_latin_letter(ch):
        return False
    prev, nxt = chr(before), chr(after)
    if not (prev.isalpha() or nxt.isalpha() or before >= 0x80 or after >= 0x80):
        return False
    return not (ch.isupper() and prev.isascii() and prev.islower())


def _contexts(data: bytes) -> set[tuple[int, int, int]]:
    """Each distinct (byte before, high byte, byte after) the data holds."""
    padded = b" " + data + b" "
    return {
        (padded[m.start() - 1], padded[m.start()], padded[m.start() + 1])
        for m in _HIGH.finditer(padded)
    }


def _whole_code_page(data: bytes, ranked: tuple[str, ...]) -> str | None:
    """The first code page in `ranked` that reads every high byte of the file plausibly.

    A file is written in one code page: when one reads it all as letters and punctuation in
    place, mending byte by byte could only mix in a wrong one (cp437 `Ma'r\x96f` is Ma'rûf,
    not cp1252 Ma'r–f; `\x92ther` is Æther, not ’ther).
    """
    contexts = _contexts(data)
    for enc in ranked:
        if all(
            _fits(bytes([b]).decode(enc, errors="replace"), before, after)
            for before, b, after in contexts
        ):
            return enc
    return None


def _decode_single_byte(data: bytes) -> tuple[str, str]:
    """Read the file in one code page if one fits it all, else mend in-word bytes one by one.

    A byte's reading depends only on its value and on whether it sits inside a word (an ASCII
    letter before it, a letter or `space , ' -` after it), so each distinct byte is decided
    twice at most and the text is made by one table decode, then patched where in-word
    readings differ.
    """
    highs = bytes(sorted({m.group()[0] for m in _HIGH.finditer(data)}))
    if not highs:
        return data.decode("ascii"), "ascii"
    ranked = tuple(
        sorted(_SINGLE_BYTE, key=lambda enc: -_plausibility(highs.decode(enc, errors="replace")))
    )
    if (whole := _whole_code_page(data, ranked)) is not None:
        return data.decode(whole, errors="replace"), whole
    best = ranked[0]
    order = (best, *(e for e in _SINGLE_BYTE if e != best))
    outside = {b: _pick(b, order, in_word=False) for b in highs}
    inside = {b: _pick(b, order, in_word=True) for b in highs}
    table = "".join(outside.get(i, chr(i)) for i in range(256))
    # A str decoding table is what charmap_decode documents; typeshed lists only the mapping forms.
    text, _n = codecs.charmap_decode(data, "strict", table)  # type: ignore[arg-type]  # see above
    differ = bytes(b for b in highs if inside[b] != outside[b])
    if not differ:
        return text, best
    in_word = re.compile(rb"(?<=[A-Za-z])[" + re.escape(differ) + rb"](?=[A-Za-z ,'-])")
    pieces: list[str] = []
    pos = 0
    for m in in_word.finditer(data):
        pieces.append(text[pos : m.start()])
        pieces.append(inside[m.group()[0]])
        pos = m.end()
    pieces.append(text[pos:])
    return "".join(pieces), best


def _looks_utf16(data: bytes) -> str | None:
    """UTF-16 without a BOM: every other byte of ASCII text is NUL."""
    sample = data[:4000]
    if len(sample) < 4:
        return None
    even_nul = sample[0::2].count(0)
    odd_nul = sample[1::2].count(0)
    half = len(sample) // 2
    if odd_nul > 0.4 * half and even_nul < 0.05 * half:
        return "utf-16-le"
    if even_nul > 0.4 * half and odd_nul < 0.05 * half:
        return "utf-16-be"
    return None


def _decode_chinese(data: bytes) -> tuple[str, str] | None:
    """A Chinese text saved in GB18030 (or its subsets GBK and GB2312: what Windows in Chinese
    saves as "ANSI"), or in Big5 (Traditional characters, as Windows in Taiwan and Hong Kong
    saves them: cp950), or None. Either reads many bytes without error, a cp1252 file's `\x92s`
    included, so one is taken only when what it reads is largely Chinese."""
    for enc in ("gb18030", "cp950"):
        try:
            text = data.decode(enc)
        except UnicodeDecodeError:
            continue
        if _PRIVATE.search(text):  # Big5 read as GB18030: no Chinese text has these
            continue
        if _chinese(text):
            return text, enc
    return None


def _chinese(text: str) -> bool:
    """True for a text that is largely Chinese, with Chinese punctuation."""
    han = len(HAN.findall(text))
    # Chinese writes its own full stops and commas: Japanese read as GB18030 shows none (its
    # 。 and 、 become 丅 and 丄), English in a single-byte code page hardly any Chinese at all
    stops = text.count("。") + text.count("，")
    return han >= CHINESE_SHARE * len(text) and stops * 100 >= han


# A file whose UTF-8 reading holds this many well-formed characters beyond ASCII for each byte it
# cannot read is UTF-8 with a few damaged bytes (a cp1252 or GB18030 file read as UTF-8 fails
# on nearly every high byte), read as UTF-8 with those bytes replaced (U+FFFD), and counted.
UTF8_SHARE = 10
UTF8_MIN = 20  # well-formed characters beyond ASCII, at least: a short file proves nothing


def _damaged_utf8(data: bytes) -> str | None:
    """The text of a UTF-8 file with a few bytes that are no UTF-8, those bytes replaced; None
    when the file is in another encoding."""
    text = data.decode("utf-8-sig", errors="replace")
    bad = text.count("\ufffd")
    good = sum(1 for ch in text if ord(ch) > 127) - bad
    return text if good >= UTF8_MIN and good >= UTF8_SHARE * bad else None


def normalise_newlines(text: str) -> str:
    """CRLF, bare CR and mixtures become LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decode(data: bytes) -> Decoded:
    """Decode a source file's bytes. Raises NotText for empty or binary content."""
    if not data.strip():
        raise NotText("empty file")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        enc = "utf-16"
        text = data.decode(enc, errors="replace")
    elif (enc16 := _looks_utf16(data)) is not None:
        enc = enc16
        text = data.decode(enc, errors="replace")
    else:
        if b"\x00" in data[:65536]:
            raise NotText("binary content (NUL bytes)")
        try:
            text = data.decode("utf-8-sig")
            enc = "utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8"
        except UnicodeDecodeError:
            if (damaged := _damaged_utf8(data)) is not None:
                text, enc = damaged, "utf-8"
            else:
                text, enc = _decode_chinese(data) or _decode_single_byte(data)
    text = text.lstrip("\ufeff")
    controls = len(_CONTROL.findall(text, 0, 65536))
    if controls > 0.01 * max(1, min(len(text), 65536)):
        raise NotText("binary content (control characters)")
    return Decoded(normalise_newlines(text), enc, text.count("\ufffd"))
