"""Ctrl-C at a terminal during a run on a local Dask cluster (`--cluster local:N`): the
terminal sends SIGINT to every process of the command, its workers too; the run stops in
one line on stderr (exit 130), with no worker's traceback or Dask's warnings."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")


def test_ctrl_c_on_a_local_cluster_says_one_line_and_keeps_the_results(tmp_path: Path) -> None:
    results = tmp_path / "run.res"
    argv = ["tournament", "engel-bengel", "--seats", "stark,normal,normal", "--games", "300",
            "--cluster", "local:2", "--results", str(results), "--lang", "en"]  # fmt: skip
    command = [sys.executable, "-m", "spielleiter_host.cli", *argv]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and run.poll() is None:
        if results.exists() and len(results.read_text("utf-8").splitlines()) >= 3:
            break
        time.sleep(0.2)
    assert run.poll() is None, run.communicate()
    time.sleep(0.5)  # the workers are in the middle of their next deals
    os.killpg(run.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert out == "" and err.count("\n") == 1, err
    assert err.startswith("spielleiter-host: tournament: stopped after ") and "kept in" in err
