"""`url_for` answered from a kept pattern: a page asks for ~30 URLs (a tenth of rendering an old
release's rule page), so each endpoint's URL is built once per set of argument names with
stand-in values, and later calls fill the values in.

The answer is the one `flask.url_for` gives: the fast path takes only plain arguments made of
characters no URL encoding touches (letters, digits, `.`, `_`, `~`, `-`), inside a request, and
keys the pattern by everything else a relative URL depends on (the request's script root, host
and scheme as the URL adapter holds them). Anything else is `flask.url_for` itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import flask
from flask.globals import _cv_request

_PLAIN = re.compile(r"[A-Za-z0-9._~-]+").fullmatch  # unreserved: never percent-encoded
_STAND_IN = "QcrkbUrlArg{}Q"  # plain letters too: the URL holds them as they are
_STAND_INS = re.compile(r"QcrkbUrlArg(\d+)Q")
KEPT = "crkb urls"  # app.extensions: (endpoint, names, adapter's place) → format string or None

MAX_KEPT = 512  # patterns per app: a few dozen endpoints and argument sets, per host served
Pattern = str | None


def url_for(endpoint: str, /, **values: Any) -> str:  # noqa: ANN401 - flask.url_for's own values
    """`flask.url_for(endpoint, **values)`, from a kept pattern when the values are plain."""
    ctx = _cv_request.get(None)
    if ctx is None or endpoint[:1] == ".":
        return flask.url_for(endpoint, **values)
    for name, value in values.items():
        if type(value) is not str or name[:1] == "_" or _PLAIN(value) is None:
            return flask.url_for(endpoint, **values)
    pattern = _kept(ctx, endpoint, tuple(values))
    if pattern is None:
        return flask.url_for(endpoint, **values)
    return pattern.format(*values.values())


def formatter(endpoint: str, names: tuple[str, ...]) -> Callable[..., str]:
    """`url_for(endpoint, **dict(zip(names, values)))` as a function of the values, its pattern
    looked up once (a search page asks for ~50 rule addresses)."""
    ctx = _cv_request.get(None)
    pattern = None if ctx is None or endpoint[:1] == "." else _kept(ctx, endpoint, names)

    def build(*values: str) -> str:
        for v in values:
            if pattern is None or type(v) is not str or _PLAIN(v) is None:
                named: dict[str, Any] = dict(zip(names, values, strict=True))
                return flask.url_for(endpoint, **named)
        return pattern.format(*values) if pattern is not None else flask.url_for(endpoint)

    return build


def _kept(ctx: Any, endpoint: str, names: tuple[str, ...]) -> Pattern:  # noqa: ANN401 - Flask's RequestContext
    """The kept pattern of an endpoint and argument names in this request's place (made on
    first use), or None when there is none (url_for builds the URL)."""
    adapter = ctx.url_adapter
    if adapter is None:
        return None
    kept: dict[tuple[object, ...], Pattern] = ctx.app.extensions.setdefault(KEPT, {})
    key = (
        endpoint,
        *names,
        adapter.script_name,
        adapter.subdomain,
        adapter.server_name,
        adapter.url_scheme,
    )
    try:
        return kept[key]
    except KeyError:
        if len(kept) >= MAX_KEPT:  # the host is the client's to name: never grows unbounded
            kept.clear()
        pattern = kept[key] = _pattern(endpoint, list(names))
        return pattern


def _pattern(endpoint: str, names: list[str]) -> Pattern:
    """The URL of `endpoint` as a format string over the values of `names` (in that order), or
    None when stand-ins cannot show where the values go (the URL is then always built)."""
    app = flask.current_app
    if any(app.url_default_functions.values()) or app.url_map.sort_parameters:
        return None  # defaults injected, or query arguments sorted by value: never kept
    stand_ins: dict[str, Any] = {n: _STAND_IN.format(i) for i, n in enumerate(names)}
    try:
        built = flask.url_for(endpoint, **stand_ins)
    except Exception:  # noqa: BLE001 - the caller's own url_for raises it properly
        return None
    found = [int(m.group(1)) for m in _STAND_INS.finditer(built)]
    if sorted(found) != list(range(len(names))):
        return None
    literal = _STAND_INS.split(built)[::2]
    if any(_STAND_IN[:6] in part for part in literal):
        return None
    out = [literal[0].replace("{", "{{").replace("}", "}}")]
    for i, part in zip(found, literal[1:], strict=True):
        out.append("{" + str(i) + "}" + part.replace("{", "{{").replace("}", "}}"))
    return "".join(out)
