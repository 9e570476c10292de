"""The layers as checks: the import contracts (pyproject.toml, `lint-imports`) and the engine's seeded randomness.

`lint-imports` (run by .ci/run) checks which package may import which. What it cannot see is *how* a module
uses what it imports: the rules engine imports `random`, and may only build seeded `random.Random`
generators from it, never call the module's global functions (`random.choice`, `random.shuffle` ...), whose
hidden shared state would make a replayed game differ from the one played.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PURE = sorted(str(p.relative_to(REPO)) for p in (REPO / "companion" / "games").rglob("*.py"))


def global_random_uses(source: str) -> list[str]:
    """Every use of the random module other than `random.Random` (and every `from random import`)."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            found.append(f"line {node.lineno}: from random import {', '.join(a.name for a in node.names)}")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            found.append(f"line {node.lineno}: random.{node.attr}")
    return found


@pytest.mark.parametrize("path", PURE)
def test_the_pure_modules_use_only_seeded_generators(path: str) -> None:
    assert global_random_uses((REPO / path).read_text(encoding="utf-8")) == [], path


def test_the_check_finds_global_random_functions() -> None:
    source = "import random\nfrom random import shuffle\nrng = random.Random(7)\nrandom.choice([1])\n"
    assert global_random_uses(source) == ["line 2: from random import shuffle", "line 4: random.choice"]


@pytest.mark.skipif(
    shutil.which("lint-imports") is None and not (REPO / ".venv" / "bin" / "lint-imports").exists(),
    reason="import-linter is not installed",
)
def test_the_import_contracts_hold() -> None:
    program = shutil.which("lint-imports") or str(REPO / ".venv" / "bin" / "lint-imports")
    result = subprocess.run([program], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "0 broken" in result.stdout
