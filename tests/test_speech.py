"""The box's speech (spielleiter.speech): what is said, once, when, and for how long.

The box runs on virtual time here, as under a key script: nothing is played, and the
words last as long as eSpeak NG's German voice is estimated to take (hal.speaker). The
audio itself is tested in tests/test_speech_audio.py.
"""

from __future__ import annotations

import io
import logging
import random
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import finished_record, run_box
from spielleiter import cli
from spielleiter.app import Box
from spielleiter.games.base import Seat
from spielleiter.games.maskenball.rules import SECTORS, is_petal
from spielleiter.games.maskenball.screens import spin_said
from spielleiter.games.maskenball.spinner_setup import sector_name
from spielleiter.games.speedtombola.rules import Move
from spielleiter.hal.clock import VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import REPEAT, Key, KeyEvent
from spielleiter.hal.speaker import engine_command, estimate_s
from spielleiter.speech import GREETING, TAKEN_BACK, SpeechService, keys_text, open_speaker
from spielleiter.store import Store
from spielleiter.ui.menus import BestenlisteScreen, launch, main_menu
from spielleiter.ui.speech import count, listing, ordinal, punkte
from spielleiter.ui.take_back import TAKE_BACK_SAID, TakeBackScreen


class Kept(io.StringIO):
    def close(self) -> None:
        pass


def box_with_speech(tmp_path: Path, **settings: Any) -> tuple[Box, Kept]:
    store = Store.open(tmp_path / "data")
    if settings:
        store.set_settings(settings)
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(5), seeds=random.Random(9))
    box.reload_settings()
    out = Kept()
    box.speech = SpeechService(box.now, box.settings, None, out, virtual=True)
    box.push(main_menu(box))
    box.settle()
    return box, out


def tombola(box: Box, seats: list[Seat] | None = None) -> None:
    seats = seats or [
        Seat("Anna"),
        Seat("Ben", "computer", "leicht"),
        Seat("Carla", "computer", "leicht"),
    ]
    launch(box, "speedtombola", {"players": len(seats), "rounds": 1}, seats)
    box.settle()


def said(box: Box) -> list[str]:
    return [text for _, text in box.speech.said]


def press(box: Box, key: Key, at_once: bool = False) -> None:
    box.dispatch(KeyEvent(key))
    box.step()
    if not at_once:
        box.settle()


# --- the words ------------------------------------------------------------------------


def test_counted_things_are_said_in_words_numbers_in_digits() -> None:
    """eSpeak reads "27" as "siebenundzwanzig" but "1 Groschen" as "eins Groschen"."""
    assert count(1, "Groschen") == "ein Groschen"
    assert count(1, "Karte", "Karten", female=True) == "eine Karte"
    assert count(0, "Groschen") == "keine Groschen"
    assert count(27, "Los", "Lose") == "27 Lose"
    assert punkte(-10) == "minus 10 Punkte"
    assert punkte(-1) == "minus ein Punkt"
    assert ordinal(1) + "n" == "ersten"
    assert listing(["Anna", "Ben"]) == "Anna und Ben"


def test_soft_keys_are_said_by_number() -> None:
    from spielleiter.ui.screen import SoftKey

    keys = [SoftKey("Nein"), None, SoftKey("<"), SoftKey("Info")]
    assert keys_text(keys) == "Tasten: 1 Nein, 3 zurück, 4 Info."


def test_the_engine_gets_the_settings_speed_and_volume() -> None:
    command = engine_command("espeak-ng", speed=190, volume=150)
    assert command[command.index("-s") + 1] == "190"
    assert command[command.index("-a") + 1] == "150"
    assert command[command.index("-v") + 1] == "de"
    assert "--stdout" in command


def test_the_estimate_grows_with_the_words_and_shrinks_with_the_speed() -> None:
    short, long = "Turm 5.", "Carla nimmt Los 27 und 3 Groschen. Neues Los: 14."
    assert estimate_s(short, 160) < estimate_s(long, 160)
    assert estimate_s(long, 320) == pytest.approx(estimate_s(long, 160) / 2)


# --- what is said, once -----------------------------------------------------------------


def test_the_box_greets_once_and_says_the_menu_it_shows(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path)
    first = said(box)[0]
    assert first.startswith(GREETING)
    assert "Spielleiter." in first and "Speedtombola, 1 von" in first
    press(box, Key.K2)
    assert said(box)[-1].startswith("Besenbingo, 2 von")  # the title is not said again
    assert sum(GREETING in text for text in said(box)) == 1


def test_a_computers_move_is_said_once_while_it_is_shown(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path)
    tombola(box, [Seat("Ben", "computer", "leicht"), Seat("Anna"), Seat("Carla", "computer")])
    moves = [t for t in said(box) if t.startswith("Ben ") and ("nein danke" in t or "nimmt" in t)]
    assert moves, said(box)
    for _ in range(5):
        box.step()
    assert [t for t in said(box) if t in moves] == moves  # said once, however many frames


def test_whose_turn_it_is_is_said_with_the_lot_and_its_groschen(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path)
    tombola(box)
    state = box.table.state
    groschen = count(state.pot, "Groschen")
    assert any(f"Anna ist dran: Los {state.lot}, {groschen} darauf" in t for t in said(box))


def test_each_decision_is_said_in_the_rule_texts_words(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path, **{"undo.ms": 0})
    tombola(box)
    lot = box.table.state.lot
    press(box, Key.K1)
    assert "Anna sagt nein danke." in said(box)
    press_until(box, lambda: box.table.human_to_move())
    pot = box.table.state.pot
    press(box, Key.K2)
    taken = f"Anna nimmt Los {lot} und {'einen Groschen' if pot == 1 else count(pot, 'Groschen')}"
    assert any(t.startswith(taken) for t in said(box)), said(box)[-3:]


def press_until(box: Box, done: Any, limit: int = 50) -> None:
    for _ in range(limit):
        if done():
            return
        box.clock.advance(0.05)
        box.step()
        box.settle()


def test_a_newer_event_cuts_a_stale_utterance_short(tmp_path: Path) -> None:
    """A key makes what is being said stale: the next words cut it (the transcript says
    so); news that comes while news is said waits for its end."""
    box, out = box_with_speech(tmp_path)
    press(box, Key.K2, at_once=True)
    press(box, Key.K2, at_once=True)
    lines = out.getvalue().splitlines()
    assert lines[0].endswith("\tabgebrochen") and lines[1].endswith("\tabgebrochen")
    service = box.speech
    service._say("Ben sagt nein danke.", 1, True, False)
    service._say("Neues Los: 14.", 2, True, False)
    first, second = service._queue
    assert second.start == pytest.approx(first.end)  # queued behind, not cut
    service.close()
    tail = out.getvalue().splitlines()[-2:]
    assert not any(line.endswith("abgebrochen") for line in tail)


def test_the_repeat_key_says_the_whole_screen_and_its_keys_and_moves_nothing(
    tmp_path: Path,
) -> None:
    box, _ = box_with_speech(tmp_path)
    menu = box.top
    box.dispatch(REPEAT)
    box.step()
    assert box.top is menu  # a long K3 is not OK
    whole = said(box)[-1]
    assert whole.startswith("Spielleiter. Speedtombola, 1 von")
    assert whole.endswith("Tasten: 1 Auf, 2 Ab, 3 OK.")


def test_the_repeat_key_at_the_table_says_every_guest(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path)
    tombola(box)
    box.dispatch(REPEAT)
    box.step()
    whole = said(box)[-1]
    for name in ("Anna", "Ben", "Carla"):
        assert f"{name}: " in whole
    assert "In der Trommel" in whole and "Tasten: 1 Nein, 2 Nehmen" in whole


def test_alles_says_each_new_screen_whole_with_its_keys(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path, **{"speech.mode": "alles"})
    press(box, Key.K3)  # Speedtombola: its seats
    assert said(box)[-1].endswith("Tasten: 1 Auf, 2 Ab, 3 OK, 4 Zurück.")


def test_speech_off_says_nothing(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path, **{"speech.enabled": False})
    tombola(box)
    press(box, Key.K1)
    assert said(box) == []


# --- Zurück ---------------------------------------------------------------------------


def test_the_zurueck_moment_is_said_and_lasts_until_its_words_end(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path, **{"undo.ms": 500})
    tombola(box)
    table = box.table
    press(box, Key.K1, at_once=True)
    moment = said(box)[-1]
    assert moment == f"Anna sagt nein danke. {TAKE_BACK_SAID}"
    offer = table.take_back_offer
    words = box.speech.words_end()
    assert words is not None and words > offer.until  # the words outlast undo.ms
    box.clock.advance(0.6)
    box.step()
    assert table.take_back_offer is offer and isinstance(box.top, TakeBackScreen)
    box.clock.advance(words - box.now() + 0.06)
    box.step()
    box.step()
    assert table.take_back_offer is None  # over once the words are


def test_without_speech_the_moment_lasts_undo_ms(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path, **{"undo.ms": 500, "speech.enabled": False})
    tombola(box)
    table = box.table
    press(box, Key.K1, at_once=True)
    box.clock.advance(0.55)
    box.step()
    assert table.take_back_offer is None


def test_the_words_never_hold_a_move_past_its_clock(tmp_path: Path) -> None:
    box, _ = box_with_speech(
        tmp_path, **{"undo.ms": 1000, "clock.enabled": True, "clock.seconds": 3}
    )
    tombola(box)
    table = box.table
    box.clock.advance(2.5)  # 0.5 s of the clock left
    box.step()
    press(box, Key.K1, at_once=True)
    offer = table.take_back_offer
    assert offer is not None and offer.deadline is not None
    for _ in range(12):
        box.clock.advance(0.05)
        box.step()
    assert table.take_back_offer is None and box.now() >= offer.deadline


def test_zurueck_is_said_and_the_turn_again_and_the_same_move_again(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path)
    tombola(box)
    turn = [t for t in said(box) if "Anna ist dran" in t][-1]
    press(box, Key.K1, at_once=True)
    press(box, Key.K1, at_once=True)  # Zurück
    back = said(box)[-1]
    assert back.startswith(TAKEN_BACK)
    assert "Anna ist dran" in back and turn.split("Anna ist dran", 1)[1] in back
    press(box, Key.K1, at_once=True)  # the same move, made again
    assert said(box)[-1] == f"Anna sagt nein danke. {TAKE_BACK_SAID}"


def test_a_computers_move_stays_shown_until_its_words_end(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path, **{"bot.show_ms": 100, "undo.ms": 0})
    tombola(box)
    table = box.table
    box.dispatch(KeyEvent(Key.K1))  # Anna: nein danke; Ben thinks
    held: list[float] = []
    for _ in range(400):
        if box._jobs:
            box.finish_jobs(block=True)
        box.clock.advance(0.05)
        box.step()
        if table.hold_until is not None:
            held.append(box.now())
        elif held:
            break
    words = [t for t in said(box) if "Ben sagt" in t or "Ben nimmt" in t][0]
    shown = held[-1] - held[0]
    assert shown > 0.5  # bot.show_ms is 0.1 s: the rest is its words
    assert shown == pytest.approx(estimate_s(words, 160), abs=0.15)


# --- privacy ----------------------------------------------------------------------------


def test_the_bestenliste_counts_matches_in_words_and_says_an_empty_page_on_each_view(
    tmp_path: Path,
) -> None:
    box, _ = box_with_speech(tmp_path)
    finished_record(box.store, "bungee", ["Anna", "Ben"], [1, 2], at=1.7e9, points=[40, 10])
    box.push(BestenlisteScreen("bungee"))
    box.settle()
    assert "Platz 1: Anna, Stärke neu, eine Partie, 1 gewonnen." in said(box)[-1]
    box.push(BestenlisteScreen("maskenball"))  # no match yet
    box.settle()
    assert said(box)[-1].endswith("Seite 1 von 1: noch keine Partie.")
    press(box, Key.K3)  # to the points: the panel says "Noch keine Partie." again
    assert said(box)[-1].startswith("Bestenliste Maskenball der Käfer, Punkte")
    assert said(box)[-1].endswith("noch keine Partie.")


def test_the_arrow_between_two_petals_is_never_said_as_a_leaf() -> None:
    """A child hears "Blatt" as a petal: the words are the panel's, the rule text's."""
    between = next(s for s in range(SECTORS) if not is_petal(s))
    assert spin_said(between) == "zwischen zwei Blütenblättern" == sector_name(between)
    petal = next(s for s in range(SECTORS) if is_petal(s))
    assert spin_said(petal).startswith("Blütenblatt ")
    from spielleiter.games import catalog

    help_pages = catalog.entry("maskenball").help  # Hilfe is read aloud too
    assert not [page for page in help_pages if re.search(r"\bBlatt\b", page)]
    assert not [page for page in help_pages if "7 Ameisen" in page]  # the vine is a setting


def test_a_hand_is_never_said_where_other_humans_share_the_box(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path, **{"undo.ms": 0})
    seats = [Seat("Anna"), Seat("Ben"), Seat("Carla", "computer", "leicht")]
    launch(box, "bungee", {"players": 3, "rounds": 1}, seats)
    box.settle()
    for _ in range(40):
        if box.table is None:
            break
        labels = [k.label if k else "" for k in box.top.softkeys()]
        key = Key.K4 if "OK" in labels[3:] or not any(labels) else Key.K2
        press(box, key)
    assert not any("Deine Karten: " in t for t in said(box))
    assert any("Box nehmen, Taste 4 zeigt die Karten" in t for t in said(box))


def test_a_single_human_hears_their_hand(tmp_path: Path) -> None:
    box, _ = box_with_speech(tmp_path)
    launch(box, "bungee", {"players": 2, "rounds": 1}, [Seat("Anna"), Seat("Ben", "computer")])
    box.settle()
    press_until(box, lambda: box.table.human_to_move())
    assert any("Deine Karten: " in t for t in said(box))


# --- the engine and the transcript ------------------------------------------------------


def test_without_an_engine_the_box_runs_silent_and_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing to find here
    speaker, why = open_speaker()
    assert speaker is None and "espeak-ng" in why
    box, _ = box_with_speech(tmp_path)
    hardware: dict[str, Any] = {}
    with caplog.at_level(logging.WARNING, logger="spielleiter.speech"):
        service = cli._speech(box.now, box.settings, None, scripted=False, hardware=hardware)
    assert service is None and hardware["speaker"] is False
    lines = [r.getMessage() for r in caplog.records if r.name == "spielleiter.speech"]
    assert len(lines) == 1 and "runs silent" in lines[0]


def test_speech_writes_the_transcript_with_the_frame_each_line_belongs_to(
    tmp_path: Path,
) -> None:
    transcript = tmp_path / "said.tsv"
    keys = "K2\nK2\nK3-long\nK1\n"
    frames = run_box(tmp_path, keys, extra_args=["--speech", str(transcript)])
    lines = [line.split("\t") for line in transcript.read_text(encoding="utf-8").splitlines()]
    names = {frame.name for frame in frames}
    assert all(line[0] in names for line in lines)
    texts = [line[1] for line in lines]
    assert texts[0].startswith(GREETING)
    assert texts[1] == "Besenbingo, 2 von 7." or texts[1].startswith("Besenbingo, 2 von")
    assert any(t.endswith("Tasten: 1 Auf, 2 Ab, 3 OK.") for t in texts)  # the long K3
    # the frame of "Maskenball, 3 von" is the one that shows it
    tsv = (frames[0].parent / "frames.tsv").read_text().splitlines()
    assert [line.split("\t")[0] for line in tsv] == [f.name for f in frames]


def test_the_same_script_says_the_same_with_or_without_frames(tmp_path: Path) -> None:
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    keys = "K3\nK3\nK3\nK3\nK4\nK2\nK3\nK2\nK3\nK2\nK2\nK3\nK1\n"
    run_box(tmp_path / "one", keys, extra_args=["--speech", str(a)])
    run_box(tmp_path / "two", keys, extra_args=["--speech", str(b)])
    assert a.read_text() == b.read_text()
    assert "Nein danke" in a.read_text() or "nein danke" in a.read_text()


def test_safe_mode_says_its_card_and_the_repeat_key_says_it_again(tmp_path: Path) -> None:
    from spielleiter.safe_mode import SafeMode
    from spielleiter.settings import defaults
    from spielleiter.store import StoreFault

    safe = SafeMode(StoreFault("corrupt", "test"), tmp_path, FrameSink([]))
    out = Kept()
    safe.speech = SpeechService(safe.clock, defaults, None, out, virtual=True)
    safe.step()
    safe.step()
    said_ = [text for _, text in safe.speech.said]
    assert len(said_) == 1 and "Speicher beschädigt" in said_[0] and "Link offen" in said_[0]
    safe.post(REPEAT)
    assert safe.speech.said[-1][1].startswith("Speicher beschädigt")
    safe.close()


def test_a_move_key_is_not_the_repeat_key(tmp_path: Path) -> None:
    """No screen's move is a long K3 (the repeat key): a long K3 at the table moves nothing."""
    box, _ = box_with_speech(tmp_path)
    tombola(box)
    committed = box.table.session.committed
    box.dispatch(REPEAT)
    box.settle()
    assert box.table.session.committed == committed
    assert box.table.state.decisions == [] or box.table.state.decisions[-1].move != Move.NEHMEN
