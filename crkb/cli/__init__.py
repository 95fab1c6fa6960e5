"""The `crkb` command: a thin layer over the library; every expected failure is one line, exit 2.

Each command lives in its own module here with `register(sub)` and its handler; the shared
options are in `options.py`, the parsers of rule numbers, versions and languages in
crkb.views.params, the JSON shapes in crkb.views.shapes.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence

from crkb.cli import (
    build,
    changes,
    check,
    export,
    fetch,
    forward,
    identify,
    rules,
    search,
    serve,
)
from crkb.cli.options import Parser, fit_stdout, new_subparsers
from crkb.errors import CrkbError, NotFound

__all__ = ["main", "make_parser"]


def make_parser() -> Parser:
    p = Parser(prog="crkb", description="Comprehensive Rules knowledge base (English / 简体中文)")
    sub = new_subparsers(p)
    for module in (build, rules, search, changes, check, forward, export, serve, identify, fetch):
        module.register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    fit_stdout()
    parser = make_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except CrkbError as e:
        said = e.where_listed("`crkb versions`") if isinstance(e, NotFound) else str(e)
        print(f"crkb {args.command}: {said}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print(f"crkb {args.command}: interrupted; nothing was changed", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as e:  # the output could not be written (a full disk), a folder not read
        _quiet_stdout()
        where = f"{e.filename}: " if e.filename else ""
        print(f"crkb {args.command}: {where}{e.strerror or e}", file=sys.stderr)
        return 2


def _quiet_stdout() -> None:
    """Point stdout at /dev/null: what is left in its buffer cannot be written either, and
    flushing it at exit would print a second error."""
    with contextlib.suppress(OSError):
        sys.stdout.flush()
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
