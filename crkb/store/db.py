"""Reading and writing the store: Documents in, Documents (and cheap lookups) out."""

from __future__ import annotations

import bisect
import datetime
import json
import re
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crkb import __version__
from crkb.errors import NotFound, StoreError
from crkb.model import Document, GlossaryEntry, Reference, Rule
from crkb.store.schema import SCHEMA, SCHEMA_VERSION

DB_NAME = "crkb.sqlite"


@dataclass(slots=True)
class VersionInfo:
    """One row of `crkb versions`."""

    id: str
    aliases: list[str]
    title: str
    flags: dict[str, Any]
    langs: list[str]
    sources: list[str]
    counts: dict[str, dict[str, int]]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "aliases": self.aliases,
            "langs": self.langs,
            "title": self.title,
            "sources": self.sources,
            "counts": self.counts,
            "flags": self.flags,
        }


def create(path: Path) -> sqlite3.Connection:
    """A new, empty store at `path` (which must not exist)."""
    conn = sqlite3.connect(path)
    conn.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")
    conn.executescript(SCHEMA)
    conn.executemany(
        "INSERT INTO meta VALUES (?, ?)",
        [("schema", SCHEMA_VERSION), ("crkb", __version__)],
    )
    return conn


def write_version(
    conn: sqlite3.Connection, vid: str, aliases: list[str], title: str, flags: dict[str, Any]
) -> None:
    conn.execute(
        "INSERT INTO versions VALUES (?, ?, ?, ?)",
        (vid, json.dumps(sorted(aliases)), title, json.dumps(flags, ensure_ascii=False)),
    )


def write_document(conn: sqlite3.Connection, doc: Document, sources: list[str]) -> int:
    """Insert one document with its rules, glossary and references; returns its id."""
    flags = {k: v for k, v in doc.flags.items()}
    cur = conn.execute(
        "INSERT INTO documents (version, lang, format, sources, title, intro, contents, credits,"
        " warnings, flags, counts) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        (
            doc.version,
            doc.lang,
            doc.format,
            json.dumps(sources, ensure_ascii=False),
            doc.title,
            doc.intro,
            doc.contents,
            doc.credits,
            json.dumps(doc.warnings, ensure_ascii=False),
            json.dumps(flags, ensure_ascii=False),
            json.dumps(doc.counts()),
        ),
    )
    doc_id = int(cur.lastrowid or 0)
    conn.executemany(
        "INSERT INTO rules VALUES (?,?,?,?,?,?,?,?,?)",
        (
            (
                doc_id,
                i,
                r.number,
                r.kind,
                r.title,
                r.text,
                r.parent,
                json.dumps(r.examples, ensure_ascii=False),
                r.line,
            )
            for i, r in enumerate(doc.rules)
        ),
    )
    conn.executemany(
        "INSERT INTO glossary VALUES (?,?,?,?)",
        ((doc_id, i, g.term, g.text) for i, g in enumerate(doc.glossary)),
    )
    conn.executemany(
        "INSERT INTO refs VALUES (?,?,?,?,?,?,?)",
        (
            (doc_id, r.source, r.target, r.raw, r.title, int(r.dangling), int(r.stale))
            for r in doc.references
        ),
    )
    return doc_id


def write_skipped(conn: sqlite3.Connection, skipped: Iterable[tuple[str, str]]) -> None:
    conn.executemany("INSERT INTO skipped VALUES (?, ?)", list(skipped))


def analyze(conn: sqlite3.Connection) -> None:
    """Table statistics for the query planner: without them SQLite scans a whole document to
    find one rule."""
    conn.execute("ANALYZE")


@contextmanager
def step_results(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection to a build's new store for a build step to put its results into (committed
    when the step's block ends, then closed)."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            yield conn
    finally:
        conn.close()


def put_step_result(conn: sqlite3.Connection, key: str, value: object) -> None:
    """Store what a build step made (lineage, neighbour diffs, findings, terms) as JSON under a
    key (table `derived`)."""
    conn.execute(
        "INSERT OR REPLACE INTO derived VALUES (?, ?)",
        (key, json.dumps(value, ensure_ascii=False)),
    )


_MAGIC = b"SQLite format 3\x00"
_DAMAGE = {10, 11, 14, 26}  # SQLITE_IOERR, _CORRUPT, _CANTOPEN, _NOTADB (primary result codes)


def damaged(path: Path, error: Exception | str) -> StoreError:
    """The one message for a store that cannot be read as written."""
    return StoreError(f"{path}: damaged store ({error}); run `crkb build` to rebuild it")


def _is_damage(error: sqlite3.DatabaseError) -> bool:
    """Corruption, or a table/column this crkb expects and the file lacks — not a bug in a query."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _DAMAGE:
        return True
    return str(error).startswith(("no such table", "no such column"))


class _GuardedCursor(sqlite3.Cursor):
    """A cursor whose damaged pages surface as StoreError: with an immutable, lazily read file a
    bad page shows only when a query first reads it, long after the store opened."""

    def _fail(self, error: sqlite3.DatabaseError) -> Exception:
        path: Path = self.connection.path  # type: ignore[attr-defined]  # set by Store.__init__
        return damaged(path, error) if _is_damage(error) else error

    def execute(self, sql: str, parameters: Any = (), /) -> _GuardedCursor:
        try:
            return super().execute(sql, parameters)
        except sqlite3.DatabaseError as e:
            raise self._fail(e) from None

    def __next__(self) -> Any:
        try:
            return super().__next__()
        except sqlite3.DatabaseError as e:
            raise self._fail(e) from None

    def fetchone(self) -> Any:
        try:
            return super().fetchone()
        except sqlite3.DatabaseError as e:
            raise self._fail(e) from None

    def fetchmany(self, size: int | None = 1) -> list[Any]:
        try:
            return super().fetchmany(size)
        except sqlite3.DatabaseError as e:
            raise self._fail(e) from None

    def fetchall(self) -> list[Any]:
        try:
            return super().fetchall()
        except sqlite3.DatabaseError as e:
            raise self._fail(e) from None


class _GuardedConnection(sqlite3.Connection):
    """A read-only connection whose queries go through `_GuardedCursor`."""

    path: Path

    def execute(self, sql: str, parameters: Any = (), /) -> _GuardedCursor:
        return self.cursor(_GuardedCursor).execute(sql, parameters)


def check_header(path: Path) -> None:
    """A cheap look at the file before SQLite reads it lazily: an SQLite file, whole (the size
    its header promises), so a truncated or overwritten store is named at open."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
        size = path.stat().st_size
    except OSError as e:
        reason = e.strerror or e
        raise StoreError(f"{path}: cannot read the store ({reason}); run `crkb build`") from None
    if len(head) < 100 or not head.startswith(_MAGIC):
        raise damaged(path, "not an SQLite file")
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(head[28:32], "big")
    counted = head[24:28] == head[92:96]  # the page count is valid only when these agree
    if counted and pages and page_size * pages != size:
        raise damaged(path, f"{size} bytes where its header promises {page_size * pages}")


class Store:
    """Read access to one build's SQLite file. Cheap to open; safe to share within a thread.

    Opening checks the header, the size and the meta table (schema and crkb version); damage
    deeper in the file surfaces as StoreError on the first query that reads it.
    """

    def __init__(self, path: Path):
        self.path = path
        if not path.exists():
            raise StoreError(f"{path}: no store here; run `crkb build` first")
        check_header(path)
        try:
            self.conn = sqlite3.connect(
                f"file:{path}?mode=ro&immutable=1",
                uri=True,
                check_same_thread=False,
                factory=_GuardedConnection,
            )
            self.conn.path = path
            meta = dict(self.conn.execute("SELECT key, value FROM meta").fetchall())
        except (StoreError, sqlite3.DatabaseError) as e:
            raise e if isinstance(e, StoreError) else damaged(path, e) from None
        if meta.get("schema") != SCHEMA_VERSION:
            raise StoreError(
                f"{path}: built by another version of crkb (schema {meta.get('schema')!r},"
                f" this crkb"
                f" reads {SCHEMA_VERSION!r}); run `crkb build` to rebuild it"
            )
        if meta.get("crkb") != __version__:
            raise StoreError(
                f"{path}: built by crkb {meta.get('crkb')}, this is crkb {__version__};"
                " run `crkb build` to rebuild it"
            )
        self.meta = meta
        self._aliases: dict[str, str] | None = None
        self._version_ids: dict[str | None, list[str]] = {}
        self._doc_ids: dict[tuple[str, str], int] = {}
        self._docs: dict[tuple[str, str], Document] = {}
        self.cache: dict[str, Any] = {}  # derived objects (lineages, diffs) built on first use

    def close(self) -> None:
        self.conn.close()

    # versions -----------------------------------------------------------------------------
    def versions(self) -> list[VersionInfo]:
        """Every version, oldest first."""
        out = []
        docs: dict[str, list[tuple[Any, ...]]] = {}
        for row in self.conn.execute(
            "SELECT version, lang, sources, counts FROM documents ORDER BY lang"
        ):
            docs.setdefault(row[0], []).append(row)
        for vid, aliases, title, flags in self.conn.execute(
            "SELECT id, aliases, title, flags FROM versions ORDER BY id"
        ):
            rows = docs.get(vid, [])
            sources = list(dict.fromkeys(s for r in rows for s in json.loads(r[2])))
            out.append(
                VersionInfo(
                    id=vid,
                    aliases=json.loads(aliases),
                    title=title,
                    flags=json.loads(flags),
                    langs=[r[1] for r in rows],
                    sources=sources,
                    counts={r[1]: json.loads(r[3]) for r in rows},
                )
            )
        return out

    def newest_text(self, version: str, lang: str) -> str | None:
        """The release (its id) of the newest `lang` text not newer than `version`, None when
        every one is newer: a translation lags the English, and a release with none is read
        beside the translation before it."""
        ids = self.version_ids(lang)
        i = bisect.bisect_right(ids, version)
        return ids[i - 1] if i else None

    def version_ids(self, lang: str | None = None) -> list[str]:
        """Version ids (oldest first), optionally only those with a document in `lang`. Read once
        per open store (a build never changes): every page asks several times."""
        ids = self._version_ids.get(lang)
        if ids is None:
            if lang:
                q = "SELECT version FROM documents WHERE lang=? ORDER BY version"
                ids = [r[0] for r in self.conn.execute(q, (lang,))]
            else:
                ids = [r[0] for r in self.conn.execute("SELECT id FROM versions ORDER BY id")]
            self._version_ids[lang] = ids
        return list(ids)

    def resolve_version(self, name: str | None, lang: str | None = None) -> str:
        """An id, an alias or `latest` (for `lang`, when given) → the version id."""
        ids = self.version_ids(lang)
        if not ids:
            raise NotFound(f"no versions{' in ' + lang if lang else ''} in the store")
        if not name or name == "latest":
            return ids[-1]
        if self._aliases is None:
            self._aliases = {}
            for vid, aliases in self.conn.execute("SELECT id, aliases FROM versions"):
                self._aliases[vid] = vid
                for a in json.loads(aliases):
                    self._aliases.setdefault(a, vid)
        vid = self._aliases.get(name.strip())
        if vid is None:
            raise _unknown(name, ids)  # releases with a text in `lang`, when given
        if lang and vid not in ids:
            before = self.newest_text(vid, lang)
            newest = f"; the newest {lang} text before it is {before}" if before else ""
            error = NotFound(f"version {vid} has no {lang} text{newest}")
            error.versions, error.asked = ((before,) if before else ()), name
            raise error
        return vid

    # documents ----------------------------------------------------------------------------
    def doc_id(self, version: str, lang: str) -> int | None:
        """The document id of a text, read once per open store (a page asks several times)."""
        key = (version, lang)
        try:
            return self._doc_ids[key]
        except KeyError:
            pass
        row = self.conn.execute(
            "SELECT id FROM documents WHERE version=? AND lang=?", (version, lang)
        ).fetchone()
        if row is None:
            return None  # not kept: the names asked for are not bounded, the texts are
        found: int = row[0]
        self._doc_ids[key] = found
        return found

    def document(self, version: str, lang: str) -> Document:
        """The whole Document of a version and language (cached)."""
        key = (version, lang)
        if key in self._docs:
            return self._docs[key]
        row = self.conn.execute(
            "SELECT id, format, sources, title, intro, contents, credits, warnings, flags"
            " FROM documents WHERE version=? AND lang=?",
            key,
        ).fetchone()
        if row is None:
            raise NotFound(f"no {lang} text of version {version}")
        did = row[0]
        sources = json.loads(row[2])
        doc = Document(
            lang=lang,
            version=version,
            source=sources[0] if sources else "",
            format=row[1],
            title=row[3],
            intro=row[4],
            contents=row[5],
            credits=row[6],
            warnings=json.loads(row[7]),
            flags=json.loads(row[8]),
        )
        doc.rules = self._rules("doc=?", (did,))
        doc.glossary = [
            GlossaryEntry(t, x)
            for t, x in self.conn.execute(
                "SELECT term, text FROM glossary WHERE doc=? ORDER BY ord", (did,)
            )
        ]
        doc.references = self._refs("doc=?", (did,))
        self._docs[key] = doc
        return doc

    def rule(self, version: str, lang: str, number: str) -> Rule | None:
        """One rule without loading the whole document."""
        did = self.doc_id(version, lang)
        if did is None:
            return None
        found = self._rules("doc=? AND number=?", (did, number), limit=1)
        return found[0] if found else None

    def saying(self, lang: str, phrase: str, version: str | None = None) -> list[tuple[str, str]]:
        """(version, number) of every rule whose text says `phrase` (ASCII letters in any case),
        newest release first; only `version`'s when given. A scan of the texts (~150 ms for all
        English releases, ~2 ms for one): for a phrase a search found nowhere, not for every
        search."""
        where, args = "d.lang=?", [lang]
        if version is not None:
            where += " AND d.version=?"
            args.append(version)
        rows = self.conn.execute(
            "SELECT d.version, r.number FROM rules r JOIN documents d ON r.doc=d.id"
            f" WHERE {where} AND instr(lower(r.text), lower(?)) > 0"
            " ORDER BY d.version DESC, r.ord",
            (*args, phrase),
        ).fetchall()
        return [(str(v), str(n)) for v, n in rows]

    def children(self, version: str, lang: str, number: str) -> list[Rule]:
        return self._rules("doc=? AND parent=?", (self.doc_id(version, lang), number))

    def references_from(self, version: str, lang: str, number: str) -> list[Reference]:
        return self._refs("doc=? AND source=?", (self.doc_id(version, lang), number))

    def references_to(self, version: str, lang: str, number: str) -> list[Reference]:
        return self._refs("doc=? AND target=?", (self.doc_id(version, lang), number))

    def _rules(self, where: str, args: tuple[Any, ...], limit: int | None = None) -> list[Rule]:
        """Rules matching a WHERE clause, in document order."""
        sql = (
            "SELECT number, kind, title, text, parent, examples, line FROM rules"
            f" WHERE {where} ORDER BY ord" + (f" LIMIT {int(limit)}" if limit else "")
        )
        return [
            Rule(n, k, t, title, json.loads(ex), parent, line)
            for n, k, title, t, parent, ex, line in self.conn.execute(sql, args)
        ]

    def _refs(self, where: str, args: tuple[Any, ...]) -> list[Reference]:
        """References matching a WHERE clause, in the order they were written."""
        sql = f"SELECT source, target, raw, title, dangling, stale FROM refs WHERE {where}"
        return [
            Reference(s, t, raw, title, bool(d), bool(st))
            for s, t, raw, title, d, st in self.conn.execute(sql, args)
        ]

    def step_result(self, key: str) -> Any:
        """What a build step stored under `key` (see put_step_result), or None."""
        row = self.conn.execute("SELECT value FROM derived WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def skipped(self) -> list[tuple[str, str]]:
        return [tuple(r) for r in self.conn.execute("SELECT path, reason FROM skipped")]


def _unknown(name: str, ids: list[str]) -> NotFound:
    """An unknown version's error: for a date, the releases on either side of it (a judge types
    the date of an event), else where the list is."""
    date = name.strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", date) and not _is_date(date):
        return NotFound(f"unknown version {name!r}: not a date (YYYY-MM-DD, e.g. 2024-04-12)")
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date) or not ids:
        unknown = NotFound(f"unknown version {name!r}")
        unknown.listed = True
        return unknown
    i = bisect.bisect_left(ids, date)
    near = ids[max(0, i - 1) : i + 1]
    error = NotFound(
        f"unknown version {name!r}: no release of that date; nearest: {', '.join(near)}"
    )
    error.versions, error.asked = tuple(near), name
    return error


def _is_date(text: str) -> bool:
    """True for a real calendar date (2024-02-29, not 2024-13-45)."""
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True
