"""Reviewers' verdicts on findings, in a small JSON file outside the store so rebuilds keep them.

The file maps a finding id to `{"status": "reviewed" | "false_alarm", "note": …, "at": …}`.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from crkb.checks.findings import Finding
from crkb.errors import BadInput

STATUSES = ("reviewed", "false_alarm")


class ReviewFile:
    """Verdicts by finding id; `load` on creation, `save` writes atomically."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.entries: dict[str, dict[str, str]] = {}
        self.load()

    def load(self) -> dict[str, dict[str, str]]:
        """Read the file (a missing file is an empty review); a broken one is BadInput."""
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            self.entries = {}
            return self.entries
        except OSError as e:  # a directory in its place, no permission
            raise BadInput(f"{self.path}: cannot read the review file: {e.strerror or e}") from None
        try:
            data = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError as e:
            raise BadInput(f"{self.path}: not a review file: {e.msg} at line {e.lineno}") from None
        if not isinstance(data, dict):
            raise BadInput(f"{self.path}: not a review file: expected a JSON object")
        self.entries = {
            str(k): v
            for k, v in data.items()
            if isinstance(v, dict) and v.get("status") in STATUSES
        }
        return self.entries

    def save(self) -> None:
        """Write the file atomically (temporary file, then rename); BadInput naming the file
        when it cannot be written (a read-only data directory), the old file left as it was."""
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".reviews-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.entries, f, ensure_ascii=False, indent=1, sort_keys=True)
            os.replace(tmp, self.path)
        except OSError as e:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            raise BadInput(f"{self.path}: cannot save the verdict: {e.strerror or e}") from None

    def mark(self, finding_id: str, status: str, note: str = "") -> dict[str, str]:
        """Record a verdict (in memory; call `save` to keep it)."""
        if status not in STATUSES:
            raise BadInput(f"review status {status!r}: expected one of {', '.join(STATUSES)}")
        entry = {
            "status": status,
            "note": note,
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        self.entries[finding_id] = entry
        return entry

    def unmark(self, finding_id: str) -> None:
        """Forget a verdict."""
        self.entries.pop(finding_id, None)

    def status(self, finding_id: str) -> str | None:
        """The verdict on a finding, or None when nobody has looked at it."""
        entry = self.entries.get(finding_id)
        return entry["status"] if entry else None

    def filter_open(self, findings: Iterable[Finding]) -> list[Finding]:
        """The findings nobody has reviewed or dismissed yet."""
        return [f for f in findings if f.id not in self.entries]
