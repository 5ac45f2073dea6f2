"""`assets split` on a one-hour session: wall time and peak memory (GNU time), against the targets of under
10 s and under 200 MB. The session is the stand-in voice (espeak-ng's Mandarin, every token of spoken/yuan
in turn) with pauses of 0.35–1.2 s over a noise floor, 48 kHz mono 16-bit WAV, written in pieces.

    python3 Benchmarks/split_benchmark.py [MINUTES]     # default 60; needs .build/release/assets
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import soundfile

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / ".build/release/assets"
TOKENS = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九", "两", "十", "百", "千", "万", "亿", "元",
          "角", "分", "整"]
RATE = 48000


def voices(folder):
    made = {}
    for token in TOKENS:
        path = folder / "voice.wav"
        subprocess.run(["espeak-ng", "-v", "cmn", "-w", str(path), token], check=True)
        samples, rate = soundfile.read(str(path))
        made[token] = np.interp(np.arange(0, len(samples) * RATE / rate) * rate / RATE, np.arange(len(samples)),
                                samples) * 0.5
    return made


def session(folder, minutes):
    said = voices(folder)
    random = np.random.default_rng(7)
    path = folder / "session.wav"
    items = []
    with soundfile.SoundFile(str(path), "w", RATE, 1, "PCM_16") as out:
        written = 0
        while written < minutes * 60 * RATE:
            token = TOKENS[len(items) % len(TOKENS)]
            pause = np.zeros(int(random.uniform(0.35, 1.2) * RATE))
            piece = np.concatenate([said[token], pause])
            out.write(piece + random.normal(0, 10 ** (-66 / 20), len(piece)))
            items.append(token)
            written += len(piece)
    (folder / "list.txt").write_text("\n".join(items) + "\n")
    return path, len(items)


def measure(minutes):
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path, count = session(folder, minutes)
        (folder / "assets.json").write_text(json.dumps({"styles": ["spoken"], "forms": ["yuan"]}))
        result = subprocess.run(["/usr/bin/time", "-f", "%e %M", str(ASSETS), "split", "session.wav", "--expect",
                                 "@list.txt"], cwd=folder, capture_output=True, text=True)
        seconds, kilobytes = result.stderr.strip().splitlines()[-1].split()
        size = path.stat().st_size / 1e6
        return {"minutes": minutes, "utterances": count, "sessionMB": round(size), "status": result.returncode,
                "summary": result.stdout.strip(), "seconds": float(seconds), "peakMB": round(int(kilobytes) / 1024)}


def main():
    minutes = float(sys.argv[1]) if len(sys.argv) > 1 else 60
    print(json.dumps(measure(minutes), ensure_ascii=False))


if __name__ == "__main__":
    main()
