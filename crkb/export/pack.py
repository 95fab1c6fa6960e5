"""Writes the offline pack of one build into a folder (atomically), and its zip for download."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import struct
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from crkb.diff.lookup import TRANSLATION_NUMBERS
from crkb.errors import BadInput, NotFound, StoreError
from crkb.export import pages, searchdata
from crkb.graph.term_matching import anchor
from crkb.model import Document
from crkb.search import asked
from crkb.sources.script import to_simplified
from crkb.store.db import DB_NAME, Store
from crkb.store.location import current_build, swap_in

ASSETS = Path(__file__).resolve().parent / "assets"
MARKER = "crkb-pack.json"
LANGS = ("en", "zh")
PACKS = "packs"  # beside the builds in the data directory: <build id>.zip


@dataclass(slots=True)
class Summary:
    """What an export wrote (`crkb export` prints it)."""

    dest: Path
    release: str
    versions: dict[str, str]
    files: int = 0
    bytes: int = 0
    seconds: float = 0.0
    pages: dict[str, int] = field(default_factory=dict)


def parse_langs(raw: str) -> list[str]:
    """`en,zh` → ["en", "zh"]; BadInput naming --lang otherwise."""
    langs = [x.strip() for x in raw.split(",") if x.strip()]
    bad = [x for x in langs if x not in LANGS]
    if bad or not langs:
        raise BadInput(f"--lang {raw!r}: expected en, zh or en,zh")
    return list(dict.fromkeys(langs))


def choose_versions(
    store: Store, version: str | None, langs: list[str], required: bool = True
) -> dict[str, str]:
    """lang → version: the release asked for (newest by default) in English, and the newest
    Chinese translation not newer than it (a translation lags the English). Unless `required`,
    a language with no text that old is left out (the default pack of a release before any
    translation is English only)."""
    out: dict[str, str] = {}
    release = store.resolve_version(version, "en" if "en" in langs else None)
    for lang in langs:
        ids = [v for v in store.version_ids(lang) if v <= release]
        if ids:
            out[lang] = ids[-1]
        elif required or len(langs) == 1:
            raise NotFound(f"no {lang} text at or before {release} in the store")
    return out


def twin_numbers(store: Store, versions: dict[str, str]) -> dict[str, dict[str, str | None]]:
    """lang → (its text's numbers that the other language's text numbers otherwise → the number
    there, None when that text lacks the rule). The translation may be of an older release than
    the English, and is numbered as that release's English: the build's map of the English
    release's numbers into its translation's (`crkb.diff.lookup.translated_number`, read whole
    here, once) pairs them, and its inverse pairs the translation's rules with the English ones.
    Empty when both are of one release, or the build mapped none (a partial copy: by number)."""
    en, zh = versions.get("en"), versions.get("zh")
    if en is None or zh is None or en == zh:
        return {}
    forward = store.step_result(TRANSLATION_NUMBERS + en)
    if not isinstance(forward, dict):
        return {}
    back: dict[str, str | None] = {n: m for m, n in forward.items() if n is not None}
    for m in forward:  # the translation's rule numbered as a renumbered English one, and no
        back.setdefault(m, None)  # English rule renumbered to it: removed since
    return {"en": dict(forward), "zh": back}


def _png(size: int) -> bytes:
    """A plain square icon (the pack's colour with a page), as PNG, for the web app manifest."""
    rows = []
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            inner = size // 4 <= x < size * 3 // 4 and size // 5 <= y < size * 4 // 5
            row += bytes((255, 253, 248) if inner else (91, 58, 26))
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def manifest(release: str) -> str:
    """The web app manifest: installable, opens on the contents page, works from any folder."""
    return json.dumps(
        {
            "name": f"Comprehensive Rules {release} · 完整规则",
            "short_name": "CR pack",
            "start_url": "./index.html",
            "scope": "./",
            "display": "standalone",
            "background_color": "#fffdf8",
            "theme_color": "#5b3a1a",
            "icons": [
                {"src": "assets/icon-192.png", "sizes": "192x192", "type": "image/png"},
                {"src": "assets/icon-512.png", "sizes": "512x512", "type": "image/png"},
                {"src": "assets/icon.svg", "sizes": "any", "type": "image/svg+xml"},
            ],
        },
        ensure_ascii=False,
        indent=1,
    )


def data_script(lang: str, index: object) -> str:
    """A search index as a script (file:// forbids fetching JSON, not loading scripts)."""
    body = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    return f"(window.CRKB_SEARCH=window.CRKB_SEARCH||{{}}).{lang}={body};\n"


def service_worker(files: list[str], digest: str) -> str:
    """The service worker with the list of every file to keep and a cache name per pack."""
    text = (ASSETS / "sw.js").read_text(encoding="utf-8")
    return text.replace("__VERSION__", digest).replace("__FILES__", json.dumps(files))


def _glossary_pairs(
    texts: dict[str, pages.Text], terms: dict[str, str]
) -> dict[str, dict[str, str]]:
    """lang → (term → the other language's glossary anchor), through the term dictionary."""
    en, zh = texts.get("en"), texts.get("zh")
    if en is None or zh is None:
        return {}
    zh_terms = {g.term.strip(): g.term for g in zh.doc.glossary}
    to_zh: dict[str, str] = {}
    to_en: dict[str, str] = {}
    lowered = {k.lower(): v for k, v in terms.items()}
    for g in en.doc.glossary:
        z = terms.get(g.term) or lowered.get(g.term.lower())
        if z and z in zh_terms:
            to_zh[g.term] = anchor(zh_terms[z])
            to_en.setdefault(zh_terms[z], anchor(g.term))
    return {"en": to_zh, "zh": to_en}


def write_pages(
    root: Path, texts: dict[str, pages.Text], release: str, terms: dict[str, str]
) -> dict[str, int]:
    """Every HTML page of the pack; returns the count per language."""
    order = list(texts)
    counts: dict[str, int] = {}
    pairs = _glossary_pairs(texts, terms)
    made = time.strftime("%Y-%m-%d", time.gmtime())
    (root / "index.html").write_text(
        pages.index_page([texts[x] for x in order], release, made), "utf-8"
    )
    (root / "search.html").write_text(pages.search_page(order), "utf-8")
    for lang, text in texts.items():
        other = next((texts[x] for x in order if x != lang), None)
        folder = root / lang
        folder.mkdir()
        secs = [s.number for s in text.sections]
        for i, s in enumerate(text.sections):
            prev = secs[i - 1] if i else None
            nxt = secs[i + 1] if i + 1 < len(secs) else None
            html = pages.section_page(text, s, other, prev, nxt)
            (folder / f"{s.number}.html").write_text(html, "utf-8")
        (folder / "glossary.html").write_text(
            pages.glossary_page(text, other, pairs.get(lang, {})), "utf-8"
        )
        (folder / "keywords.html").write_text(pages.keywords_page(text, other), "utf-8")
        counts[lang] = len(secs) + 2
    return counts


def players_questions(build: Path, doc: Document) -> list[tuple[str, ...]]:
    """Each rule's players' questions (crkb/search/asked.py), as the build's index holds them:
    compared with the rules of the release they were written for, read from the build's store
    when the pack is of another release."""
    shipped = asked.load(doc.lang)
    if shipped is None:
        return [() for _r in doc.rules]
    if shipped.version == doc.version:
        written = {r.number: r.text for r in doc.rules}
    else:
        store = Store(build / DB_NAME)
        try:
            written = {r.number: r.text for r in store.document(shipped.version, doc.lang).rules}
        except NotFound:  # a build without that release: the index has none either
            return [() for _r in doc.rules]
        finally:
            store.close()
    return asked.attach(doc.lang, shipped, written, [(r.number, r.text) for r in doc.rules])


def write_search(
    root: Path, build: Path, texts: dict[str, pages.Text], terms: dict[str, str]
) -> None:
    """data/search-<lang>.js, made with the server's analysers and its Chinese dictionary."""
    from crkb.search import analysis
    from crkb.search.index import USERDICT

    data = root / "data"
    data.mkdir()
    if "en" in texts:
        en = texts["en"].doc
        (data / "search-en.js").write_text(
            data_script("en", searchdata.english_index(en, players_questions(build, en))), "utf-8"
        )
    if "zh" in texts:
        try:
            words = (build / "index" / USERDICT).read_text(encoding="utf-8").split()
        except OSError as e:
            raise StoreError(
                f"{build / 'index'}: no search dictionary ({e}); run `crkb build`"
            ) from None
        cutter = analysis.ChineseCutter(sorted(set(words)))
        en_text = texts.get("en")
        via = searchdata.via_english(
            en_text.doc if en_text else None, terms, en_text.twins if en_text else None
        )
        zh = texts["zh"].doc
        index = searchdata.chinese_index(
            zh, cutter, to_simplified, via, players_questions(build, zh)
        )
        (data / "search-zh.js").write_text(data_script("zh", index), "utf-8")


def _prepare_dest(dest: Path) -> None:
    """A destination must be absent, empty, or an earlier pack (which is replaced)."""
    if dest.exists() and not dest.is_dir():
        raise BadInput(f"{dest}: exists and is not a folder")
    if dest.is_dir() and any(dest.iterdir()) and not (dest / MARKER).exists():
        raise BadInput(f"{dest}: not empty and not a crkb pack; give a new or empty folder")
    above = next((a for a in dest.absolute().parents if a.exists()), None)
    if above is not None and not above.is_dir():
        raise BadInput(f"{dest}: {above} is a file, not a folder")


def export(
    data: Path,
    dest: Path,
    version: str | None = None,
    langs: list[str] | None = None,
    progress: Callable[[str], None] = lambda _m: None,
    build: Path | None = None,
) -> Summary:
    """Write the pack of the current build in `data` (or of `build`) to `dest` (atomically)."""
    start = time.perf_counter()
    required = langs is not None
    langs = langs or list(LANGS)
    dest = Path(dest)
    _prepare_dest(dest)
    build = build or current_build(Path(data))
    store = Store(build / DB_NAME)
    try:
        versions = choose_versions(store, version, langs, required)
        progress(f"reading {', '.join(f'{k} {v}' for k, v in versions.items())}")
        texts = {lang: pages.make_text(store.document(v, lang)) for lang, v in versions.items()}
        for lang, twins in twin_numbers(store, versions).items():
            texts[lang].twins = twins
        raw_terms = store.step_result("terms")
        terms = raw_terms if isinstance(raw_terms, dict) else {}
    finally:
        store.close()
    release = versions.get("en") or next(iter(versions.values()))
    try:  # the pack is written beside its folder, then moved into place
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    except OSError as e:
        raise BadInput(f"{dest}: cannot write a folder there ({e.strerror or e})") from None
    try:
        progress("pages")
        counts = write_pages(tmp, texts, release, terms)
        progress("search index")
        write_search(tmp, build, texts, terms)
        assets = tmp / "assets"
        assets.mkdir()
        for name in ("style.css", "pack.js", "search.js", "icon.svg"):
            shutil.copyfile(ASSETS / name, assets / name)
        (assets / "icon-192.png").write_bytes(_png(192))
        (assets / "icon-512.png").write_bytes(_png(512))
        (tmp / "manifest.webmanifest").write_text(manifest(release), "utf-8")
        (tmp / MARKER).write_text(
            json.dumps({"release": release, "versions": versions}, indent=1), "utf-8"
        )
        files = sorted(p.relative_to(tmp).as_posix() for p in tmp.rglob("*") if p.is_file())
        digest = hashlib.sha256()
        for f in files:
            digest.update(f.encode() + b"\0" + (tmp / f).read_bytes())
        (tmp / "sw.js").write_text(service_worker(files, digest.hexdigest()[:12]), "utf-8")
        os.chmod(tmp, 0o755)
        swap_in(tmp, dest, ".old-pack")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    every = [p for p in dest.rglob("*") if p.is_file()]
    return Summary(
        dest=dest,
        release=release,
        versions=versions,
        files=len(every),
        bytes=sum(p.stat().st_size for p in every),
        seconds=time.perf_counter() - start,
        pages=counts,
    )


def zip_folder(folder: Path, target: Path) -> None:
    """Zip a pack (paths inside under one top folder), written beside `target` then renamed."""
    tmp = target.with_name(target.name + f".{os.getpid()}.tmp")
    top = target.stem
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                z.write(p, f"{top}/{p.relative_to(folder).as_posix()}")
    tmp.replace(target)


def pack_zip(data: Path, code: str = "") -> Path:
    """The zip of the newest pack of the current build, made once per build and kept in
    `data/packs/<build id>.zip` (zips of other builds are removed). `code` names the code that
    makes it (the web app's `rendering.signature()`): a zip made by other code (a crkb upgraded
    in place: a fix to the pages) is made again, as the web app's kept pages are."""
    build = current_build(Path(data))
    packs = Path(data) / PACKS
    packs.mkdir(parents=True, exist_ok=True)
    target = packs / f"crkb-pack-{build.name}.zip"
    stamp = target.with_name(target.name + ".code")  # which code made it

    def current() -> bool:
        try:
            return target.exists() and stamp.read_text(encoding="utf-8") == code
        except OSError:
            return False

    if current():
        return target
    with open(packs / ".lock", "w") as lock:  # one process makes it; the others wait, then read it
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not current():
            with tempfile.TemporaryDirectory(dir=packs) as tmp:
                export(data, Path(tmp) / "pack", build=build)
                zip_folder(Path(tmp) / "pack", target)
                (Path(tmp) / "code").write_text(code, encoding="utf-8")
                (Path(tmp) / "code").replace(stamp)
            for old in (*packs.glob("crkb-pack-*.zip"), *packs.glob("crkb-pack-*.zip.code")):
                if old not in (target, stamp):
                    old.unlink(missing_ok=True)
    return target
