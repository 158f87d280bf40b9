"""The package's layers (docs/rulesets.md, "Layers"): imports run one way, with no circles.

Every ``import`` of every module of ``brutal_sim`` is read with :mod:`ast`, those inside functions
included (only imports under ``if TYPE_CHECKING:`` are left out: they never run). Layers, top to
bottom: the app (``api``, ``cli``, ``scenario``, ``designer``, ``report``) → ``rulesets`` →
``results`` and ``run`` → ``core`` and ``toolbox``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import brutal_sim

PACKAGE = Path(brutal_sim.__file__).parent

#: each layer and the layers it may import from (itself included)
ALLOWED = {
    "app": {"app", "rulesets", "results", "run", "core", "toolbox"},
    "rulesets": {"rulesets", "results", "run", "core", "toolbox"},
    "results": {"results", "core", "toolbox"},
    "run": {"run", "core", "toolbox"},
    "core": {"core"},
    "toolbox": {"toolbox", "core"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "app"  # brutal_sim itself: the version
    return parts[1] if parts[1] in ALLOWED else "app"


def _type_checking_only(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def imports_of(path: Path) -> set[str]:
    """The ``brutal_sim`` modules ``path`` imports (absolute names; ``from x import y`` counts as
    ``x.y`` where ``y`` is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if _type_checking_only(node, parents):
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("brutal_sim")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if not base.startswith("brutal_sim"):
                continue
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in MODULES else base)
    return {m for m in found if m in MODULES and m != module_name(path)}


MODULES = {module_name(p) for p in PACKAGE.rglob("*.py")}
#: every ruleset package, found on disk (a new one is checked without an edit here)
RULESET_PACKAGES = sorted(d.name for d in (PACKAGE / "rulesets").iterdir() if (d / "__init__.py").exists())
GRAPH = {module_name(p): imports_of(p) for p in PACKAGE.rglob("*.py")}


def test_every_import_runs_down_the_layers():
    upward = sorted(f"{m} ({layer(m)}) imports {t} ({layer(t)})"
                    for m, targets in GRAPH.items() for t in targets if layer(t) not in ALLOWED[layer(m)])
    assert not upward, "imports that run up the layers:\n" + "\n".join(upward)


def test_shared_layers_never_name_a_ruleset():
    """``core``, ``run``, ``results`` and ``toolbox`` import no ruleset (checked above) and none of
    their modules falls back to one: the only place that names the rulesets is the registry."""
    named = []
    for path in PACKAGE.rglob("*.py"):
        m = module_name(path)
        if layer(m) in {"core", "run", "results", "toolbox"} and m != "brutal_sim.core.ruleset":
            text = path.read_text(encoding="utf-8")
            named += [f"{m}: {word}" for word in (f"rulesets.{r}" for r in RULESET_PACKAGES) if word in text]
    assert {"brutal", "wfrp2e", "vereteno"} <= set(RULESET_PACKAGES)
    assert not named


def test_the_app_reads_rulesets_only_through_the_interface():
    """The app layer (API, CLI, scenarios, designer, report, schemas) imports no module of a
    ruleset's package: it reaches a ruleset through the registry and the :class:`Ruleset` interface
    of ``core.ruleset`` (capabilities, ``prepare_fight``, ``file_kinds`` …), so a plug-in ruleset
    gets every command without an edit here."""
    reaching = sorted(f"{m} imports {t}" for m, targets in GRAPH.items() if layer(m) == "app"
                      for t in targets if t.startswith("brutal_sim.rulesets."))
    assert not reaching, "app modules that import a ruleset's modules:\n" + "\n".join(reaching)


def test_no_import_circles():
    """Depth-first search for a cycle in the module graph; prints the first circle found."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for t in sorted(GRAPH.get(m, ())):
            if state.get(t) == 1:
                return stack[stack.index(t):] + [t]
            if t not in state:
                found = visit(t)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(GRAPH):
        if m not in state:
            circle = visit(m)
            assert circle is None, "import circle: " + " → ".join(circle)


def test_the_walker_sees_function_level_imports(tmp_path):
    """The walk counts an import inside a function body (the test above could not fail without it)."""
    assert "brutal_sim.core.ruleset" in GRAPH["brutal_sim.core.variants"]
    assert "brutal_sim.rulesets.brutal.exact" in GRAPH["brutal_sim.rulesets.brutal"]


def test_the_scenario_package_is_app_and_its_parts_import_one_way():
    """``scenario`` is a package of the app layer; its parts import only the parts before them:
    spec (the models) → files (reading, finding files) → load (the prepared cells), and run (playing
    them) reads the models alone."""
    order = ["spec", "files", "load", "run"]
    parts = sorted(m for m in MODULES if m.startswith("brutal_sim.scenario."))
    assert parts == sorted(f"brutal_sim.scenario.{p}" for p in order)
    assert {layer(m) for m in [*parts, "brutal_sim.scenario"]} == {"app"}
    for i, part in enumerate(order):
        siblings = {t.rpartition(".")[2] for t in GRAPH[f"brutal_sim.scenario.{part}"]
                    if t.startswith("brutal_sim.scenario")}
        assert siblings <= set(order[:i]), f"scenario.{part} imports {sorted(siblings)}"
    assert "brutal_sim.scenario" not in {t for p in parts for t in GRAPH[p]}
