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
        str(PROJECT_ROOT / "corpus"),
        "corpus directories, separated by ':'; default: the project's bundled corpus/",
    ),
    Setting(
        "CRKB_DATA",
        "instance",
        "where the store, index and derived files live; default: instance/ in the working"
        " directory",
    ),
)


def corpus_dirs() -> list[Path]:
    """The corpus directories to build from."""
    raw = os.environ.get("CRKB_CORPUS") or SETTINGS[0].default
    return [Path(p) for p in raw.split(":") if p]


def data_dir() -> Path:
    """The data directory (not created here)."""
    return Path(os.environ.get("CRKB_DATA") or SETTINGS[1].default)
