"""Serve a build with gunicorn and load it with wrk.

Shared by scripts/bench_web.py (the full runs) and tests/test_load.py / tests/test_rebuild.py (the
short runs in CI), so the benchmark and the tests send the same kinds of requests the same way.
The request paths are drawn from the build being served (its versions, rules and titles), never
from a fixed list, so every mix covers many rules, releases and both languages.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, urlencode

if TYPE_CHECKING:
    from crkb.store.db import Store

ROOT = Path(__file__).resolve().parent.parent
LUA = ROOT / "scripts" / "wrk" / "rotate.lua"
EVAL_QUERIES = ROOT.parent / "shared" / "eval" / "queries.tsv"
MIXES = ("rules", "search", "diff")
_LISTENING = re.compile(r"Listening at: (http://\S+)")
_SUMMARY = "CRKB-WRK "
GUNICORN_CONF = "python:crkb.web.gunicorn_conf"  # the production configuration (README)
WORKER_READY = "crkb worker ready"  # what crkb/web/gunicorn_conf.py logs once a worker is warm


# serving -----------------------------------------------------------------------------------------
@dataclass
class Server:
    """A running gunicorn: its base URL, its process and the file its log goes to."""

    base: str
    proc: subprocess.Popen
    log: Path

    def log_tail(self, chars: int = 3000) -> str:
        """The end of the server's log (worker tracebacks land here)."""
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")[-chars:]
        except OSError:
            return ""


@contextmanager
def serving(
    data: Path,
    workers: int = 2,
    ready_seconds: float = 60.0,
    app: str = "crkb.web:create_app()",
    config: str | None = GUNICORN_CONF,
) -> Iterator[Server]:
    """gunicorn -w `workers` on a free port serving `data`, ready to answer; stopped on exit.

    The port is chosen by the kernel (`-b 127.0.0.1:0`) and read back from gunicorn's log, so two
    servers started at once cannot race for the same port. `config`: the gunicorn configuration
    (the production one by default: preloaded and warmed workers); ready means every worker said
    so in the log when it is given.
    """
    gunicorn = Path(sys.executable).with_name("gunicorn")
    log = Path(tempfile.mkstemp(prefix="crkb-gunicorn-", suffix=".log")[1])
    conf = ["-c", config] if config else []
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(gunicorn), *conf, "-w", str(workers), "-b", "127.0.0.1:0", app],
            env={**os.environ, "CRKB_DATA": str(data)},
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    server = Server("", proc, log)
    try:
        server.base = _wait_ready(server, ready_seconds, workers if config else 0)
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        log.unlink(missing_ok=True)


def _wait_ready(server: Server, seconds: float, warm_workers: int = 0) -> str:
    deadline = time.monotonic() + seconds
    base = ""
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(
                f"gunicorn exited with {server.proc.returncode}:\n{server.log_tail()}"
            )
        if server.log_tail(1_000_000).count(WORKER_READY) < warm_workers:
            time.sleep(0.1)
            continue
        if not base:
            m = _LISTENING.search(server.log_tail(100_000))
            base = m.group(1) if m else ""
        if base:
            try:
                with urllib.request.urlopen(base + "/api/versions", timeout=10) as r:
                    if r.status == 200:
                        return base
            except OSError:
                pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer within {seconds:.0f} s:\n{server.log_tail()}")


def fetch(base: str, path: str, timeout: float = 30.0) -> tuple[int, bytes]:
    """(status, body) of one GET, redirects not followed; connection failures raise OSError."""

    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003 - urllib's signature
            return None

    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(base + path, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def warm(base: str, paths: list[str], threads: int = 4, rounds: int = 2) -> None:
    """Request each path `rounds` times from `threads` clients at once (so every worker loads its
    search index and jieba before it is timed); RuntimeError naming the first path not 200."""
    todo = [p for _ in range(rounds) for p in paths]
    with ThreadPoolExecutor(threads) as pool:
        for path, (status, _body) in zip(
            todo, pool.map(lambda p: fetch(base, p), todo), strict=True
        ):
            if status != 200:
                raise RuntimeError(f"warm-up: GET {path} answered {status}, expected 200")


# request paths -----------------------------------------------------------------------------------
def eval_queries(path: Path = EVAL_QUERIES) -> list[tuple[str, str]]:
    """(lang, query) pairs of the search evaluation file, if it is there (read at run time)."""
    if not path.is_file():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")
        if line.startswith("#") or len(cols) < 3 or cols[1] not in ("en", "zh"):
            continue
        rows.append((cols[1], cols[2].strip()))
    return [r for r in rows if r[1]]


def title_queries(store: Store, rng: random.Random, n: int) -> list[tuple[str, str]]:
    """(lang, query) pairs: section and keyword titles of the newest release in each language."""
    out: list[tuple[str, str]] = []
    for lang in ("en", "zh"):
        ids = store.version_ids(lang)
        if not ids:
            continue
        rows = store.conn.execute(
            "SELECT title FROM rules WHERE doc=? AND title IS NOT NULL AND length(title) <= 24",
            (store.doc_id(ids[-1], lang),),
        ).fetchall()
        titles = sorted({t for (t,) in rows if t.strip()})
        out += [(lang, t) for t in rng.sample(titles, min(n // 2, len(titles)))]
    return out


def rule_paths(store: Store, rng: random.Random, n: int) -> list[str]:
    """`n` rule pages (and some JSON) of random rules in random releases, in en, zh and both."""
    from crkb.numbers import normalise

    docs = [(v, lang) for lang in ("en", "zh") for v in store.version_ids(lang)]
    latest = store.version_ids()[-1]
    numbers: dict[tuple[str, str], list[str]] = {}
    out = []
    for _ in range(n):
        version, lang = rng.choice(docs)
        if (version, lang) not in numbers:
            rows = store.conn.execute(
                "SELECT number FROM rules WHERE doc=?", (store.doc_id(version, lang),)
            )
            numbers[version, lang] = [x for (x,) in rows if normalise(x) == x]
        number = rng.choice(numbers[version, lang])
        shown = rng.choice([lang, "both"])
        roll = rng.random()
        if roll < 0.15:
            out.append(f"/api/rules/{number}?{urlencode({'version': version, 'lang': lang})}")
        elif roll < 0.3 and version == latest:
            out.append(f"/rules/{number}?lang={shown}")
        else:
            out.append(f"/v/{version}/rules/{number}?lang={shown}")
    return out


def search_paths(
    store: Store, queries: list[tuple[str, str]], rng: random.Random, n: int
) -> list[str]:
    """`n` searches: the HTML page and the JSON API, any language, some pinned to a release.

    A query that is a rule number goes to the API only: the HTML search redirects it to the rule.
    """
    from crkb.numbers import normalise

    versions = store.version_ids()
    translated = [v for v in versions if v >= store.version_ids("zh")[0]]
    out = []
    for _ in range(n):
        lang, q = rng.choice(queries)
        args = {"q": q}
        if rng.random() < 0.5:
            args["lang"] = lang
        if rng.random() < 0.3:  # Chinese words only where a translation exists (else a 404)
            args["version"] = rng.choice(translated if lang == "zh" else versions)
        page = normalise(q) is None and rng.random() < 0.6
        if not page:
            args["limit"] = str(rng.choice([5, 10, 20]))
        out.append(("/search?" if page else "/api/search?") + urlencode(args, quote_via=quote))
    return out


def diff_paths(store: Store, rng: random.Random, far: int) -> list[str]:
    """Every pair of neighbouring English releases (page, JSON, filtered by kind) and `far` pairs
    of distant releases (computed on first request, so they are spread through the list)."""
    ids = store.version_ids("en")
    near = list(itertools.pairwise(ids))
    out = []
    for a, b in near:
        out.append(f"/diff/{a}/{b}")
        out.append(rng.choice([f"/diff/{a}/{b}?kind=changed", f"/api/diff?from={a}&to={b}"]))
    rng.shuffle(out)
    pairs = [tuple(sorted(rng.sample(ids, 2))) for _ in range(far)]
    step = max(1, len(out) // max(1, far))
    for i, (a, b) in enumerate(pairs):
        out.insert(i * (step + 1), f"/diff/{a}/{b}")
    return out


def mixes(
    data: Path,
    *,
    rules: int = 2000,
    searches: int = 400,
    far_diffs: int = 12,
    titles: int = 60,
    queries: Path = EVAL_QUERIES,
    seed: int = 8,
) -> dict[str, list[str]]:
    """The three request mixes (rule pages, search, diff) for the build current in `data`."""
    from crkb.store.db import DB_NAME, Store
    from crkb.store.location import current_build

    store = Store(current_build(data) / DB_NAME)
    try:
        rng = random.Random(seed)
        asked = eval_queries(queries) + title_queries(store, rng, titles)
        return {
            "rules": rule_paths(store, rng, rules),
            "search": search_paths(store, asked, rng, searches),
            "diff": diff_paths(store, rng, far_diffs),
        }
    finally:
        store.close()


# load --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Load:
    """What wrk measured for one mix."""

    name: str
    urls: int
    connections: int
    seconds: float
    requests: int
    non2xx: int
    codes: str
    connect: int
    read: int
    write: int
    timeout: int
    p50_ms: float
    p99_ms: float
    max_ms: float

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def socket_errors(self) -> int:
        return self.connect + self.read + self.write

    @property
    def errors(self) -> int:
        """Every failed request: not 2xx, socket errors and timeouts."""
        return self.non2xx + self.socket_errors + self.timeout

    def describe(self) -> str:
        """One line for a failure message."""
        return (
            f"{self.name}: {self.requests} requests in {self.seconds:.1f} s over {self.urls} URLs;"
            f" non-2xx {self.non2xx} ({self.codes.strip() or '-'}), socket errors"
            f" {self.connect}/{self.read}/{self.write} (connect/read/write),"
            f" timeouts {self.timeout}"
        )

    def row(self) -> str:
        """A markdown table row under TABLE_HEAD."""
        return (
            f"| {self.name} | {self.urls} | {self.connections} × {self.seconds:.0f} s"
            f" | {self.requests} | {self.rps:.0f} | {self.p50_ms:.1f} ms | {self.p99_ms:.1f} ms"
            f" | {self.max_ms:.0f} ms | {self.non2xx} | {self.socket_errors} | {self.timeout} |"
        )


TABLE_HEAD = (
    "| mix | distinct URLs | connections × duration | requests | req/s | p50 | p99 | max"
    " | non-2xx | socket errors | timeouts |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|"
)


def parse_summary(name: str, urls: int, connections: int, stdout: str) -> Load:
    """The Load from rotate.lua's one summary line in wrk's output."""
    line = next((ln for ln in stdout.splitlines() if ln.startswith(_SUMMARY)), None)
    if line is None:
        raise RuntimeError(f"wrk printed no summary line:\n{stdout[-2000:]}")
    s = json.loads(line[len(_SUMMARY) :])
    return Load(
        name=name,
        urls=urls,
        connections=connections,
        seconds=s["duration_us"] / 1e6,
        requests=s["requests"],
        non2xx=s["non2xx"],
        codes=s["codes"],
        connect=s["connect"],
        read=s["read"],
        write=s["write"],
        timeout=s["timeout"],
        p50_ms=s["p50_us"] / 1000,
        p99_ms=s["p99_us"] / 1000,
        max_ms=s["max_us"] / 1000,
    )


def run_wrk(
    wrk: str,
    base: str,
    name: str,
    paths: list[str],
    *,
    seconds: int,
    connections: int = 32,
    threads: int = 2,
    timeout: int = 10,
) -> Load:
    """wrk rotating through `paths` for `seconds`; a request slower than `timeout` s is an error."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8") as f:
        f.write("\n".join(paths) + "\n")
        f.flush()
        cmd = [wrk, f"-t{threads}", f"-c{connections}", f"-d{seconds}s", f"--timeout={timeout}s"]
        done = subprocess.run(
            [*cmd, "-s", str(LUA), base, f.name], capture_output=True, text=True, check=False
        )
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed with exit {done.returncode}: {done.stderr.strip()[-500:]}")
    return parse_summary(name, len(set(paths)), connections, done.stdout)
