"""Web speed: gunicorn (2 workers) + wrk (8 connections) on a rule page and a search page."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
URLS = {
    "rule page": "/rules/702.2",
    "search": "/search?q=deathtouch",
    "api search": "/api/search?q=trample",
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wrk(url: str, seconds: int = 10) -> tuple[float, str]:
    out = subprocess.run(
        ["wrk", "-t2", "-c8", f"-d{seconds}s", "--latency", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+(\S+)", out).group(1)
    return rps, p99


def main(data: str) -> int:
    port = _free_port()
    env = {**os.environ, "CRKB_DATA": data}
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "-w",
            "2",
            "-b",
            f"127.0.0.1:{port}",
            "crkb.web:create_app()",
        ],
        env=env,
        cwd=ROOT,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/api/versions", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        for path in URLS.values():  # warm both workers
            for _ in range(4):
                urllib.request.urlopen(base + path, timeout=30).read()
        for name, path in URLS.items():
            rps, p99 = _wrk(base + path)
            print(f"| {name} | {path} | {rps:.0f} req/s | p99 {p99} |")
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CRKB_DATA", "instance")))
