"""Reviewers' verdicts on findings, in a small JSON file outside the store so rebuilds keep them.

The file maps `<release>/<finding id>` to `{"status": "reviewed" | "false_alarm", "note": …,
"at": …}`. A finding keeps its id in every release that has it, but a verdict is on one
release's translation: an issue reviewed in 2024-04-12 may still be open in the next one. A key
that is a bare id (written before verdicts named their release) holds in every release.
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

    def mark(self, finding_id: str, status: str, note: str, version: str) -> dict[str, str]:
        """Record a verdict on a finding of release `version` (in memory; `save` keeps it)."""
        if status not in STATUSES:
            raise BadInput(f"review status {status!r}: expected one of {', '.join(STATUSES)}")
        entry = {
            "status": status,
            "note": note,
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        self.entries[key(version, finding_id)] = entry
        return entry

    def unmark(self, finding_id: str, version: str) -> bool:
        """Forget the verdict on a finding of `version` (and an older one that held in every
        release); False when there was none."""
        mine = self.entries.pop(key(version, finding_id), None)
        every = self.entries.pop(finding_id, None)
        return mine is not None or every is not None

    def entry(self, finding_id: str, version: str) -> dict[str, str] | None:
        """The verdict on a finding of `version`, or None when nobody has looked at it."""
        return self.entries.get(key(version, finding_id)) or self.entries.get(finding_id)

    def status(self, finding_id: str, version: str) -> str | None:
        """The verdict's status ("reviewed", "false_alarm"), or None."""
        entry = self.entry(finding_id, version)
        return entry["status"] if entry else None

    def filter_open(self, findings: Iterable[Finding], version: str) -> list[Finding]:
        """The findings of `version` nobody has reviewed or dismissed yet."""
        return [f for f in findings if self.entry(f.id, version) is None]


def key(version: str, finding_id: str) -> str:
    """The review file's key of a verdict on a finding of one release."""
    return f"{version}/{finding_id}"
