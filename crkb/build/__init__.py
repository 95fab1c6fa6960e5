"""Building a data directory: the pipeline (pipeline.py) runs the steps (steps.py) it calls."""

from __future__ import annotations

from crkb.build.pipeline import BuildReport, NothingUsable, build, is_terms_list

__all__ = ["BuildReport", "NothingUsable", "build", "is_terms_list"]
