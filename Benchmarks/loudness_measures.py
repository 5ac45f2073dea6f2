"""Which loudness measure makes fragments sound equally loud? For each candidate measure, every fragment of
three corpora is brought to the same value of that measure, and the spread (max - min) of the fragments'
heard loudness is taken: ISO 532-1 N5 in phon, by mosqito (heard.py). The smallest spread wins.

The fragments are the ones `assets build` makes of each corpus (decoded, mono, 44.1 kHz, trimmed); a
candidate's normalization is a gain, so it is applied to those fragments by scaling them. The row of
the measure assets normalizes by is the build itself, unscaled.

    python3 Benchmarks/loudness_measures.py      # needs .build/release/assets; about 5 minutes on 2 cores
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pyloudnorm
import soundfile

sys.path.insert(0, str(Path(__file__).resolve().parent))
import heard  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / ".build/release/assets"
SYLLABLES = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九", "两", "十", "百", "千", "万", "亿", "元",
             "角", "分", "整", "点"]
EXTRA = ["收款成功", "谢谢惠顾", "付款成功", "余额不足", "退款到账", "转账成功", "扫码支付",
         "红包到账", "会员积分", "优惠券", "交易关闭", "请稍候", "欢迎光临"]


def k_weighted(samples, rate):
    weighted = samples.copy()
    for stage in pyloudnorm.Meter(rate)._filters.values():
        weighted = stage.apply_filter(weighted)
    return weighted


def block_powers(weighted, rate, block_ms, hop_ms):
    window, hop = max(1, int(rate * block_ms / 1000)), max(1, int(rate * hop_ms / 1000))
    if len(weighted) <= window:
        return np.array([np.sum(weighted ** 2) / window])
    squares = np.concatenate([[0.0], np.cumsum(weighted ** 2)])
    starts = np.arange(0, len(weighted) - window + 1, hop)
    return (squares[starts + window] - squares[starts]) / window


def lufs(power):
    return -0.691 + 10 * np.log10(max(power, 1e-20))


def first_round(samples, rate):
    """assets' measure before this round: BS.1770 integrated from 400 ms, power-weighted 20 ms blocks under."""
    if len(samples) >= 0.4 * rate:
        return pyloudnorm.Meter(rate).integrated_loudness(samples)
    powers = block_powers(k_weighted(samples, rate), rate, 20, 5)
    powers = powers[powers > 10 ** ((-70 + 0.691) / 10)]
    return lufs(np.sum(powers ** 2) / np.sum(powers))


def loudest_window(ms):
    def measure(samples, rate):
        return lufs(np.max(block_powers(k_weighted(samples, rate), rate, ms, 10)))
    return measure


def gated_mean(samples, rate):
    """Mean power of 20 ms blocks, gated as BS.1770 gates its 400 ms blocks (-70 LUFS, then 10 LU under)."""
    powers = block_powers(k_weighted(samples, rate), rate, 20, 5)
    powers = powers[powers > 10 ** ((-70 + 0.691) / 10)]
    powers = powers[powers > np.mean(powers) * 0.1]
    return lufs(np.mean(powers))


CANDIDATES = {
    "first round: BS.1770 from 400 ms, 20 ms power-weighted under": first_round,
    "loudest 100 ms (K-weighted)": loudest_window(100),
    "loudest 200 ms (K-weighted)": loudest_window(200),
    "loudest 400 ms (K-weighted, momentary max)": loudest_window(400),
    "gated mean of 20 ms blocks (K-weighted)": gated_mean,
}


def scaled_phon(job):
    samples, rate, gain_db = job
    return heard.n5_phon(samples * 10 ** (gain_db / 20), rate)


def make_corpora(work):
    corpora = {}
    shipped = work / "shipped"
    shipped.mkdir()
    shutil.copytree(ROOT / "raw-audio", shipped / "raw-audio")
    shutil.copy(ROOT / "assets.json", shipped / "assets.json")
    corpora["shipped pack (23)"] = shipped

    deliveries = work / "deliveries"
    extra = work / "extra.txt"
    extra.write_text("".join(f"phrase_x{i:02d}|{text}\n" for i, text in enumerate(EXTRA)))
    subprocess.run([str(ROOT / "scripts/make-standin-recordings"), str(deliveries / "raw-audio"), str(extra)],
                   check=True, stdout=subprocess.DEVNULL)
    settings = {"phrases": {f"phrase_x{i:02d}": text for i, text in enumerate(EXTRA)}}
    settings["phrases"].update({"phrase_alipay": "支付宝到账", "phrase_wechat": "微信收款"})
    settings.update({"styles": ["spoken"], "forms": ["yuan"]})
    (deliveries / "assets.json").write_text(json.dumps(settings, ensure_ascii=False))
    corpora["benchmark deliveries (36)"] = deliveries

    # Single syllables spoken slow, normal and fast: 250 to 700 ms, the lengths a designer's takes vary by.
    paced = work / "paced"
    (paced / "raw-audio").mkdir(parents=True)
    phrases = {}
    for speed in (90, 175, 320):
        for index, text in enumerate(SYLLABLES):
            stem = f"s{speed}_{index:02d}"
            voice = work / "voice.wav"
            subprocess.run(["espeak-ng", "-v", "cmn", "-s", str(speed), "-w", str(voice), text], check=True)
            level = -3 - (index * 7) % 22
            subprocess.run(["sox", "-R", str(voice), "-r", "44100", str(paced / "raw-audio" / f"{stem}.wav"),
                            "norm", str(level), "pad", "0.2", "0.3"], check=True)
            phrases[stem] = f"{text}{speed}"
    (paced / "assets.json").write_text(json.dumps({"phrases": phrases, "styles": ["spoken"], "forms": ["yuan"]},
                                                  ensure_ascii=False))
    corpora["single syllables at three paces (63)"] = paced
    return corpora


def evaluate(corpora):
    results = {}
    with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        for corpus, pack in corpora.items():
            subprocess.run([str(ASSETS), "build"], cwd=pack, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            fragments = [soundfile.read(str(path)) for path in sorted((pack / "normalized").glob("*.wav"))]
            row = {"fragments": len(fragments),
                   "short": sum(len(samples) < 0.4 * rate for samples, rate in fragments)}
            spreads = {}
            for name, measure in CANDIDATES.items():
                values = [measure(samples, rate) for samples, rate in fragments]
                middle = float(np.median(values))
                jobs = [(samples, rate, middle - value) for (samples, rate), value in zip(fragments, values)]
                spreads[name] = heard.spread(list(pool.map(scaled_phon, jobs)))
            spreads["assets build: ISO 532-1 N5"] = heard.spread(list(pool.map(scaled_phon, [
                (samples, rate, 0.0) for samples, rate in fragments])))
            row["spreads"] = spreads
            results[corpus] = row
            print(corpus, json.dumps(row, ensure_ascii=False), flush=True)
    return results


def table(results):
    corpora = list(results)
    names = list(next(iter(results.values()))["spreads"])
    lines = ["| measure, normalized to one value | " + " | ".join(corpora) + " |",
             "|---|" + "---:|" * len(corpora)]
    for name in names:
        lines.append(f"| {name} | " + " | ".join(f"{results[c]['spreads'][name]:.2f} phon" for c in corpora) + " |")
    return "\n".join(lines)


def main():
    work = Path(tempfile.mkdtemp(prefix="assets-loudness-"))
    try:
        results = evaluate(make_corpora(work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(table(results))
    return results


if __name__ == "__main__":
    main()
