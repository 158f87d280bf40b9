"""The typed package: ``py.typed`` ships with it, and the public API (``api``, ``designer``, the
results — frames, plots, duel, fight, header, stats — and ``schema``) passes mypy with complete type
hints, as configured in pyproject.toml's ``[tool.mypy]``."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import brutal_sim

ROOT = Path(__file__).parents[2]
PACKAGE = Path(brutal_sim.__file__).parent


def test_py_typed_and_schemas_are_package_data():
    assert (PACKAGE / "py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = data["tool"]["setuptools"]["package-data"]["brutal_sim"]
    assert "py.typed" in package_data and "schemas/**/*.json" in package_data


def test_public_api_modules_are_checked_strictly():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert {"brutal_sim/api.py", "brutal_sim/designer.py", "brutal_sim/results"} <= set(config["files"])
    assert config["disallow_untyped_defs"] and config["disallow_incomplete_defs"]


def test_mypy_passes_on_the_public_api(tmp_path):
    p = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy_cache")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "Success: no issues found" in p.stdout
