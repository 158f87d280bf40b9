"""Chunks on a Dask cluster give the local counters bit for bit.

One ``LocalCluster`` of two worker processes (one thread each) serves the module; small chunk
sizes give every run several chunks, so both workers take part and the sums are real merges.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import sys
from typing import Iterator

import numpy as np
import pandas as pd
import pytest
from conftest import compiled
from distributed import Client, LocalCluster
from test_report import EXAMPLES, SMALL
from typer.testing import CliRunner

from brutal_sim import api, designer
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.run import cluster
from brutal_sim.run.cluster import ClusterSpec, DaskExecutor, parse
from brutal_sim.run.engine import duel_work, paired_work, run, run_duel_counters
from brutal_sim.run.executor import LocalExecutor, Work, run_works
from brutal_sim.scenario import load_scenario, run_scenario

runner = CliRunner()


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as lc, \
            Client(lc) as c:
        yield c


def dask(client: Client, chunk: int) -> DaskExecutor:
    return DaskExecutor(client, threads=1, chunk=chunk)


def test_duels_on_the_cluster_equal_the_local_run_and_run_on_the_workers(client):
    c = compiled("duelist", "knight")
    local, _ = run_duel_counters(c, 30_000, seed=5)
    seen: list[int] = []
    r = run([duel_work(c.kernels.duels, c, 5)], 30_000, progress=lambda done, total: seen.append(done),
            executor=dask(client, 4000))
    assert np.array_equal(r.totals[0][0], local)
    workers = set(client.run(os.getpid).values())
    assert len(r.chunks) == 8 and {ch.pid for ch in r.chunks} <= workers and os.getpid() not in workers
    assert seen == sorted(seen) and seen[-1] == 30_000 and len(seen) == 8  # one update per chunk
    # the module-level kernel is the one the workers ran: imported once, not rebuilt per chunk
    assert all(client.run(lambda: len(__import__("importlib").import_module(
        "brutal_sim.rulesets.brutal.kernel.drivers")._run.signatures)).values())


def test_api_duel_and_sampled_attack_take_a_client(client):
    local = api.duel("swordsman", "brute", n=20_000, seed=7, options={"round_cap": "40"})
    remote = api.duel("swordsman", "brute", n=20_000, seed=7, options={"round_cap": "40"}, client=client)
    assert np.array_equal(local.counters, remote.counters)
    local_attack = api.attack("brute", "swordsman", n=30_000, seed=3)
    remote_attack = api.attack("brute", "swordsman", n=30_000, seed=3, executor=dask(client, 7000))
    assert local_attack.to_dict() == remote_attack.to_dict()
    with pytest.raises(ValueError, match="not both"):
        api.duel("swordsman", "brute", n=10, client=client, executor=LocalExecutor())


def test_paired_sweep_round_robin_and_tactic_matrix_on_the_cluster(client):
    args = ("brute", "swordsman", "main_hand.damage", ["d6", "d8", "d10"])
    local = designer.sweep(*args, n=12_000, seed=4)
    remote = designer.sweep(*args, n=12_000, seed=4, executor=dask(client, 5000))
    assert all(np.array_equal(a.counters, b.counters) for a, b in zip(local.results, remote.results))
    pd.testing.assert_frame_equal(local.differences, remote.differences)
    rr_local = designer.round_robin(["militia", "swordsman", "brute"], n=5000, seed=2)
    rr_remote = designer.round_robin(["militia", "swordsman", "brute"], n=5000, seed=2, executor=dask(client, 2000))
    assert [r.labels for r in rr_local] == [r.labels for r in rr_remote]
    assert all(np.array_equal(a.counters, b.counters) for a, b in zip(rr_local, rr_remote))
    tm = dict(tactics_a=["single", "furious"], tactics_b=["single", "defensive"], n=3000, seed=6)
    tm_local = designer.tactic_matrix("duelist", "brute", **tm)
    tm_remote = designer.tactic_matrix("duelist", "brute", **tm, executor=dask(client, 1000))
    assert np.array_equal(tm_local.wins_a, tm_remote.wins_a) and np.array_equal(tm_local.wins_b, tm_remote.wins_b)


def test_scenario_on_the_cluster_equals_the_local_run(client):
    sc_local = load_scenario(str(EXAMPLES / "axe_sweep.toml"), n=6000)
    sc_remote = load_scenario(str(EXAMPLES / "axe_sweep.toml"), n=6000)
    local = run_scenario(sc_local)
    seen: list[int] = []
    remote = run_scenario(sc_remote, progress=lambda done, total, label: seen.append(done),
                          executor=dask(client, 2500))
    assert all(np.array_equal(a.counters, b.counters) and a.labels == b.labels for a, b in zip(local, remote))
    pd.testing.assert_frame_equal(sc_local.differences, sc_remote.differences)
    assert seen[-1] == sc_remote.total_duels and seen == sorted(seen)


def test_work_pickles_as_an_import_path_not_as_code():
    c = compiled("swordsman", "brute")
    w = duel_work(c.kernels.duels, c, 9)
    blob = pickle.dumps(w)
    assert b"brutal_sim.rulesets.brutal.kernel.drivers" in blob and b"_run" in blob and len(blob) < 20_000
    back = pickle.loads(blob).kernel  # the same loop, imported, with the same kernel-set flags
    assert back.loop is c.kernels.duels.loop and back == c.kernels.duels
    with pytest.raises(ValueError, match="module-level"):
        pickle.dumps(Work(lambda *a: None, (), 0, 1))


def test_local_executor_chunks_are_bit_identical_to_one_block():
    cells = [compiled("brute", "swordsman"), compiled("brute", "swordsman", {"armour_model": "protection_only"})]
    whole = run_works([paired_work(cells, 1)], 9000, LocalExecutor(chunk=9000))
    pieces = run_works([paired_work(cells, 1)], 9000, LocalExecutor(chunk=1234))
    assert len(pieces.chunks) == 8
    assert all(np.array_equal(a, b) for a, b in zip(whole.totals[0], pieces.totals[0]))
    assert sum(pieces.seconds) == pytest.approx(pieces.wall)


# -- command line ------------------------------------------------------------------------------

def _duel_json(*extra: str, env: dict[str, str] | None = None) -> dict:
    r = runner.invoke(app, ["duel", "duelist", "knight", "-n", "20000", "--seed", "3", "--json", *extra], env=env)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    d.pop("elapsed_s")
    return d


def test_cli_duel_with_cluster_flag_and_environment_variable(client):
    address = client.scheduler.address
    local = _duel_json()
    assert _duel_json("--cluster", address) == local
    assert _duel_json(env={"BRUTAL_SIM_CLUSTER": address}) == local


def test_cli_report_with_cluster_writes_the_same_tables(client, tmp_path):
    scenario = tmp_path / "small.toml"
    scenario.write_text(SMALL)
    for name, extra in (("local", []), ("cluster", ["--cluster", client.scheduler.address])):
        r = runner.invoke(app, ["report", str(scenario), "-o", str(tmp_path / f"{name}.html"), "--csv",
                                str(tmp_path / name), "-n", "2000", *extra])
        assert r.exit_code == 0, r.output
    for table in ("summary.csv", "rounds.csv", "wounds.csv"):
        assert (tmp_path / "local" / table).read_text() == (tmp_path / "cluster" / table).read_text()


def test_cli_local_cluster(tmp_path):
    assert _duel_json("--cluster", "local:1") == _duel_json()


@pytest.mark.parametrize("value", ["tcp:/host:8786", "http://host:8786", "host", "tcp://host:99999", "local:0",
                                   "local:two"])
def test_malformed_cluster_value_is_one_line_exit_2(value, tmp_path):
    r = runner.invoke(app, ["duel", "swordsman", "brute", "-n", "100", "--cluster", value])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "--cluster" in r.output, r.output
    with pytest.raises(DataError):
        parse(value)


def test_parse_accepts_addresses_and_local(monkeypatch):
    monkeypatch.setattr(cluster, "usable_cores", lambda: 4)
    assert parse(None) is None and parse("") is None
    assert parse("local") == ClusterSpec() and parse("local:3") == ClusterSpec(workers=3)
    assert parse("tcp://10.0.0.5:8786") == ClusterSpec(address="tcp://10.0.0.5:8786")
    assert parse("sched.lan:8786").address == "tcp://sched.lan:8786"
    assert parse("tls://[::1]:8786").address == "tls://[::1]:8786"


def test_local_workers_beyond_the_cores_are_refused(monkeypatch):
    """local:N with more workers than usable cores only slows them down: one line naming the cores."""
    monkeypatch.setattr(cluster, "usable_cores", lambda: 2)
    assert parse("local:2") == ClusterSpec(workers=2)
    with pytest.raises(DataError, match="this machine has 2 usable cores, so local:N takes 1 … 2 workers"):
        parse("local:3")
    r = runner.invoke(app, ["duel", "swordsman", "brute", "-n", "100", "--cluster", "local:999"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "local:999" in r.output, r.output


def test_unreachable_scheduler_is_one_line_exit_2_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    scenario = tmp_path / "small.toml"
    scenario.write_text(SMALL)
    out = tmp_path / "out"
    r = runner.invoke(app, ["report", str(scenario), "-o", str(out / "r.html"), "--csv", str(out / "csv"),
                            "--cluster", "tcp://127.0.0.1:1"])
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert "cannot reach a Dask scheduler at tcp://127.0.0.1:1" in r.output
    assert not out.exists()


def test_missing_dask_is_one_line_exit_2(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed → ImportError
    r = runner.invoke(app, ["duel", "swordsman", "brute", "-n", "100", "--cluster", "local"])
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert "pip install 'brutal-sim[cluster]'" in r.output


# -- a worker lost mid-run (last: the cluster restarts the worker afterwards) -------------------

def test_a_worker_killed_mid_run_has_its_chunks_recomputed(client):
    c = compiled("duelist", "knight")
    n = 400_000
    local, _ = run_duel_counters(c, n, seed=11)
    victim = sorted(client.run(os.getpid).values())[0]
    killed_at: list[int] = []

    def kill_after_first_chunk(done: int, _total: int) -> None:
        if not killed_at:
            os.kill(victim, signal.SIGKILL)
            killed_at.append(done)

    r = run([duel_work(c.kernels.duels, c, 11)], n, progress=kill_after_first_chunk, executor=dask(client, 20_000))
    assert killed_at[0] < n  # the kill came with 19 of 20 chunks outstanding
    assert np.array_equal(r.totals[0][0], local)
    client.wait_for_workers(2, timeout=60)  # the nanny restarts the lost worker
    assert victim not in client.run(os.getpid).values()


@pytest.mark.parametrize("ruleset, a, b", [("wfrp2e", "orc", "goblin"), ("vereteno", "swordsman", "brute")])
def test_every_ruleset_runs_on_the_cluster(client, ruleset, a, b):
    """The workers import each ruleset's kernels by name; counters equal the local run."""
    local = api.duel(a, b, n=12_000, seed=4, ruleset=ruleset)
    remote = api.duel(a, b, n=12_000, seed=4, ruleset=ruleset, executor=dask(client, 3000))
    assert remote.ruleset == ruleset and np.array_equal(local.counters, remote.counters)


def test_cross_system_scenario_on_the_cluster(client):
    sc_local = load_scenario(str(EXAMPLES / "cross_system.toml"), n=2000)
    sc_remote = load_scenario(str(EXAMPLES / "cross_system.toml"), n=2000)
    local = run_scenario(sc_local)
    remote = run_scenario(sc_remote, executor=dask(client, 700))
    assert [r.ruleset for r in remote] == [r.ruleset for r in local]
    assert all(np.array_equal(x.counters, y.counters) for x, y in zip(local, remote))
