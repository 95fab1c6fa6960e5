"""Rebuilding while gunicorn serves: no failed request, new data without a restart.

A small corpus of real releases is built, served by gunicorn -w 2 and requested in a loop by a few
clients while `crkb build` (the CLI, as users run it) adds releases twice — the second build prunes
the first while the workers may still hold it open — and then fails twice (an emptied corpus; a
build killed half-way). Every response must be the expected one, the new release must show up on
the very next request of every worker, and a failed build must leave the previous data serving.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pytest

from scripts import loadtools

FIRST = ["en/txt/2024-11-08.txt", "en/txt/2025-02-07.txt", "zh/txt/2024-04-10.txt"]
ADDED = ["en/txt/2025-04-04.txt", "en/txt/2025-06-06.txt"]
CLIENTS = 3
PAUSE = 0.01  # between a client's requests: steady traffic that leaves the build some CPU
# path → expected status: pages, JSON, searches in both languages, diffs, a redirect, a 404, and
# pages whose meaning changes with each build ("latest", the newest release's rule page).
PATHS = {
    "/api/versions": 200,
    "/": 200,
    "/rules/702.2": 200,
    "/rules/702.2?lang=zh": 200,
    "/v/2024-11-08/rules/100.1?lang=both": 200,
    "/api/rules/702.2?lang=both": 200,
    "/rules/702.2/history": 200,
    "/search?q=deathtouch": 200,
    "/search?q=" + quote("死触"): 200,
    "/api/search?q=trample&limit=5": 200,
    "/api/search?q=" + quote("指挥官伤害"): 200,
    "/diff/2024-11-08/2025-02-07": 200,
    "/api/diff?from=2024-11-08&to=latest": 200,
    "/releases/2025-02-07": 302,
    "/rules/999.999": 404,
    "/glossary?lang=zh": 200,
}


@dataclass
class Traffic:
    """Clients requesting PATHS in a loop until stopped; every answer is checked and timed."""

    base: str
    done: list[float] = field(default_factory=list)  # end time of each good request
    failures: list[str] = field(default_factory=list)
    latest: list[tuple[float, str]] = field(default_factory=list)  # (start, newest version)
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        for i in range(CLIENTS):
            t = threading.Thread(target=self._run, args=(i,), daemon=True)
            t.start()
            self._threads.append(t)

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(60)

    def between(self, t0: float, t1: float) -> int:
        return sum(1 for t in list(self.done) if t0 <= t <= t1)

    def _run(self, offset: int) -> None:
        paths = list(PATHS)
        i = offset * 5
        while not self._stop.is_set():
            path = paths[i % len(paths)]
            i += 1
            start = time.monotonic()
            try:
                status, body = loadtools.fetch(self.base, path)
                problem = _check(path, status, body)
            except OSError as e:
                problem = str(e)
            if problem:
                self.failures.append(f"GET {path}: {problem}")
            else:
                if path == "/api/versions":
                    self.latest.append((start, json.loads(body)["versions"][-1]["id"]))
                self.done.append(time.monotonic())
            time.sleep(PAUSE)


def _check(path: str, status: int, body: bytes) -> str | None:
    """What is wrong with an answer, or None: the expected status and a whole body."""
    if status != PATHS[path]:
        return f"status {status}, expected {PATHS[path]}: {body[:300]!r}"
    if status != 200:
        return None
    if path.startswith("/api/"):
        try:
            json.loads(body)
        except ValueError as e:
            return f"broken JSON ({e})"
    elif not body.rstrip().endswith(b"</html>"):
        return f"incomplete page ({len(body)} bytes)"
    return None


def _crkb(corpus: Path, data: Path) -> subprocess.Popen:
    """`crkb build` as a user runs it (own process group, so it can be killed whole)."""
    env = {**os.environ, "CRKB_CORPUS": str(corpus), "CRKB_DATA": str(data)}
    return subprocess.Popen(
        [str(Path(sys.executable).with_name("crkb")), "build", "--no-bundled"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _build(corpus: Path, data: Path) -> tuple[int, str]:
    proc = _crkb(corpus, data)
    _out, err = proc.communicate(timeout=300)
    return proc.returncode, err


def _copy(archive: Path, corpus: Path, names: list[str]) -> None:
    for name in names:
        (corpus / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(archive / name, corpus / name)


def _builds(data: Path) -> set[str]:
    return {p.name for p in (data / "builds").iterdir() if not p.name.startswith(".")}


def test_rebuild_while_serving(archive: Path, tmp_path: Path) -> None:
    corpus, data = tmp_path / "corpus", tmp_path / "data"
    _copy(archive, corpus, FIRST)
    code, err = _build(corpus, data)
    assert code == 0, err
    first = _builds(data)

    with loadtools.serving(data) as server:
        traffic = Traffic(server.base)
        traffic.start()
        try:
            _wait_for(lambda: len(traffic.done) >= 30, "the first 30 requests")
            during: list[int] = []
            ends: list[float] = []
            for name in ADDED:  # two builds: the second prunes the first build
                _copy(archive, corpus, [name])
                t0 = time.monotonic()
                code, err = _build(corpus, data)
                ends.append(time.monotonic())
                assert code == 0, err
                during.append(traffic.between(t0, ends[-1]))
            newest = Path(ADDED[-1]).stem
            _wait_for(lambda: any(t > ends[-1] for t, _v in list(traffic.latest)), "a new answer")
            published = _builds(data)

            for name in ADDED:  # a failing build: the corpus emptied
                (corpus / name).unlink()
            for p in corpus.rglob("*.txt"):
                p.unlink()
            code, err = _build(corpus, data)
            assert code == 2 and len(err.strip().splitlines()) == 1, err
            assert "no files to build from" in err

            _copy(archive, corpus, FIRST + ADDED)  # a build killed half-way (after the parse)
            proc = _crkb(corpus, data)
            _wait_for(lambda: any((data / "builds").glob(".tmp-*")), "the build's work directory")
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=60)
            killed_at = time.monotonic()
            count = len(traffic.done)
            _wait_for(lambda: len(traffic.done) >= count + 30, "30 requests after the failures")
            _wait_for(  # 30 requests need not include the release list: wait for one
                lambda: any(t > killed_at for t, _v in list(traffic.latest)),
                "the release list after the failures",
            )
        finally:
            traffic.stop()
        assert server.proc.poll() is None, "gunicorn stopped"
        log = server.log_tail()

    assert traffic.failures == [], f"{traffic.failures[:5]}\n{log}"
    assert all(n > 0 for n in during), f"requests served during the builds: {during}"
    # every worker serves the new release from its next request on; no restart
    after = [v for t, v in traffic.latest if t > ends[-1]]
    assert after and all(v == newest for v in after), after
    assert any(v < newest for t, v in traffic.latest if t < ends[0])
    # the second build pruned the first one (which the workers had open)
    assert first.isdisjoint(published) and len(published) == 2
    # both failed builds left the last good build serving
    assert _builds(data) == published
    assert os.readlink(data / "current").endswith(max(published))
    assert [v for t, v in traffic.latest if t > killed_at], "no answer after the failed builds"


def _wait_for(condition, what: str, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_a_stopped_build_leaves_nothing_behind_and_a_pipe_stops_none(
    archive: Path, tmp_path: Path
) -> None:
    """SIGTERM (`timeout`, systemd) stops a build as Ctrl-C does; what a SIGKILL left is swept
    by the next build; a named pipe in the corpus is skipped with its reason, not waited on."""
    corpus, data = tmp_path / "corpus", tmp_path / "data"
    _copy(archive, corpus, FIRST[:1])
    code, err = _build(corpus, data)
    assert code == 0, err
    published = _builds(data)

    def started() -> subprocess.Popen:
        proc = _crkb(corpus, data)
        _wait_for(lambda: any((data / "builds").glob(".tmp-*")), "the build's work directory")
        return proc

    proc = started()
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.strip().endswith("interrupted; nothing was changed")
    assert not list((data / "builds").glob(".tmp-*"))
    proc = started()
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=60)
    assert list((data / "builds").glob(".tmp-*"))  # a kill leaves its work directory
    os.mkfifo(corpus / "en" / "txt" / "2025-05-05.txt")
    proc = _crkb(corpus, data)
    _out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert "2025-05-05.txt: cannot read: not a regular file" in err
    assert not list((data / "builds").glob(".tmp-*"))
    assert _builds(data) - published and os.readlink(data / "current").startswith("builds/")
