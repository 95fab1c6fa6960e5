"""A content-addressed cache on disk beside a build, shared by every worker and outliving them.

Keys name what was rendered (a rule's column, a page); values are stored once per content (the
SHA-256 of the bytes), so an unchanged rule held by many releases costs one copy. They are kept
whole, behind a zero byte no zlib stream starts with: a page or column is read far more often than
written, and decompressing it cost more than the lookup itself (a cache written by an older crkb,
zlib-compressed, is still read).
It is a cache: a file that cannot be written (read-only data, a full disk, another worker holding
the lock) or is damaged only means rendering again, never a failed request.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import threading
import zlib
from pathlib import Path

MAX_BYTES = 1024 * 1024 * 1024  # as stored; past it nothing new is stored
MAX_PENDING = 16  # puts left for later written at the latest with this many
WHOLE = b"\x00"  # a body stored as it is (a zlib stream starts with 0x78)
# Bodies in a rowid table: WITHOUT ROWID keeps a row inside its key's B-tree, and a 15 kB page
# there cost a rule page's first render ~0.08 ms more to write. A cache made before keeps its
# tables (same columns, read and written alike).
_SCHEMA = """
CREATE TABLE IF NOT EXISTS names (name TEXT PRIMARY KEY, hash BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS blobs (hash BLOB PRIMARY KEY, body BLOB NOT NULL);
"""


class DiskCache:
    """name → bytes in one SQLite file. Every failure degrades to a miss (get) or a no-op (put)."""

    def __init__(self, path: Path, max_bytes: int = MAX_BYTES) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self._conn: sqlite3.Connection | None = None
        self._broken = False
        self._full = False
        self._pending: list[tuple[str, bytes, bytes]] = []  # (name, digest, body) not written yet
        self._lock = threading.Lock()

    def _open(self) -> sqlite3.Connection | None:
        """The connection, opened (and the tables made) on first use in this process."""
        if self._conn is not None or self._broken:
            return self._conn
        try:
            _make_parent(self.path)
            conn = sqlite3.connect(self.path, timeout=0.01, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=OFF")  # a cache: a lost write is rendered again
            conn.execute("PRAGMA cache_size=-1024")  # 1 MB: the OS keeps the file cached
            conn.executescript(_SCHEMA)
        except OSError:  # a read-only build directory
            self._broken = True
            return None
        except sqlite3.OperationalError:  # locked now, or a place it can never be written
            self._broken = not self.path.parent.is_dir() or not _writable(self.path)
            return None
        except sqlite3.Error:  # not an SQLite file: a miss for the life of this process
            self._broken = True
            return None
        self._conn = conn
        return conn

    def get(self, name: str) -> bytes | None:
        with self._lock:
            conn = self._open()
            if conn is None:
                return None
            try:
                row = conn.execute(
                    "SELECT body FROM names JOIN blobs USING (hash) WHERE name=?", (name,)
                ).fetchone()
                return None if row is None else _unpack(row[0])
            except (sqlite3.Error, zlib.error):
                return None

    def put(self, name: str, body: bytes, later: bool = False) -> None:
        """Store `body` under `name` (kept once per content). `later`: with the next put or
        `flush`, in one transaction (a rule page writes its columns, then itself)."""
        item = (name, hashlib.sha256(body).digest(), body)
        with self._lock:
            self._pending.append(item)
            if not later or len(self._pending) >= MAX_PENDING:
                self._write_pending()

    def flush(self) -> None:
        """Write what `put(..., later=True)` left pending."""
        if self._pending:
            with self._lock:
                self._write_pending()

    def _write_pending(self) -> None:
        items, self._pending = self._pending, []
        if not items:
            return
        conn = self._open()
        if conn is None or self._full:
            return
        try:
            _insert(conn, items)
            self._full = self.path.stat().st_size > self.max_bytes
        except (sqlite3.Error, OSError):
            pass

    def put_many(self, items: list[tuple[str, bytes]]) -> None:
        """Many puts in one transaction (the build step)."""
        rows = [(name, hashlib.sha256(body).digest(), body) for name, body in items]
        with self._lock:
            conn = self._open()
            if conn is None:
                return
            try:
                conn.execute("PRAGMA busy_timeout=10000")  # serving workers write briefly
                _insert(conn, rows)
            except sqlite3.Error:
                pass
            finally:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("PRAGMA busy_timeout=10")

    def counts(self) -> tuple[int, int]:
        """(names, distinct contents) stored."""
        with self._lock:
            conn = self._open()
            if conn is None:
                return 0, 0
            try:
                names = conn.execute("SELECT count(*) FROM names").fetchone()[0]
                blobs = conn.execute("SELECT count(*) FROM blobs").fetchone()[0]
            except sqlite3.Error:
                return 0, 0
            return int(names), int(blobs)

    def close(self) -> None:
        with self._lock:
            self._write_pending()
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def _insert(conn: sqlite3.Connection, rows: list[tuple[str, bytes, bytes]]) -> None:
    """(name, digest, body) rows in one transaction, each content stored once."""
    with conn:
        conn.executemany(
            "INSERT OR IGNORE INTO blobs VALUES (?, ?)", [(d, WHOLE + b) for _n, d, b in rows]
        )
        conn.executemany(
            "INSERT OR REPLACE INTO names VALUES (?, ?)", [(n, d) for n, d, _b in rows]
        )


def _unpack(stored: bytes) -> bytes:
    return stored[1:] if stored[:1] == WHOLE else zlib.decompress(stored)


def _make_parent(path: Path) -> None:
    """The cache's own directory, made without touching the build directory's modification
    time: old builds are pruned oldest first by that time, and SQLite's journal files come and
    go beside the cache file (so in this directory, not the build's)."""
    folder = path.parent
    if folder.is_dir():
        return
    build = folder.parent
    before = build.stat()
    folder.mkdir(exist_ok=True)
    os.utime(build, ns=(before.st_atime_ns, before.st_mtime_ns))


def _writable(path: Path) -> bool:
    """False when the cache can never be written here (a read-only directory or file)."""
    target = path if path.exists() else path.parent
    return os.access(target, os.W_OK)
