"""The build, top to bottom: find files → parse (in parallel) → assemble → write store → steps.

Gather everything first, then write, then publish in one atomic step (see store/location.py). A file
that cannot be used is skipped with a one-line reason naming it; `strict` turns any skip into a
failure; a build that finds nothing usable fails. A failed build leaves the current data serving.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crkb import corpus
from crkb.build import steps as build_steps
from crkb.errors import BadInput
from crkb.graph.references import resolve
from crkb.model import OFFICIAL_FORMATS, Document
from crkb.numbers import sort_key
from crkb.parsing import Parsed, parse_all
from crkb.sources import identity
from crkb.sources.completeness import missing_chapters
from crkb.sources.decode import decode
from crkb.store import db, location

OFFICIAL = OFFICIAL_FORMATS
_TERMS_LINE = re.compile(r"^[A-Za-z][^:：\n]{0,60}[:：]\s*\S*[\u4e00-\u9fff]", re.M)

Progress = Callable[[str], None]


@dataclass
class Assembly:
    """Everything the parse produced, grouped into versions and ready to write."""

    docs: dict[tuple[str, str], Document] = field(default_factory=dict)
    sources: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    aliases: dict[str, set[str]] = field(default_factory=dict)
    vflags: dict[str, dict[str, Any]] = field(default_factory=dict)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    terms_files: list[str] = field(default_factory=list)
    terms_texts: list[str] = field(default_factory=list)  # the terms lists, decoded
    layer_of: dict[str, int] = field(default_factory=dict)  # source → its corpus layer
    replaced: list[tuple[str, str]] = field(default_factory=list)  # (earlier copy, later layer's)
    reported: list[tuple[str, str]] = field(default_factory=list)  # recognised, not stored
    flagged: list[tuple[str, str]] = field(default_factory=list)  # stored, with a defect


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
    replaced: list[tuple[str, str]] = field(default_factory=list)
    bundles: list[str] = field(default_factory=list)


class NothingUsable(BadInput):
    """A corpus none of whose files is a rules document crkb stores; the files read, each with
    why it was not used (`skipped`: (path, reason naming it); `reported`: (path, what it is))."""

    def __init__(self, where: str, skipped: list[tuple[str, str]], reported: list[tuple[str, str]]):
        files = len({path for path, _ in skipped + reported})
        first = skipped[0][1] if skipped else f"{reported[0][0]}: {reported[0][1]}"
        super().__init__(
            f"{where}: no usable rules document found: {files} file(s) not used"
            f" ({len(skipped)} skipped, {len(reported)} recognised, not stored); first: {first}"
        )
        self.skipped = skipped
        self.reported = reported


def is_terms_list(data: bytes) -> bool:
    """A provisional terms list (`English: 中文` lines), used for the dictionary, not parsed."""
    head = data[:20000].decode("utf-8", errors="replace")
    return len(_TERMS_LINE.findall(head)) >= 5 and not re.search(r"^\d{3}\.\d", head, re.M)


def _merge(parts: list[Document]) -> Document:
    """Pages of one (version, language) from several files (chapters, glossary) as one document."""
    base = parts[0]
    seen: set[str] = set()
    rules = []
    for d in parts:  # a number from the first page that holds it, as often as that page does:
        own = [r for r in d.rules if r.number not in seen]  # a page's doubled rule is a finding
        rules += own
        seen.update(r.number for r in own)
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
        # each page's references were resolved against that page's rules alone (a chapter):
        # resolved again against the whole copy, only a rule no page holds is dangling
        references=resolve([r for d in parts for r in d.references], {r.number: r for r in rules}),
        warnings=[w for d in parts for w in d.warnings],
        flags={k: v for d in parts for k, v in d.flags.items()},
    )
    return merged


def _prefer(
    a: Document, b: Document, layer_of: dict[str, int] | None = None
) -> tuple[Document, Document]:
    """Of two official files of one release, keep a whole one, then the one from the later
    corpus layer (a newer or fixed copy), then the one named by its own date, else the later."""
    layers = layer_of or {}

    def rank(d: Document) -> tuple[int, int, int, str]:
        return (
            int(not d.flags.get("truncated")),
            layers.get(d.source, 0),
            int(identity.file_date(d.source) == d.version),
            identity.file_date(d.source) or "",
        )

    return (a, b) if rank(a) >= rank(b) else (b, a)


def assemble(
    results: list[Parsed], progress: Progress, layer_of: dict[str, int] | None = None
) -> Assembly:
    """Group parsed documents into versions: aliases, duplicates, merged pages, flags. A copy of a
    release from a later corpus layer replaces an earlier layer's copy; that is no defect."""
    asm = Assembly(layer_of=dict(layer_of or {}))
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
            keep, drop = _prefer(asm.docs[key], doc, asm.layer_of)
            asm.docs[key] = keep
            if asm.layer_of.get(keep.source, 0) > asm.layer_of.get(drop.source, 0):
                asm.replaced.append((drop.source, keep.source))
                asm.sources[key] = [keep.source]
                continue
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
        for name in ("replacement_chars", "lost_characters"):  # counts: summed over languages
            if n := doc.flags.get(name):
                count: int = n  # type: ignore[assignment]  # Document.flags values are JSON; this one a count
                flags[name] = int(flags.get(name, 0)) + count
    _flag_partial(asm)
    return asm


def _flag_partial(asm: Assembly) -> None:
    """Name every partial copy in its version's flags (`partial`: lang → the chapters it lacks
    that the releases around it hold): a copy of part of a release, and a file of any shape
    lacking a chapter (kept out of the lineage by `steps.official_documents`)."""
    lacking = missing_chapters(asm.docs)
    for (vid, lang), doc in sorted(asm.docs.items()):
        gaps = lacking.get((vid, lang))
        if gaps is None and not doc.flags.get("partial"):
            continue
        doc.flags["partial"] = True
        asm.vflags.setdefault(vid, {}).setdefault("partial", {})[lang] = gaps or []
        if gaps and doc.format in OFFICIAL:
            what = f"lacks chapter{'s' if len(gaps) > 1 else ''} {', '.join(gaps)}"
            asm.flagged.append((doc.source, f"{doc.source}: {what}: stored as a partial copy"))


def write_store(asm: Assembly, path: Path) -> None:
    """Write the assembled versions and documents into a new SQLite file."""
    conn = db.create(path)
    with conn:
        for vid in sorted(asm.aliases):
            db.write_version(conn, vid, sorted(asm.aliases[vid]), "", asm.vflags.get(vid, {}))
        for key in sorted(asm.docs):
            db.write_document(conn, asm.docs[key], asm.sources[key])
        db.write_skipped(conn, asm.skipped)
    db.analyze(conn)
    conn.close()


_PARSED = re.compile(r"parse \[(\d+)/(\d+)\] (.*)")


def _stderr_progress(msg: str) -> None:
    """On a terminal: one line per build step, redrawn (a bar while files are parsed); in a log:
    the steps, and the parse count every tenth of the files."""
    parsed = _PARSED.fullmatch(msg)
    if not sys.stderr.isatty():
        if parsed:
            done, total = int(parsed[1]), int(parsed[2])
            if done != total and done % max(1, total // 10):
                return
        print(msg, file=sys.stderr)
        return
    if parsed:
        done, total = int(parsed[1]), int(parsed[2])
        bar = "#" * (24 * done // total)
        msg = f"parse [{bar:.<24}] {done}/{total} files  {parsed[3]}"
    keep = msg.startswith(("step ", "corpus: ")) or (parsed is not None and parsed[1] == "1")
    first = msg.startswith("corpus: ")  # a build's first line: nothing above it to keep
    sys.stderr.write(("\r\x1b[K" if first or not keep else "\n") + msg[:120])
    sys.stderr.flush()


STEP_NAMES = ("store", "terms", "lineage", "checks", "index")  # in the order a build runs them


def run_steps(asm: Assembly, build_dir: Path, progress: Progress) -> dict[str, float]:
    """The steps after the store (crkb.build.steps), in order, each given what it needs;
    seconds per step."""
    seconds: dict[str, float] = {}
    names = STEP_NAMES

    @contextmanager
    def step(name: str) -> Iterator[None]:
        progress(f"step {names.index(name) + 1}/{len(names)}: {name} …")
        t = time.perf_counter()
        yield
        seconds[name] = time.perf_counter() - t

    with step("terms"):
        terms = build_steps.write_terms(asm.docs, asm.terms_texts, build_dir)
    with step("lineage"):
        lineages, copies = build_steps.write_lineage(asm.docs, build_dir, progress)
    with step("checks"):
        build_steps.write_findings(asm.docs, terms, lineages, build_dir, progress)
    with step("index"):
        aliases = {a: vid for vid, names in asm.aliases.items() for a in names}
        build_steps.write_index(
            asm.docs, terms, lineages, build_dir, copies.get("en"), aliases=aliases
        )
    return seconds


Finish = Callable[[Path], dict[str, float]]
"""Work on a finished build before it is published (the CLI renders its pages): given a data
directory whose `current` is that build, the seconds of its steps by name."""


def build(
    corpus_dirs: list[Path],
    data: Path,
    *,
    strict: bool = False,
    vetted: int = 0,
    progress: Progress = _stderr_progress,
    finish: Finish | None = None,
) -> BuildReport:
    """Run a whole build and publish it atomically, as its very last step: a failure or an
    interrupt before it leaves the current build serving. Raises CrkbError on failure.

    `strict` fails the build on a file not used as it is, except in the first `vetted` layers
    (the bundled archive: its second copies and rulings summary are known, and skipped in every
    build), so that it checks what the user gives."""
    t0 = time.perf_counter()
    steps: dict[str, float] = {}
    where = ":".join(map(str, corpus_dirs))
    found = corpus.discover(corpus_dirs)
    if found.bundles:
        steps["bundle"] = found.bundle_seconds
    tmp = location.new_build_dir(data)  # before the parse: an unwritable data dir fails at once
    try:
        strict_from = vetted if strict else None
        asm = _gather(found, len(corpus_dirs), where, strict_from, progress, steps)
        t = time.perf_counter()
        progress(f"step 1/{len(STEP_NAMES)}: store …")
        write_store(asm, tmp / db.DB_NAME)
        steps["store"] = time.perf_counter() - t
        steps.update(run_steps(asm, tmp, progress))
        if finish is not None:
            progress("last: the newest release's pages …")  # ~10 s the steps do not count
            with location.preview(data, tmp) as view:
                steps.update(finish(view))
    except BaseException:
        location.discard(tmp)
        raise
    final = location.publish(data, tmp)
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    return BuildReport(
        final,
        len(asm.aliases),
        len(asm.docs),
        asm.skipped,
        asm.reported,
        time.perf_counter() - t0,
        steps,
        asm.flagged,
        asm.replaced,
        found.bundles,
    )


def _gather(
    found: corpus.Discovery,
    layers: int,
    where: str,
    strict_from: int | None,
    progress: Progress,
    steps: dict[str, float],
) -> Assembly:
    """The corpus's files parsed and assembled into versions (their bytes let go once parsed);
    BadInput when there is nothing to build from, or a file of layer `strict_from` or above
    (None: no layer) is not used as it is."""
    terms: list[corpus.Item] = []
    items: list[corpus.Item] = []
    for it in found.items:
        (terms if is_terms_list(it.head(20000)) else items).append(it)
    if not items:
        raise BadInput(f"{where}: no files to build from")
    layer_of = {it.name: it.layer for it in items}
    read = ""
    if found.bundles:
        read = f"; {', '.join(found.bundles)} verified and read in {found.bundle_seconds:.1f}s"
    progress(f"corpus: {len(items)} files from {layers} layer(s){read}")
    t = time.perf_counter()
    results = parse_all([(it.name, it.data) for it in items], progress)
    steps["parse"] = time.perf_counter() - t
    found.items.clear()  # the bundle's bytes: parsed, no longer needed
    del items
    asm = assemble(results, progress, layer_of)
    asm.terms_files = [it.name for it in terms]
    asm.terms_texts = [decode(it.read()).text for it in terms]
    asm.replaced = found.replaced + asm.replaced
    if strict_from is not None:
        bad = [b for b in asm.skipped + asm.flagged if layer_of.get(b[0], layers) >= strict_from]
        if bad:
            # every file named, so that one run tells what to mend
            said = "; ".join(reason for _path, reason in bad)
            raise BadInput(f"--strict: {len(bad)} file(s) not used as they are: {said}")
    if not asm.docs:
        raise NothingUsable(where, asm.skipped, asm.reported)
    return asm
