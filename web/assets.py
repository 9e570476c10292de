"""The page's own files, held in memory with a gzip copy and an ETag each.

Everything the page needs is served from here (no CDN); the files are small enough to keep in
memory, and compressing once at start costs nothing per request. The page's ES modules import
each other as `./core.js?v=__VERSION__`: the version (a digest of every file) is written in when
the files are loaded, so each module is cached for good under its versioned URL and a new
version is fetched whole.
"""

from __future__ import annotations

import gzip
import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

STATIC_DIR = Path(__file__).parent / "static"
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
}
VERSION_MARK = b"__VERSION__"  # in the page's scripts: replaced by the files' version
COMPRESSIBLE = ("text/", "application/json", "application/manifest+json", "image/svg+xml", "application/javascript")


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None
    mimetype: str
    etag: str


def compressible(mimetype: str) -> bool:
    return mimetype.startswith(COMPRESSIBLE)


def make_asset(body: bytes, mimetype: str) -> Asset:
    packed = gzip.compress(body, compresslevel=9, mtime=0) if compressible(mimetype) and len(body) > 256 else None
    if packed is not None and len(packed) >= len(body):
        packed = None
    return Asset(body, packed, mimetype, hashlib.sha256(body).hexdigest()[:16])


def _icon_png(size: int) -> bytes:
    """The app icon (a clock at the Ghost Hour) drawn with Pillow, so no binary sits in the repository."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (size, size), (24, 20, 38))
    draw = ImageDraw.Draw(img)
    c, r = size / 2, size * 0.36
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(236, 228, 210), outline=(150, 30, 40), width=max(2, size // 24))
    for i in range(4):
        x = c + (r * 0.8) * [0, 1, 0, -1][i]
        y = c + (r * 0.8) * [-1, 0, 1, 0][i]
        d = size * 0.03
        draw.ellipse((x - d, y - d, x + d, y + d), fill=(24, 20, 38))
    draw.line((c, c, c, c - r * 0.75), fill=(150, 30, 40), width=max(3, size // 20))
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue()


class Assets:
    """Static files by name; `version` changes whenever any file changes (cache busting, SW cache)."""

    def __init__(self) -> None:
        raw = {
            path.name: path.read_bytes()
            for path in sorted(STATIC_DIR.iterdir())
            if path.is_file() and path.suffix in TYPES
        }
        digest = hashlib.sha256("".join(hashlib.sha256(body).hexdigest()[:16] for body in raw.values()).encode())
        self.version = digest.hexdigest()[:10]
        self._files: dict[str, Asset] = {}
        for name, body in raw.items():
            if name.endswith(".js"):
                body = body.replace(VERSION_MARK, self.version.encode())
            self._files[name] = make_asset(body, TYPES[Path(name).suffix])
        for size in (192, 512):
            self._files[f"icon-{size}.png"] = make_asset(_icon_png(size), "image/png")

    def get(self, name: str) -> Asset | None:
        return self._files.get(name)
