"""The example notebooks run top to bottom and draw their figures.

Each notebook in ``notebooks/`` is executed in a fresh Jupyter kernel at a small number of duels
(its first code cell reads ``BRUTAL_SIM_NOTEBOOK_N``), with ``notebooks/`` as its working folder, as
``jupyter lab notebooks/`` and ``jupyter nbconvert --execute`` run it. The kernel runs the interpreter that runs
the tests: a ``python3`` kernel spec pointing at ``sys.executable`` is written to a temporary
directory that goes first on ``JUPYTER_PATH``, so another Python's kernel spec cannot be picked up.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SMALL_N = "3000"  # duels per run: enough for every cell to have data, small enough to be quick


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A JUPYTER_PATH entry holding a ``python3`` kernel spec that runs this interpreter."""
    root = tmp_path_factory.mktemp("jupyter")
    spec = root / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (tests)",
        "language": "python",
    }))
    return root


def test_notebooks_exist() -> None:
    names = [p.name for p in NOTEBOOKS]
    assert names == ["01_tune_a_weapon.ipynb", "02_compare_talents.ipynb", "03_armour_model_gap.ipynb",
                     "04_cross_system_lethality.ipynb", "05_what_to_change.ipynb", "06_explore.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_saved_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, f"{path.name}: cell {i} has outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path: Path, kernel_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRUTAL_SIM_NOTEBOOK_N", SMALL_N)  # the kernel inherits the environment
    monkeypatch.setenv("JUPYTER_PATH", os.pathsep.join(filter(None, [str(kernel_dir), os.environ.get("JUPYTER_PATH")])))
    monkeypatch.delenv("MPLBACKEND", raising=False)
    from jupyter_client.kernelspec import KernelSpecManager

    assert KernelSpecManager().get_kernel_spec("python3").argv[0] == sys.executable
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT / "notebooks")}})
    client.execute()  # raises CellExecutionError on the first failing cell

    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    errors = [o for o in outputs if o.output_type == "error"]
    assert not errors, f"{path.name}: {errors[0].ename}: {errors[0].evalue}" if errors else ""
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert images, f"{path.name} produced no image output"
    printed = [o.text for o in outputs if o.output_type == "stream" and o.name == "stdout"]
    assert any(f"{int(SMALL_N):,} duels per run" in t for t in printed), f"{path.name} ignored the small N"
