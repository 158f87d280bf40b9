"""Small HTML tables of results, for Jupyter (``_repr_html_``) and reports."""

from __future__ import annotations

from html import escape
from typing import Any

from .stats import wilson


def rates_html(caption: str, rows: list[tuple[str, int]], n: int) -> str:
    """An HTML table of counts out of ``n`` with rates and 95 % Wilson intervals."""
    cells = "".join(f"<tr><td>{escape(name)}</td><td>{k:,}</td><td>{100 * k / n:.2f} %</td>"
                    f"<td>{100 * wilson(k, n)[0]:.2f} – {100 * wilson(k, n)[1]:.2f} %</td></tr>" for name, k in rows)
    return (f"<table><tr><th>{escape(caption)}</th><th>count</th><th>rate</th><th>95 % CI</th></tr>{cells}</table>")


def rounds_html(r: dict[str, Any], what: str) -> str:
    text = f"no {what} decided" if r["mean"] is None else f"mean {r['mean']:.2f}, median {r['p50']}, p90 {r['p90']}"
    return f"<p>rounds to decision: {text}</p>"
