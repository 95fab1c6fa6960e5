"""`make bench`: every speed and memory figure of crkb, printed and written to BENCHMARKS.md.

Runs each benchmark in its own process against the real archive (the bundled corpus/, or a folder
given by CRKB_BENCH_CORPUS) and records the machine, the date and the command beside each figure.
"Clone to first page" clones the repository's HEAD into a temporary folder (no ../shared beside it)
and times `make run` until /rules/702.19 answers with its Chinese text.
"""

from __future__ import annotations

import datetime
import html
import json
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def tree_rss_kb(pid: int) -> int:
    """Resident memory of a process and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo.extend(children.get(p, []))
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def run_measured(
    cmd: list[str], env: dict | None = None, check: bool = True
) -> tuple[float, int, str]:
    """Wall time, peak resident memory of the whole process tree (KB), and stdout."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss_kb(proc.pid))
        time.sleep(0.05)
    out = proc.stdout.read() if proc.stdout else ""
    if check and proc.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd)} failed with exit {proc.returncode}")
    return time.perf_counter() - t0, peak, out


def bench_parse(corpus: Path) -> dict:
    code = (
        "import time,sys; from pathlib import Path;"
        "from crkb.build import is_terms_list; from crkb.corpus import discover;"
        "from crkb.parsing import parse_all;"
        f"items=[i for i in discover([Path({str(corpus)!r})]).items"
        " if not is_terms_list(i.head(20000))];"
        "t=time.perf_counter(); r=parse_all([(i.name, i.data) for i in items], lambda m: None);"
        "print(len(items), sum(1 for x in r if x[1]), time.perf_counter()-t)"
    )
    _, peak, out = run_measured([PY, "-c", code])
    files, ok, secs = out.split()
    return {
        "files": int(files),
        "parsed": int(ok),
        "seconds": round(float(secs), 2),
        "peak_mb": peak // 1024,
    }


def bench_bundle() -> dict:
    """What reading the compressed archive costs a build: verify, decompress, unpack in memory."""
    code = (
        "import time; from crkb import bundle; from crkb.config import bundled_corpus;"
        "t=time.perf_counter(); m=bundle.read(bundled_corpus() / 'archive.tar.xz');"
        "print(len(m), sum(len(x.data) for x in m), time.perf_counter()-t)"
    )
    _, peak, out = run_measured([PY, "-c", code])
    files, size, secs = out.split()
    archive = ROOT / "corpus" / "archive.tar.xz"
    shipped = sum(p.stat().st_size for p in (ROOT / "corpus").rglob("*") if p.is_file())
    return {
        "files": int(files),
        "unpacked_mb": round(int(size) / 1e6, 1),
        "archive_mb": round(archive.stat().st_size / 1e6, 2),
        "corpus_mb": round(shipped / 1e6, 2),
        "seconds": round(float(secs), 2),
        "peak_mb": peak // 1024,
    }


def bench_build(corpus: Path | None, data: Path) -> dict:
    given = ["--no-bundled", "--corpus", str(corpus)] if corpus else []
    secs, peak, out = run_measured(
        [PY, "-m", "crkb", "build", *given, "--data", str(data)],
        env={"CRKB_USER_CORPUS": str(data / "no-user-corpus")},
    )
    return {"seconds": round(secs, 1), "peak_mb": peak // 1024, "report": out.strip()}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, b""
    except OSError:
        return 0, b""


def bench_clone_to_first_page(limit: float = 600.0) -> dict:
    """A fresh clone (no ../shared beside it, a new .venv), `make run`, until /rules/702.19 shows
    the rule with its Chinese text: the whole wait of a new user, installing included."""
    tmp = Path(tempfile.mkdtemp(prefix="crkb-clone-"))
    port = _free_port()
    marks: dict[str, float] = {}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CRKB_", "VIRTUAL_ENV"))}
    env["CRKB_USER_CORPUS"] = str(tmp / "no-user-corpus")
    t0 = time.perf_counter()
    proc = None
    try:
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(tmp / "crkb")], check=True)
        marks["clone"] = time.perf_counter() - t0
        proc = subprocess.Popen(
            ["make", "run", f"PORT={port}"],
            cwd=tmp / "crkb",
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        log: list[str] = []

        def watch() -> None:
            assert proc is not None and proc.stdout is not None
            for line in proc.stdout:
                log.append(line.rstrip())
                if "crkb build" in line and "build" not in marks:
                    marks["build"] = time.perf_counter() - t0
                if line.startswith("built ") and "built" not in marks:
                    marks["built"] = time.perf_counter() - t0

        threading.Thread(target=watch, daemon=True).start()
        base = f"http://127.0.0.1:{port}"
        while time.perf_counter() - t0 < limit:
            if proc.poll() is not None:
                raise RuntimeError(f"make run stopped: {' / '.join(log[-3:])}")
            status, page = _get(f"{base}/rules/702.19")
            if status == 200:
                _, api = _get(f"{base}/api/rules/702.19?lang=zh")
                zh = json.loads(api or b"{}").get("text") or ""
                shown = html.unescape(page.decode("utf-8", errors="replace"))
                if zh and re.search(r"[\u4e00-\u9fff]", zh) and zh[:10] in shown:
                    break
            time.sleep(0.25)
        else:
            raise RuntimeError(f"no page after {limit:.0f} s")
        total = time.perf_counter() - t0
        build = marks.get("built", total) - marks.get("build", total)
        return {
            "seconds": round(total, 1),
            "clone_s": round(marks["clone"], 1),
            "install_s": round(marks.get("build", total) - marks["clone"], 1),
            "build_s": round(build, 1),
            "serve_s": round(total - marks.get("built", total), 1),
        }
    except (RuntimeError, subprocess.CalledProcessError) as e:
        return {"error": str(e)}
    finally:
        if proc is not None and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        shutil.rmtree(tmp, ignore_errors=True)


def bench_identify(data: Path) -> dict:
    """`crkb identify` on the bundled web copies: the first call builds per-release fingerprints."""
    code = (
        "import time,json; from pathlib import Path;"
        "from crkb.identify import identify_text; from crkb.store.db import Store, DB_NAME;"
        "from crkb.store.location import current_build;"
        f"store=Store(current_build(Path({str(data)!r}))/DB_NAME);"
        f"seeds=sorted(Path({str(ROOT / 'corpus' / 'seeds')!r}).rglob('0*_*.txt'));"
        "texts=[p.read_text('utf-8', errors='replace') for p in seeds];"
        "t=time.perf_counter(); identify_text(texts[0], store); cold=time.perf_counter()-t;"
        "warm=[]\nfor x in texts:\n t=time.perf_counter(); identify_text(x, store);"
        " warm.append(time.perf_counter()-t)\n"
        "print(json.dumps({'seeds': len(texts), 'first_s': round(cold, 2),"
        " 'later_max_s': round(max(warm), 2)}))"
    )
    _, _, out = run_measured([PY, "-c", code])
    return json.loads(out)


def extra(script: str, *args: str) -> str | None:
    """Benchmarks of the later layers (search, diff, checks, HTTP), printed by their scripts."""
    path = ROOT / "scripts" / script
    if not path.exists():
        return None
    _, _, out = run_measured([PY, str(path), *args], check=False)  # failures are in the output
    return out.strip()


def main() -> int:
    given = os.environ.get("CRKB_BENCH_CORPUS")
    corpus = Path(given).resolve() if given else None
    if corpus is not None and not corpus.exists():
        print(f"bench: {corpus}: no such corpus (CRKB_BENCH_CORPUS)", file=sys.stderr)
        return 2
    data = Path(tempfile.mkdtemp(prefix="crkb-bench-"))
    results: dict[str, object] = {}
    print("reading the bundled archive …", flush=True)
    results["bundle"] = bench_bundle()
    print(json.dumps(results["bundle"]))
    print("parse of the whole archive …", flush=True)
    results["parse"] = bench_parse(corpus or ROOT / "corpus")
    print(json.dumps(results["parse"]))
    print("full build …", flush=True)
    results["build"] = bench_build(corpus, data)
    print(json.dumps(results["build"]))
    print("clone to first page (a fresh clone, `make run`) …", flush=True)
    results["clone"] = bench_clone_to_first_page()
    print(json.dumps(results["clone"]))
    print("identify …", flush=True)
    results["identify"] = bench_identify(data)
    print(json.dumps(results["identify"]))
    for name, script in [
        ("search", "bench_search.py"),
        ("diff", "bench_diff.py"),
        ("checks", "bench_checks.py"),
        ("forward", "bench_forward.py"),
        ("http", "bench_web.py"),
        ("pack", "eval_pack.py"),
    ]:
        print(f"{name} …", flush=True)
        args = {"http": [str(data)], "forward": [str(data)], "pack": ["--data", str(data)]}
        res = extra(script, *args.get(name, []))
        if res is not None:
            results[name] = res
            print(res)
    write_report(results, corpus)
    return 0


def write_report(results: dict, corpus: Path | None) -> None:
    cpu = next(
        (
            ln.split(":", 1)[1].strip()
            for ln in Path("/proc/cpuinfo").read_text().splitlines()
            if ln.startswith("model name")
        ),
        platform.processor(),
    )
    mem = next(
        (
            ln.split()[1]
            for ln in Path("/proc/meminfo").read_text().splitlines()
            if ln.startswith("MemTotal")
        ),
        "?",
    )
    lines = [
        "# BENCHMARKS",
        "",
        "Regenerated by `make bench` (scripts/bench.py); do not edit by hand.",
        "",
        f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}",
        f"- machine: {os.cpu_count()} cores, {cpu}, {int(mem) // 1024} MB RAM,"
        f" Python {platform.python_version()}",
        f"- corpus: {corpus or 'the bundled corpus/ (corpus/archive.tar.xz and the seeds)'}",
        "- the machine may be shared: figures taken while other work runs are slower",
        "",
        "| benchmark | figure | command |",
        "|---|---|---|",
    ]
    u = results["bundle"]
    lines.append(
        f"| reading the bundled archive ({u['files']} files, {u['archive_mb']} MB → "
        f"{u['unpacked_mb']} MB) | {u['seconds']} s (target ≤ 2 s), peak {u['peak_mb']} MB;"
        f" corpus/ {u['corpus_mb']} MB on disk (target ≤ 8 MB) | `scripts/bench.py` bundle |"
    )
    p = results["parse"]
    lines.append(
        f"| parse of the whole archive ({p['files']} files, 2 processes) | {p['seconds']} s"
        f" (target ≤ 5 s), peak {p['peak_mb']} MB | `scripts/bench.py` parse |"
    )
    b = results["build"]
    lines.append(
        f"| full `crkb build` | {b['seconds']} s (target ≤ 60 s), peak {b['peak_mb']} MB"
        " (target ≤ 1 GB) |"
        f" `crkb build{' --no-bundled --corpus ' + str(corpus) if corpus else ''}` |"
    )
    c = results["clone"]
    if "error" in c:
        lines.append(f"| clone to first page | failed: {c['error']} | `scripts/bench.py` clone |")
    else:
        lines.append(
            f"| clone to first page (`git clone`, `make run`, /rules/702.19 with its Chinese"
            f" text) | {c['seconds']} s (target ≤ 240 s): clone {c['clone_s']} s, install"
            f" {c['install_s']} s, build {c['build_s']} s, serve {c['serve_s']} s |"
            " `scripts/bench.py` clone |"
        )
    i = results["identify"]
    lines.append(
        f"| `crkb identify`, {i['seeds']} bundled web copies | first call {i['first_s']} s,"
        f" later calls ≤ {i['later_max_s']} s | `scripts/bench.py` identify |"
    )
    lines += ["", "Build report: " + b["report"].replace("|", "/"), ""]
    if "http" in results:
        lines += [
            str(results["http"]),  # bench_web prints its own heading
            "",
        ]
    if "pack" in results:
        lines += [
            "## offline pack (`python scripts/eval_pack.py`: its search in Chromium from file://,"
            " beside the server's, on ../shared/eval)",
            "",
            "```",
            str(results["pack"]),
            "```",
            "",
        ]
    for name in ("search", "diff", "checks", "forward"):
        if name in results:
            lines += [
                f"## {name} (`python scripts/bench_{name}.py`)",
                "",
                "```",
                str(results[name]),
                "```",
                "",
            ]
    (ROOT / "BENCHMARKS.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    raise SystemExit(main())
