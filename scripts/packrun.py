"""Laying real recordings out as a voice pack (lay-out-tts-pack, lay-out-real-packs), and building and checking
one in a scratch folder, for the scripts that judge `assets` on real packs (evaluate-real-packs, swap-voices,
check-at-levels): nothing of the pack they read is written to. And reading recordings and making a room's
noise or a hiss, for the scripts that lay real recordings over it (split-sessions, trim-under-noise,
evaluate-real-packs --noise)."""
import collections
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

import numpy as np
import scipy.signal
import soundfile

# How many Android payment apps name their recordings (tts_0 … tts_9, tts_ten … tts_billion, tts_dot, tts_yuan),
# mapped as their code maps them, and the phrases they play before the amount (the text matters to `check` only
# for its syllable count).
TTS_STEMS = {f"tts_{digit}": token for digit, token in enumerate("零一二三四五六七八九")} | {
    "tts_ten": "十", "tts_hundred": "百", "tts_thousand": "千", "tts_ten_thousand": "万",
    "tts_ten_million": "亿", "tts_billion": "亿", "tts_hundred_million": "亿", "tts_dot": "点", "tts_yuan": "元",
}
TTS_PHRASES = {"tts_success": "收款成功", "tts_ali_start": "支付宝到账", "tts_wx_start": "微信收款", "tts_pre": "收款成功"}
AUDIO = {".wav", ".mp3", ".m4a", ".aac", ".ogg", ".flac"}


def git_dir(folder):
    """The git repository at `folder` (a clone or a bare repository) or at `folder`/repo, or None."""
    for candidate in (folder, folder / "repo"):
        found = subprocess.run(["git", "-C", str(candidate), "rev-parse", "--git-dir"], capture_output=True, text=True)
        if candidate.is_dir() and found.returncode == 0:
            return (candidate / found.stdout.strip()).resolve()
    return None


def extract(repository, revision, paths, dest):
    """Writes `paths` of `repository` (a git directory) as they were at `revision` under `dest`."""
    dest.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "--git-dir", str(repository), "archive", revision, *paths],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)


def lay_out_pack(recordings, dest, stems, phrases, **settings):
    """Writes DEST/raw-audio/ with a copy of `recordings` and DEST/assets.json mapping the stems present to their
    tokens and phrases (a template per phrase, 两 served by 二, spoken style and decimal form, unless `settings`
    says otherwise: its keys are assets.json's)."""
    raw = dest / "raw-audio"
    shutil.rmtree(dest, ignore_errors=True)
    raw.mkdir(parents=True)
    for recording in recordings:
        shutil.copy2(recording, raw / recording.name)
    present = {p.stem for p in recordings}
    phrases = {stem: text for stem, text in phrases.items() if stem in present}
    pack = {
        "schemaVersion": 1,
        "styles": ["spoken"],
        "forms": ["decimal"],
        "stems": {stem: token for stem, token in stems.items() if stem in present},
        "phrases": phrases,
        "aliases": {"两": "二"},
        "templates": {stem.removeprefix("tts_").strip("_"): text + "{amount}" for stem, text in phrases.items()},
    } | settings
    (dest / "assets.json").write_text(json.dumps(pack, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"{dest}: {len(recordings)} recordings")


# A finding's kind, read from its message, for binaries whose check JSON named the category only.
KINDS = [
    ("header is wrong", "header"), ("delivered apart", "delivery"), ("another tone", "tone"),
    ("vowel sounds like", "vowel"), ("under each other's names", "vowel"),
    ("starts with a consonant", "onset"), ("starts without its consonant", "onset"),
    ("starts without its s", "onset"), ("starts with a hiss", "onset"), ("another voice", "voice"),
    ("narrower band", "band"),
    ("noise is heard", "noise heard"), ("noise floor", "noise"), ("another pace", "pace"),
    ("no pitch", "unmeasured"), ("voice is cut", "cut"), ("heard at", "loudness"), ("true peak", "peak"),
    ("clipped", "clipped"), ("starts", "step"), ("no fragment", "missing"), ("peaks limited", "limited"),
]


def kind(message):
    return next((name for words, name in KINDS if words in message), "other")


def finding_kind(finding):
    """A finding of check's JSON: its kind as the tool names it, or as read from its message for older binaries."""
    return finding.get("kind") or kind(finding["message"])


Built = collections.namedtuple("Built", "build report status manifest audit")


def build_and_check(assets, lay_out, build_arguments=(), audit=False):
    """Lays a pack out with `lay_out(folder)`, builds it with `assets` and checks it. Returns the build's
    completed process, check's JSON report (with no findings when it printed none), check's exit status, the
    manifest (None when the build wrote none) and, when asked, the audit's JSON report."""
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
        audited = None
        if audit and manifest:
            audited = json.loads(subprocess.run([assets, "audit", "--format", "json"], cwd=folder,
                                                capture_output=True, text=True, env=env).stdout)
        return Built(build, report, check.returncode, manifest, audited)
    finally:
        shutil.rmtree(folder)


RATE = 44_100


def decode(path):
    pcm = subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-i", str(path), "-ac", "1", "-ar", str(RATE),
                          "-f", "f32le", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(pcm, dtype=np.float32).astype(float)


def levels(x):
    return np.convolve(x * x, np.ones(441) / 441, "same")


def sound(samples):
    """The first and last frame of a clean recording's sound, the reference the scripts judge a cut by: where it
    is within 40 dB of its loudest 10 ms for 15 ms or more (as build reads sound in runs), its DC offset taken out
    as build takes it out (an 8-bit file's, 1 LSB, lies 42 dB under full scale and steps where the file was
    joined: not its sound)."""
    pole = np.exp(-2 * np.pi * 20 / RATE)
    level = levels(scipy.signal.lfilter([1, -1], [1, -pole], samples - samples[0]))
    run = int(0.015 * RATE)
    lasting = np.nonzero(np.convolve(level > level.max() * 1e-4, np.ones(run), "valid") == run)[0]
    return lasting[0], lasting[-1] + run - 1


def room_noise(count, rng):
    spectrum = np.fft.rfft(rng.standard_normal(count))
    hz = np.fft.rfftfreq(count, 1 / RATE)
    spectrum /= np.sqrt(np.maximum(hz, 50) / 100)
    spectrum[hz < 20] = 0
    noise = np.fft.irfft(spectrum, count)
    return noise / np.sqrt(np.mean(noise * noise))


# A room's noise (pink from 50 Hz), or a hiss (white: as strong over 3 kHz as under, an interface's or a tape's).
NOISES = {"room": room_noise, "hiss": lambda count, rng: rng.standard_normal(count)}
# Silence each side of a recording laid over noise: room for the noise to be read and kept.
PAD_SECONDS = 0.3


def lay_out_noisy(pack, folder, noise_db, noise=room_noise):
    """Writes `pack`'s assets.json and its recordings, each padded with PAD_SECONDS each side and laid over `noise`
    at `noise_db` dBFS (as 44.1 kHz 24-bit WAV: an MP3 that decodes over full scale clips there), into `folder`;
    returns each token's sound in the padded recording, (first, last) in ms (`sound`)."""
    settings = json.loads((pack / "assets.json").read_text())
    stems = {**settings.get("stems", {}), **settings.get("phrases", {})}
    (folder / "raw-audio").mkdir(parents=True)
    shutil.copy(pack / "assets.json", folder)
    rng = np.random.default_rng(7)
    sounds = {}
    for recording in sorted((pack / "raw-audio").iterdir()):
        if recording.stem not in stems:
            continue
        samples = decode(recording)
        first, last = sound(samples)
        pad = int(PAD_SECONDS * RATE)
        padded = np.concatenate([np.zeros(pad), samples, np.zeros(pad)])
        padded += noise(len(padded), rng) * 10 ** (noise_db / 20)
        soundfile.write(folder / "raw-audio" / f"{recording.stem}.wav", padded, RATE, subtype="PCM_24")
        sounds[stems[recording.stem]] = ((pad + first) * 1000 / RATE, (pad + last) * 1000 / RATE)
    return sounds
