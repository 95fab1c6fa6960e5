"""Settings, declared once as (name, default, help); read when asked, never at import time."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True, slots=True)
class Setting:
    name: str
    default: str
    help: str


SETTINGS = (
    Setting(
        "CRKB_CORPUS",
        "",
        "corpus folders (or bundles) separated by ':', layered over the bundled corpus/ (the whole"
        " archive and the seeds) in that order: a later copy of a file or a release wins;"
        " default: none, the bundled corpus alone",
    ),
    Setting(
        "CRKB_DATA",
        "instance",
        "where the store, index and derived files live; default: instance/ in the working"
        " directory",
    ),
    Setting(
        "CRKB_USER_CORPUS",
        "",
        "where `crkb fetch` puts new releases, layered over the bundled corpus (before"
        " CRKB_CORPUS); default: $XDG_DATA_HOME/crkb/corpus, else ~/.local/share/crkb/corpus",
    ),
)


def bundled_corpus() -> Path:
    """The corpus shipped with the project: corpus/archive.tar.xz and the seeds."""
    return PROJECT_ROOT / "corpus"


def corpus_dirs() -> list[Path]:
    """The corpus folders given by CRKB_CORPUS (layered over the bundled corpus)."""
    raw = os.environ.get("CRKB_CORPUS") or SETTINGS[0].default
    return [Path(p) for p in raw.split(":") if p]


def user_corpus() -> Path:
    """The folder `crkb fetch` writes to (it may not exist yet)."""
    if raw := os.environ.get("CRKB_USER_CORPUS"):
        return Path(raw)
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "crkb" / "corpus"


def corpus_layers(given: list[Path] | None = None, *, bundled: bool = True) -> list[Path]:
    """What a build reads, lowest layer first: the bundled corpus, the fetched releases (when
    there are any), then the folders given (`--corpus`, else CRKB_CORPUS). Without `bundled`:
    only the folders given."""
    layers: list[Path] = []
    if bundled:
        layers.append(bundled_corpus())
        if user_corpus().is_dir():
            layers.append(user_corpus())
    layers += given if given else corpus_dirs()
    return layers


def data_dir() -> Path:
    """The data directory (not created here)."""
    return Path(os.environ.get("CRKB_DATA") or SETTINGS[1].default)
