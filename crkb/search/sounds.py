"""Chinese words by their sound: a word typed with a wrong character of the same pinyin (避邪 for
辟邪, 朋洛客 for 鹏洛客, 坟墓厂 for 坟墓场) is the rules' word that sounds the same.

People type Chinese by pinyin and pick a character from a list; a slip puts the right sound
and the wrong character, and the word no rule holds. The tables are made at build time with
pypinyin and kept beside the index (`SOUNDS`): a server never loads pypinyin, whose dictionary
costs about 50 MB.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

SOUNDS = "sounds.json"
MAX_KEYS = 64  # readings tried for one typed word (each character may have several)
_CJK = (0x4E00, 0xA000)


@functools.cache
def readings_table() -> dict[str, str]:
    """Each toneless pinyin syllable → the characters that can be read so (build time, made
    once a process; not to be changed); a character's first reading (奇: qí before jī) is
    marked by a "*" after it, so a slip is read by the sound it usually has."""
    from pypinyin import Style, pinyin

    table: dict[str, list[str]] = {}
    for cp in range(*_CJK):
        got = pinyin(chr(cp), style=Style.NORMAL, heteronym=True, errors="ignore")
        for i, syllable in enumerate(dict.fromkeys(got[0] if got else [])):
            table.setdefault(syllable, []).append(chr(cp) + ("*" if i == 0 else ""))
    return {s: "".join(cs) for s, cs in sorted(table.items())}


def sound_table(counts: dict[str, int]) -> dict[str, list[tuple[str, int]]]:
    """Pinyin (toneless, syllables spaced) → the words that sound so, with how many rules use
    each. A word is read as a whole, so a character with two readings takes the one it has in
    that word (重生 chóng shēng)."""
    from pypinyin import Style, lazy_pinyin

    out: dict[str, list[tuple[str, int]]] = {}
    for w, n in sorted(counts.items()):  # in a fixed order: a build writes the same bytes
        out.setdefault(" ".join(lazy_pinyin(w, style=Style.NORMAL)), []).append((w, n))
    return dict(sorted(out.items()))


def everyday_alikes(table: dict[str, list[tuple[str, int]]], everyday: Iterable[str]) -> list[str]:
    """Everyday words (jieba's common ones) that can be read like a word of `table` and are not
    one: typed, they are meant (其实 is "in fact", not a slip for 起事; 干嘛, "what for", not one
    for 暗码, though 干 is also read àn)."""
    targets = {w for ws in table.values() for w, _n in ws}
    return sorted(
        w for w in everyday if w not in targets and any(k in table for k in _ways_read(w))
    )


@functools.cache
def _syllables() -> dict[str, tuple[str, ...]]:
    """Character → the syllables it can be read as (`readings_table` inverted)."""
    of: dict[str, list[str]] = {}
    for syllable, chars in readings_table().items():
        for c in chars.replace("*", ""):
            of.setdefault(c, []).append(syllable)
    return {c: tuple(ss) for c, ss in of.items()}


@functools.cache
def _ways_read(word: str) -> tuple[str, ...]:
    """The ways a word can be read (at most MAX_KEYS), syllables spaced; made once a process
    for each everyday word, which every build reads again."""
    per = [_syllables().get(c, ()) for c in word]
    if not all(per):
        return ()
    return tuple(" ".join(k) for k in itertools.islice(itertools.product(*per), MAX_KEYS))


def tables(counts: dict[str, int], everyday: Iterable[str]) -> dict[str, Any]:
    """What `Sounds` reads: the readings, the words by sound, and the everyday words that sound
    like one of them."""
    words, readings = sound_table(counts), readings_table()
    return {
        "readings": readings,
        "words": words,
        "everyday": everyday_alikes(words, everyday),
    }


def write(path: Path, counts: dict[str, int], everyday: Iterable[str]) -> None:
    """The tables, as a server reads them: `counts`, the rules' words and how many rules use
    each; `everyday`, common words of the language."""
    path.write_text(json.dumps(tables(counts, everyday), ensure_ascii=False), encoding="utf-8")


class Sounds:
    """The rules' word a typed word sounds like."""

    def __init__(
        self,
        readings: dict[str, str],
        words: dict[str, list[list[Any]]],
        everyday: Iterable[str] = (),
    ) -> None:
        self._readings = readings
        self._words = words
        self._everyday = frozenset(everyday)
        self._of: dict[str, tuple[tuple[str, bool], ...]] = {}

    @classmethod
    def read(cls, path: Path) -> Sounds | None:
        """The tables beside an index: None for an index built without them, ValueError
        (UnicodeDecodeError among them) for a file that is not one."""
        if not path.exists():
            return None
        try:
            got = json.loads(path.read_text(encoding="utf-8"))
            sounds = cls(dict(got["readings"]), dict(got["words"]), list(got["everyday"]))
        except (KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"{path.name} is not a table of sounds ({e!r})") from None
        return sounds

    def readings(self, ch: str) -> tuple[tuple[str, bool], ...]:
        """The syllables a character can be read as, each with whether it is its usual one
        (none for a character that is not Chinese)."""
        got = self._of.get(ch)
        if got is None:
            found = []
            for syllable, chars in self._readings.items():
                i = chars.find(ch)
                if i >= 0:
                    found.append((syllable, chars[i + 1 : i + 2] == "*"))
            got = self._of[ch] = tuple(sorted(found, key=lambda r: not r[1]))
        return got

    def like(self, text: str, used: Callable[[str], int] | None = None) -> str | None:
        """The rules word, other than `text`, that sounds as `text` is usually read, or else as
        it can be read: of several, the one most rules use (`used`: in how many, by default the
        build's count). A wrong character is one an input method lists for the syllable typed,
        so it matches by its usual reading (守和 is no slip for 守护, 和 being hú only at
        mahjong); a right one may take the reading the word gives it (重生: chóng)."""
        if text in self._everyday:
            return None
        per = [self.readings(ch) for ch in text]
        if not all(per):
            return None
        best: tuple[int, int, str] | None = None
        for key in itertools.islice(itertools.product(*per), MAX_KEYS):
            unusual = sum(1 for _s, usual in key if not usual)
            for w, n in self._words.get(" ".join(s for s, _u in key), ()):
                if w == text or any(
                    not usual and c != m for (_s, usual), c, m in zip(key, text, w, strict=True)
                ):
                    continue
                score = n if used is None else used(w)
                if best is None or (-unusual, score) > best[:2]:
                    best = (-unusual, score, w)
        return best[2] if best else None
