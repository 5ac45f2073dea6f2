"""Building and checking a voice pack in a scratch folder, for the scripts that judge `assets` on real packs
(evaluate-real-packs, swap-voices, check-at-levels): nothing of the pack they read is written to. And reading
recordings and making a room's noise, for the scripts that lay real recordings over it (split-sessions,
trim-under-noise)."""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

import numpy as np

# A finding's kind, read from its message (check's JSON names the category only).
KINDS = [
    ("another voice", "voice"), ("narrower band", "band"), ("noise floor", "noise"), ("another pace", "pace"),
    ("no pitch", "unmeasured"), ("voice is cut", "cut"), ("heard at", "loudness"), ("true peak", "peak"),
    ("clipped", "clipped"), ("starts", "step"), ("no fragment", "missing"),
]


def kind(message):
    return next((name for words, name in KINDS if words in message), "other")


def build_and_check(assets, lay_out, build_arguments=()):
    """Lays a pack out with `lay_out(folder)`, builds it with `assets` and checks it. Returns the build's
    completed process, check's JSON report (with no findings when it printed none), check's exit status and the
    manifest (None when the build wrote none)."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="assets-pack-"))
    try:
        lay_out(folder)
        env = dict(os.environ, CI="true")
        build = subprocess.run([assets, "build", *build_arguments], cwd=folder, capture_output=True, text=True,
                               env=env)
        check = subprocess.run([assets, "check", "--format", "json"], cwd=folder, capture_output=True, text=True,
                               env=env)
        report = json.loads(check.stdout) if check.stdout.strip() else {"findings": []}
        manifest_file = folder / "manifest.json"
        manifest = json.loads(manifest_file.read_text()) if manifest_file.exists() else None
        return build, report, check.returncode, manifest
    finally:
        shutil.rmtree(folder)


RATE = 44_100


def decode(path):
    pcm = subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-i", str(path), "-ac", "1", "-ar", str(RATE),
                          "-f", "f32le", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(pcm, dtype=np.float32).astype(float)


def levels(x):
    return np.convolve(x * x, np.ones(441) / 441, "same")


def room_noise(count, rng):
    spectrum = np.fft.rfft(rng.standard_normal(count))
    hz = np.fft.rfftfreq(count, 1 / RATE)
    spectrum /= np.sqrt(np.maximum(hz, 50) / 100)
    spectrum[hz < 20] = 0
    noise = np.fft.irfft(spectrum, count)
    return noise / np.sqrt(np.mean(noise * noise))
