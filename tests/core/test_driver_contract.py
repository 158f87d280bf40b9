"""The drivers' contract: numba makes every ruleset keep its own copy of the parallel loops (a
compiled loop cannot take the rule functions it calls as arguments without losing their inlining),
so the copies are compared instead, statement for statement, with the toy's
(``tests/toy/toy_ruleset/drivers.py``, built from docs/rulesets.md), once the ruleset's own words
are set aside: its read-only tables (the arguments between ``opts`` and ``seed``), the number of
rows of its state array, the names of the rule functions it calls per index and docstrings.

A ruleset that plays group fights (Brutal) has the toy's drivers whole: ``_run`` and ``_paired``
with their ``group`` flag, and the wrappers ``run_duels``, ``run_attacks``, ``run_fights``,
``run_paired``, ``run_paired_fights``. A ruleset of duels only (WFRP 2e, Vereteno) has the toy's
drivers without the group parts: the ``group`` parameter and argument, the ``if group:``
statements and the ``base`` of the group block gone, its compiled paired loop named
``run_paired``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "toy" / "toy_ruleset" / "drivers.py"
RULESETS = ROOT / "brutal_sim" / "rulesets"
#: rulesets whose drivers play group fights, and those of duels only
FIGHT_DRIVERS = {"brutal": RULESETS / "brutal" / "kernel" / "drivers.py"}
DUEL_DRIVERS = {
    "wfrp2e": RULESETS / "wfrp2e" / "kernel" / "drivers.py",
    "wfrp2e with missile weapons": RULESETS / "wfrp2e" / "kernel" / "missile_drivers.py",
    "vereteno": RULESETS / "vereteno" / "kernel" / "drivers.py",
    "vereteno at a distance": RULESETS / "vereteno" / "kernel" / "ranged_drivers.py",
}
FIGHT_LOOPS = ("run", "paired", "run_duels", "run_attacks", "run_fights", "run_paired", "run_paired_fights")
DUEL_LOOPS = ("run", "run_duels", "run_attacks", "run_paired")


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


class _WithoutGroups(ast.NodeTransformer):
    """The toy's drivers as a ruleset of duels only has them: no ``group`` parameter, no group
    argument in the calls of ``_run`` / ``_paired``, no ``if group:`` and no ``base = …``."""

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.args.args = [a for a in node.args.args if a.arg != "group"]
        self.generic_visit(node)
        return node

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt]:
        self.generic_visit(node)
        if isinstance(node.test, ast.Name) and node.test.id == "group":
            return node.orelse
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.AST | None:
        if any(isinstance(t, ast.Name) and t.id == "base" for t in node.targets):
            return None
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in ("_run", "_paired"):
            node.args = node.args[:-1]
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


def loops(path: Path, names: tuple[str, ...] = FIGHT_LOOPS) -> dict[str, str]:
    """The driver loops ``names`` of a module, neutral, as AST dumps by name (without the leading
    ``_``)."""
    funcs = _functions(path)
    missing = [name for name in names if name not in funcs]
    assert not missing, f"{path}: no {', '.join(missing)}"
    tables = _tables(funcs["run"])
    return {name: ast.dump(_Neutral(tables).visit(funcs[name])) for name in names}


def duel_loops(path: Path) -> dict[str, str]:
    """The toy's drivers without the group parts, as :func:`loops` gives a duel ruleset's: the
    compiled paired loop ``_paired`` compared as ``run_paired``."""
    funcs = {name: _WithoutGroups().visit(f) for name, f in _functions(path).items()}
    funcs["run_paired"] = funcs.pop("paired")
    funcs["run_paired"].name = "run_paired"
    return {name: ast.dump(_Neutral([]).visit(ast.fix_missing_locations(funcs[name]))) for name in DUEL_LOOPS}


def test_the_comparison_sees_a_changed_loop(tmp_path):
    """A driver that differs from the toy's in one statement is told apart (the tests below could
    not fail without it); one that differs only in its tables and rule names is not; a duel
    ruleset's loop that kept a group statement is told apart too."""
    text = TOY.read_text(encoding="utf-8")
    renamed = text.replace(" fight(", " _duel(").replace("(F, opts, seed,", "(F, opts, zt, seed,")
    (tmp_path / "same.py").write_text(renamed, encoding="utf-8")
    assert loops(tmp_path / "same.py") == loops(TOY)
    (tmp_path / "other.py").write_text(text.replace("hi = start + (n * (lane + 1)) // lanes",
                                                    "hi = start + (n * (lane + 2)) // lanes", 1), encoding="utf-8")
    assert loops(tmp_path / "other.py")["run"] != loops(TOY)["run"]
    assert loops(tmp_path / "other.py")["paired"] == loops(TOY)["paired"]
    wfrp = DUEL_DRIVERS["wfrp2e"].read_text(encoding="utf-8")
    kept = wfrp.replace("                _duel(F, S, opts, grid, fx, st, row)\n",
                        "                _duel(F, S, opts, grid, fx, st, row)\n                count(row)\n")
    assert kept != wfrp
    (tmp_path / "kept.py").write_text(kept, encoding="utf-8")
    assert loops(tmp_path / "kept.py", DUEL_LOOPS)["run"] != duel_loops(TOY)["run"]
    assert loops(DUEL_DRIVERS["wfrp2e"], DUEL_LOOPS)["run_duels"] == duel_loops(TOY)["run_duels"]


@pytest.mark.parametrize("ruleset", sorted(FIGHT_DRIVERS))
def test_a_fight_rulesets_drivers_are_the_toys(ruleset):
    mine, toy = loops(FIGHT_DRIVERS[ruleset]), loops(TOY)
    differ = [name for name in FIGHT_LOOPS if mine[name] != toy[name]]
    assert not differ, f"{ruleset}: drivers unlike the toy's: {', '.join(differ)}"


@pytest.mark.parametrize("ruleset", sorted(DUEL_DRIVERS))
def test_a_duel_rulesets_drivers_are_the_toys_without_groups(ruleset):
    mine, toy = loops(DUEL_DRIVERS[ruleset], DUEL_LOOPS), duel_loops(TOY)
    differ = [name for name in DUEL_LOOPS if mine[name] != toy[name]]
    assert not differ, f"{ruleset}: drivers unlike the toy's (without the group parts): {', '.join(differ)}"
