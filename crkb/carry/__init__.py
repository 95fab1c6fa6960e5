"""Carry a Chinese translation forward to a later English release: statuses, draft, worklist."""
