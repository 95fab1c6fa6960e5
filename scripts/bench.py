"""`make bench`: every speed and memory figure of crkb, printed and written to BENCHMARKS.md.

Runs each benchmark in its own process against the real archive (CRKB_BENCH_CORPUS, default
../shared/corpus) and records the machine, the date and the command beside each figure.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
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
        "from crkb.build import discover, is_terms_list; from crkb.parsing import parse_all;"
        f"paths=[p for p in discover([Path({str(corpus)!r})]) if not is_terms_list(p)];"
        "t=time.perf_counter(); r=parse_all(paths, lambda m: None);"
        "print(len(paths), sum(1 for x in r if x[1]), time.perf_counter()-t)"
    )
    _, peak, out = run_measured([PY, "-c", code])
    files, ok, secs = out.split()
    return {
        "files": int(files),
        "parsed": int(ok),
        "seconds": round(float(secs), 2),
        "peak_mb": peak // 1024,
    }


def bench_build(corpus: Path, data: Path) -> dict:
    secs, peak, out = run_measured(
        [PY, "-m", "crkb", "build", "--corpus", str(corpus), "--data", str(data)]
    )
    return {"seconds": round(secs, 1), "peak_mb": peak // 1024, "report": out.strip()}


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
    corpus = Path(os.environ.get("CRKB_BENCH_CORPUS", ROOT.parent / "shared" / "corpus")).resolve()
    if not (corpus / "en").is_dir():
        print(
            f"bench: {corpus}: the real archive is needed (set CRKB_BENCH_CORPUS)", file=sys.stderr
        )
        return 2
    data = Path(tempfile.mkdtemp(prefix="crkb-bench-"))
    results: dict[str, object] = {}
    print("parse of the whole archive …", flush=True)
    results["parse"] = bench_parse(corpus)
    print(json.dumps(results["parse"]))
    print("full build …", flush=True)
    results["build"] = bench_build(corpus, data)
    print(json.dumps(results["build"]))
    print("identify …", flush=True)
    results["identify"] = bench_identify(data)
    print(json.dumps(results["identify"]))
    for name, script in [
        ("search", "bench_search.py"),
        ("diff", "bench_diff.py"),
        ("checks", "bench_checks.py"),
        ("http", "bench_web.py"),
    ]:
        print(f"{name} …", flush=True)
        res = extra(script, *([str(data)] if name == "http" else []))
        if res is not None:
            results[name] = res
            print(res)
    write_report(results, corpus)
    return 0


def write_report(results: dict, corpus: Path) -> None:
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
        f"- corpus: {corpus}",
        "",
        "| benchmark | figure | command |",
        "|---|---|---|",
    ]
    p = results["parse"]
    lines.append(
        f"| parse of the whole archive ({p['files']} files, 2 processes) | {p['seconds']} s"
        f" (target ≤ 5 s), peak {p['peak_mb']} MB | `scripts/bench.py` parse |"
    )
    b = results["build"]
    lines.append(
        f"| full `crkb build` | {b['seconds']} s (target ≤ 60 s), peak {b['peak_mb']} MB"
        " (target ≤ 1 GB) | `crkb build --corpus ../shared/corpus` |"
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
    for name in ("search", "diff", "checks"):
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
