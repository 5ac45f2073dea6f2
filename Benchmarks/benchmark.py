"""The benchmark behind scripts/benchmark: see that script for what it does and how to run it."""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pyloudnorm
import soundfile
from scipy.signal import resample_poly

sys.path.insert(0, str(Path(__file__).resolve().parent))
import heard  # noqa: E402
import loudness_measures  # noqa: E402
import spliced_amounts  # noqa: E402
import split_benchmark  # noqa: E402
import diff_benchmark  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / ".build/release/assets"
# The same code linked against the Swift runtime's shared libraries: the profile's samples then say whether
# they fell in our code or in the runtime (scripts/benchmark builds it).
ASSETS_DYNAMIC = ROOT / ".build/dynamic/release/assets"
TARGET, CEILING = -16.0, -1.0
QUICK = "--quick" in sys.argv
# Earlier builds of assets to set this one against, when given (see scripts/benchmark): the first round's
# (the LUFS measure, before the hearing model) and the one before FFmpeg's libraries were linked.
EARLIER = {name: Path(os.environ[variable]) for name, variable in
           [("first round", "ASSETS_FIRST_ROUND"), ("before FFmpeg", "ASSETS_BEFORE_FFMPEG")]
           if os.environ.get(variable)}
SIZES = [36, 360] if QUICK else [36, 360, 3600]
# Thirteen phrases beside the 23 tokens of the shipped pack: 36 distinct deliveries.
EXTRA = ["收款成功", "谢谢惠顾", "付款成功", "余额不足", "退款到账", "转账成功", "扫码支付",
         "红包到账", "会员积分", "优惠券", "交易关闭", "请稍候", "欢迎光临"]
work = Path(tempfile.gettempdir())  # set to a fresh folder by main()


REAL_PACKS_MARK = "<!-- real-packs -->"

def run(command, cwd=None, quiet=True):
    return subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.PIPE if quiet else None,
                          stderr=subprocess.PIPE if quiet else None, text=True)


def timed(command, cwd=None):
    """Wall seconds, peak resident MB and CPU seconds (user + system) of one command (GNU time)."""
    started = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M %U %S"] + command, cwd=cwd, check=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    kilobytes, user, system = result.stderr.strip().splitlines()[-1].split()
    return seconds, int(kilobytes) / 1024, float(user) + float(system)


def median(values):
    return statistics.median(values)


# ---------------------------------------------------------------------------------------------- corpora

def make_base():
    """36 deliveries of mixed containers, rates, channels and levels, as the voice-pack script makes them."""
    base = work / "base"
    extra = work / "extra.txt"
    extra.write_text("".join(f"phrase_x{i:02d}|{text}\n" for i, text in enumerate(EXTRA)))
    run([str(ROOT / "scripts/make-standin-recordings"), str(base), str(extra)])
    (base / "README.txt").unlink()
    files = sorted(base.iterdir())
    assert len(files) == 36, len(files)
    return files


def make_corpus(base_files, size):
    """`size` recordings named phrase_NNNN, cycling through the 36 deliveries; an assets.json naming them."""
    pack = work / f"pack-{size}"
    raw = pack / "raw-audio"
    raw.mkdir(parents=True)
    phrases = {}
    for index in range(size):
        source = base_files[index % len(base_files)]
        stem = f"phrase_{index:04d}"
        shutil.copyfile(source, raw / f"{stem}{source.suffix}")
        phrases[stem] = f"P{index:04d}"
    settings = {"phrases": phrases, "styles": ["spoken"], "forms": ["yuan"]}
    (pack / "assets.json").write_text(json.dumps(settings, ensure_ascii=False))
    return pack


def clean(pack):
    for name in ["normalized", "manifest.json", ".assets"]:
        path = pack / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


def set_resampler(pack, quality):
    """`quality` None leaves the converter to the default (medium)."""
    settings = json.loads((pack / "assets.json").read_text())
    settings.pop("resampler", None)
    if quality:
        settings["resampler"] = quality
    (pack / "assets.json").write_text(json.dumps(settings, ensure_ascii=False))


# --------------------------------------------------------------------------------------------- the runs

# The incremental builds take a tenth of a second, where a shared host's hiccups are of the same size:
# nine runs each, so that their median is the build's and not the host's.
def noop(pack, runs=9):
    results = [timed([str(ASSETS), "build"], cwd=pack) for _ in range(runs)]
    return median([r[0] for r in results]), max(r[1] for r in results)


def one_changed(pack, runs=9, touch_manifest=False):
    """Rebuild after one recording changed: a WAV delivery whose last samples differ each time. The median
    wall seconds and CPU seconds (user + system). `touch_manifest` also sets the manifest's time, as a
    checkout would: the build record no longer vouches for it, so the build decodes it and writes every
    fragment's text again — the build without its shortcut (PackTools/FastPaths.swift)."""
    target = sorted((pack / "raw-audio").glob("*.wav"))[0]
    original = target.read_bytes()
    times, cpu = [], []
    for attempt in range(runs):
        target.write_bytes(original[:-64] + bytes((b + attempt + 1) % 256 for b in original[-64:]))
        if touch_manifest:
            os.utime(pack / "manifest.json")
        seconds, _, cpu_seconds = timed([str(ASSETS), "build"], cwd=pack)
        times.append(seconds)
        cpu.append(cpu_seconds)
    target.write_bytes(original)
    run([str(ASSETS), "build"], cwd=pack)
    return median(times), median(cpu)


def per_file_loop(commands):
    """Runs `commands` one after another, as a shell loop would: wall seconds and CPU seconds (user +
    system, of every process the loop started)."""
    before = os.times()
    started = time.perf_counter()
    for command in commands:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    after = os.times()
    return seconds, after.children_user - before.children_user + after.children_system - before.children_system


def sox_loop(pack):
    """Wall and CPU seconds of a per-file SoX loop over the pack's recordings, and its output folder."""
    out = pack / "sox-out"
    out.mkdir(exist_ok=True)
    # rate, remix to mono, trim silence at both ends, peak-normalize to -1 dBFS: the usual shell loop. SoX
    # reads no AAC or ALAC: an .m4a goes through the ffmpeg command first, as a SoX user's loop would.
    def command(source):
        effects = ["-b", "16", str(out / (source.stem + ".wav")), "remix", "-", "rate", "44100", "silence", "1",
                   "0.02", "0.5%", "reverse", "silence", "1", "0.02", "0.5%", "reverse", "norm", "-1"]
        if source.suffix != ".m4a":
            return ["sox", str(source)] + effects
        return ["sh", "-c", f"ffmpeg -loglevel error -i '{source}' -f wav - | sox -t wav - " + " ".join(
            f"'{part}'" for part in effects)]
    seconds, cpu = per_file_loop(command(source) for source in sorted((pack / "raw-audio").iterdir()))
    return seconds, cpu, out


def ffmpeg_normalize_loop(pack):
    """Wall and CPU seconds of a per-file ffmpeg-normalize loop, and its output folder."""
    out = pack / "ffmpeg-normalize-out"
    out.mkdir(exist_ok=True)
    seconds, cpu = per_file_loop(
        ["ffmpeg-normalize", str(source), "-o", str(out / (source.stem + ".wav")), "-t", str(TARGET),
         "-tp", str(CEILING), "-ar", "44100", "-f", "-q"]
        for source in sorted((pack / "raw-audio").iterdir()))
    return seconds, cpu, out


# ------------------------------------------------------------------------------------------- the meter

def loudness(samples, rate):
    """pyloudnorm, BS.1770: integrated for 400 ms or more; one block of the whole clip for shorter ones."""
    mono = samples if samples.ndim == 1 else samples.mean(axis=1)
    if len(mono) < rate // 100:
        return float("-inf")  # under 10 ms: nothing left to measure
    block = min(0.4, (len(mono) - 1) / rate)
    meter = pyloudnorm.Meter(rate, block_size=block)
    return meter.integrated_loudness(samples)


def short_loudness(samples, rate):
    """The README's measure for fragments under 400 ms, written again from its description with pyloudnorm's
    K-weighting filters: 20 ms blocks every 5 ms, blocks under -70 LUFS left out, each weighted by its power."""
    mono = samples if samples.ndim == 1 else samples.mean(axis=1)
    weighted = mono.copy()
    for stage in pyloudnorm.Meter(rate)._filters.values():
        weighted = stage.apply_filter(weighted)
    window, hop = int(0.02 * rate), int(0.005 * rate)
    powers = np.array([np.mean(weighted[i:i + window] ** 2) for i in range(0, len(weighted) - window + 1, hop)])
    powers = powers[powers > 10 ** ((-70 + 0.691) / 10)]
    if len(powers) == 0:
        return float("-inf")
    return -0.691 + 10 * np.log10(np.sum(powers ** 2) / np.sum(powers))


def true_peak(samples):
    """Highest absolute sample of each channel after 4x oversampling (scipy's polyphase filter), dBTP."""
    channels = samples.reshape(len(samples), -1)
    peak = max(np.max(np.abs(resample_poly(channels[:, c], 4, 1))) for c in range(channels.shape[1]))
    return 20 * np.log10(max(peak, 1e-12))


def head_silence_ms(samples, rate):
    """Time before the first 10 ms window within 40 dB of the loudest one."""
    mono = samples if samples.ndim == 1 else samples.mean(axis=1)
    window = int(rate / 100)
    energies = [np.mean(mono[i:i + window] ** 2) for i in range(0, max(1, len(mono) - window), window // 2)]
    loudest = max(energies) if energies else 0
    for index, energy in enumerate(energies):
        if energy > 0 and loudest > 0 and 10 * np.log10(energy / loudest) > -40:
            return index * (window // 2) * 1000 / rate
    return 0.0


def quality(folder):
    rows = []
    playable = []
    for path in sorted(folder.glob("*.*")):
        if path.suffix not in (".wav", ".caf", ".aiff"):
            continue
        info = soundfile.info(str(path))
        samples, rate = soundfile.read(str(path), always_2d=False)
        if len(samples) < rate // 100:
            # An output emptied by its trim (SoX's silence effect can do that): out of spec on every count.
            rows.append({"lufs": float("-inf"), "short": None, "tp": float("-inf"), "channels": info.channels,
                         "rate": info.samplerate, "head": 0.0, "seconds": info.duration})
            continue
        playable.append(path)
        short = short_loudness(samples, rate) if info.duration < 0.4 else None
        rows.append({"lufs": loudness(samples, rate), "short": short, "tp": true_peak(samples), "channels": info.channels,
                     "rate": info.samplerate, "head": head_silence_ms(samples, rate), "seconds": info.duration})
    values = [r["lufs"] for r in rows]
    # In spec: within 1 LU by BS.1770 from 400 ms, by the documented short-fragment measure below it.
    in_spec = [r["short"] if r.get("short") is not None else r["lufs"] for r in rows]
    finite = [v for v in values if v != float("-inf")]
    phons = heard.files_phon(playable)
    return {key: (float(value) if isinstance(value, np.floating) else int(value) if isinstance(value, np.integer) else value)
            for key, value in {
        "count": len(rows),
        "within1": sum(abs(v - TARGET) <= 1 for v in values),
        "spread": max(finite) - min(finite),
        "stdev": statistics.pstdev(finite),
        "empty": len(values) - len(finite),
        "within1_spec": sum(abs(v - TARGET) <= 1 for v in in_spec),
        "overs": sum(r["tp"] > CEILING + 0.05 for r in rows),
        "mono": sum(r["channels"] == 1 for r in rows),
        "rate": sum(r["rate"] == 44100 for r in rows),
        "head": median([r["head"] for r in rows]),
        "head_max": max(r["head"] for r in rows),
        "short": sum(r["seconds"] < 0.4 for r in rows),
        "heard_spread": heard.spread(phons),
    }.items()}


# ------------------------------------------------------------------------------------------- profiling

def profile(pack):
    """perf (cpu-clock samples) of a cold build on one job, grouped by the library the time was spent in (the
    build linked against the Swift runtime's shared libraries, so that the runtime is a library of its own); and
    the hearing model's share, counted by function."""
    clean(pack)
    data = work / "perf.data"
    subprocess.run(["perf", "record", "-e", "cpu-clock", "-q", "-o", str(data), str(ASSETS_DYNAMIC), "build",
                    "--jobs", "1"],
                   cwd=pack, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    def report(key):
        """Each row's share in % by `key` (dso or sym)."""
        text = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort", key, "--stdio"],
                              check=True, capture_output=True, text=True).stdout
        rows = (re.match(r"\s+([\d.]+)%\s+(?:\[.\]\s+)?(\S+)", line) for line in text.splitlines())
        return [(match.group(2), float(match.group(1))) for match in rows if match]
    shares = dict(report("dso"))
    # The hearing model by function name: ISO 532-1 itself and the fragment's way into it.
    model_share = sum(share for symbol, share in report("sym")
                      if "HearingModel" in symbol or "HeardLoudness" in symbol)
    groups = {
        "resampling (libsamplerate)": ["libsamplerate"],
        "loudness and true peak (libebur128)": ["libebur128"],
        "decoding and encoding (libsndfile and its codecs)": ["libsndfile", "libFLAC", "libvorbis", "libogg", "libmpg123",
                                                              "libmp3lame", "libopus"],
        "hashing (libcrypto)": ["libcrypto"],
        "voice analysis (aubio, FFTW)": ["libaubio", "libfftw3f"],
        "decoding .m4a (FFmpeg)": ["libavcodec", "libavformat", "libavutil"],
        "our code (assets)": ["assets"],
        "Swift runtime and Foundation": ["libswift", "libFoundation", "lib_Foundation", "libdispatch"],
        "C library, loader, kernel": ["libc.so", "libm.so", "ld-linux", "[kernel", "libstdc++", "libgcc"],
    }
    grouped = {name: 0.0 for name in groups}
    grouped["other"] = 0.0
    for dso, share in shares.items():
        for name, prefixes in groups.items():
            if any(dso.startswith(prefix) for prefix in prefixes):
                grouped[name] += share
                break
        else:
            grouped["other"] += share
    return grouped, model_share


# ----------------------------------------------------------------------------------------------- main

def interleaved(commands, runs):
    """Runs each of `commands` (callables returning seconds) in turn, `runs` rounds, and returns the
    medians: this machine's speed drifts, so alternating keeps the comparisons fair."""
    times = [[] for _ in commands]
    for _ in range(runs):
        for index, command in enumerate(commands):
            times[index].append(command())
    return [median(values) for values in times]


def sox_round(pack, cpu):
    """One SoX loop for `interleaved`: its wall seconds; its CPU seconds are appended to `cpu`."""
    seconds, cpu_seconds, _ = sox_loop(pack)
    cpu.append(cpu_seconds)
    return seconds


def cold_pair(pack, pool):
    """Two one-job cold builds at once, on the corpus and a copy of it: the mean of their wall times. Set
    against one such build alone, it says how much this machine's two vCPUs slow each other, which caps
    what `--jobs 2` can gain here."""
    twin = pack.parent / f"{pack.name}-twin"
    if not twin.exists():
        shutil.copytree(pack / "raw-audio", twin / "raw-audio")
    (twin / "assets.json").write_text((pack / "assets.json").read_text())
    set_resampler(pack, None)
    set_resampler(twin, None)
    clean(pack)
    clean(twin)
    command = [str(ASSETS), "build", "--jobs", "1"]
    futures = [pool.submit(timed, command, folder) for folder in (pack, twin)]
    return statistics.mean(future.result()[0] for future in futures)


def lossless_copy(pack):
    """The corpus with its .m4a deliveries turned into WAV: what a build without FFmpeg reads."""
    copy = pack.parent / f"{pack.name}-no-m4a"
    if not copy.exists():
        shutil.copytree(pack / "raw-audio", copy / "raw-audio")
        for path in list((copy / "raw-audio").glob("*.m4a")):
            run(["ffmpeg", "-loglevel", "error", "-i", str(path), str(path.with_suffix(".wav"))])
            path.unlink()
    (copy / "assets.json").write_text((pack / "assets.json").read_text())
    return copy


def earlier_builds(pack):
    """Cold builds (2 jobs) of the corpus without .m4a by this assets and each earlier one, interleaved,
    5 rounds: medians in seconds by name."""
    copy = lossless_copy(pack)

    def cold(binary):
        def once():
            clean(copy)
            return timed([str(binary), "build", "--jobs", "2"], cwd=copy)[0]
        return once
    binaries = builds()
    return dict(zip(binaries, interleaved([cold(binary) for binary in binaries.values()], 5)))


def builds():
    """This assets and the earlier ones to set it against, by name."""
    return {"now": ASSETS, **EARLIER}


def start_up(runs=31):
    """`assets --version` by this assets and each earlier one, interleaved: how long each takes to start, most of it
    the loader mapping the shared libraries it links. Medians in seconds by name."""
    def once(binary):
        def run_it():
            started = time.perf_counter()
            subprocess.run([str(binary), "--version"], check=True, stdout=subprocess.DEVNULL)
            return time.perf_counter() - started
        return run_it
    binaries = builds()
    return dict(zip(binaries, interleaved([once(binary) for binary in binaries.values()], runs)))


def shared_libraries(binary):
    """How many shared libraries the loader maps for `binary` (ldd's lines that name one)."""
    return sum("=>" in line or line.strip().startswith("/") for line in run(["ldd", str(binary)]).stdout.splitlines())


def check_seconds(runs=9):
    """`check` on the shipped pack (it reads the manifest and hashes files; it decodes nothing): the median."""
    return median([timed([str(ASSETS), "check"], cwd=ROOT)[0] for _ in range(runs)])


def consistency():
    """The consistency corpora (scripts/make-consistency-corpus) built and checked: which recordings each
    pack's `check` reports in the category `consistency`, and why."""
    folder = work / "consistency"
    run([str(ROOT / "scripts/make-consistency-corpus"), str(folder)])
    found = {}
    for name in ["uniform", "odd"]:
        pack = folder / name
        run([str(ASSETS), "build"], cwd=pack)
        report = subprocess.run([str(ASSETS), "check", "--format", "json"], cwd=pack, capture_output=True, text=True)
        findings = json.loads(report.stdout)["findings"]
        found[name] = sorted((f["subject"], f["message"].split(":")[1].strip()) for f in findings
                             if f["category"] == "consistency")
    return found


def audit_seconds(runs=5):
    """`audit --format html --output` on the shipped pack, utterances and their sounds included: the median."""
    with tempfile.TemporaryDirectory() as folder:
        return median([timed([str(ASSETS), "audit", "--format", "html", "--output", f"{folder}/audit.html"],
                             cwd=ROOT)[0] for _ in range(runs)])


def cold_once(pack, quality, jobs):
    """Wall seconds of a cold build; its peak memory goes to `cold_once.memory`, its CPU seconds to
    `cold_once.cpu[(quality, jobs)]`."""
    set_resampler(pack, quality)
    clean(pack)
    seconds, megabytes, cpu = timed([str(ASSETS), "build", "--jobs", str(jobs)], cwd=pack)
    cold_once.memory = max(cold_once.memory, megabytes)
    cold_once.cpu.setdefault((quality, jobs), []).append(cpu)
    return seconds


cold_once.memory = 0
cold_once.cpu = {}


def main():
    global work
    work = Path(tempfile.mkdtemp(prefix="assets-benchmark-"))
    print(f"benchmark folder: {work}", flush=True)
    base = make_base()
    results = {"sizes": {}}
    corpora = {size: make_corpus(base, size) for size in SIZES}
    for size, pack in corpora.items():
        entry = {}
        if size <= 360:
            runs = 5 if size == 36 else 3
            commands = [lambda: cold_once(pack, None, 2), lambda: cold_once(pack, None, 1),
                        lambda: cold_once(pack, "best", 2), lambda: cold_once(pack, "best", 1)]
            if size == 36:
                pool = ThreadPoolExecutor(max_workers=2)
                sox_cpu = []
                commands += [lambda: sox_round(pack, sox_cpu), lambda: cold_pair(pack, pool)]
            medians = interleaved(commands, runs)
            entry["cold"], entry["cold_jobs1"], entry["cold_best"], entry["cold_best_jobs1"] = medians[:4]
            if size == 36:
                results["sox"] = medians[4]
                results["contention"] = medians[5] / entry["cold_jobs1"]
                # CPU seconds, user + system: what each way of doing the job costs the machine in all.
                results["cpu"] = {"cold": median(cold_once.cpu[(None, 2)]),
                                  "cold_best": median(cold_once.cpu[("best", 2)]),
                                  "sox": median(sox_cpu)}
            cold_once.cpu = {}
        else:
            entry["cold"] = cold_once(pack, None, 2)
        entry["cold_mb"] = cold_once.memory
        cold_once.memory = 0
        if size <= 360:  # the interleaved runs may have left a build with the best converter: build the default
            set_resampler(pack, None)
            clean(pack)
            run([str(ASSETS), "build"], cwd=pack)
        entry["noop"], entry["noop_mb"] = noop(pack)
        entry["changed"], entry["changed_cpu"] = one_changed(pack)
        if size == max(SIZES):
            results["changed_without_shortcut"], _ = one_changed(pack, touch_manifest=True)
        results["sizes"][size] = entry
        print(f"{size}: {entry}", flush=True)

    small = corpora[36]
    sox_out = small / "sox-out"
    results["sox_360"], _, _ = sox_loop(corpora[360])
    results["ffmpeg"], results["cpu"]["ffmpeg"], ffmpeg_out = ffmpeg_normalize_loop(small)
    results["quality"] = {
        "assets": quality(small / "normalized"),
        "sox": quality(sox_out),
        "ffmpeg-normalize": quality(ffmpeg_out),
    }
    results["profile"], results["model_share"] = profile(corpora[36])
    results["earlier"] = earlier_builds(corpora[36])
    results["start_up"] = start_up()
    results["libraries"] = {name: shared_libraries(binary) for name, binary in builds().items()}
    results["audit"] = audit_seconds()
    results["check"] = check_seconds()
    results["consistency"] = consistency()
    results["split"] = split_benchmark.measure(60)
    results["diff"] = diff_benchmark.measure()
    results["spliced"] = spliced_amounts.measure(ROOT)
    measures_work = work / "loudness-measures"
    measures_work.mkdir()
    results["measures"] = loudness_measures.evaluate(loudness_measures.make_corpora(measures_work))
    splice = run([str(ROOT / ".build/release/splice-benchmark"), str(ROOT / "manifest.json"), "20000"]).stdout
    results["splicer"] = splice.strip().splitlines()
    (ROOT / "Benchmarks/last-run.json").write_text(json.dumps(results, indent=1, ensure_ascii=False, default=str))
    write(results)
    shutil.rmtree(work, ignore_errors=True)


def seconds(value):
    return f"{value:.2f} s" if value >= 1 else f"{value * 1000:.0f} ms"


def verdict(ok):
    """`ok` None: the target was not measured in this run, which is neither met nor missed."""
    return "not measured" if ok is None else "met" if ok else "**missed**"


def write(results):
    sizes = results["sizes"]
    s36 = sizes[36]
    per_fragment = {size: sizes[size]["cold_jobs1"] / size for size in sizes if "cold_jobs1" in sizes[size]}
    largest = max(sizes)
    lines = ["# Benchmarks", "",
             "Made by `scripts/benchmark` in one run on this machine (2 cores, shared and noisy: cold builds are medians",
             "of 3 to 5 interleaved runs where it says so, no-op and one-changed builds medians of 9). Corpora: the 36",
             "deliveries `scripts/make-standin-recordings` makes (23 tokens and 13 phrases: WAV, FLAC, AIFF, CAF, Ogg, W64,",
             "MP3; 16–96 kHz; mono, stereo, silent and inverted channels; levels",
             "−3 to −24 dBFS; silence over a noise floor), repeated under phrase stems to 360 and 3,600 fragments.",
             "`assets` is built as the README builds it: release, with the Swift runtime linked in.", "",
             "## `assets build`", "",
             "The default converter is `medium` (the README says why); `best` is shown beside it.", "",
             "| fragments | cold, 2 jobs | cold, 1 job | jobs 2 ÷ 1 | cold, best converter, 2 jobs / 1 job | no-op | one source changed | peak memory (cold / no-op) |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for size, entry in sizes.items():
        jobs1 = entry.get("cold_jobs1")
        ratio = f"{jobs1 / entry['cold']:.2f}×" if jobs1 else "—"
        best = (f"{seconds(entry['cold_best'])} / {seconds(entry['cold_best_jobs1'])}" if "cold_best" in entry
                else "—")
        lines.append(
            f"| {size:,} | {seconds(entry['cold'])} | {seconds(jobs1) if jobs1 else '—'} | {ratio} | "
            f"{best} | {seconds(entry['noop'])} | "
            f"{seconds(entry['changed'])} | {entry['cold_mb']:.0f} MB / {entry['noop_mb']:.0f} MB |")
    if "changed_without_shortcut" in results:
        lines += ["", "## What the shortcut saves", "",
                  "The build's one shortcut (`Sources/PackTools/FastPaths.swift`) carries unchanged fragments over as",
                  "their manifest text. Without it — the manifest's time set as a checkout would, so that the build",
                  f"decodes it and writes every fragment again — one changed source of {largest:,} takes "
                  f"{seconds(results['changed_without_shortcut'])} instead of {seconds(sizes[largest]['changed'])}."]
    cpu = results.get("cpu", {})

    def cpu_seconds(name):
        return seconds(cpu[name]) if name in cpu else "—"

    # The CPU of a cold build (2 jobs) that is the hearing model's, and the rest, by the profile's share.
    model_cpu = cpu["cold"] * results["model_share"] / 100 if "cold" in cpu else None
    without_model = cpu["cold"] - model_cpu if "cold" in cpu else None

    lines += ["", "## The same job without `assets`, 36 fragments", "",
              "CPU time is user + system of every process, the medians of the same rounds: what each way costs the",
              "machine in all, where the wall time is what a user waits.", "",
              "| | wall time | CPU time | `assets` is faster by |", "|---|---:|---:|---:|",
              f"| `assets build` (cold, 2 jobs) | {seconds(s36['cold'])} | {cpu_seconds('cold')} | |",
              f"| `assets build` (cold, best converter, 2 jobs) | {seconds(s36['cold_best'])} | {cpu_seconds('cold_best')} | |",
              f"| SoX loop (`remix - rate 44100 silence … reverse … norm -1`) | {seconds(results['sox'])} | "
              f"{cpu_seconds('sox')} | "
              f"{results['sox'] / s36['cold']:.2f}× ({results['sox'] / s36['cold_best']:.2f}× with the best converter) |",
              f"| ffmpeg-normalize loop (`-t -16 -tp -1 -ar 44100`) | {seconds(results['ffmpeg'])} | "
              f"{cpu_seconds('ffmpeg')} | "
              f"{results['ffmpeg'] / s36['cold']:.1f}× ({results['ffmpeg'] / s36['cold_best']:.1f}× with the best converter) |",
              f"| SoX loop, 360 fragments | {seconds(results['sox_360'])} | — | "
              f"{results['sox_360'] / sizes[360]['cold']:.2f}× ({results['sox_360'] / sizes[360]['cold_best']:.2f}× with the best converter) |",
              "", "## Quality of every output, by independent meters", "",
              "Heard loudness: ISO 532-1 time-varying loudness by mosqito (`loudness_zwtv`), N5 in phon, a full-scale sine",
              "at 90 dB SPL; its spread (max − min) over the outputs is what a listener hears as fragments louder or",
              "softer than their neighbours. pyloudnorm (BS.1770) for loudness — integrated for outputs of 400 ms or",
              "more, one block of the whole clip for shorter ones. scipy's 4× polyphase oversampling for true peak.",
              "Head silence: the time before the first 10 ms within 40 dB of the loudest.", "",
              "| tool | outputs | heard loudness spread (N5, max − min) | BS.1770 spread (max − min) | within 1 LU of −16 by BS.1770 | true peak over −1 dBTP | mono | 44.1 kHz | head silence (median / max) |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for tool, q in results["quality"].items():
        empty = f" ({q['empty']} empty)" if q.get("empty") else ""
        lines.append(f"| {tool} | {q['count']}{empty} | {q['heard_spread']:.2f} phon | {q['spread']:.1f} LU | {q['within1']} | {q['overs']} | "
                     f"{q['mono']} | {q['rate']} | {q['head']:.0f} / {q['head_max']:.0f} ms |")
    spliced = results["spliced"]
    lines += ["", "## Spliced amounts", "",
              "A dozen amounts across the styles, forms and templates, said by `assets say` from the shipped pack and measured",
              "by pyloudnorm (BS.1770 integrated) and scipy (4× true peak): the pack is set so that these measure −16 LUFS.", "",
              "| amount | style/form | template | text | length | loudness | true peak |", "|---|---|---|---|---:|---:|---:|"]
    for row in spliced:
        lines.append(f"| {row['amount']} | {row['style']}/{row['form']} | {row['template'] or '—'} | {row['text']} | "
                     f"{row['seconds']:.2f} s | {row['lufs']:.2f} LUFS | {row['truePeak']:.2f} dBTP |")
    lines += ["", "## Which loudness measure makes fragments sound equally loud", "",
              "Each candidate brings every fragment of three corpora to one value of itself; the judge is the spread of the",
              "fragments' heard loudness (ISO 532-1 N5 by mosqito). The last row is `assets build` as it is; the others",
              "scale its fragments by each candidate's gain (`Benchmarks/loudness_measures.py`).", "",
              loudness_measures.table(results["measures"])]
    lines += ["", "## Where a cold build's time goes", "",
              "perf, cpu-clock samples of a cold build of the 36 fragments on one job (the same code linked against",
              "the Swift runtime's shared libraries, so that each sample's library tells our code from the runtime's):",
              "",
              "| spent in | share |", "|---|---:|"]
    for name, share in sorted(results["profile"].items(), key=lambda item: -item[1]):
        lines.append(f"| {name} | {share:.1f} % |")
    own = results["profile"]["our code (assets)"] + results["profile"]["Swift runtime and Foundation"]
    lines += ["", f"Counted by function instead, the hearing model (ISO 532-1: `HearingModel` and `HeardLoudness`) takes "
              f"{results['model_share']:.1f} % of the samples. What it costs a cold build of the 36 (2 jobs): about "
              f"{seconds(model_cpu)} of its {cpu_seconds('cold')} of CPU; the rest of the build, "
              f"without the model, would still take about {seconds(without_model)} against the SoX loop's "
              f"{cpu_seconds('sox')}." if without_model else ""]
    lines += ["", "## The splicer", "", "`splice-benchmark` on the shipped pack, loaded (20,000 amounts across every style and form):",
              "", "```"] + results["splicer"] + ["```", ""]
    quality_assets = results["quality"]["assets"]

    earlier = results.get("earlier", {})
    start = results.get("start_up", {})
    libraries = results.get("libraries", {})
    if len(earlier) > 1:
        lines += ["", "## This build against earlier ones", "",
                  "Cold builds (2 jobs) of the 36 deliveries with the two .m4a ones turned into WAV, which every build",
                  "reads, interleaved, medians of 5 rounds; and the time to start (`assets --version`, medians of 31",
                  "interleaved runs), most of it the loader mapping the shared libraries each binary links:", "",
                  "| assets | cold, 2 jobs | start-up | shared libraries |", "|---|---:|---:|---:|"]
        lines += [f"| {name} | {seconds(value)} | {f'{start[name] * 1000:.1f} ms' if name in start else '—'} | "
                  f"{libraries.get(name, '—')} |" for name, value in earlier.items()] + [""]
    targets = [
        ("cold build of 36 faster than the SoX loop", s36["cold"] < results["sox"],
         f"{seconds(s36['cold'])} vs {seconds(results['sox'])}; at 360: "
         f"{seconds(sizes[360]['cold'])} vs {seconds(results['sox_360'])}"
         + (f"; in CPU time {cpu_seconds('cold')} vs {cpu_seconds('sox')}: `assets` does more work (a model of "
            f"hearing, loudness, true peak, a sinc converter), on two cores"
            if cpu.get("cold", 0) > cpu.get("sox", float("inf")) else ""),
         f"`assets` now judges every fragment by a model of hearing: ISO 532-1's filter bank (28 third-octave "
         f"bands at 48 kHz) and its temporal decay (24 steps every 0.5 ms), asked about six times a fragment to "
         f"find the gain with and without the limiter (the searches at a quick resolution of 2 steps, each result "
         f"measured at the standard's) — {results['model_share']:.0f} % of a cold build's CPU"
         + (f"; the rest of the build alone would still take {seconds(without_model)} of CPU against the SoX "
            f"loop's {cpu_seconds('sox')}" if without_model and without_model > cpu.get("sox", 0) else "")
         + f"; the voice analysis adds {results['profile']['voice analysis (aubio, FFTW)']:.0f} % in aubio and FFTW"
         + (f"; the first round's build, which normalized by a level meter, took {seconds(earlier['first round'])} "
            f"on the same deliveries without .m4a" if "first round" in earlier else "")),
        ("at least 20× faster than ffmpeg-normalize", results["ffmpeg"] / s36["cold"] >= 20,
         f"{results['ffmpeg'] / s36['cold']:.1f}× ({results['ffmpeg'] / s36['cold_best']:.1f}× with the best converter)",
         "the hearing model's cost, as in the first row"),
        ("fragments heard within 2.5 phon of each other (ISO 532-1 N5 by mosqito), 36 deliveries",
         quality_assets["heard_spread"] <= 2.5,
         f"{quality_assets['heard_spread']:.2f} phon (SoX {results['quality']['sox']['heard_spread']:.2f}, "
         f"ffmpeg-normalize {results['quality']['ffmpeg-normalize']['heard_spread']:.2f})", ""),
        ("fragments heard within 2.5 phon, every corpus of the measure's choice",
         all(row["spreads"]["assets build: ISO 532-1 N5"] <= 2.5 for row in results["measures"].values()),
         "; ".join(f"{name}: {row['spreads']['assets build: ISO 532-1 N5']:.2f} phon"
                   for name, row in results["measures"].items()),
         "the fastest-spoken single syllables (130 ms) cannot be heard as loud as the rest under the −1 dBTP ceiling "
         "within 12 dB of limiting (`loudness.maximumLimitingDB`): `build` warns and `check` names them"),
        ("spliced amounts within 1 LU of −16 LUFS, 0 true-peak overs (pyloudnorm, scipy)",
         all(abs(row["lufs"] + 16) <= 1 for row in spliced) and all(row["truePeak"] <= -1 for row in spliced)
         and quality_assets["overs"] == 0,
         f"{sum(abs(row['lufs'] + 16) <= 1 for row in spliced)}/{len(spliced)} within 1 LU "
         f"({min(row['lufs'] for row in spliced):.2f} to {max(row['lufs'] for row in spliced):.2f} LUFS), "
         f"{sum(row['truePeak'] > -1 for row in spliced) + quality_assets['overs']} true-peak overs", ""),
        ("a cold build without .m4a no slower than before FFmpeg was linked",
         earlier["now"] <= earlier["before FFmpeg"] * 1.05 if "before FFmpeg" in earlier else None,
         (f"{seconds(earlier['now'])} against {seconds(earlier['before FFmpeg'])}" if "before FFmpeg" in earlier
          else "not measured (ASSETS_BEFORE_FFMPEG unset)")
         + (f"; the first round's (LUFS, no hearing model): {seconds(earlier['first round'])}"
            if "first round" in earlier else "")
         + (f"; what the link itself costs is start-up, once a command: {start['now'] * 1000:.0f} ms against "
            f"{start['before FFmpeg'] * 1000:.0f} ms ({libraries['now']} shared libraries against "
            f"{libraries['before FFmpeg']})" if "before FFmpeg" in start else ""),
         "within the host's noise: the path of a file libsndfile reads is the same but for one enum"),
        ("a one-hour session split in under 10 s and 200 MB",
         results["split"]["seconds"] < 10 and results["split"]["peakMB"] < 200 if "split" in results else None,
         (f"{results['split']['seconds']:.2f} s, {results['split']['peakMB']} MB ({results['split']['utterances']:,} "
          f"utterances, {results['split']['sessionMB']} MB of WAV)") if "split" in results else "not measured", ""),
        ("consistency: the odd pack's four recordings flagged, each for its reason, and nothing else; the uniform pack clean",
         results["consistency"]["uniform"] == [] and [tuple(row) for row in results["consistency"]["odd"]] == [
             ("raw-audio/digit_3.wav", "another voice or register"), ("raw-audio/digit_5.caf", "a narrower band than the rest"),
             ("raw-audio/digit_6.wav", "another pace"), ("raw-audio/digit_8.aiff", "an audible noise floor, far above the rest")],
         "; ".join(f"{subject.split('/')[-1]}: {why}" for subject, why in results["consistency"]["odd"])
         + f"; uniform pack: {len(results['consistency']['uniform'])} findings", ""),
        ("check on the shipped pack under 0.5 s (it decodes nothing)", results["check"] < 0.5, seconds(results["check"]),
         ""),
        ("audit --format html --output on the shipped pack, utterances included, under 2 s",
         results["audit"] < 2, seconds(results["audit"]), ""),
        ("diff on the shipped pack against itself under 0.3 s (it decodes nothing)",
         results["diff"]["itself"] < 0.3 if "diff" in results else None,
         seconds(results["diff"]["itself"]) if "diff" in results else "not measured", ""),
        ("diff against a base with two changed fragments, with the HTML and its sounds, under 2 s",
         results["diff"]["twoChanged"] < 2 if "diff" in results else None,
         (f"{seconds(results['diff']['twoChanged'])} ({', '.join(results['diff']['changed'])} changed, "
          f"{', '.join(results['diff']['sameTake'])} named the same take; {results['diff']['utterances']} amounts "
          f"spliced both ways, {results['diff']['sounds']} sounds)") if "diff" in results else "not measured", ""),
        (f"no-op build of {largest:,} under 0.5 s", sizes[largest]["noop"] < 0.5, seconds(sizes[largest]["noop"]), ""),
        (f"one changed source of {largest:,} rebuilt in under 0.3 s",
         sizes[largest]["changed"] < 0.3,
         f"{seconds(sizes[largest]['changed'])} (one fragment: {seconds(per_fragment[36])}; a no-op build of "
         f"{largest:,}: {seconds(sizes[largest]['noop'])}; one changed of 36: {seconds(sizes[36]['changed'])})", ""),
        ("--jobs 2 at least 1.8× --jobs 1 (cold, 360)", sizes[360]["cold_jobs1"] / sizes[360]["cold"] >= 1.8,
         f"{sizes[360]['cold_jobs1'] / sizes[360]['cold']:.2f}× (best converter: "
         f"{sizes[360]['cold_best_jobs1'] / sizes[360]['cold_best']:.2f}×; at 36: "
         f"{s36['cold_jobs1'] / s36['cold']:.2f}×; two one-job builds at once each took "
         f"{results['contention']:.2f}× as long as one alone)",
         f"this machine's two vCPUs slow each other: in the rounds of the 36-fragment builds, two separate "
         f"one-job builds at once each took {results['contention']:.2f}× as long as one alone, which caps two "
         f"jobs at {2 / results['contention']:.2f}× here; `--jobs 2` got {s36['cold_jobs1'] / s36['cold']:.2f}× "
         f"on those 36"),
        (f"peak memory under 200 MB at {largest:,}", sizes[largest]["cold_mb"] < 200, f"{sizes[largest]['cold_mb']:.0f} MB", ""),
        ("our own code under 20 % of a cold build's CPU", own < 20,
         f"{own:.1f} % (assets {results['profile']['our code (assets)']:.1f} %, Swift runtime "
         f"{results['profile']['Swift runtime and Foundation']:.1f} %)",
         "the hearing model is our own code: no library computes ISO 532-1"),
    ]
    lines += ["## Targets", "", "| target | result | measured | why, where missed |", "|---|---|---|---|"]
    for name, ok, figure, why in targets:
        lines.append(f"| {name} | {verdict(ok)} | {figure} | {why if ok is False else ''} |")
    lines.append("")
    # The real packs' evaluation (scripts/evaluate-real-packs, on packs that are not committed) is kept as written.
    previous = (ROOT / "BENCHMARKS.md").read_text() if (ROOT / "BENCHMARKS.md").exists() else ""
    kept = previous[previous.find(REAL_PACKS_MARK):] if REAL_PACKS_MARK in previous else ""
    (ROOT / "BENCHMARKS.md").write_text("\n".join(lines) + ("\n" + kept if kept else ""))

    summary = ["<!-- benchmark:begin -->",
               f"Latest run of `scripts/benchmark` (full table in [BENCHMARKS.md](BENCHMARKS.md)): a cold build of 36 mixed deliveries",
               f"takes {seconds(s36['cold'])} ({seconds(s36['cold_best'])} with the best converter), against "
               f"{seconds(results['sox'])} for a SoX loop and {seconds(results['ffmpeg'])} for an ffmpeg-normalize loop; a no-op build of",
               f"{largest:,} fragments takes {seconds(sizes[largest]['noop'])}. Judged by ISO 532-1 (mosqito), `assets`' fragments are "
               f"heard within {results['quality']['assets']['heard_spread']:.2f} phon of each other "
               f"(SoX {results['quality']['sox']['heard_spread']:.2f}, ffmpeg-normalize {results['quality']['ffmpeg-normalize']['heard_spread']:.2f}).",
               "", "| target | result | measured |", "|---|---|---|"]
    summary += [f"| {name} | {verdict(ok)} | {figure} |" for name, ok, figure, _ in targets]
    summary.append("<!-- benchmark:end -->")
    readme = (ROOT / "README.md").read_text()
    block = "\n".join(summary)
    if "<!-- benchmark:begin -->" in readme:
        readme = re.sub(r"<!-- benchmark:begin -->.*<!-- benchmark:end -->", lambda _: block, readme, flags=re.S)
    else:
        readme += "\n## Benchmarks\n\n" + block + "\n"
    (ROOT / "README.md").write_text(readme)


if __name__ == "__main__":
    if "--report" in sys.argv:
        # Re-render BENCHMARKS.md and the README summary from the last run's figures.
        def numbers(value):
            # Figures saved by a run before numpy's numbers were turned into Python's came back as text.
            if isinstance(value, dict):
                return {key: numbers(item) for key, item in value.items()}
            if isinstance(value, str) and re.fullmatch(r"-?[\d.]+(e-?\d+)?", value):
                return float(value) if "." in value or "e" in value else int(value)
            return value
        saved = numbers(json.loads((ROOT / "Benchmarks/last-run.json").read_text()))
        saved["sizes"] = {int(size): entry for size, entry in saved["sizes"].items()}
        write(saved)
    else:
        main()
