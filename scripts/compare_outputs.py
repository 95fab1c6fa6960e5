"""Record every command's and page's output on one build, and diff two such recordings.

A refactoring must not change what users see. Record before and after, then compare:

    python scripts/compare_outputs.py record DATA OUT     # DATA: a `crkb build --data` directory
    python scripts/compare_outputs.py diff OUT_BEFORE OUT_AFTER

`record` runs a fixed, broad set of CLI commands (in-process through `crkb.cli.main`, plus a few
through `python -m crkb`) and HTTP requests (Flask test client: every page kind, every API
endpoint, errors and 404s, in both languages) and writes each answer (exit code or status, the
headers a user relies on, stdout/stderr or body) to its own file. `diff` prints the files that
differ or exist on one side only and exits 1 when there are any.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = (ROOT / ".." / "shared" / "corpus").resolve()
SEEDS = ROOT / "corpus" / "seeds"

# Releases of the real archive used below (ids and aliases as `crkb versions` prints them).
OLD, MID, ZH, NEW = "1999-04-23", "2014-02-01", "2024-04-12", "2025-07-25"
ZH_OLD, ALIAS = "2022-06-10", "2024-02-06"

RULES = ["9", "702", "702.19", "702.19b", "100.1a", "115.3", "903.4", "601.2f"]

PARSE_FILES = [
    ARCHIVE / "en" / "txt" / "1999-04-21.txt",
    ARCHIVE / "en" / "txt" / "2006-06-01.txt",
    ARCHIVE / "en" / "txt" / "2010-04-23.txt",
    ARCHIVE / "en" / "txt" / "2025-07-25.txt",
    ARCHIVE / "zh" / "txt" / "2024-04-10.txt",
    ARCHIVE / "zh" / "markdown" / "2024-04-10" / "9.md",
    ARCHIVE / "zh" / "markdown" / "2024-04-10" / "glossary.md",
    ARCHIVE / "zh" / "markdown" / "2024-04-10" / "intro.md",
    ARCHIVE / "zh" / "dokuwiki" / "2021-09-24" / "9.txt",
    ARCHIVE / "README.md",
    *sorted(SEEDS.rglob("*.txt")),
]


def cli_cases(data: Path, scratch: Path) -> list[tuple[str, list[str]]]:
    """(name, argv) of every CLI run; `--data` is added where the command reads a build."""
    cases: list[tuple[str, list[str]]] = [
        ("versions", ["versions"]),
        ("versions-json", ["versions", "--json"]),
    ]
    for rule in RULES:
        for lang in ("en", "zh", "both"):
            cases.append((f"show-{rule}-{lang}", ["show", rule, "--lang", lang]))
            cases.append((f"show-{rule}-{lang}-json", ["show", rule, "--lang", lang, "--json"]))
    cases += [
        ("show-702.19-old", ["show", "702.19", "--version", MID, "--json"]),
        ("show-702.19-alias", ["show", "702.19", "--version", ALIAS, "--lang", "both"]),
        ("show-1999", ["show", "100", "--version", OLD]),
        ("show-latest", ["show", "702.2", "--version", "latest", "--lang", "zh"]),
        ("show-trailing-dot", ["show", "702.", "--json"]),
        ("show-not-a-rule", ["show", "not-a-rule"]),
        ("show-missing", ["show", "999.9"]),
        ("show-missing-both", ["show", "999.9", "--lang", "both"]),
        ("show-bad-version", ["show", "702", "--version", "1900-01-01"]),
        ("show-bad-lang", ["show", "702", "--lang", "fr"]),
        ("show-zh-too-old", ["show", "702", "--version", OLD, "--lang", "zh"]),
        ("search-trample", ["search", "trample"]),
        ("search-trample-json", ["search", "trample", "--json"]),
        ("search-zh", ["search", "践踏", "--json"]),
        ("search-zh-lang", ["search", "阻挡", "--lang", "zh", "--limit", "5"]),
        ("search-en-version", ["search", "mana burn", "--version", "2009-10-01", "--json"]),
        ("search-number", ["search", "702.19b", "--json"]),
        ("search-typo", ["search", "tramplle", "--json"]),
        ("search-phrase", ["search", '"first strike"', "--lang", "en", "--limit", "3"]),
        ("search-nothing", ["search", "zzzqqqxxx"]),
        ("search-limit-0", ["search", "trample", "--limit", "0"]),
        ("search-bad-lang", ["search", "trample", "--lang", "fr"]),
        ("search-zh-old", ["search", "践踏", "--version", OLD, "--lang", "zh"]),
        ("diff", ["diff", ALIAS, ZH]),
        ("diff-json", ["diff", "2023-11-17", ALIAS, "--json"]),
        ("diff-zh", ["diff", ZH_OLD, ZH, "--lang", "zh", "--json"]),
        ("diff-far", ["diff", OLD, MID]),
        ("diff-bad", ["diff", "nope", ZH]),
        ("history", ["history", "702.19b"]),
        ("history-json", ["history", "702.19", "--json"]),
        ("history-zh", ["history", "702.19", "--lang", "zh", "--json"]),
        ("history-version", ["history", "502.2", "--version", MID, "--json"]),
        ("history-bad", ["history", "x.y"]),
        ("history-missing", ["history", "999.9"]),
        ("check", ["check"]),
        ("check-json", ["check", "--json"]),
        ("check-version", ["check", "--version", ZH_OLD, "--kind", "references"]),
        ("check-chapter", ["check", "--version", ZH, "--chapter", "115.3", "--json"]),
        ("check-csv", ["check", "--version", ZH, "--chapter", "7", "--csv"]),
        ("check-all", ["check", "--all", "--chapter", "1", "--json"]),
        ("check-bad-version", ["check", "--version", OLD]),
        ("check-bad-chapter", ["check", "--chapter", "x"]),
        ("check-bad-mark", ["check", "--mark", "abc=maybe"]),
        ("check-json-csv", ["check", "--json", "--csv"]),
        ("identify-missing", ["identify", str(scratch / "nope.txt")]),
        ("no-command", []),
        ("unknown-command", ["frobnicate"]),
        ("help", ["--help"]),
        ("show-help", ["show", "--help"]),
        ("search-help", ["search", "--help"]),
        ("check-help", ["check", "--help"]),
        ("build-help", ["build", "--help"]),
        ("build-no-corpus", ["build", "--corpus", str(scratch / "none"), "--data", str(scratch)]),
        ("serve-bad-port", ["serve", "--port", "70000"]),
        ("parse-missing", ["parse", str(scratch / "nope.txt")]),
        ("fetch-bad-manifest", ["fetch", "--manifest", str(scratch / "nope.json")]),
    ]
    for i, seed in enumerate(sorted(SEEDS.rglob("*.txt"))):
        cases.append((f"identify-{i}", ["identify", str(seed)]))
        cases.append((f"identify-{i}-json", ["identify", str(seed), "--json"]))
    for path in PARSE_FILES:
        name = re.sub(r"[^\w.-]+", "_", str(path.relative_to(path.parents[1])))
        cases.append((f"parse-{name}", ["parse", str(path)]))
        cases.append((f"parse-{name}-json", ["parse", str(path), "--json"]))
    reads = {"versions", "show", "search", "diff", "history", "check", "identify", "serve"}
    out = []
    for name, argv in cases:
        if argv and argv[0] in reads and "--help" not in argv:
            argv = [*argv, "--data", str(data)]
        out.append((name, argv))
    return out


def http_cases() -> list[tuple[str, str, str, dict[str, object]]]:
    """(name, method, url, extra) of every request; extra: `json`, `data` or `cookie`."""
    get: list[tuple[str, str]] = [
        ("home", "/"),
        ("home-en", "/?lang=en"),
        ("home-zh", "/?lang=zh"),
        ("home-both", "/?lang=both"),
        ("home-bad-lang", "/?lang=fr"),
        ("home-pinned", f"/v/{MID}/"),
        ("home-pinned-zh", f"/v/{ZH}/?lang=zh"),
        ("home-pick", f"/v/?version={MID}"),
        ("home-pick-latest", "/v/?version=latest"),
        ("home-unknown", "/v/1900-01-01/"),
        ("rule-trailing-dot", "/rules/702."),
        ("rule-redirect-version", f"/rules/702.19?version={MID}&lang=zh"),
        ("rule-redirect-latest", f"/rules/702.19?version={NEW}"),
        ("rule-pinned", f"/v/{MID}/rules/702.19"),
        ("rule-pinned-zh", f"/v/{ZH}/rules/702.19b?lang=zh"),
        ("rule-pinned-alias", f"/v/{ALIAS}/rules/702.19?lang=both"),
        ("rule-1999", f"/v/{OLD}/rules/100"),
        ("rule-only-zh-missing", f"/v/{OLD}/rules/702?lang=zh"),
        ("rule-missing", "/rules/999.9"),
        ("rule-missing-near", "/rules/702.999"),
        ("rule-missing-pinned", f"/v/{MID}/rules/702.150"),
        ("rule-not-number", "/rules/abc"),
        ("rule-path-trick", "/v/..%2F..%2Fetc/rules/1"),
        ("rule-long", "/rules/" + "1" * 40),
        ("glossary", "/glossary"),
        ("glossary-version", f"/glossary?version={MID}"),
        ("glossary-zh", f"/glossary?version={ZH}&lang=zh"),
        ("keywords", "/keywords"),
        ("keywords-version", f"/keywords?version={ZH}&lang=both"),
        ("search-page", "/search"),
        ("search-trample", "/search?q=trample"),
        ("search-zh", "/search?q=践踏"),
        ("search-zh-lang", "/search?q=阻挡&lang=zh"),
        ("search-both", "/search?q=flying&lang=both"),
        ("search-version", f"/search?q=mana+burn&version={MID}"),
        ("search-number", "/search?q=702.19b"),
        ("search-number-version", f"/search?q=702.19&version={MID}"),
        ("search-typo", "/search?q=tramplle"),
        ("search-zh-old", f"/search?q=践踏&version={OLD}"),
        ("search-bad-limit", "/search?q=x&limit=abc"),
        ("search-bad-lang", "/search?q=x&lang=fr"),
        ("search-long", "/search?q=" + "a" * 201),
        ("search-html", "/search?q=%3Cscript%3Ealert(1)%3C/script%3E"),
        ("diff", f"/diff/{ALIAS}/{ZH}"),
        ("diff-kind", f"/diff/{ALIAS}/{ZH}?kind=moved"),
        ("diff-bad-kind", f"/diff/{ALIAS}/{ZH}?kind=bogus"),
        ("diff-far", f"/diff/{OLD}/{MID}?lang=en"),
        ("diff-unknown", f"/diff/nope/{ZH}"),
        ("history", "/rules/702.19b/history"),
        ("history-version", f"/rules/502.2/history?version={MID}"),
        ("history-missing", "/rules/999.9/history"),
        ("translation", f"/translation/{ZH}"),
        ("translation-latest", "/translation/latest"),
        ("translation-kind", f"/translation/{ZH}?kind=references"),
        ("translation-chapter", f"/translation/{ZH}?chapter=115.3&lang=zh"),
        ("translation-old", f"/translation/{ZH_OLD}"),
        ("translation-bad-chapter", f"/translation/{ZH}?chapter=x"),
        ("translation-en-only", f"/translation/{OLD}"),
        ("release", f"/releases/{ALIAS}"),
        ("release-first", "/releases/1999-04-23"),
        ("no-page", "/nope"),
        ("static-css", "/static/crkb.css"),
        ("api-versions", "/api/versions"),
        ("api-rule-both", "/api/rules/702.19b?lang=both"),
        ("api-rule-version", f"/api/rules/702.19?version={MID}"),
        ("api-rule-alias-zh", f"/api/rules/702.19?version={ALIAS}&lang=zh"),
        ("api-rule-trailing-dot", "/api/rules/702."),
        ("api-rule-bad-lang", "/api/rules/702?lang=fr"),
        ("api-rule-empty-lang", "/api/rules/702?lang="),
        ("api-rule-not-number", "/api/rules/abc"),
        ("api-rule-missing", "/api/rules/999.9"),
        ("api-rule-missing-both", "/api/rules/999.9?lang=both"),
        ("api-rule-zh-too-old", f"/api/rules/702?version={OLD}&lang=zh"),
        ("api-rule-unknown-version", "/api/rules/702?version=1900-01-01"),
        ("api-rule-path-trick", "/api/rules/702?version=../../etc"),
        ("api-search", "/api/search?q=trample"),
        ("api-search-zh", "/api/search?q=践踏&lang=zh&limit=5"),
        ("api-search-auto", "/api/search?q=first+strike&lang=auto"),
        ("api-search-version", f"/api/search?q=mana+burn&version={MID}"),
        ("api-search-number", "/api/search?q=702.19b"),
        ("api-search-empty", "/api/search?q="),
        ("api-search-no-q", "/api/search"),
        ("api-search-both", "/api/search?q=x&lang=both"),
        ("api-search-bad-lang", "/api/search?q=x&lang=fr"),
        ("api-search-bad-limit", "/api/search?q=x&limit=0"),
        ("api-search-unknown-version", "/api/search?q=x&version=1900-01-01"),
        ("api-diff", f"/api/diff?from={ALIAS}&to={ZH}"),
        ("api-diff-zh", f"/api/diff?from={ZH_OLD}&to={ZH}&lang=zh"),
        ("api-diff-latest", "/api/diff?from=2025-06-06&to=latest"),
        ("api-diff-missing", f"/api/diff?from={ALIAS}"),
        ("api-diff-bad-lang", f"/api/diff?from={ALIAS}&to={ZH}&lang=both"),
        ("api-diff-unknown", f"/api/diff?from=nope&to={ZH}"),
        ("api-history", "/api/rules/702.19b/history"),
        ("api-history-zh", "/api/rules/702.19/history?lang=zh"),
        ("api-history-version", f"/api/rules/502.2/history?version={MID}"),
        ("api-history-missing", "/api/rules/999.9/history"),
        ("api-history-bad", "/api/rules/abc/history"),
        ("api-translation", "/api/translation"),
        ("api-translation-version", f"/api/translation?version={ZH_OLD}&kind=references"),
        ("api-translation-chapter", f"/api/translation?version={ZH}&chapter=115.3"),
        ("api-translation-bad-chapter", "/api/translation?chapter=x"),
        ("api-translation-en-only", f"/api/translation?version={OLD}"),
        ("api-translation-unknown", "/api/translation?version=1900-01-01"),
        ("api-openapi", "/api/openapi.json"),
        ("api-nope", "/api/nope"),
    ]
    for rule in RULES:
        get.append((f"rule-{rule}", f"/rules/{rule}"))
        for lang in ("en", "zh", "both"):
            get.append((f"rule-{rule}-{lang}", f"/rules/{rule}?lang={lang}"))
            get.append((f"api-rule-{rule}-{lang}", f"/api/rules/{rule}?lang={lang}"))
    cases: list[tuple[str, str, str, dict[str, object]]] = [
        (name, "GET", url, {}) for name, url in get
    ]
    cases += [
        ("rule-cookie-zh", "GET", "/rules/702.19", {"cookie": "zh"}),
        ("home-cookie-en", "GET", "/", {"cookie": "en"}),
        ("post-home", "POST", "/", {}),
        ("api-versions-post", "POST", "/api/versions", {}),
        ("api-identify-get", "GET", "/api/identify", {}),
        ("api-identify-empty", "POST", "/api/identify", {"json": {"text": "  "}}),
        ("api-identify-bad-json", "POST", "/api/identify", {"json": [1, 2]}),
    ]
    for i, seed in enumerate(sorted(SEEDS.rglob("*.txt"))):
        text = seed.read_text(encoding="utf-8", errors="replace")
        cases.append((f"api-identify-{i}-json", "POST", "/api/identify", {"json": {"text": text}}))
        cases.append((f"api-identify-{i}-form", "POST", "/api/identify", {"data": {"text": text}}))
    return cases


@contextlib.contextmanager
def _env(**values: str) -> Iterator[None]:
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _run_cli(argv: list[str]) -> str:
    from crkb.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
    return f"exit: {code}\n--- stdout\n{out.getvalue()}--- stderr\n{err.getvalue()}"


def _headers(resp: object) -> str:
    keep = ("Content-Type", "Location", "Set-Cookie", "Allow", "Vary", "Content-Security-Policy")
    lines = "".join(f"{k}: {v}\n" for k, v in resp.headers.items() if k in keep)  # type: ignore[attr-defined]
    lines = re.sub(r"Expires=[^;]*;", "Expires=<date>;", lines)  # the cookie's expiry moves
    # Werkzeug lists allowed methods in set order, which changes from one process to the next
    return re.sub(
        r"^Allow: (.*)$",
        lambda m: "Allow: " + ", ".join(sorted(m[1].split(", "))),
        lines,
        flags=re.M,
    )


def record(data: Path, out: Path) -> int:
    """Run every case against the build in `data`; one file per case under `out`."""
    if out.exists():
        shutil.rmtree(out)
    (out / "cli").mkdir(parents=True)
    (out / "http").mkdir()
    scratch = Path(tempfile.mkdtemp(prefix="crkb-compare-"))
    try:
        # a data dir that serves the same build but keeps its own reviews file
        own = scratch / "data"
        own.mkdir()
        (own / "builds").symlink_to((data / "builds").resolve())
        (own / "current").symlink_to(os.readlink(data / "current"))
        with _env(CRKB_DATA=str(own), COLUMNS="100"):
            for name, argv in cli_cases(own, scratch):
                text = _run_cli(argv).replace(str(scratch), "<scratch>")
                (out / "cli" / f"{name}.txt").write_text(text, encoding="utf-8")
            first = _first_finding(own)
            marks = [
                ("mark-reviewed", ["check", "--mark", f"{first}=reviewed", "--note", "ok"]),
                ("after-mark", ["check", "--chapter", "1", "--json"]),
                ("after-mark-all", ["check", "--chapter", "1", "--all", "--json"]),
                ("mark-open", ["check", "--mark", f"{first}=open"]),
                ("after-unmark", ["check", "--chapter", "1", "--json"]),
            ]
            for name, argv in marks:
                text = _run_cli([*argv, "--data", str(own)])
                (out / "cli" / f"{name}.txt").write_text(text, encoding="utf-8")
            for name, argv in (
                ("module-help", ["--help"]),
                ("module-show", ["show", "702.19b", "--lang", "both", "--data", str(own)]),
                ("module-bad", ["show", "x", "--data", str(own)]),
                ("module-unknown", ["frobnicate"]),
            ):
                p = subprocess.run(
                    [sys.executable, "-m", "crkb", *argv], capture_output=True, text=True
                )
                text = f"exit: {p.returncode}\n--- stdout\n{p.stdout}--- stderr\n{p.stderr}"
                (out / "cli" / f"{name}.txt").write_text(text, encoding="utf-8")
        _record_http(own, out / "http")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"recorded {sum(1 for _ in out.rglob('*.txt'))} outputs → {out}")
    return 0


def _first_finding(data: Path) -> str:
    text = _run_cli(["check", "--chapter", "1", "--json", "--data", str(data)])
    body = text.split("--- stdout\n", 1)[1].split("--- stderr\n", 1)[0]
    return str(json.loads(body)["findings"][0]["id"])


def _record_http(data: Path, out: Path) -> None:
    from crkb.web import create_app

    app = create_app({"DATA": str(data), "TESTING": True})
    for name, method, url, extra in http_cases():
        for attempt in ("", "-cached") if method == "GET" else ("",):
            client = app.test_client()
            if "cookie" in extra:
                client.set_cookie("crkb_lang", str(extra["cookie"]))
            kwargs = {k: v for k, v in extra.items() if k in ("json", "data")}
            resp = client.open(url, method=method, **kwargs)  # type: ignore[arg-type]
            body = resp.get_data()
            try:
                shown = body.decode("utf-8")
            except UnicodeDecodeError:
                shown = f"<{len(body)} bytes>"
            text = f"{method} {url}\nstatus: {resp.status_code}\n{_headers(resp)}\n{shown}"
            (out / f"{name}{attempt}.txt").write_text(text, encoding="utf-8")


def diff(a: Path, b: Path) -> int:
    """Print the outputs that differ between two recordings; 1 when any do."""
    names_a = {p.relative_to(a) for p in a.rglob("*.txt")}
    names_b = {p.relative_to(b) for p in b.rglob("*.txt")}
    bad = 0
    for name in sorted(names_a ^ names_b):
        print(f"only in {'before' if name in names_a else 'after'}: {name}")
        bad += 1
    for name in sorted(names_a & names_b):
        x, y = (a / name).read_bytes(), (b / name).read_bytes()
        if x != y:
            bad += 1
            print(f"differs: {name}")
            lines = difflib.unified_diff(
                x.decode("utf-8", "replace").splitlines(),
                y.decode("utf-8", "replace").splitlines(),
                lineterm="",
                n=1,
            )
            for line in list(lines)[2:14]:
                print("    " + line[:200])
    same = len(names_a & names_b) - sum(
        1 for n in names_a & names_b if (a / n).read_bytes() != (b / n).read_bytes()
    )
    print(f"{same} identical, {bad} differing or missing")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "record":
        return record(Path(argv[1]), Path(argv[2]))
    if len(argv) == 3 and argv[0] == "diff":
        return diff(Path(argv[1]), Path(argv[2]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
