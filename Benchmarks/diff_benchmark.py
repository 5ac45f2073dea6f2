"""`assets diff` on the shipped pack: against itself (the median of 9; it decodes nothing), and against a base
where two recordings changed — 三 replaced by another take (the recording of 四 under 三's name) and 五 the same
take 6 dB quieter (SoX) — with the HTML page and its sounds (the median of 5). Targets: under 0.3 s and 2 s.

    python3 Benchmarks/diff_benchmark.py     # needs .build/release/assets, git and sox
"""
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / ".build/release/assets"


def run(command, cwd):
    return subprocess.run(command, cwd=cwd, check=True, capture_output=True, text=True)


def median_seconds(command, cwd, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run(command, cwd)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def measure():
    work = Path(tempfile.mkdtemp(prefix="assets-diff-"))
    pack = work / "pack"
    try:
        pack.mkdir()
        for name in ["assets.json", "manifest.json", "raw-audio", "normalized"]:
            source = ROOT / name
            (shutil.copytree if source.is_dir() else shutil.copy2)(source, pack / name)
        git = ["git", "-c", "user.name=benchmark", "-c", "user.email=benchmark@example.com"]
        run(git + ["init", "-q"], pack)
        run(git + ["add", "-A"], pack)
        run(git + ["commit", "-q", "-m", "pack"], pack)
        itself = median_seconds([str(ASSETS), "diff"], pack, 9)

        (pack / "raw-audio/digit_3.caf").unlink()
        shutil.copy2(pack / "raw-audio/digit_4.ogg", pack / "raw-audio/digit_3.ogg")
        quieter = pack / "raw-audio/quieter.wav"
        run(["sox", "raw-audio/digit_5.wav", str(quieter), "vol", "-6dB"], pack)
        quieter.replace(pack / "raw-audio/digit_5.wav")
        run([str(ASSETS), "build"], pack)
        summary = json.loads(run([str(ASSETS), "diff", "--format", "json"], pack).stdout)
        page = work / "review/diff.html"
        page.parent.mkdir()
        two = median_seconds([str(ASSETS), "diff", "--format", "html", "--output", str(page)], pack, 5)
        sounds = len(list((work / "review/diff-sounds").iterdir()))
        return {"itself": itself, "twoChanged": two, "sounds": sounds,
                "changed": sorted(change["token"] for change in summary["changed"]),
                "sameTake": sorted(change["token"] for change in summary["changed"] if change["sameTake"]),
                "utterances": len(summary["utterances"])}
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1, ensure_ascii=False))
    sys.exit(0)
