"""`assets diff` on the shipped pack: against itself (the median of 9; it decodes nothing), and against a base
where two recordings changed — 三 replaced by another take (the recording of 四 under 三's name) and 五 the same
take 6 dB quieter (SoX) — with the HTML page and its sounds (the median of 5). Targets: under 0.3 s and 2 s.

With `--large [BIN …]`: a pack of 3,600 fragments (the build benchmark's, made and built once, a few minutes),
committed, two of its recordings changed and built, then `diff HEAD` and `diff` against a folder holding the
revision, by this tree's binary and each BIN given (an earlier build), interleaved, the median of 5 each.

    python3 Benchmarks/diff_benchmark.py     # needs .build/release/assets, git and sox
    python3 Benchmarks/diff_benchmark.py --large /tmp/assets-before
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


def measure_large(binaries):
    """Seconds of `diff HEAD` and of `diff FOLDER` on a refreshed pack of 3,600, by each binary (medians)."""
    import benchmark  # the build benchmark's corpus: 36 deliveries under 3,600 phrase names
    work = Path(tempfile.mkdtemp(prefix="assets-diff-large-"))
    try:
        benchmark.work = work
        pack = benchmark.make_corpus(benchmark.make_base(), 3600)
        run([str(ASSETS), "build"], pack)
        git = ["git", "-c", "user.name=benchmark", "-c", "user.email=benchmark@example.com"]
        run(git + ["init", "-q"], pack)
        run(git + ["add", "-A"], pack)
        run(git + ["commit", "-q", "-m", "pack"], pack)
        base = work / "revision-copy"
        shutil.copytree(pack, base, ignore=shutil.ignore_patterns(".git"))
        for name in ["phrase_0001", "phrase_0002"]:
            source = next((pack / "raw-audio").glob(name + ".*"))
            run(["sox", str(source), str(pack / "raw-audio/quieter.wav"), "vol", "-6dB"], pack)
            source.unlink()
            (pack / "raw-audio/quieter.wav").replace(pack / f"raw-audio/{name}.wav")
        run([str(ASSETS), "build"], pack)
        times = {str(binary): {"revision": [], "folder": []} for binary in binaries}
        for _ in range(5):
            for binary in binaries:
                for side, target in [("revision", "HEAD"), ("folder", str(base))]:
                    start = time.perf_counter()
                    run([str(binary), "diff", target], pack)
                    times[str(binary)][side].append(time.perf_counter() - start)
        summary = json.loads(run([str(ASSETS), "diff", "--format", "json"], pack).stdout)
        return {"changed": len(summary["changed"]), "unchanged": summary["unchanged"],
                "seconds": {binary: {side: sorted(values)[len(values) // 2] for side, values in sides.items()}
                            for binary, sides in times.items()}}
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if "--large" in sys.argv:
        earlier = [Path(argument) for argument in sys.argv[sys.argv.index("--large") + 1:]]
        print(json.dumps(measure_large([ASSETS] + earlier), indent=1, ensure_ascii=False))
    else:
        print(json.dumps(measure(), indent=1, ensure_ascii=False))
    sys.exit(0)
