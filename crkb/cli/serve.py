"""`crkb serve`: the web service on Flask's development server."""

from __future__ import annotations

import argparse
import socket
import sys
from typing import Any

from crkb.cli.options import data_dir
from crkb.errors import BadInput
from crkb.store.location import current_build


def _check_address(host: str, port: int) -> None:
    """Bind once before Flask does: a port in use or a bad host is one line, not a page of
    Werkzeug output and exit 1."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _name, address = infos[0]
        with socket.socket(family, kind, proto) as s:
            s.bind(address)
    except OSError as e:
        raise BadInput(
            f"--host {host} --port {port}: cannot serve there: {e.strerror or e}"
        ) from None


def cmd_serve(args: argparse.Namespace) -> int:
    from crkb.web import create_app

    data = data_dir(args)
    current_build(data)  # no build yet: one clear line now rather than an error page later
    if not 0 < args.port < 65536:
        raise BadInput(f"--port {args.port}: expected 1 to 65535")
    _check_address(args.host, args.port)
    app = create_app({"DATA": str(data)})
    print(f"serving {data} on http://{args.host}:{args.port}/ (Ctrl-C stops)", file=sys.stderr)
    app.run(host=args.host, port=args.port, threaded=True, use_reloader=False)
    return 0


def register(sub: Any) -> None:
    sv = sub.add_parser("serve", help="the web service (development server; production: gunicorn)")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=5000)
    sv.add_argument("--data", help="data directory; default $CRKB_DATA or ./instance")
    sv.set_defaults(func=cmd_serve)
