"""numpy loads in the background after the first frame (setting bot.preload): a game's
Start and a computer's first move need not wait for it, and nothing breaks if it fails."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest
from spielleiter import cli, preload

IN_A_FRESH_PROCESS = """
import sys, threading
from spielleiter import cli, preload
assert "numpy" not in sys.modules, "the box's own start loads no numpy"
thread = preload.start()
assert thread.daemon and thread.name == "preload"
# the box's own import of a game that needs numpy, at the same time as the preload
from spielleiter.games.speedtombola import table
thread.join(60)
assert not thread.is_alive()
import numpy
assert sys.modules["numpy"] is numpy and table.bots.np is numpy
assert "numpy.random" in sys.modules  # numpy 2 loads it lazily, the computers' first draw
print("ok")
"""


def test_numpy_loads_on_its_own_thread_beside_the_boxs_own_imports() -> None:
    done = subprocess.run(
        [sys.executable, "-c", IN_A_FRESH_PROCESS], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_a_module_that_fails_to_load_is_logged_and_the_rest_still_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "preload_broken.py").write_text("raise OSError('libopenblas.so.0: cannot open')\n")
    (tmp_path / "preload_probe.py").write_text("LOADED = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with caplog.at_level(logging.WARNING, logger="spielleiter"):
        preload.load(["spielleiter_no_such_module", "preload_broken", "preload_probe"])
    assert sys.modules.pop("preload_probe").LOADED
    assert "preload_broken" not in sys.modules  # the game's own import tries again
    assert "preload: spielleiter_no_such_module not loaded: ModuleNotFoundError" in caplog.text
    assert "preload: preload_broken not loaded: OSError: libopenblas.so.0" in caplog.text


def test_a_key_script_does_not_preload(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[bool] = []
    monkeypatch.setattr(preload, "start", lambda: started.append(True))
    keys = tmp_path / "empty.keys"
    keys.write_text("")
    argv = ["--keys", str(keys), "--display", "none", "--data", str(tmp_path / "data")]
    assert cli.main(argv) == 0
    assert started == []
