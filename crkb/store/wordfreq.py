"""A word → frequency table kept on disk and read by key (jieba's dictionary, prefixes included).

jieba holds its whole dictionary (~580,000 words and prefixes) as one Python dict, ~60 MB in every
process that searches Chinese. A search cuts a short query and looks up only the substrings of it,
so a server reads them from this table instead: the same words, the same frequencies, the same
total, so the same cuts, for a few MB.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path

from crkb.errors import StoreError

FREQ_NAME = "wordfreq.sqlite"
KEPT = 32768  # looked-up words remembered in memory (a few MB)
_MISSING = -1


def write_freq(path: Path, freq: Mapping[str, int], total: int) -> None:
    """Write `freq` and its `total` to a new table at `path` (replacing any)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    conn = sqlite3.connect(tmp)
    try:
        conn.execute("CREATE TABLE freq (word TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID")
        conn.execute("CREATE TABLE total (n INTEGER NOT NULL)")
        conn.executemany("INSERT INTO freq VALUES (?, ?)", sorted(freq.items()))
        conn.execute("INSERT INTO total VALUES (?)", (total,))
        conn.commit()
    finally:
        conn.close()
    os.replace(tmp, path)


class DiskFreq:
    """The part of a dict jieba's Tokenizer uses (`in`, `[]`, `get`, setting a word), over the
    table on disk, with words set in this process (the game terms) kept in memory above it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.added: dict[str, int] = {}
        self._kept: dict[str, int] = {}
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        row = self._query("SELECT n FROM total", ())
        if row is None:
            raise StoreError(f"{path}: no total in the word table; run `crkb build`")
        self.total = int(row[0])

    def _query(self, sql: str, args: tuple[str, ...]) -> tuple[int] | None:
        with self._lock:
            if self._conn is None or self._pid != os.getpid():  # never shared across a fork
                self._conn = sqlite3.connect(
                    f"file:{self.path}?mode=ro", uri=True, check_same_thread=False
                )
                self._pid = os.getpid()
            row: tuple[int] | None = self._conn.execute(sql, args).fetchone()
            return row

    def _lookup(self, word: str) -> int:
        n = self.added.get(word)
        if n is None:
            n = self._kept.get(word)  # a plain dict: one step under the GIL, no lock needed
        if n is None:
            row = self._query("SELECT n FROM freq WHERE word = ?", (word,))
            n = _MISSING if row is None else int(row[0])
            if len(self._kept) >= KEPT:
                self._kept.clear()  # bounded: start over rather than keep an order
            self._kept[word] = n
        return n

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._lookup(word) != _MISSING

    def __getitem__(self, word: str) -> int:
        n = self._lookup(word)
        if n == _MISSING:
            raise KeyError(word)
        return n

    def get(self, word: str, default: int | None = None) -> int | None:
        n = self._lookup(word)
        return default if n == _MISSING else n

    def __setitem__(self, word: str, n: int) -> None:
        self.added[word] = n

    def __iter__(self) -> Iterator[str]:
        raise TypeError("DiskFreq is read by key only")
