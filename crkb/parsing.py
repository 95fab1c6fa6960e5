"""Parsing a whole corpus on every core, with as little as possible sent between processes.

Handing documents from a worker to the build process costs more than one might think: the
archive's 150 files make ~800,000 rules and references, and unpickling them in the parent took
longer than parsing them. So the parent parses its own share of the files while the workers parse
theirs, and each worker returns its files in batches of neighbouring releases whose repeated texts
are interned first, so that pickle sends each text once per batch.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from crkb.errors import CrkbError
from crkb.model import ParseResult
from crkb.sources.reader import read_bytes, read_file

Progress = Callable[[str], None]
Parsed = tuple[str, ParseResult | None, str | None]  # (path, result, reason it was refused)
# A file to parse: its name, and its bytes when it does not lie on disk (a member of a bundle);
# the bytes travel to a worker with the name, a file on disk is read by the worker itself.
Job = tuple[str, bytes | None]

BATCH_BYTES = 6_000_000  # a worker's reply: about ten neighbouring releases
PARENT_SHARE = 0.46  # of the bytes, when one worker helps; measured, see scripts/bench.py


def parse_one(path: str, data: bytes | None = None) -> Parsed:
    """Parse a file (or the bytes given for it); a refusal or a parser bug becomes a one-line
    reason, never an exception."""
    try:
        return path, read_file(path) if data is None else read_bytes(data, path), None
    except CrkbError as e:
        return path, None, str(e)
    except Exception as e:  # a bug must not take the whole build down; it is reported instead
        return path, None, f"{path}: internal error while parsing: {type(e).__name__}: {e}"


def intern_texts(results: list[Parsed]) -> None:
    """Make equal strings one object across these results (rules repeat between releases), so
    pickle sends each once and the build keeps each once."""
    pool: dict[str, str] = {}

    def one(s: str) -> str:
        return pool.setdefault(s, s)

    def maybe(s: str | None) -> str | None:
        return s if s is None else pool.setdefault(s, s)

    for _path, result, _why in results:
        for doc in result.documents if result else ():
            for r in doc.rules:
                r.number, r.text = one(r.number), one(r.text)
                r.title, r.parent = maybe(r.title), maybe(r.parent)
                r.examples = [one(e) for e in r.examples]
            for g in doc.glossary:
                g.term, g.text = one(g.term), one(g.text)
            for ref in doc.references:
                ref.source, ref.target, ref.raw = one(ref.source), one(ref.target), one(ref.raw)
                ref.title = maybe(ref.title)


def parse_batch(jobs: list[Job]) -> list[Parsed]:
    """A worker's job: several neighbouring files, interned together."""
    out = [parse_one(name, data) for name, data in jobs]
    intern_texts(out)
    return out


def split_work(
    paths: list[str], sizes: list[int], workers: int
) -> tuple[list[int], list[list[int]]]:
    """(indexes the parent parses, batches of indexes for the workers), each a run of
    neighbouring files, the parent's share sized so that parent and workers finish together."""
    total = sum(sizes) or 1
    parent_share = PARENT_SHARE if workers == 1 else 1 / (workers + 1)
    worker_bytes = total * (1 - parent_share)
    taken, cut = 0, 0
    while cut < len(paths) and taken + sizes[cut] / 2 < worker_bytes:
        taken += sizes[cut]
        cut += 1
    batches: list[list[int]] = []
    size = 0
    for i in range(cut):
        if not batches or size >= BATCH_BYTES:
            batches.append([])
            size = 0
        batches[-1].append(i)
        size += sizes[i]
    return list(range(cut, len(paths))), batches


def _sizes(jobs: list[Job]) -> list[int]:
    out: list[int] = []
    for name, data in jobs:
        if data is not None:
            out.append(len(data))
            continue
        try:
            out.append(os.path.getsize(name))
        except OSError:
            out.append(0)
    return out


def _complete(out: list[Parsed | None]) -> list[Parsed]:
    """Every slot filled (each file is parsed once, by the parent or a worker)."""
    filled = [p for p in out if p is not None]
    if len(filled) != len(out):
        raise RuntimeError("a file of the corpus was not parsed")
    return filled


def parse_all(
    paths: Sequence[Path | Job], progress: Progress, workers: int | None = None
) -> list[Parsed]:
    """Parse files (paths, or (name, bytes) jobs) on every core, the parent included, in the
    order given."""
    jobs: list[Job] = [p if isinstance(p, tuple) else (str(p), None) for p in paths]
    names = [name for name, _data in jobs]
    workers = (os.cpu_count() or 1) - 1 if workers is None else workers
    workers = min(workers, 3)
    out: list[Parsed | None] = [None] * len(names)
    done = 0

    def report(i: int) -> None:
        nonlocal done
        done += 1
        progress(f"parse [{done}/{len(names)}] {names[i]}")

    if workers < 1 or len(names) < 4:
        for i, (name, data) in enumerate(jobs):
            out[i] = parse_one(name, data)
            report(i)
        return _complete(out)
    mine, batches = split_work(names, _sizes(jobs), workers)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures: list[tuple[list[int], Future[list[Parsed]]]] = [
            (b, pool.submit(parse_batch, [jobs[i] for i in b])) for b in batches
        ]

        def collect(wait: bool) -> None:
            """Take the workers' finished batches (all of them, waiting, when `wait`)."""
            for b, fut in list(futures):
                if wait or fut.done():
                    for i, res in zip(b, fut.result(), strict=True):
                        out[i] = res
                        report(i)
                    futures.remove((b, fut))

        own: list[Parsed] = []
        for i in mine:
            own.append(parse_one(*jobs[i]))
            out[i] = own[-1]
            report(i)
            collect(wait=False)
        intern_texts(own)
        collect(wait=True)
    return _complete(out)
