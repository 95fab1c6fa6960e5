"""The `crkb` commands over derived data: search, diff, history, check, identify, serve, fetch."""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from crkb import config
from crkb.cli import _emit, reads_store
from crkb.errors import BadInput, CrkbError


def _data(args: argparse.Namespace) -> Path:
    return Path(getattr(args, "data", None) or config.data_dir())


def _store(args: argparse.Namespace):
    from crkb.cli import _open_store

    return _open_store(args)


def _number(raw: str) -> str:
    from crkb.numbers import normalise

    n = normalise(raw)
    if n is None:
        raise BadInput(f"{raw!r}: not a rule number (e.g. 901.3a, 702, 9)")
    return n


# search ------------------------------------------------------------------------------------------
def cmd_search(args: argparse.Namespace) -> int:
    from crkb.search.engine import Searcher
    from crkb.store.location import current_build

    if args.limit < 1 or args.limit > 100:
        raise BadInput(f"--limit {args.limit}: expected 1 to 100")
    _store(args)  # a damaged or foreign build is reported here as by every other command
    result = Searcher(current_build(_data(args)) / "index").search(
        args.query, lang=args.lang, version=args.version, limit=args.limit
    )
    if args.json:
        _emit(result)
        return 0
    if result.get("did_you_mean"):
        print(f"did you mean: {result['did_you_mean']}")
    for hit in result["hits"]:
        moved = f" (now {hit['current_number']})" if hit.get("current_number") else ""
        title = f" {hit['title']}" if hit.get("title") else ""
        print(
            f"{hit['number']}{moved} [{hit['version']} {hit['lang']}]{title}: {hit['text'][:160]}"
        )
    if not result["hits"]:
        print("no hits")
    return 0


# diff / history ----------------------------------------------------------------------------------
def cmd_diff(args: argparse.Namespace) -> int:
    from crkb.diff.stored import diff

    result = diff(_store(args), args.old, args.new, lang=args.lang)
    if args.json:
        _emit(result)
        return 0
    s = result["summary"]
    print(
        f"{result['from']} → {result['to']} ({result['lang']}): "
        + ", ".join(f"{v} {k}" for k, v in s.items())
    )
    for c in result["changes"]:
        num = c["new_number"] or c["old_number"]
        arrow = f"{c['old_number']} → {c['new_number']}" if c["kind"].startswith("moved") else num
        note = " (citations renumbered only)" if c.get("refs_only") else ""
        print(f"{c['kind']:>13} {arrow}{note}")
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    from crkb.diff.stored import history

    result = history(_store(args), _number(args.rule), args.version, lang=args.lang)
    if args.json:
        _emit(result)
        return 0
    last = None
    for row in result["history"]:
        marker = "" if row["text"] == last else "  (text changed)" if last is not None else ""
        print(f"{row['version']}  {row['number']}{marker}")
        last = row["text"]
    return 0


# check -------------------------------------------------------------------------------------------
def cmd_check(args: argparse.Namespace) -> int:
    from crkb.checks.review import ReviewFile
    from crkb.checks.stored import report, reviews_path

    data = _data(args)
    if args.mark:
        fid, _, status = args.mark.partition("=")
        if status not in ("reviewed", "false_alarm", "open"):
            raise BadInput(f"--mark {args.mark!r}: expected ID=reviewed, ID=false_alarm or ID=open")
        reviews = ReviewFile(reviews_path(data))
        if status == "open":
            reviews.unmark(fid)
        else:
            reviews.mark(fid, status, args.note or "")
        reviews.save()
        print(f"{fid}: {status}")
        return 0
    result = report(
        _store(args),
        data,
        args.version,
        kind=args.kind,
        chapter=args.chapter,
        include_reviewed=args.all,
    )
    if args.json:
        _emit(result)
    elif args.csv:
        w = csv.writer(sys.stdout)
        w.writerow(["id", "rule", "kind", "status", "detail", "en", "zh"])
        for f in result["findings"]:
            w.writerow([f["id"], f["rule"], f["kind"], f["status"], f["detail"], f["en"], f["zh"]])
    else:
        print(f"{result['version']}: {len(result['findings'])} open findings of {result['total']}")
        for f in result["findings"]:
            print(f"{f['id']}  {f['rule']:>8}  {f['kind']:<20} {f['detail']}")
    return 0


# serve -------------------------------------------------------------------------------------------
def _check_address(host: str, port: int) -> None:
    """Bind once before Flask does: a port in use or a bad host is one line, not a page of
    Werkzeug output and exit 1."""
    import socket

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
    from crkb.store.location import current_build
    from crkb.web import create_app

    data = _data(args)
    current_build(data)  # no build yet: one clear line now rather than an error page later
    if not 0 < args.port < 65536:
        raise BadInput(f"--port {args.port}: expected 1 to 65535")
    _check_address(args.host, args.port)
    app = create_app({"DATA": str(data)})
    print(f"serving {data} on http://{args.host}:{args.port}/ (Ctrl-C stops)", file=sys.stderr)
    app.run(host=args.host, port=args.port, threaded=True, use_reloader=False)
    return 0


# identify / fetch --------------------------------------------------------------------------------
def cmd_identify(args: argparse.Namespace) -> int:
    from crkb.identify import identify_text
    from crkb.sources.decode import NotText, decode

    path = Path(args.file)
    try:
        text = decode(path.read_bytes()).text
    except (OSError, NotText) as e:
        raise BadInput(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    result = identify_text(text, _store(args), source=str(path))
    if args.json:
        _emit(result)
        return 0
    vs = result["versions"]
    span = vs[0] if len(vs) == 1 else f"{vs[0]} … {vs[-1]} ({len(vs)} releases)"
    how = {
        "text": "rule texts",
        "fingerprint": "letters of rule texts (garbled copy)",
        "structure": "rule numbers and cross-references",
    }[result["method"]]
    lang = result["language"] or result["lang"]
    print(f"{path}: {lang} text fits {span}; {result['rules_matched']} rules matched by {how}")
    if vs[-1] == result["latest"]:
        print("  current: fits the newest release")
    changed = result["changed_since"]
    print(f"  {len(changed)} of its rules differ in the newest release ({result['latest']})")
    for c in changed:
        now = c["number_now"] or "gone"
        print(f"    {c['number']} → {now}" if now != c["number"] else f"    {c['number']}")
    return 0


def bundled_checksums(archive: Path) -> set[str]:
    """The sha256 of every file in the bundled archive's manifest (none when it is not there)."""
    from crkb import bundle

    try:
        return {str(m["sha256"]) for m in bundle.load_manifest(archive)["members"]}
    except CrkbError:
        return set()


def cmd_fetch(args: argparse.Namespace) -> int:
    from crkb import fetch

    manifest = (
        Path(args.manifest) if args.manifest else config.PROJECT_ROOT / "corpus" / "releases.json"
    )
    releases = fetch.load_manifest(manifest)
    dest = Path(args.dest) if args.dest else config.user_corpus() / "en" / "txt"
    if args.latest:
        result: dict = {"latest": fetch.check_latest(releases)}
    else:
        log = (lambda m: print(m, file=sys.stderr)) if not args.json else (lambda _m: None)
        have = bundled_checksums(config.bundled_corpus() / "archive.tar.xz")
        result = fetch.fetch_all(releases, dest, progress=log, bundled=have).to_json()
        result["dest"] = str(dest)
    if args.json:
        _emit(result)
    elif args.latest:
        lt = result["latest"]
        news = "newer than" if lt["newer"] else "not newer than"
        print(
            f"newest on the rules page: {lt['file_date']} ({lt['url']}), {news} the manifest's"
            f" newest ({lt['manifest_newest']})"
        )
    else:
        print(
            f"{len(result['downloaded'])} downloaded, {len(result['present'])} already present,"
            f" {len(result['bundled'])} in the bundled archive,"
            f" {len(result['no_url'])} without a known URL → {dest}"
        )
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to the `crkb` parser."""
    s = sub.add_parser("search", help="ranked hits in either language")
    s.add_argument("query")
    s.add_argument("--lang", choices=["en", "zh", "auto"], default="auto")
    s.add_argument(
        "--version", help="version id, alias or latest (default: newest of each language)"
    )
    s.add_argument("--limit", type=int, default=10)
    reads_store(s)
    s.set_defaults(func=cmd_search)

    d = sub.add_parser("diff", help="changes between any two versions")
    d.add_argument("old", metavar="FROM")
    d.add_argument("new", metavar="TO")
    d.add_argument("--lang", choices=["en", "zh"], default="en")
    reads_store(d)
    d.set_defaults(func=cmd_diff)

    h = sub.add_parser("history", help="a rule through every version, following renumbering")
    h.add_argument("rule")
    h.add_argument("--version", help="the version RULE is numbered in (default latest)")
    h.add_argument("--lang", choices=["en", "zh"], default="en")
    reads_store(h)
    h.set_defaults(func=cmd_history)

    c = sub.add_parser("check", help="translation consistency findings for a Chinese release")
    c.add_argument("--version", help="version id, alias or latest (default: newest translation)")
    c.add_argument("--kind", help="only findings of this kind")
    c.add_argument("--chapter", help="only rules of this chapter or section (e.g. 7, 702)")
    c.add_argument(
        "--all", action="store_true", help="include findings marked reviewed or false alarm"
    )
    c.add_argument(
        "--mark", metavar="ID=STATUS", help="mark a finding reviewed, false_alarm or open"
    )
    c.add_argument("--note", help="a note to keep with --mark")
    fmt = c.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument("--csv", action="store_true")
    c.add_argument("--data", help=argparse.SUPPRESS)
    c.set_defaults(func=cmd_check)

    sv = sub.add_parser("serve", help="the web service (development server; production: gunicorn)")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=5000)
    sv.add_argument("--data", help="data directory; default $CRKB_DATA or ./instance")
    sv.set_defaults(func=cmd_serve)

    i = sub.add_parser("identify", help="which release(s) a copied rules text comes from")
    i.add_argument("file")
    reads_store(i)
    i.set_defaults(func=cmd_identify)

    f = sub.add_parser("fetch", help="download the official English releases in the manifest")
    f.add_argument(
        "--manifest", help="releases manifest (default: the project's corpus/releases.json)"
    )
    f.add_argument(
        "--dest",
        help="where to put the files (default: $CRKB_USER_CORPUS/en/txt, layered over the bundle)",
    )
    f.add_argument(
        "--latest",
        action="store_true",
        help="only look for the newest release's link on the official rules page",
    )
    f.add_argument("--json", action="store_true")
    f.set_defaults(func=cmd_fetch)
