"""The real program driven by key scripts: menus, settings, the Bestenliste, determinism."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, assert_golden, finished_record, load_frame, run_box, same_pixels
from PIL import Image
from spielleiter import cli
from spielleiter.app import Box, VirtualClock, Wait, parse_script
from spielleiter.games import catalog
from spielleiter.games.base import Seat
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.store import Store
from spielleiter.ui.menus import main_menu
from spielleiter.ui.screen import Screen

# From the main menu: K1 wraps to the last entry (Einstellungen) whatever the games.
TO_SETTINGS = "K1\nK3\n"
TO_BESTENLISTE = "K1\nK1\nK3\nK3\n"  # Bestenliste -> the first game's list

# Speedtombola with a new name "A" and two Leicht computers, at the default house rules.
SPEEDTOMBOLA_SETUP = """
K3      # Speedtombola
K3      # 3 Plätze
K3      # Neuer Name ...
K3      # take the letter A
K4      # Fertig
K2
K3      # Computer Leicht
K2
K3      # Computer Leicht
K2
K2
K3      # Start
"""


@pytest.fixture
def every_game_in_the_menu() -> None:
    """The menus list every game of the catalog (the goldens show them)."""


def notes(frames: list[Path]) -> list[list[str]]:
    return [line.split("\t") for line in (frames[0].parent / "frames.tsv").read_text().splitlines()]


class ContrastRecorder:
    def __init__(self) -> None:
        self.levels: list[int] = []

    def show(self, frame: Any) -> None:
        pass

    def contrast(self, level: int) -> None:
        self.levels.append(level)

    def close(self) -> None:
        pass


def box_in_memory(tmp_path: Path, *displays: Any) -> Box:
    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink(list(displays)), VirtualClock(), random.Random(1))
    box.reload_settings()
    box.push(main_menu(box))
    return box


def test_golden_main_menu(tmp_path: Path, every_game_in_the_menu: None) -> None:
    frames = run_box(tmp_path, "")
    assert len(frames) == 1
    assert_golden(load_frame(frames[0]), "main_menu")


def test_the_main_menu_offers_the_installed_games_then_bestenliste_and_settings(
    tmp_path: Path,
) -> None:
    box = box_in_memory(tmp_path)
    titles = box.top.summary()["items"]
    assert titles == [e.title for e in catalog.entries()] + ["Bestenliste", "Einstellungen"]
    box.store.close()


def test_golden_settings_menu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The box's own settings; games and hardware add their entries below these.
    monkeypatch.setattr("spielleiter.ui.menus._extra_settings", lambda app: [])
    frames = run_box(tmp_path, TO_SETTINGS)
    assert_golden(load_frame(frames[-1]), "settings")


def test_changing_contrast_and_clock_persists_in_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("spielleiter.ui.menus._extra_settings", lambda app: [])
    run_box(tmp_path, TO_SETTINGS + "K3\nK2\nK3\nK2\nK3\n")  # Kontrast, Uhr, Uhr-Sekunden
    store = Store.open(tmp_path / "data")
    assert store.setting("display.contrast") == 255
    assert store.setting("clock.enabled") is True
    assert store.setting("clock.seconds") == 15
    store.close()
    frames = run_box(tmp_path, TO_SETTINGS)
    changed = load_frame(frames[-1])
    assert not same_pixels(changed, load_frame(ROOT / "tests/golden/settings.png")), "shown"


def test_a_new_contrast_reaches_the_display_at_once(tmp_path: Path) -> None:
    panel = ContrastRecorder()
    box = box_in_memory(tmp_path, panel)
    assert panel.levels == [200]
    box.run_script(parse_script(TO_SETTINGS + "K3\nK3\n"))
    assert panel.levels == [200, 255, 50]
    box.close()
    box.store.close()


def test_golden_bestenliste(tmp_path: Path, every_game_in_the_menu: None) -> None:
    """The first game's ratings (Stärke = mu - 3 sigma; "neu" after a first match), then
    its own points by the average per match (K3)."""
    store = Store.open(tmp_path / "data")
    stark = Seat("Stark 1", "computer", "stark")
    game = "speedtombola"
    finished_record(store, game, ["Anna", "Ben", stark], [1, 3, 2], at=1e9, points=[95, 40, None])
    finished_record(store, game, ["Anna", "Ben", stark], [2, 3, 1], at=2e9, points=[60, 20, None])
    finished_record(store, game, ["Anna", "Carla", stark], [1, 2, 3], at=3e9, points=[90, 55, None])
    store.add_to_bestenliste("besenbingo", "Dora", 5)
    store.close()
    frames = run_box(tmp_path, TO_BESTENLISTE + "K3\n")
    assert_golden(load_frame(frames[-2]), "bestenliste")
    assert_golden(load_frame(frames[-1]), "bestenliste_punkte")


def test_the_same_seed_and_script_give_the_same_frames(tmp_path: Path) -> None:
    script = SPEEDTOMBOLA_SETUP + "K1\nK2\nK1\nK1\nK2\nwait 3\nK1\n"
    first = run_box(tmp_path / "a", script, seed=7)
    second = run_box(tmp_path / "b", script, seed=7)
    assert len(first) == len(second) > 10
    pairs = zip(first, second, strict=True)
    assert all(same_pixels(load_frame(a), load_frame(b)) for a, b in pairs)
    assert [n[2] for n in notes(first)] == [n[2] for n in notes(second)]
    other = run_box(tmp_path / "c", script, seed=8)
    assert [load_frame(p).tobytes() for p in other] != [load_frame(p).tobytes() for p in first]


def test_frames_note_the_record_and_its_committed_actions(tmp_path: Path) -> None:
    frames = run_box(tmp_path, SPEEDTOMBOLA_SETUP + "K1\nK2\n")
    in_game = [n for n in notes(frames) if n[1] != "-"]
    assert in_game, "the game's frames name their record"
    counts = [int(n[2]) for n in in_game]
    assert counts == sorted(counts)
    store = Store.open(tmp_path / "data")
    assert counts[-1] <= len(store.record(int(in_game[-1][1])).actions)
    store.close()


def test_a_bad_key_script_line_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "keys.txt"
    script.write_text("K1\nK3 # fine\nK5\n", encoding="utf-8")
    code = cli.main(["--keys", str(script), "--data", str(tmp_path / "data")])
    assert code == 2
    err = capsys.readouterr().err
    assert "line 3" in err and "K5" in err and "K1..K4" in err


def test_a_key_script_that_is_not_text_names_the_file(tmp_path: Path, capsys: Any) -> None:
    script = tmp_path / "keys.txt"
    script.write_bytes(b"\xff\xfeK\x001\x00\n\x00")  # UTF-16, as some editors save
    assert cli.main(["--keys", str(script), "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert f"{script}: not UTF-8 text (byte 0)" in err and "K1..K4" in err
    assert "Traceback" not in err and not (tmp_path / "data").exists()


@pytest.mark.parametrize(
    "line",
    [
        "K5", "K1-kurz", "wait", "wait soon", "wait -1", "Enter",
        "wait inf", "wait nan", "wait 1 2", "waiting 3", "wait 3601",
    ],
)  # fmt: skip
def test_script_lines_that_are_not_keys_or_waits_are_refused(line: str) -> None:
    with pytest.raises(ValueError, match="line 2"):
        parse_script(f"K1\n{line}\n")


@pytest.mark.parametrize("line", ["wait", "wait soon", "wait inf", "wait 1 2"])
def test_a_wait_without_its_seconds_says_what_it_wants(line: str) -> None:
    with pytest.raises(ValueError, match="want wait SECONDS, a number from 0 to 3600"):
        parse_script(f"{line}\n")


def test_ctrl_c_ends_a_long_wait(tmp_path: Path) -> None:
    """SIGINT/SIGTERM call Box.quit: a script's wait stops there, not an hour later."""
    box = box_in_memory(tmp_path)
    box.polls.append(lambda now: box.quit() or [] if now >= 2 else [])
    started = time.monotonic()
    box.run_script(parse_script("wait 3600\nK1\n"))
    assert box.clock.now() < 3 and time.monotonic() - started < 5
    box.close()
    box.store.close()


def test_a_script_reads_keys_long_presses_waits_and_comments() -> None:
    entries = parse_script("# Anfang\nK1\n  k2-long  # lang\n\nwait 2.5\nK4-LONG\n")
    assert entries == [
        KeyEvent(Key.K1),
        KeyEvent(Key.K2, long=True),
        Wait(2.5),
        KeyEvent(Key.K4, long=True),
    ]


class Stopwatch(Screen):
    """A screen that notes the time of every tick and key."""

    def __init__(self) -> None:
        self.keys: list[tuple[float, KeyEvent]] = []
        self.last_tick = -1.0

    def tick(self, now: float) -> None:
        self.last_tick = now

    def on_key(self, event: KeyEvent) -> None:
        self.keys.append((self.app.now(), event))


def test_wait_lets_virtual_time_pass_between_keys(tmp_path: Path) -> None:
    box = box_in_memory(tmp_path)
    watch = Stopwatch()
    box.push(watch)
    box.run_script(parse_script("K1\nwait 1.5\nK2\nwait 0.25\n"))
    assert [(round(t, 6), e.key) for t, e in watch.keys] == [(0.0, Key.K1), (1.5, Key.K2)]
    assert watch.last_tick == pytest.approx(1.75)
    box.close()
    box.store.close()


def test_the_emulated_box_exits_when_the_script_ends(tmp_path: Path) -> None:
    started = time.monotonic()
    frames = run_box(tmp_path, "K2\nK1\n")
    assert time.monotonic() - started < 5
    assert frames, "it showed the main menu before leaving"


def spawn(*args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "spielleiter", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


def test_headless_runs_until_sigterm_and_writes_frames(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    proc = spawn("--emulate", "--frames", str(frames), "--data", str(tmp_path / "data"))
    try:
        deadline = time.monotonic() + 15
        while not (frames / "frame-000001.png").exists() and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        time.sleep(0.3)
        assert proc.poll() is None, "headless mode waits for input instead of leaving"
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err.decode()
    assert (frames / "frame-000001.png").exists()
    assert (frames / "frames.tsv").read_text().startswith("frame-000001.png\t-\t0")


def test_the_idle_box_does_not_import_numpy(tmp_path: Path) -> None:
    script = tmp_path / "keys.txt"
    script.write_text("K2\nK1\n" + TO_SETTINGS, encoding="utf-8")
    code = (
        "import sys\n"
        "from spielleiter import cli\n"
        f"rc = cli.main(['--keys', {str(script)!r}, '--data', {str(tmp_path / 'data')!r}])\n"
        "print(rc, 'numpy' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=True
    )
    assert result.stdout.split() == ["0", "False"]


def test_the_key_script_in_the_docs_plays_a_game(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "device.md").read_text("utf-8")
    example = next(block for block in text.split("```\n") if block.startswith("# Speedtombola"))
    frames = run_box(tmp_path, example, seed=7)
    assert any(note[1] != "-" for note in notes(frames)), "the script reached the table"


class Broken(Screen):
    """A screen with a bug: its key handler or its drawing raises."""

    def __init__(self, where: str) -> None:
        self.where = where

    def on_key(self, event: KeyEvent) -> None:
        if self.where == "key":
            raise RuntimeError("a bug in a key handler")

    def draw(self, canvas: Any) -> None:
        if self.where == "draw":
            raise RuntimeError("a bug in drawing")


@pytest.mark.parametrize("where", ["key", "draw"])
def test_an_error_in_a_screen_is_shown_and_the_game_stays_resumable(
    tmp_path: Path, where: str, caplog: pytest.LogCaptureFixture
) -> None:
    from spielleiter.ui.menus import launch

    box = box_in_memory(tmp_path)
    seats = [Seat("Anna"), Seat("Leicht 1", "computer", "leicht")]
    seats.append(Seat("Leicht 2", "computer", "leicht"))
    session = launch(box, "speedtombola", {"players": 3}, seats)
    box.settle()
    box.push(Broken(where))
    box.dispatch(KeyEvent(Key.K1))
    box.step()  # the loop goes on
    assert box.errors == 1
    assert box.top is not None and box.top.summary()["title"] == "Fehler"
    assert f"record {session.record_id}" in caplog.text
    assert box.store.unfinished_record() == session.record_id  # not abandoned
    box.dispatch(KeyEvent(Key.K3))  # OK: back to the menu, which offers the game again
    assert box.top.summary()["question"].startswith("Partie fortsetzen?")
    box.dispatch(KeyEvent(Key.K1))  # Ja
    box.settle()
    assert box.session is not None and box.session.record_id == session.record_id
    box.close()
    box.store.close()


def test_golden_help_from_the_pause_menu(tmp_path: Path) -> None:
    """Long K4 in a match: Hilfe shows the game's short rules and keys, page by page."""
    frames = run_box(tmp_path, SPEEDTOMBOLA_SETUP + "K4-long\nK2\nK3\nK2\n")  # Pause, Hilfe, >
    assert_golden(load_frame(frames[-1]), "help_page")
    box = box_in_memory(tmp_path / "b")
    from spielleiter.ui.menus import launch

    seats = [Seat("Anna"), Seat("Ben"), Seat("Leicht 1", "computer", "leicht")]
    launch(box, "speedtombola", {"players": 3}, seats)
    box.settle()
    box.dispatch(KeyEvent(Key.K4, long=True))
    assert box.top.summary()["items"][:2] == ["Weiter", "Hilfe"]
    box.dispatch(KeyEvent(Key.K2))
    box.dispatch(KeyEvent(Key.K3))
    assert box.top.summary()["screen"] == "pages" and box.top.summary()["page"] == 1
    box.dispatch(KeyEvent(Key.K4))
    assert box.top.summary()["title"] == "Pause"
    box.close()
    box.store.close()


def test_arrow_keys_move_in_lists_and_typed_letters_spell_a_name(tmp_path: Path) -> None:
    box = box_in_memory(tmp_path)
    box.post("\u2193")  # ↓ in the main menu: Ab
    box.step()
    assert box.top.summary()["selected"] == 1
    box.post("\u2191")
    box.step()
    assert box.top.summary()["selected"] == 0
    for ch in "\n\n\n":  # Speedtombola, 3 Plätze, Neuer Name ...
        box.post(ch)
        box.step()
    assert box.top.summary()["screen"] == "speller"
    for ch in "uTe\x7fe":  # typed letters go in at once; Backspace deletes
        box.post(ch)
        box.step()
    assert box.top.summary()["word"] == "Ute"
    box.post("\n")  # Enter: done, the name takes the first seat
    box.step()
    assert "Ute" in box.store.names()
    box.close()
    box.store.close()


def test_arrows_never_make_a_move_at_a_game_table(tmp_path: Path) -> None:
    from spielleiter.ui.menus import launch

    box = box_in_memory(tmp_path)
    seats = [Seat("Anna"), Seat("Leicht 1", "computer", "leicht")]
    seats.append(Seat("Leicht 2", "computer", "leicht"))
    session = launch(box, "speedtombola", {"players": 3}, seats)
    box.settle()
    before = session.committed
    for arrow in "\u2191\u2193\u2190\u2192":
        assert box.resolve_char(arrow) is None  # K1 is Nein danke, K2 Nehmen here
    assert session.committed == before
    box.close()
    box.store.close()


def test_frames_can_be_saved_larger(tmp_path: Path) -> None:
    frames = run_box(tmp_path, "", extra_args=["--scale", "3"])
    with Image.open(frames[0]) as picture:
        assert picture.size == (128 * 3, 64 * 3)
    small = load_frame(run_box(tmp_path, "")[0])
    big = load_frame(frames[0]).resize((128, 64))
    assert same_pixels(small, big), "the same picture, every pixel a 3x3 square"


def test_the_docs_show_every_golden_four_times_as_large() -> None:
    from helpers import DOCS_SCALE, DOCS_SCREENS_DIR, GOLDEN_DIR

    for golden in sorted(GOLDEN_DIR.glob("*.png")):
        docs = DOCS_SCREENS_DIR / golden.name
        assert docs.exists(), f"docs/screens lacks {golden.name}: run make golden"
        small = load_frame(golden)
        with Image.open(docs) as picture:
            assert picture.size == (small.width * DOCS_SCALE, small.height * DOCS_SCALE)
        assert same_pixels(load_frame(docs).resize(small.size), small), golden.name


def test_the_help_names_each_options_value_as_its_text_does() -> None:
    text = " ".join(cli.build_parser().format_help().split())
    for option in ("--keys FILE", "--frames DIR", "--data DIR", "--seed N", "--serial PORT"):
        assert option in text, option
