"""The `crkb` commands over derived data: search, diff, history, check, identify, serve, fetch."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to the `crkb` parser."""
