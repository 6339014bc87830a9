"""The audio: every golden transcript rendered through eSpeak NG's German voice, each
utterance checked for its length and its level (the stdlib `wave` module reads it), and
the box's speaker cutting a stale utterance short.

These tests need eSpeak NG (`apt-get install espeak-ng`; .ci/run installs it); without it
they are skipped, and `make test` says so in one line.
"""

from __future__ import annotations

import array
import io
import math
import shutil
import sys
import time
import wave

import pytest
from helpers import GOLDEN_DIR
from spielleiter.hal.speaker import Speaker, engine_command, estimate_s, find_engine, render

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="no espeak-ng here")

RATE = 22050
"""eSpeak NG's sample rate."""
REAL_TIME_PLAYER = [
    sys.executable,
    "-c",
    "import sys, time\nwhile sys.stdin.buffer.read(4410):\n    time.sleep(0.1)",
]
"""A player that takes the audio at the pace it plays (44100 bytes a second), as aplay
does, and plays it nowhere."""


def samples(wav: bytes) -> tuple[wave._wave_params, array.array[int]]:
    with wave.open(io.BytesIO(wav)) as w:
        params = w.getparams()
        frames = w.readframes(w.getnframes())
    data = array.array("h")
    data.frombytes(frames[: len(frames) // 2 * 2])
    if sys.byteorder == "big":
        data.byteswap()
    return params, data


def rms(data: array.array[int]) -> float:
    return math.sqrt(sum(x * x for x in data) / max(1, len(data)))


def utterances() -> list[str]:
    """Every line the golden transcripts say, once each."""
    said: dict[str, None] = {}
    for path in sorted(GOLDEN_DIR.glob("*.speech")):
        for line in path.read_text(encoding="utf-8").splitlines():
            said[line.split("\t")[1]] = None
    return list(said)


def test_the_golden_transcripts_exist() -> None:
    assert len(list(GOLDEN_DIR.glob("*.speech"))) >= 5
    assert len(utterances()) > 100


def test_every_golden_utterance_renders_as_speech_of_its_length_and_level() -> None:
    """Mono 16-bit at 22050 Hz; as long as the box's estimate says (the key scripts' time
    runs on it), within 35 %; loud enough to hear and never clipped."""
    engine = find_engine()
    assert engine is not None
    off = []
    for text in utterances():
        params, data = samples(render(text, engine=engine))
        assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, RATE), text
        seconds = len(data) / RATE
        if not 0.65 <= seconds / estimate_s(text, 160) <= 1.35:
            off.append(f"{seconds:.2f} s, estimated {estimate_s(text, 160):.2f} s: {text}")
        level = rms(data)
        assert 1000 < level < 12000, f"level {level:.0f}: {text}"
        assert max(abs(min(data)), max(data)) < 32767, f"clipped: {text}"
    assert not off, "\n".join(off[:10])


def test_the_volume_and_the_speed_reach_the_audio() -> None:
    text = "Anna ist dran: Los 27, 3 Groschen darauf."
    _, normal = samples(render(text, speed=160, volume=100))
    _, quiet = samples(render(text, speed=160, volume=40))
    _, fast = samples(render(text, speed=320, volume=100))
    assert rms(quiet) < 0.6 * rms(normal)
    assert len(fast) < 0.7 * len(normal)


def test_the_german_voice_says_numbers_as_german_words() -> None:
    """eSpeak NG's German voice reads digits as German numbers, so the transcripts keep
    digits: "27" is said "siebenundzwanzig"."""
    import subprocess

    engine = find_engine()
    assert engine is not None
    command = [*engine_command(engine, 160, 100)[:-1], "-q", "-x"]
    phonemes = subprocess.run(
        command, input=b"27", capture_output=True, check=True, timeout=30
    ).stdout.decode()
    assert "z'i:b@n" in phonemes and "tsv'antsIC" in phonemes  # sieben-und-zwanzig


def test_the_speaker_plays_and_a_newer_text_cuts_the_one_playing_short() -> None:
    engine = find_engine()
    assert engine is not None
    speaker = Speaker(engine, REAL_TIME_PLAYER, capture=True)
    try:
        first = speaker.say("Carla nimmt Los 27 und 3 Groschen. Neues Los: 14. Anna ist dran.")
        time.sleep(0.6)
        second = speaker.say("Zurück mit Taste 1.")
        assert second.done.wait(20)
        assert first.over and first.cut and not second.cut and not second.failed
        assert first.first_sample is not None and second.first_sample is not None
        assert second.first_sample - second.requested < 2.0
        played = len(samples(speaker.captured[-1])[1]) / RATE
        assert second.ended - second.first_sample >= 0.8 * played  # played at its pace
        queued = [speaker.say("Turm 5.", after=True), speaker.say("Turm 6.", after=True)]
        assert queued[-1].done.wait(20)
        assert not any(u.cut for u in queued)  # news waits its turn behind news
    finally:
        speaker.close()


def test_a_player_that_fails_is_said_once_in_the_log(caplog: pytest.LogCaptureFixture) -> None:
    """A speaker whose player cannot play (no device) leaves the box silent, logged once."""
    import logging

    engine = find_engine()
    assert engine is not None
    speaker = Speaker(engine, [sys.executable, "-c", "import sys; sys.exit(1)"])
    try:
        with caplog.at_level(logging.WARNING, logger="spielleiter.speech"):
            for text in ("Turm 5.", "Turm 6."):
                utterance = speaker.say(text)
                assert utterance.done.wait(20)
                assert utterance.failed
    finally:
        speaker.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "spielleiter.speech"]
    assert len(lines) == 1 and "exited with 1" in lines[0]
