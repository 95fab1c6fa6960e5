"""`crkb build`: parse the corpus and publish a new build."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crkb import config
from crkb.errors import BadInput, Interrupted

if TYPE_CHECKING:
    from crkb.build import BuildReport


def cmd_build(args: argparse.Namespace) -> int:
    # the parsers, matchers and indexer: loaded when building
    from crkb.build import NothingUsable, build

    given = [Path(p) for p in args.corpus] if args.corpus else None
    corpus = config.corpus_layers(given, bundled=not args.no_bundled)
    if not corpus:
        raise BadInput("--no-bundled: give the corpus to build (--corpus DIR or CRKB_CORPUS)")
    data = Path(args.data) if args.data else config.data_dir()
    # a SIGTERM (`timeout`, systemd, docker stopping a container) stops a build as Ctrl-C does:
    # its unfinished directory removed, the build before it still serving
    before = signal.signal(signal.SIGTERM, _interrupt)
    try:
        vetted = 0 if args.no_bundled else 1  # the bundle's known skips fail no --strict
        report = build(corpus, data, strict=args.strict, vetted=vetted, finish=_render_pages)
    except NothingUsable as e:  # each file named with its reason, as a build that succeeds does
        if sys.stderr.isatty():
            sys.stderr.write("\n")  # below the progress line
        for _path, reason in e.skipped:
            print(f"skipped: {reason}", file=sys.stderr)
        for path, what in e.reported:
            print(f"recognised, not stored: {path}: {what}", file=sys.stderr)
        raise
    finally:
        signal.signal(signal.SIGTERM, before)
    try:
        _tell(report)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted after publishing {report.path}, which now serves") from None
    return 0


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _render_pages(view: Path) -> dict[str, float]:
    """The newest release's rule pages, rendered into the finished build before it is published
    (an interrupt while they render leaves the previous build serving)."""
    from crkb.web.prerender import prerender

    _count, seconds = prerender(view)
    return {"pages": seconds}


def _tell(report: BuildReport) -> None:
    """What the build replaced, skipped, flagged and recognised (stderr), then its summary."""
    for old, new in report.replaced:
        print(f"replaced: {old} by {new} (a later corpus layer)", file=sys.stderr)
    for _path, reason in report.skipped:
        print(f"skipped: {reason}", file=sys.stderr)
    for _path, reason in report.flagged:
        print(f"flagged: {reason}", file=sys.stderr)
    for path, what in report.reported:
        print(f"recognised, not stored: {path}: {what}", file=sys.stderr)
    steps = ", ".join(f"{k} {v:.1f}s" for k, v in report.steps.items())
    print(
        f"built {report.versions} versions, {report.documents} documents in {report.seconds:.1f}s"
        f" ({steps}); {len(report.skipped)} file(s) skipped → {report.path}"
    )


def register(sub: Any) -> None:
    b = sub.add_parser(
        "build", help="ingest every document found; build store, index, derived data"
    )
    b.add_argument(
        "--corpus",
        action="append",
        help="corpus folder or bundle (repeatable), layered over the bundled corpus in order;"
        " default $CRKB_CORPUS",
    )
    b.add_argument(
        "--no-bundled",
        action="store_true",
        help="build only the corpus given, without the bundled archive and fetched releases",
    )
    b.add_argument("--data", help="data directory; default $CRKB_DATA or ./instance")
    b.add_argument(
        "--strict",
        action="store_true",
        help="fail on any file given (beside the bundled archive) that cannot be used as it is",
    )
    b.set_defaults(func=cmd_build)
