"""No module of the companion imports another module's private name (`from x import _name`): what a module
shares it names without an underscore, so the public API is enough (the import cycles and the factory imports
are `lint-imports`' to find, see pyproject.toml)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "hardware", "vision", "web")


def private_imports(source: str) -> list[str]:
    """Every `from x import _name` of an absolute module (a package's own `from . import _x` is its own)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found += [
                f"line {node.lineno}: from {node.module} import {alias.name}"
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
    return found


def test_the_check_finds_a_private_name() -> None:
    source = "from vision.reader import CROP, _nets\nfrom . import _local\nfrom x import __version__\n"
    assert private_imports(source) == ["line 1: from vision.reader import _nets"]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_imports_another_modules_private_name(package: str) -> None:
    found = {
        str(path.relative_to(REPO)): private_imports(path.read_text(encoding="utf-8"))
        for path in sorted((REPO / package).rglob("*.py"))
    }
    assert {path: lines for path, lines in found.items() if lines} == {}
