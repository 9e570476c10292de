"""The page's files as the companion serves them: ES modules that import each other under the files' version,
each module a file the companion has, none over 800 lines, and the app shell revalidated with an ETag."""

from __future__ import annotations

import re

from web_fixtures import Table, shared_table  # noqa: F401 (a fixture)

from web.assets import STATIC_DIR, Assets

STATIC_IMPORT = re.compile(r"""from\s+"\./([a-z_]+\.js)\?v=""")
IMPORT = re.compile(r"""(?:from\s+|import\s*\(\s*)"\./([a-z_]+\.js)\?v=([^"]*)\"""")


def test_every_module_imported_is_served_under_the_files_version() -> None:
    assets = Assets()
    seen: set[str] = set()
    for path in sorted(STATIC_DIR.glob("*.js")):
        asset = assets.get(path.name)
        assert asset is not None, path.name
        text = asset.body.decode()
        assert "__VERSION__" not in text, path.name
        for name, version in IMPORT.findall(text):
            assert version == assets.version, (path.name, name, version)
            assert assets.get(name) is not None, (path.name, name)
            seen.add(name)
    # the entry imports core.js and the default game's module; the other games load when in use
    assert {"core.js", "skeptics.js", "host.js", "elder_sign.js", "among_cultists.js", "spooks.js"} <= seen


def test_no_file_of_the_page_is_over_800_lines() -> None:
    sizes = {
        path.name: len(path.read_text(encoding="utf-8").splitlines())
        for path in STATIC_DIR.iterdir()
        if path.suffix in (".js", ".css", ".svg")
    }
    assert sizes and max(sizes.values()) <= 800, sizes


def test_the_service_worker_keeps_the_modules_the_page_loads_at_once() -> None:
    assets = Assets()

    def text(name: str) -> str:
        asset = assets.get(name)
        assert asset is not None, name
        return asset.body.decode()

    at_once, todo = {"app.js"}, ["app.js"]  # the entry and what it imports statically, module by module
    while todo:
        for name in STATIC_IMPORT.findall(text(todo.pop())):
            if name not in at_once:
                at_once.add(name)
                todo.append(name)
    shell = text("sw.js")
    assert f"skeptics-{assets.version}" in shell
    assert {name for name in at_once if f'"{name[:-3]}"' not in shell} == set()
    assert "box.js" not in at_once and "elder_sign.js" not in at_once  # loaded when in use, kept then
    assert "host.js" not in at_once and '"host"' not in shell  # the host's part: on the host's phone alone


def test_the_app_shell_is_revalidated_with_its_etag(shared_table: Table) -> None:  # noqa: F811
    viewer = shared_table.viewer()
    first = viewer.get("/")
    assert first.status == 200 and first.headers["cache-control"] == "no-cache"
    etag = first.headers["etag"]
    again = viewer.get("/", headers={"If-None-Match": etag})
    assert again.status == 304 and again.body == b""
    assert 'type="module"' in first.body.decode()


def test_a_file_under_another_versions_url_is_not_this_versions(shared_table: Table) -> None:  # noqa: F811
    viewer = shared_table.viewer()
    version = Assets().version
    current = viewer.get(f"/static/core.js?v={version}")
    assert current.status == 200 and "immutable" in current.headers["cache-control"]
    assert viewer.get("/static/core.js").headers["cache-control"] == "no-cache"
    # a page opened before an update asks for its own version's modules: 404, and the page reloads (core.js)
    stale = viewer.get("/static/core.js?v=0123456789")
    assert stale.status == 404 and "reload" in stale.json()["error"]
    assert viewer.get("/static/app.css?v=0123456789").status == 404
