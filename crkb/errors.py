"""One exception family: each ends in one clean CLI line or one HTML/JSON error page."""

from __future__ import annotations


class CrkbError(Exception):
    """An expected failure with a message a user can act on (exit 2 on the command line)."""

    exit_code = 2
    http_status = 400


class BadInput(CrkbError):
    """A file or argument that cannot be used; the message names it and says why."""


class NotARulesDocument(BadInput):
    """A file that is not a Comprehensive Rules document (or one crkb cannot read)."""


class NotFound(CrkbError):
    """An unknown rule, version or page."""

    http_status = 404
    versions: tuple[str, ...] = ()  # releases to offer instead of the one `asked` for
    asked: str = ""
    listed: bool = False  # an unknown release: each surface says where its releases are listed

    def where_listed(self, place: str) -> str:
        """The message, ending with where releases are listed when it is about one."""
        return f"{self}; {place} lists every release" if self.listed else str(self)


class Interrupted(CrkbError):
    """Interrupted (Ctrl-C) after something was changed: the message says what, where a bare
    interrupt would claim that nothing was."""

    exit_code = 130


class StoreError(CrkbError):
    """The store or index is missing, damaged, or was built by another crkb or dictionary."""

    http_status = 503
