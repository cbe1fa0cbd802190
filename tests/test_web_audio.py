"""The page's sounds (``oska_gui/web/static/audio.js``), run in Node with a stand-in
``AudioContext``: one buffer per cue made with the context, a source started per cue,
the context prepared while loading and woken by gestures, silent once without Web
Audio. The game's side (``web.speaker.PageSpeaker``) is tested here too.
Node comes with the Pyodide runtime (``python3 tests/run.py`` installs both)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from oska_gui.ui.kit import sounds
from oska_gui.ui.kit.sounds import RATE, Cue
from oska_gui.web.build import STATIC_DIR
from oska_gui.web.speaker import PageSpeaker, cue_samples

# Runs the steps read from stdin on a Speaker and prints what the contexts were asked.
HARNESS = """
const contexts = [];
const warnings = [];
const counts = [];  // how many contexts there were at each "count" step
let silenced = 0;
let warm = null;
globalThis.navigator = { mediaDevices: { enumerateDevices: () =>
    new Promise((resolve) => { warm = resolve; }) } };
console.warn = (text) => warnings.push(text);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
globalThis.AudioContext = class {
    constructor() {
        if (!input.webAudio) throw new Error("AudioContext is not defined");
        this.state = "suspended";
        this.destination = {};
        this.resumed = 0;
        this.buffers = [];
        this.started = [];
        contexts.push(this);
    }
    resume() { this.resumed += 1; this.state = "running"; }
    createBuffer(channels, length, rate) {
        const buffer = { channels, length, rate, data: null };
        buffer.copyToChannel = (data, channel) => { buffer.data = [channel, Array.from(data)]; };
        this.buffers.push(buffer);
        return buffer;
    }
    createBufferSource() {
        const context = this;
        const source = { buffer: null, connected: null };
        source.connect = (node) => { source.connected = node; };
        source.start = () => context.started.push(context.buffers.indexOf(source.buffer));
        return source;
    }
};
(async () => {
    const { Speaker } = await import(input.module);
    const speaker = new Speaker(() => { silenced += 1; });
    const samples = Object.fromEntries(
        Object.entries(input.samples).map(([name, data]) => [name, Float32Array.from(data)]));
    speaker.setSamples(samples, input.rate);
    for (const [step, arg] of input.steps) {
        if (step === "warm") {
            warm([]);
            await new Promise((resolve) => setTimeout(resolve, 0));
        } else if (step === "count") {
            counts.push(contexts.length);
        } else {
            speaker[step](arg);
        }
    }
    const asked = contexts.map((c) => ({ resumed: c.resumed, started: c.started,
        buffers: c.buffers.map(({ channels, length, rate, data }) =>
            ({ channels, length, rate, data })) }));
    process.stdout.write(JSON.stringify({ warnings, counts, silenced, contexts: asked }));
})();
"""
NAMES = [cue.name for cue in Cue]


def run_speaker(steps: list[list[str]], web_audio: bool = True) -> dict:
    """Run ``steps`` ([method, argument] each; 'warm' ends the audio warm-up, 'count'
    notes how many contexts there are) on a page
    Speaker with every cue's samples; return what its contexts were asked to do."""
    node = shutil.which("node")
    assert node, "node is missing: install Node.js (python3 tests/run.py needs it for Pyodide)"
    given = {"module": (STATIC_DIR / "audio.js").as_uri(), "samples": cue_samples(),
             "rate": RATE, "steps": steps, "webAudio": web_audio}
    done = subprocess.run([node, "-e", HARNESS], input=json.dumps(given), capture_output=True,
                          text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def test_the_page_makes_one_buffer_per_cue_and_starts_a_source_each_time() -> None:
    """The first cue makes the context (resumed once) and a buffer per cue with its
    samples; each cue starts a source of its own buffer."""
    heard = run_speaker([["play", "MOVE"], ["play", "CAPTURE"], ["play", "MOVE"]])
    (context,) = heard["contexts"]
    assert context["resumed"] == 1 and heard["warnings"] == []
    buffers = context["buffers"]
    assert [b["length"] for b in buffers] == [len(sounds.samples(cue)) for cue in Cue]
    assert all(b["rate"] == RATE and b["channels"] == 1 for b in buffers)
    move = NAMES.index("MOVE")
    channel, data = buffers[move]["data"]
    assert channel == 0 and data == pytest.approx(list(sounds.samples(Cue.MOVE)), abs=1e-6)
    assert context["started"] == [move, NAMES.index("CAPTURE"), move]


def test_a_prepared_page_speaker_leaves_its_cues_nothing_to_create() -> None:
    """Preparing (while the page loads) makes the context and every buffer but does not
    resume it; a gesture's wake resumes it; cues then only start sources."""
    heard = run_speaker([["prepare"], ["prepare"], ["count"], ["wake"], ["wake"],
                         ["play", "WIN"]])
    (context,) = heard["contexts"]
    assert heard["warnings"] == [] and heard["counts"] == [1]
    assert context["resumed"] == 1 and len(context["buffers"]) == len(Cue)
    assert context["started"] == [NAMES.index("WIN")]


def test_the_page_prepares_its_context_once_the_audio_service_is_warm() -> None:
    """prepareSoon waits for the background warm-up: no context before it ends."""
    heard = run_speaker([["prepareSoon"], ["count"], ["warm"], ["count"]])
    assert heard["counts"] == [0, 1]
    assert heard["contexts"][0]["resumed"] == 0


def test_waking_an_unprepared_page_speaker_prepares_it() -> None:
    """Sound turned on after the page loaded: the first gesture makes the context."""
    (context,) = run_speaker([["wake"]])["contexts"]
    assert context["resumed"] == 1 and len(context["buffers"]) == len(Cue)


def test_the_page_goes_quiet_once_without_web_audio_and_tells_the_game() -> None:
    """Without Web Audio the page warns once, tells the game once, and plays nothing."""
    heard = run_speaker([["prepare"], ["wake"], *(["play", name] for name in NAMES)],
                        web_audio=False)
    assert heard["warnings"] == ["Oska: no sound (AudioContext is not defined)"]
    assert heard["silenced"] == 1 and heard["contexts"] == []


def test_the_game_asks_the_page_to_play_until_it_says_it_cannot() -> None:
    """Each cue is a message to the page, until the page says sound failed there."""
    posted: list[dict] = []
    speaker = PageSpeaker(posted.append)
    speaker.play(Cue.MOVE)
    assert speaker.available and posted == [{"kind": "play", "cue": "MOVE"}]
    speaker.silence()
    speaker.play(Cue.WIN)
    assert not speaker.available and len(posted) == 1


def test_the_page_gets_every_cue_by_name() -> None:
    """The samples the page makes its buffers of are every cue's, by the cue's name."""
    assert cue_samples() == {cue.name: list(sounds.samples(cue)) for cue in Cue}
