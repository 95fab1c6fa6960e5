"""Downloading the official English releases the project knows of, each checked against its sha256.

The list lives in `corpus/releases.json` (built once from the archive's MANIFEST.json and public
lists of release URLs). The network is reached only through an injectable opener, so tests serve
recorded bytes and never go online.
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Collection, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from crkb.errors import BadInput, CrkbError

RULES_PAGE = "https://magic.wizards.com/en/rules"
USER_AGENT = "crkb/0.1 (Comprehensive Rules knowledge base; +https://magic.wizards.com/en/rules)"
TIMEOUT = 30.0
MODERN_PATTERN = "https://media.wizards.com/{y}/downloads/MagicCompRules%20{y}{m}{d}.txt"
_TXT_LINK = re.compile(
    r"(?:MagicCompRules|Comprehensive ?Rules)[ _]*(\d{4})(\d{2})(\d{2})\.txt$", re.I
)


class NetworkError(CrkbError):
    """The network could not be reached or answered with an error."""


class Opener(Protocol):
    """What `urllib.request.build_opener()` returns: `open(request, timeout=…)` → a response."""

    def open(self, fullurl: Any, data: Any = None, timeout: float = ...) -> Any: ...


@dataclass(slots=True)
class Release:
    """One official English release as the manifest records it."""

    effective: str
    file_date: str
    file: str  # where the archive keeps it, e.g. "en/txt/2024-04-10.txt"
    url: str | None
    sha256: str
    bytes: int
    url_source: str = ""


@dataclass
class FetchReport:
    """What one `crkb fetch` did, file by file."""

    downloaded: list[str] = field(default_factory=list)
    present: list[str] = field(default_factory=list)
    no_url: list[str] = field(default_factory=list)
    latest: dict[str, Any] | None = None
    bundled: list[str] = field(default_factory=list)  # already in the bundled archive

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# the manifest -----------------------------------------------------------------------------------
def load_manifest(path: Path) -> list[Release]:
    """The releases listed in a manifest file, oldest first."""
    try:
        raw = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise BadInput(f"{path}: no such manifest") from None
    except (OSError, ValueError) as e:
        raise BadInput(f"{path}: not a releases manifest ({e})") from None
    rows = raw.get("releases") if isinstance(raw, dict) else None
    if not isinstance(rows, list):
        raise BadInput(f'{path}: not a releases manifest (no "releases" list)')
    releases = []
    for i, row in enumerate(rows, 1):
        if not isinstance(row, dict) or any(k not in row for k in MANIFEST_KEYS):
            given = ", ".join(map(str, row)) if isinstance(row, dict) else type(row).__name__
            raise BadInput(
                f"{path}: release {i} of the manifest needs {', '.join(MANIFEST_KEYS)}"
                f" (it has {given or 'nothing'})"
            )
        releases.append(Release(**{k: v for k, v in row.items() if k in RELEASE_KEYS}))
    return sorted(releases, key=lambda r: (r.file_date, r.effective))


RELEASE_KEYS = tuple(Release.__dataclass_fields__)
MANIFEST_KEYS = ("effective", "file_date", "file", "url", "sha256", "bytes")  # url may be null


def modern_url(file_date: str) -> str:
    """The publisher's URL pattern for plain-text releases since August 2017."""
    y, m, d = file_date.split("-")
    return MODERN_PATTERN.format(y=y, m=m, d=d)


def manifest_entries(
    archive_manifest: Iterable[dict[str, Any]],
    effective: Callable[[str], str | None],
    known_urls: dict[str, str],
    modern_from: str,
) -> list[Release]:
    """Releases from the archive's MANIFEST.json rows (English plain text only).

    `effective(path)` gives the date stated in a file; `known_urls` maps file dates to URLs
    recorded in a public list; from `modern_from` on, the publisher's pattern gives the URL.
    Older files without a recorded URL keep `url: null`.
    """
    out = []
    for row in archive_manifest:
        m = re.fullmatch(r"en/txt/(\d{4}-\d{2}-\d{2})\.txt", row["path"])
        if not m:
            continue
        fdate = m.group(1)
        if fdate in known_urls:
            url, source = known_urls[fdate], "public list (rulesraker archive/metadata.json)"
        elif fdate >= modern_from:
            url, source = modern_url(fdate), "publisher's URL pattern"
        else:
            url, source = None, "unknown"
        out.append(
            Release(
                effective=effective(row["path"]) or fdate,
                file_date=fdate,
                file=row["path"],
                url=url,
                sha256=row["sha256"],
                bytes=int(row["bytes"]),
                url_source=source,
            )
        )
    return sorted(out, key=lambda r: r.file_date)


# downloading ------------------------------------------------------------------------------------
def http_get(url: str, opener: Opener | None = None, timeout: float = TIMEOUT) -> bytes:
    """The body at a URL; any failure is a one-line NetworkError naming the URL."""
    opener = opener or urllib.request.build_opener()
    req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with opener.open(req, timeout=timeout) as resp:
            body: bytes = resp.read()
            return body
    except urllib.error.HTTPError as e:
        raise NetworkError(f"{url}: HTTP {e.code} {e.reason}") from None
    except urllib.error.URLError as e:
        raise NetworkError(f"{url}: cannot connect ({e.reason})") from None
    except (TimeoutError, OSError) as e:
        raise NetworkError(f"{url}: {e or type(e).__name__}") from None


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _is_present(path: Path, release: Release) -> bool:
    return (
        path.is_file()
        and path.stat().st_size == release.bytes
        and (sha256(path.read_bytes()) == release.sha256)
    )


def fetch_release(release: Release, dest: Path, opener: Opener | None = None) -> Path:
    """Download one release into `dest`; a checksum mismatch discards it with a one-line error."""
    name = Path(release.file).name
    if release.url is None:
        raise BadInput(f"{name}: no publication URL is known for this release")
    data = http_get(release.url, opener)
    got = sha256(data)
    if got != release.sha256:
        raise BadInput(
            f"{name}: checksum mismatch (expected sha256 {release.sha256[:12]}…, got {got[:12]}…,"
            f" {len(data)} bytes from {release.url}); download discarded"
        )
    dest.mkdir(parents=True, exist_ok=True)
    tmp = dest / f".{name}.part"
    tmp.write_bytes(data)
    tmp.replace(dest / name)
    return dest / name


def fetch_all(
    releases: Iterable[Release],
    dest: Path,
    opener: Opener | None = None,
    progress: Callable[[str], None] = lambda _m: None,
    bundled: Collection[str] = (),
) -> FetchReport:
    """Every release with a URL that is neither bundled (its sha256 among `bundled`) nor already
    in `dest` with the right checksum."""
    report = FetchReport()
    for r in releases:
        name = Path(r.file).name
        if r.sha256 in bundled:
            report.bundled.append(name)
        elif _is_present(dest / name, r):
            report.present.append(name)
        elif r.url is None:
            report.no_url.append(name)
        else:
            progress(f"downloading {name} from {r.url}")
            fetch_release(r, dest, opener)
            report.downloaded.append(name)
    return report


# the official rules page ------------------------------------------------------------------------
def latest_link(html: str, base: str = RULES_PAGE) -> tuple[str, str] | None:
    """The newest plain-text rules link on the rules page: (absolute URL, file date)."""
    from bs4 import BeautifulSoup

    found: list[tuple[str, str]] = []
    for a in BeautifulSoup(html, "html.parser").find_all("a", href=True):
        url = urllib.parse.urljoin(base, str(a["href"]).strip())
        name = urllib.parse.unquote(urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1])
        if m := _TXT_LINK.search(name):
            found.append((f"{m.group(1)}-{m.group(2)}-{m.group(3)}", url))
    if not found:
        return None
    fdate, url = max(found)
    return url, fdate


def check_latest(
    releases: list[Release], opener: Opener | None = None, page: str = RULES_PAGE
) -> dict[str, Any]:
    """Whether the rules page links a release newer than the manifest's newest."""
    html = http_get(page, opener).decode("utf-8", errors="replace")
    link = latest_link(html, page)
    if link is None:
        raise NetworkError(f"{page}: no link to a plain-text rules file found on the page")
    url, fdate = link
    newest = max((r.file_date for r in releases), default=None)
    return {
        "url": url,
        "file_date": fdate,
        "manifest_newest": newest,
        "newer": newest is None or fdate > newest,
    }


# building the manifest (run once, by a maintainer, from the archive) ---------------------------
_IMAGES = "https://media.wizards.com/images/magic/tcg/resources/rules/MagicCompRules_{}.txt"
_DOCS = "https://media.wizards.com/{}/docs/MagicCompRules_{}.txt"
_DOWNLOADS = "https://media.wizards.com/{}/downloads/MagicCompRules_{}.txt"
# Plain-text URLs as recorded (with their sizes, which equal the archive's) by the public list
# github.com/xremming/rulesraker archive/metadata.json; from 2017-08-25 on the publisher's pattern
# holds, with one recorded exception.
KNOWN_URLS: dict[str, str] = {
    **{
        d: _IMAGES.format(d.replace("-", ""))
        for d in (
            "2012-10-01",
            "2013-02-01",
            "2013-04-29",
            "2013-07-11",
            "2013-09-27",
            "2013-11-01",
            "2014-02-01",
        )
    },
    "2014-09-26": "https://media.wizards.com/2014/downloads/MagicCompRules_20140926.txt",
    **{
        d: _DOCS.format(d[:4], d.replace("-", ""))
        for d in (
            "2015-01-23",
            "2015-03-27",
            "2015-07-17",
            "2015-09-26",
            "2015-11-13",
            "2016-07-22",
            "2016-09-30",
            "2016-11-11",
        )
    },
    "2016-08-26": "https://media.wizards.com/2016/docs/MagicCompRules_CN2_Update_20160826.txt",
    **{
        d: _DOWNLOADS.format(d[:4], d.replace("-", ""))
        for d in ("2017-01-19", "2017-04-28", "2017-06-05", "2017-07-07")
    },
    "2022-10-07": "https://media.wizards.com/2022/downloads/Comprehensive%20Rules%2020221007.txt",
}
MODERN_FROM = "2017-08-25"


def build_manifest(archive: Path) -> dict[str, Any]:
    """The shipped manifest's content, from an archive directory holding MANIFEST.json."""
    from crkb.sources.decode import decode
    from crkb.sources.identity import stated_date

    rows = json.loads((archive / "MANIFEST.json").read_text("utf-8"))

    def effective(path: str) -> str | None:
        return stated_date(decode((archive / path).read_bytes()).text)

    releases = manifest_entries(rows, effective, KNOWN_URLS, MODERN_FROM)
    return {
        "about": "Official English plain-text releases of the Comprehensive Rules: effective date"
        " (as stated in the file), file date, publication URL (null when not known), sha256 and"
        " size in bytes of the published file. Built by crkb.fetch.build_manifest.",
        "rules_page": RULES_PAGE,
        "releases": [asdict(r) for r in releases],
    }
