"""Private names stay private: no module of the package, the tests or the benchmarks imports a
``_name`` from another module of the project (``from X import _name``) or reaches one through an
imported module (``X._name``). The one exception is a ruleset's kernel package: its chapter modules
(and its ``__init__``) import each other's private rule functions, and its ``__init__`` re-exports
them under public names (``_hit as hit``) for everyone else. Dunder names (``__version__``) are
not private. Names of other projects (numpy, numba, …) are not checked."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("brutal_sim", "tests", "benchmarks")
#: where an absolute import is looked for: the repository, then the folders the tests and
#: benchmarks put on ``sys.path`` for their helpers (pytest's rootdir-relative imports)
SEARCH = (ROOT, *sorted({p.parent for top in SCANNED[1:] for p in (ROOT / top).rglob("*.py")}))


def _files() -> list[Path]:
    return sorted(p for top in SCANNED for p in (ROOT / top).rglob("*.py") if "__pycache__" not in p.parts)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_file(base: Path, dotted: str) -> Path | None:
    """The file of module ``dotted`` below ``base``: ``a/b.py`` or ``a/b/__init__.py``."""
    target = base.joinpath(*dotted.split(".")) if dotted else base
    for candidate in (target.with_suffix(".py"), target / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _resolve(path: Path, module: str | None, level: int) -> Path | None:
    """The project file an import in ``path`` names (``from <level dots><module> import …``), or
    None for a module of another project."""
    if level:
        base = path.parent
        for _ in range(level - 1):
            base = base.parent
        return _module_file(base, module or "")
    for base in (path.parent, *SEARCH):
        module_file = _module_file(base, module or "")
        if module_file is not None:
            return module_file
    return None


def _kernel_chapters(importer: Path, target: Path) -> bool:
    """Both modules are in one kernel package (``…/<ruleset>/kernel/*.py``, its ``__init__`` too)."""
    return importer.parent == target.parent and target.parent.name == "kernel"


def _attribute_module(node: ast.expr, modules: dict[str, Path]) -> Path | None:
    """The project module ``node`` (a name or a chain of attributes) stands for, or None when it is
    anything else: ``L`` bound by ``import … as L`` is its module, ``pkg.sub`` the submodule,
    ``kernel.hit`` None (a function)."""
    if isinstance(node, ast.Name):
        return modules.get(node.id)
    if isinstance(node, ast.Attribute):
        package = _attribute_module(node.value, modules)
        if package is not None and package.name == "__init__.py":
            return _module_file(package.parent, node.attr)
    return None


def violations(path: Path, source: str | None = None) -> list[str]:
    """Every private name of another project module that ``path`` imports or reads through a module."""
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    modules: dict[str, Path] = {}  # local names bound to project modules
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]  # import a.b binds a; import a.b as c binds c
                target = _resolve(path, alias.name if alias.asname else bound, 0)
                if target is not None:
                    modules[bound] = target
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(path, node.module, node.level)
            if target is None:
                continue
            for alias in node.names:
                submodule = _module_file(target.parent, alias.name) if target.name == "__init__.py" else None
                if submodule is not None:
                    modules[alias.asname or alias.name] = submodule
                if _private(alias.name) and not _kernel_chapters(path, submodule or target):
                    where = "." * node.level + (node.module or "")
                    found.append(f"line {node.lineno}: from {where} import {alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            module = _attribute_module(node.value, modules)
            if module is not None and module != path:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_name_of_another_module(path: Path) -> None:
    wrong = violations(path)
    assert not wrong, f"{path.relative_to(ROOT)} uses private names of other modules:\n" + "\n".join(wrong)


def test_the_scan_sees_private_imports_and_allows_kernel_chapters() -> None:
    kernel = ROOT / "brutal_sim" / "rulesets" / "brutal" / "kernel"
    test = ROOT / "tests" / "brutal" / "test_rules.py"
    assert violations(test, "from brutal_sim.toolbox.rng import _xoshiro_next\n")
    assert violations(test, "from brutal_sim.rulesets.brutal.kernel import _hit\n")
    assert violations(test, "from brutal_sim.rulesets.brutal.kernel.attack import _hit\n")
    assert violations(test, "from brutal_sim.rulesets.brutal import layout as L\nL._x\n")
    assert violations(test, "import brutal_sim.toolbox.rng\nbrutal_sim.toolbox.rng._mix64\n")
    assert violations(test, "import brutal_sim.toolbox.rng as R\nR._mix64\n")
    assert violations(kernel.parent / "exact.py", "from .kernel.attack import _hit\n")
    assert not violations(kernel / "attack.py", "from .wounds import _take_wound\n")
    assert not violations(kernel / "__init__.py", "from .attack import _hit as hit\n")
    assert not violations(test, "from brutal_sim.rulesets.brutal.kernel import hit\nimport numpy as np\nnp._x\n")
    assert not violations(test, "from brutal_sim.rulesets.brutal import kernel\nkernel.hit._cache\n")
    assert not violations(test, "from brutal_sim import __version__\n")
