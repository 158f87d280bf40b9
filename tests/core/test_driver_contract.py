"""The drivers' contract: numba makes every ruleset keep its own copy of the parallel loops (a
compiled loop cannot take the rule functions it calls as arguments without losing their inlining),
so the copies are compared instead. Each ruleset's ``_run``, ``_run_duels``, ``_run_attacks`` and
``_run_paired`` must be the toy's (tests/toy, built from docs/rulesets.md), statement for
statement, once the ruleset's own words are set aside: its read-only tables (the arguments between
``opts`` and ``seed``), the number of rows of its state array, the names of the rule functions it
calls per index and docstrings.

Brutal's drivers also play group fights (docs/groups.md); its loops are compared once the group
mechanics are shared (the toy plays group fights on them).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "toy" / "toy_ruleset" / "kernel.py"
DRIVERS = {
    "wfrp2e": ROOT / "brutal_sim" / "rulesets" / "wfrp2e" / "kernel" / "drivers.py",
    "vereteno": ROOT / "brutal_sim" / "rulesets" / "vereteno" / "kernel" / "drivers.py",
}
LOOPS = ("run", "run_duels", "run_attacks", "run_paired")


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


def loops(path: Path) -> dict[str, str]:
    """The driver loops of a module, neutral, as AST dumps by name (without the leading ``_``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    funcs = {n.name.lstrip("_"): n for n in tree.body if isinstance(n, ast.FunctionDef)}
    missing = [name for name in LOOPS if name not in funcs]
    assert not missing, f"{path}: no {', '.join(missing)}"
    tables = _tables(funcs["run"])
    return {name: ast.dump(_Neutral(tables).visit(funcs[name])) for name in LOOPS}


def test_the_comparison_sees_a_changed_loop(tmp_path):
    """A driver that differs from the toy's in one statement is told apart (the test below could not
    fail without it); one that differs only in its tables and rule names is not."""
    text = TOY.read_text(encoding="utf-8")
    renamed = text.replace(" _duel(", " _fight(").replace("(F, opts, seed,", "(F, opts, zt, seed,")
    (tmp_path / "same.py").write_text(renamed, encoding="utf-8")
    assert loops(tmp_path / "same.py") == loops(TOY)
    (tmp_path / "other.py").write_text(text.replace("hi = start + (n * (lane + 1)) // lanes",
                                                    "hi = start + (n * (lane + 2)) // lanes", 1), encoding="utf-8")
    assert loops(tmp_path / "other.py")["run"] != loops(TOY)["run"]


@pytest.mark.parametrize("ruleset", sorted(DRIVERS))
def test_a_rulesets_drivers_are_the_toys(ruleset):
    mine, toy = loops(DRIVERS[ruleset]), loops(TOY)
    differ = [name for name in LOOPS if mine[name] != toy[name]]
    assert not differ, f"{ruleset}: drivers unlike the toy's: {', '.join(differ)}"
