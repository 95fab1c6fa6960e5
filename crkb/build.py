"""The build: find files → parse (in parallel) → assemble versions → write store → derived data.

Gather everything first, then write, then publish in one atomic step (see store/location.py). A file
that cannot be used is skipped with a one-line reason naming it; `strict` turns any skip into a
failure; a build that finds nothing usable fails. A failed build leaves the current data serving.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from crkb.errors import BadInput
from crkb.model import Document
from crkb.numbers import sort_key
from crkb.parsing import parse_all
from crkb.sources import identity
from crkb.store import db, location

OFFICIAL = ("txt", "legacy-txt")
_IGNORED_NAMES = re.compile(
    r"^(?:readme|license|licence|manifest|sources|changelog)\b|\.json$", re.I
)
_TERMS_LINE = re.compile(r"^[A-Za-z][^:：\n]{0,60}[:：]\s*\S*[\u4e00-\u9fff]", re.M)

Progress = Callable[[str], None]


@dataclass
class Assembly:
    """Everything the parse produced, grouped into versions and ready to write."""

    docs: dict[tuple[str, str], Document] = field(default_factory=dict)
    sources: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    aliases: dict[str, set[str]] = field(default_factory=dict)
    vflags: dict[str, dict] = field(default_factory=dict)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    terms_files: list[str] = field(default_factory=list)
    reported: list[tuple[str, str]] = field(default_factory=list)  # recognised, not stored
    flagged: list[tuple[str, str]] = field(default_factory=list)  # stored, with a defect
    lineages: dict = field(default_factory=dict)  # per language, set by the lineage step


@dataclass
class BuildReport:
    path: Path
    versions: int
    documents: int
    skipped: list[tuple[str, str]]
    reported: list[tuple[str, str]]
    seconds: float
    steps: dict[str, float]
    flagged: list[tuple[str, str]] = field(default_factory=list)


def discover(corpus_dirs: Iterable[Path]) -> list[Path]:
    """Every candidate file under the corpus directories, in a stable order."""
    found: list[Path] = []
    for d in corpus_dirs:
        if not d.exists():
            raise BadInput(f"{d}: corpus directory does not exist")
        if d.is_file():
            found.append(d)
            continue
        for root, dirs, files in os.walk(d):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            for name in sorted(files):
                if name.startswith(".") or _IGNORED_NAMES.search(name):
                    continue
                found.append(Path(root) / name)
    return found


def is_terms_list(path: Path) -> bool:
    """A provisional terms list (`English: 中文` lines), used for the dictionary, not parsed."""
    try:
        head = path.read_bytes()[:20000].decode("utf-8", errors="replace")
    except OSError:
        return False
    return len(_TERMS_LINE.findall(head)) >= 5 and not re.search(r"^\d{3}\.\d", head, re.M)


def _merge(parts: list[Document]) -> Document:
    """Pages of one (version, language) from several files (chapters, glossary) as one document."""
    base = parts[0]
    seen: set[str] = set()
    rules = []
    for d in parts:
        for r in d.rules:
            if r.number not in seen:
                seen.add(r.number)
                rules.append(r)
    rules.sort(key=lambda r: sort_key(r.number))
    glossary, terms = [], set()
    for d in parts:
        for g in d.glossary:
            if g.term not in terms:
                terms.add(g.term)
                glossary.append(g)
    merged = Document(
        lang=base.lang,
        version=base.version,
        source=base.source,
        format=base.format,
        title=next((d.title for d in parts if d.title), ""),
        intro=next((d.intro for d in parts if d.intro), ""),
        contents=next((d.contents for d in parts if d.contents), ""),
        credits=next((d.credits for d in parts if d.credits), ""),
        rules=rules,
        glossary=glossary,
        references=[r for d in parts for r in d.references],
        warnings=[w for d in parts for w in d.warnings],
        flags={k: v for d in parts for k, v in d.flags.items()},
    )
    return merged


def _prefer(a: Document, b: Document) -> tuple[Document, Document]:
    """Of two official files of one release, keep a whole one, then the one named by its own
    date, else the later."""

    def rank(d: Document) -> tuple[int, int, str]:
        return (
            int(not d.flags.get("truncated")),
            int(identity.file_date(d.source) == d.version),
            identity.file_date(d.source) or "",
        )

    return (a, b) if rank(a) >= rank(b) else (b, a)


def assemble(results: list[tuple], progress: Progress) -> Assembly:
    """Group parsed documents into versions: aliases, duplicates, merged pages, flags."""
    asm = Assembly()
    official: list[Document] = []
    other: list[Document] = []
    for path, result, error in results:
        if error:
            asm.skipped.append((path, error))
            continue
        assert result is not None
        if result.language or result.garbled:
            what = f"language: {result.language}" if result.language else "garbled copy"
            asm.reported.append((path, what))
            continue
        if not result.documents:  # e.g. the credits page of a rules site
            asm.reported.append((path, result.warnings[0] if result.warnings else "no rules in it"))
            continue
        for doc in result.documents:
            if not identity.is_date(doc.version):  # a copy that names no release
                asm.skipped.append(
                    (
                        path,
                        f"{path}: no release date in the text or the file name"
                        f" ({doc.lang}); `crkb identify` tells which release it is",
                    )
                )
                continue
            (official if doc.format in OFFICIAL else other).append(doc)
    alias_of: dict[str, str] = {}
    for doc in sorted(official, key=lambda d: d.source):
        key = (doc.version, doc.lang)
        asm.aliases.setdefault(doc.version, set())
        fdate = identity.file_date(doc.source)
        if fdate and fdate != doc.version:
            asm.aliases[doc.version].add(fdate)
            alias_of[fdate] = doc.version
        flags = asm.vflags.setdefault(doc.version, {})
        if key in asm.docs:
            keep, drop = _prefer(asm.docs[key], doc)
            asm.docs[key] = keep
            flags.setdefault("duplicate_of", {})[drop.source] = keep.source
            asm.sources[key] = [keep.source, drop.source]
            asm.skipped.append(
                (
                    drop.source,
                    f"{drop.source}: another copy of release {doc.version} ({doc.lang}),"
                    f" {keep.source} is used"
                    + (" (this copy is truncated)" if drop.flags.get("truncated") else ""),
                )
            )
        else:
            asm.docs[key] = doc
            asm.sources[key] = [doc.source]
    groups: dict[tuple[str, str], list[Document]] = {}
    for doc in other:
        doc.version = alias_of.get(doc.version, doc.version)
        groups.setdefault((doc.version, doc.lang), []).append(doc)
    for key, parts in groups.items():
        if key in asm.docs:  # the official text of that release wins over a copy of part of it
            for d in parts:
                reason = f"{d.source}: a copy of release {key[0]} ({key[1]}), whose official text"
                asm.skipped.append((d.source, reason + f" ({asm.docs[key].source}) is used"))
            continue
        merged = _merge(parts)
        merged.flags["partial"] = True
        asm.docs[key] = merged
        asm.sources[key] = sorted({d.source for d in parts})
        asm.aliases.setdefault(key[0], set())
        asm.vflags.setdefault(key[0], {})
    for (vid, _lang), doc in asm.docs.items():
        flags = asm.vflags.setdefault(vid, {})
        if doc.flags.get("truncated"):
            flags["truncated"] = True
            asm.flagged.append((doc.source, f"{doc.source}: truncated: stored, flagged as such"))
        if n := doc.flags.get("replacement_chars"):
            flags["replacement_chars"] = int(flags.get("replacement_chars", 0)) + int(n)  # type: ignore[arg-type]
    return asm


def write_store(asm: Assembly, path: Path) -> None:
    """Write the assembled versions and documents into a new SQLite file."""
    conn = db.create(path)
    with conn:
        for vid in sorted(asm.aliases):
            db.write_version(conn, vid, sorted(asm.aliases[vid]), "", asm.vflags.get(vid, {}))
        for key in sorted(asm.docs):
            db.write_document(conn, asm.docs[key], asm.sources[key])
        db.write_skipped(conn, asm.skipped)
    conn.execute("ANALYZE")  # without statistics SQLite scans a whole document for one rule
    conn.close()


def _stderr_progress(msg: str) -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K" + msg[:120])
        sys.stderr.flush()
    else:
        print(msg, file=sys.stderr)


DerivedStep = Callable[[Assembly, Path, Progress], None]


def derived_steps() -> list[tuple[str, DerivedStep]]:
    """Build steps after the store: each reads the assembly and writes beside the store."""
    from crkb import derive

    return derive.STEPS


def build(
    corpus_dirs: list[Path],
    data: Path,
    *,
    strict: bool = False,
    progress: Progress = _stderr_progress,
) -> BuildReport:
    """Run a whole build and publish it atomically. Raises CrkbError on failure."""
    t0 = time.perf_counter()
    steps: dict[str, float] = {}
    paths = discover(corpus_dirs)
    terms_files = [p for p in paths if is_terms_list(p)]
    paths = [p for p in paths if p not in terms_files]
    if not paths:
        raise BadInput(f"{':'.join(map(str, corpus_dirs))}: no files to build from")
    results = parse_all(paths, progress)
    steps["parse"] = time.perf_counter() - t0
    asm = assemble(results, progress)
    asm.terms_files = [str(p) for p in terms_files]
    if strict and (asm.skipped or asm.flagged):
        bad = asm.skipped + asm.flagged
        raise BadInput(f"--strict: {len(bad)} file(s) not used as they are; first: {bad[0][1]}")
    if not asm.docs:
        raise BadInput(f"{':'.join(map(str, corpus_dirs))}: no usable rules document found")
    data.mkdir(parents=True, exist_ok=True)
    tmp = location.new_build_dir(data)
    try:
        t = time.perf_counter()
        write_store(asm, tmp / db.DB_NAME)
        steps["store"] = time.perf_counter() - t
        for name, step in derived_steps():
            t = time.perf_counter()
            progress(f"{name} …")
            step(asm, tmp, progress)
            steps[name] = time.perf_counter() - t
        final = location.publish(data, tmp)
    except BaseException:
        location.discard(tmp)
        raise
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
    return BuildReport(
        final,
        len(asm.aliases),
        len(asm.docs),
        asm.skipped,
        asm.reported,
        time.perf_counter() - t0,
        steps,
        asm.flagged,
    )
