"""The drivers' contract: numba makes every ruleset keep its own copy of the parallel loops (a
compiled loop cannot take the rule functions it calls as arguments without losing their inlining),
so the copies are compared instead, statement for statement, with the toy's
(``tests/toy/toy_ruleset/drivers.py``, built from docs/rulesets.md), once the ruleset's own words
are set aside: its read-only tables (the arguments between ``opts`` and ``seed``), the number of
rows of its state array, the names of the rule functions it calls per index and docstrings.

Every ruleset has the toy's drivers whole: the compiled loops ``_run`` and ``_paired`` with the
kernel variants as trailing flags (``core.ruleset.VARIANTS``), in one file, ``kernel/drivers.py``.
The rulesets are found by themselves: every package under ``brutal_sim/rulesets``, and every
module of theirs that holds a parallel driver, so a new ruleset or a second driver file cannot be
left out of the comparison.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from brutal_sim.core.ruleset import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "toy" / "toy_ruleset" / "drivers.py"
RULESETS = ROOT / "brutal_sim" / "rulesets"
#: every ruleset package and its driver file
DRIVERS = {d.name: d / "kernel" / "drivers.py" for d in sorted(RULESETS.iterdir())
           if d.is_dir() and (d / "__init__.py").exists()}
LOOPS = ("run", "paired")


def _parallel_driver_modules() -> list[Path]:
    """Every module under ``brutal_sim/rulesets`` that defines a ``@driver(parallel=True)`` loop."""
    found = []
    for path in sorted(RULESETS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and any(
                    isinstance(d, ast.Call) and getattr(d.func, "id", "") == "driver"
                    and any(k.arg == "parallel" for k in d.keywords) for d in node.decorator_list):
                found.append(path)
                break
    return found


class _Neutral(ast.NodeTransformer):
    """A driver with the ruleset's own words replaced: table arguments by ``TABLES``, the rule
    functions called per index by ``DUEL`` / ``ATTACK``, the state rows' count by ``ROWS``."""

    def __init__(self, tables: list[str]) -> None:
        self.tables = set(tables)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name = node.name.lstrip("_")
        if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            node.body = node.body[1:]  # the docstring
        args = [a for a in node.args.args if a.arg not in self.tables]
        at = next((i for i, a in enumerate(args) if a.arg == "seed"), len(args))
        node.args.args = args[:at] + [ast.arg("TABLES")] + args[at:]
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.body = [self.visit(s) for s in node.body]
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        out = []
        for a in node.args:  # the tables (if any) go; their place after the options is marked
            if isinstance(a, ast.Name) and a.id in self.tables:
                continue
            out.append(a)
            if _is_options(a):
                out.append(ast.Name("TABLES", ast.Load()))
        node.args = out
        if isinstance(node.func, ast.Name):
            name = node.func.id.lstrip("_")
            node.func.id = {"duel": "DUEL", "fight": "DUEL", "single_attack": "ATTACK"}.get(name, name)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "empty" and node.args and \
                isinstance(node.args[0], ast.Tuple):  # np.empty((rows, NS)): the state array
            node.args[0].elts[0] = ast.Name("ROWS", ast.Load())
        return node


def _is_options(node: ast.expr) -> bool:
    """``opts``, or ``optss[j]`` (one configuration's options in a paired run)."""
    if isinstance(node, ast.Subscript):
        node = node.value
    return isinstance(node, ast.Name) and node.id in ("opts", "optss")


def _tables(func: ast.FunctionDef) -> list[str]:
    names = [a.arg for a in func.args.args]
    first = 2  # after (F, opts) or (Fs, optss)
    return names[first:names.index("seed")]


def _functions(path: Path) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name.lstrip("_"): n for n in tree.body if isinstance(n, ast.FunctionDef)}


def loops(path: Path, names: tuple[str, ...] = LOOPS) -> dict[str, str]:
    """The driver loops ``names`` of a module, neutral, as AST dumps by name (without the leading
    ``_``)."""
    funcs = _functions(path)
    missing = [name for name in names if name not in funcs]
    assert not missing, f"{path}: no {', '.join(missing)}"
    tables = _tables(funcs["run"])
    return {name: ast.dump(_Neutral(tables).visit(funcs[name])) for name in names}


def test_the_comparison_sees_a_changed_loop(tmp_path):
    """A driver that differs from the toy's in one statement is told apart (the tests below could
    not fail without it); one that differs only in its tables and rule names is not; a loop that
    lost a flag's test is told apart too."""
    text = TOY.read_text(encoding="utf-8")
    renamed = text.replace(" fight(", " _duel(").replace("(F, opts, seed,", "(F, opts, zt, seed,")
    (tmp_path / "same.py").write_text(renamed, encoding="utf-8")
    assert loops(tmp_path / "same.py") == loops(TOY)
    (tmp_path / "other.py").write_text(text.replace("hi = start + (n * (lane + 1)) // lanes",
                                                    "hi = start + (n * (lane + 2)) // lanes", 1), encoding="utf-8")
    assert loops(tmp_path / "other.py")["run"] != loops(TOY)["run"]
    assert loops(tmp_path / "other.py")["paired"] == loops(TOY)["paired"]
    kept = text.replace("                if group is not None:\n"
                        "                    count_group(F, S, row, k, N_CAUSES)\n",
                        "                count_group(F, S, row, k, N_CAUSES)\n")
    assert kept != text
    (tmp_path / "kept.py").write_text(kept, encoding="utf-8")
    assert loops(tmp_path / "kept.py")["run"] != loops(TOY)["run"]


def test_the_toys_loops_take_every_variant_as_a_flag():
    """The toy's loops end with the flags of ``VARIANTS``, in their order."""
    funcs = _functions(TOY)
    assert [a.arg for a in funcs["run"].args.args][-len(VARIANTS):] == list(VARIANTS)
    assert [a.arg for a in funcs["paired"].args.args][-len(VARIANTS):] == list(VARIANTS)


def test_every_ruleset_has_one_driver_file():
    """Each ruleset package has ``kernel/drivers.py``, and no other module of the rulesets holds a
    parallel loop (a kernel variant is a flag, never a copied driver file)."""
    assert {"brutal", "wfrp2e", "vereteno"} <= set(DRIVERS)
    missing = [name for name, path in DRIVERS.items() if not path.exists()]
    assert not missing, f"rulesets without kernel/drivers.py: {missing}"
    assert _parallel_driver_modules() == sorted(DRIVERS.values())


@pytest.mark.parametrize("ruleset", sorted(DRIVERS))
def test_a_rulesets_drivers_are_the_toys(ruleset):
    mine, toy = loops(DRIVERS[ruleset]), loops(TOY)
    differ = [name for name in LOOPS if mine[name] != toy[name]]
    assert not differ, f"{ruleset}: drivers unlike the toy's: {', '.join(differ)}"
