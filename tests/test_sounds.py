"""The game's sounds: the rendered cues, the WAV files, the choice of cue, both speakers,
and what a game makes heard."""

from __future__ import annotations

import io
import math
import random
import wave
from typing import Any

import pygame
import pytest
from ui_fakes import RecordingCanvas

from oska_gui.desktop.speaker import MixerSpeaker
from oska_gui.session.settings import MemoryStorage, Mode
from oska_gui.ui.app import App
from oska_gui.ui.kit import sounds
from oska_gui.ui.kit.events import KeyPress
from oska_gui.ui.kit.sounds import PEAK, RATE, Cue, end_cue, move_cue


def strength_at(data: tuple[float, ...], hz: float) -> float:
    """Return the magnitude of one frequency in ``data`` (a single DFT bin)."""
    re = sum(s * math.cos(2 * math.pi * hz * i / RATE) for i, s in enumerate(data))
    im = sum(s * math.sin(2 * math.pi * hz * i / RATE) for i, s in enumerate(data))
    return math.hypot(re, im)


def loudest_of(data: tuple[float, ...], candidates: list[float]) -> float:
    """Return which of ``candidates`` (Hz) is strongest in ``data``."""
    return max(candidates, key=lambda hz: strength_at(data, hz))


@pytest.mark.parametrize("cue", list(Cue))
def test_every_cue_is_short_loud_enough_and_starts_and_ends_silent(cue: Cue) -> None:
    data = sounds.samples(cue)
    assert 0.05 < len(data) / RATE < 1.0
    assert max(abs(s) for s in data) == pytest.approx(PEAK)
    assert abs(data[0]) < 0.01 and abs(data[-1]) < 0.01  # no click at either end


@pytest.mark.parametrize("cue", list(Cue))
def test_a_cue_is_a_valid_mono_16_bit_wav_of_its_samples(cue: Cue) -> None:
    with wave.open(io.BytesIO(sounds.wav_bytes(cue))) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, RATE)
        frames = wav.readframes(wav.getnframes())
    values = [int.from_bytes(frames[i:i + 2], "little", signed=True)
              for i in range(0, len(frames), 2)]
    assert len(values) == len(sounds.samples(cue))
    assert max(abs(v) for v in values) == round(PEAK * 32767)


def test_cues_sound_different_and_render_the_same_every_time() -> None:
    rendered = {cue: sounds.samples(cue) for cue in Cue}
    assert len(set(rendered.values())) == len(Cue)
    sounds.samples.cache_clear()
    assert all(sounds.samples(cue) == rendered[cue] for cue in Cue)


def test_a_move_knocks_higher_than_a_capture_starts() -> None:
    notes = [300.0, 420.0, 520.0]
    assert loudest_of(sounds.samples(Cue.MOVE), notes) == 420.0
    first_knock = sounds.samples(Cue.CAPTURE)[: round(0.07 * RATE)]
    assert loudest_of(first_knock, notes) == 300.0


def test_a_win_rises_and_a_loss_falls() -> None:
    notes = [sounds.C4, sounds.EB4, sounds.G4, sounds.C5, sounds.E5, sounds.G5, sounds.C6]
    win, loss = sounds.samples(Cue.WIN), sounds.samples(Cue.LOSS)
    span = round(0.1 * RATE)
    assert loudest_of(win[:span], notes) == sounds.C5
    assert loudest_of(win[round(0.34 * RATE):][:span], notes) == sounds.C6
    assert loudest_of(loss[:span], notes) == sounds.G4
    assert loudest_of(loss[round(0.33 * RATE):][:span], notes) == sounds.C4


def test_the_cue_for_a_move_and_for_the_end_of_a_game() -> None:
    assert move_cue(captured=True) is Cue.CAPTURE
    assert move_cue(captured=False) is Cue.MOVE
    assert end_cue(0, (True, False)) is Cue.WIN
    assert end_cue(1, (True, False)) is Cue.LOSS
    assert end_cue(1, (False, True)) is Cue.WIN
    assert end_cue(0, (True, True)) is Cue.END  # two humans: nobody to cheer for
    assert end_cue(0, (False, False)) is Cue.END  # computer against computer
    assert end_cue(None, (True, False)) is Cue.END


def test_the_desktop_speaker_plays_each_cue_at_its_length() -> None:
    pygame.mixer.quit()
    speaker = MixerSpeaker()
    try:
        for cue in Cue:
            speaker.play(cue)
        assert pygame.mixer.get_init() is not None
        for cue in Cue:
            assert speaker._sounds[cue].get_length() == pytest.approx(
                len(sounds.samples(cue)) / RATE, abs=0.002)
    finally:
        pygame.mixer.quit()


def test_asking_whether_sound_is_available_leaves_no_mixer_running() -> None:
    pygame.mixer.quit()
    speaker = MixerSpeaker()
    try:
        assert speaker.available and pygame.mixer.get_init() is None  # opened, closed
        speaker.play(Cue.MOVE)
        assert pygame.mixer.get_init() is not None and speaker.available
        speaker.rest()  # still playing: the mixer stays
        assert pygame.mixer.get_init() is not None
        while pygame.mixer.get_busy():
            pygame.time.wait(10)
        speaker.rest()  # silent: closed, and the next cue opens it again
        assert pygame.mixer.get_init() is None
        speaker.play(Cue.CAPTURE)
        assert pygame.mixer.get_init() is not None and pygame.mixer.get_busy()
    finally:
        pygame.mixer.quit()


def test_the_desktop_speaker_is_silent_without_an_audio_device(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pygame.mixer.quit()
    tries: list[int] = []

    def no_device() -> None:
        tries.append(1)
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    speaker = MixerSpeaker()
    for cue in [*Cue, *Cue]:
        speaker.play(cue)
    assert tries == [1]  # tried once, then quiet for good
    assert capsys.readouterr().err.count("no sound") == 1
    assert not speaker.available and tries == [1]
    fresh = MixerSpeaker()
    assert not fresh.available and tries == [1, 1]  # asking tries the device, once


class RecordingSpeaker:
    """A speaker that remembers the cues it was asked to play."""

    available = True

    def __init__(self) -> None:
        self.cues: list[Cue] = []

    def play(self, cue: Cue) -> None:
        self.cues.append(cue)


def quick_app(mode: str, speaker: RecordingSpeaker, **more: Any) -> App:
    """Return an App in a new game of n = 4 between beginners, with nothing animated."""
    settings = {"mode": mode, "levels": ["beginner", "beginner"], "animation": "off",
                "pace": "instant", **more}
    app = App(MemoryStorage(settings), 900, 700, speaker=speaker)
    app.handle(KeyPress("enter"))
    return app


def play_out(app: App, human_moves: random.Random | None = None) -> None:
    """Run frames until the game ends; a human's turn gets a random legal move."""
    match = app.game.match if app.game is not None else pytest.fail("no game")
    for _ in range(3000):
        if match.over:
            return
        if human_moves is not None and match.human_to_move:
            match.play(human_moves.choice(match.game.children(match.position)))
        app.update(0.02)
    pytest.fail("the game did not end")


def test_every_move_knocks_and_the_last_one_sounds_the_end() -> None:
    speaker = RecordingSpeaker()
    app = quick_app(Mode.CVC, speaker)
    play_out(app)
    app.update(0.02)
    match = app.game.match if app.game is not None else pytest.fail("no game")
    moves = [match.game.move_between(a, b) for a, b in
             zip(match.history.positions, match.history.positions[1:], strict=False)]
    real = [m for m in moves if not m.is_pass]
    assert speaker.cues[:-1] == [move_cue(m.is_capture) for m in real[:-1]]
    assert speaker.cues[-1] is Cue.END  # computer against computer: neither wins for you


@pytest.mark.parametrize("seed", range(4))
def test_a_human_hears_a_win_or_a_loss_at_the_end(seed: int) -> None:
    speaker = RecordingSpeaker()
    app = quick_app(Mode.HVC, speaker, human_side=seed % 2)
    play_out(app, random.Random(seed))
    app.update(0.02)
    match = app.game.match if app.game is not None else pytest.fail("no game")
    outcome = match.outcome
    assert outcome is not None
    won = outcome.winner == seed % 2
    assert speaker.cues[-1] is (Cue.WIN if won else Cue.LOSS)
    assert Cue.END not in speaker.cues and speaker.cues.count(Cue.WIN) + \
        speaker.cues.count(Cue.LOSS) == 1


def test_v_mutes_the_game_and_the_choice_is_kept() -> None:
    speaker = RecordingSpeaker()
    app = quick_app(Mode.CVC, speaker)
    app.handle(KeyPress("v"))
    assert app.settings.sound is False
    assert isinstance(app.storage, MemoryStorage) and app.storage.data["sound"] is False
    assert app.game is not None and app.game.toast is not None
    assert app.game.toast[0] == "Sound: off"
    play_out(app)
    assert speaker.cues == []
    app.handle(KeyPress("v"))
    assert app.settings.sound is True


class DeviceLessSpeaker(RecordingSpeaker):
    """A speaker on a machine without an audio device; counts the times it is asked."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    @property
    def available(self) -> bool:  # type: ignore[override]
        self.asked += 1
        return False


def test_without_an_audio_device_the_screens_say_so_instead_of_sound_on() -> None:
    speaker = DeviceLessSpeaker()
    muted = App(MemoryStorage({"sound": False}), 900, 700, speaker=speaker)
    canvas = RecordingCanvas(900, 700)
    muted.draw(canvas)
    assert speaker.asked == 0  # sound off: the device is not even looked for
    app = App(MemoryStorage({"sound": True, "levels": ["beginner", "beginner"]}), 900, 700,
              speaker=speaker)
    canvas = RecordingCanvas(900, 700)
    app.draw(canvas)
    texts = canvas.texts()
    assert any("no sound device" in text for text in texts)
    assert not any(text.startswith("On") and "device" not in text for text in texts)
    app.handle(KeyPress("enter"))
    app.handle(KeyPress("v"))  # off
    app.handle(KeyPress("v"))  # on again: the toast tells
    scene = app.game if app.game is not None else pytest.fail("no game")
    assert scene.toast is not None and "no sound device" in scene.toast[0]
