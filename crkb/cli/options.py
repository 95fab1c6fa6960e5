"""What every `crkb` command shares: one-line argument errors, JSON output and the options
`--json`, `--data`, `--version` and `--lang` (their choices come from crkb.views.params)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from crkb import config
from crkb.store.db import DB_NAME, Store
from crkb.store.location import current_build

Handler = Callable[[argparse.Namespace], int]


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line instead of usage + traceback-ish noise."""

    def error(self, message: str) -> NoReturn:
        print(
            f"crkb: {message} (see `crkb {self.prog.split()[-1]} --help`)"
            if " " in self.prog
            else f"crkb: {message} (see `crkb --help`)",
            file=sys.stderr,
        )
        raise SystemExit(2)


def unicode_stdout() -> bool:
    """True when stdout takes every character (UTF-8, -16, -32)."""
    return (getattr(sys.stdout, "encoding", None) or "").lower().startswith("utf")


def fit_stdout() -> None:
    """A terminal or file that cannot take every character (Latin-1, ASCII) gets \\u escapes
    for the ones it cannot take, not a traceback: rules quote with ’ and “ even in English."""
    if not unicode_stdout() and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")


def emit(obj: object) -> None:
    """One JSON document on stdout (`--json`): escaped to ASCII where stdout cannot take every
    character, which any JSON reader reads back unchanged."""
    print(json.dumps(obj, ensure_ascii=not unicode_stdout(), indent=2))


def data_dir(args: argparse.Namespace) -> Path:
    """`--data`, else `$CRKB_DATA`, else ./instance."""
    return Path(getattr(args, "data", None) or config.data_dir())


def open_store(args: argparse.Namespace) -> Store:
    """The store of the current build in the data directory (one line if there is none)."""
    return Store(current_build(data_dir(args)) / DB_NAME)


def reads_store(p: argparse.ArgumentParser) -> None:
    """The options of every command that reads a build: JSON output and the data directory
    (hidden: `$CRKB_DATA` is the documented way)."""
    p.add_argument("--json", action="store_true")
    p.add_argument("--data", help=argparse.SUPPRESS)


def version_option(p: argparse.ArgumentParser, help: str) -> None:
    """`--version V`: a release id, an alias or `latest` (read with crkb.views.params.version)."""
    p.add_argument("--version", type=release, help=help)


def release(raw: str) -> str:
    """A release as typed: an empty one is a slip (`--version ""`, an unset variable), not the
    newest release."""
    if not raw.strip():
        raise argparse.ArgumentTypeError("give a release id, an alias or latest, not nothing")
    return raw


def lang_option(p: argparse.ArgumentParser, choices: tuple[str, ...], default: str) -> None:
    """`--lang` with the choices of crkb.views.params (TEXT_LANGS, SHOW_LANGS, SEARCH_LANGS)."""
    p.add_argument("--lang", choices=list(choices), default=default)


def new_subparsers(p: argparse.ArgumentParser) -> Any:
    """The sub-command table of the `crkb` parser (each command module registers into it)."""
    return p.add_subparsers(dest="command", required=True, parser_class=Parser)
