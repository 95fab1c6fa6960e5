"""The SQLite schema of a build: one file holds every version, language, rule and reference."""

from __future__ import annotations

# 2: the references of a copy in pages resolved against the whole copy; partial copies
# matched to the releases around them (`partial:` step results)
SCHEMA_VERSION = "2"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE versions (
    id TEXT PRIMARY KEY,            -- effective date, YYYY-MM-DD
    aliases TEXT NOT NULL,          -- JSON list of file dates that name the same release
    title TEXT NOT NULL DEFAULT '', -- set name, when known
    flags TEXT NOT NULL             -- JSON object
);

CREATE TABLE documents (
    id INTEGER PRIMARY KEY,
    version TEXT NOT NULL REFERENCES versions(id),
    lang TEXT NOT NULL,
    format TEXT NOT NULL,
    sources TEXT NOT NULL,          -- JSON list of files this document was read from
    title TEXT NOT NULL,
    intro TEXT NOT NULL,
    contents TEXT NOT NULL,
    credits TEXT NOT NULL,
    warnings TEXT NOT NULL,         -- JSON list
    flags TEXT NOT NULL,            -- JSON object
    counts TEXT NOT NULL,           -- JSON object, as `crkb versions` reports
    UNIQUE (version, lang)
);

CREATE TABLE rules (
    doc INTEGER NOT NULL REFERENCES documents(id),
    ord INTEGER NOT NULL,           -- position in the document; a doubled number keeps both rows
    number TEXT NOT NULL,
    kind TEXT NOT NULL,
    title TEXT,
    text TEXT NOT NULL,
    parent TEXT,
    examples TEXT NOT NULL,         -- JSON list of example texts
    line INTEGER NOT NULL,
    PRIMARY KEY (doc, ord)
) WITHOUT ROWID;
CREATE INDEX rules_number ON rules (doc, number);
CREATE INDEX rules_parent ON rules (doc, parent);

CREATE TABLE glossary (
    doc INTEGER NOT NULL REFERENCES documents(id),
    ord INTEGER NOT NULL,
    term TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (doc, ord)
) WITHOUT ROWID;

CREATE TABLE refs (
    doc INTEGER NOT NULL REFERENCES documents(id),
    source TEXT NOT NULL,           -- rule number or glossary:<term>
    target TEXT NOT NULL,
    raw TEXT NOT NULL,
    title TEXT,
    dangling INTEGER NOT NULL,
    stale INTEGER NOT NULL
);
CREATE INDEX refs_source ON refs (doc, source);
CREATE INDEX refs_target ON refs (doc, target);

CREATE TABLE skipped (path TEXT NOT NULL, reason TEXT NOT NULL);

-- Derived data written by later build steps (diffs between neighbouring releases, term dictionary).
CREATE TABLE derived (key TEXT PRIMARY KEY, value BLOB NOT NULL);
"""
