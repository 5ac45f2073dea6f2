"""Can a nasal ending tell 三 (san) from 八 (ba), and 零 (ling) from 一 (yi)? Each pair is one tone and one vowel,
so `check` misses a swap of their takes. An experiment on built packs, not a benchmark of `assets`.

For each syllable, over its frames within 20 dB of its loudest (25 ms, hop 10 ms): the level of 500–4000 Hz
against 80–500 Hz in its last fifth, less the same in its middle (30–60 %). A nasal murmur keeps its low band and
loses the rest, so a syllable ending in n or ng should fall further than one ending in its vowel. Printed for
each pack: that fall for 三, 八, 一 and 零 (dB), and each pair's difference the names' way (三 − 八, 零 − 一):
negative where the nasal one falls further, as it should; a swap turns the sign.

    python3 Benchmarks/nasal_coda.py DIR...    # each DIR a built pack (manifest.json, normalized/)
"""
import json
import sys
from pathlib import Path

import numpy as np
import soundfile
from scipy.signal import stft

# The financial characters a pack may have instead (javaexc's 叁 捌 壹).
SPELLINGS = {"三": "三叁", "八": "八捌", "一": "一壹", "零": "零〇"}


def ending_fall(path):
    """The level of 500–4000 Hz over 80–500 Hz in the syllable's last fifth less in its middle, in dB."""
    samples, rate = soundfile.read(path, dtype="float64")
    if samples.ndim > 1:
        samples = samples.mean(axis=1)
    window, hop = int(0.025 * rate), int(0.010 * rate)
    if len(samples) < 2 * window:
        return None
    frequencies, _, spectrum = stft(samples, rate, nperseg=window, noverlap=window - hop, boundary=None, padded=False)
    power = np.abs(spectrum) ** 2
    level = 10 * np.log10(power.sum(axis=0) + 1e-12)
    loud = np.flatnonzero(level > level.max() - 20)
    if len(loud) < 8:
        return None
    first, last = loud[0], loud[-1]
    length = last - first + 1
    low = power[(frequencies >= 80) & (frequencies < 500)].sum(axis=0)
    rest = power[(frequencies >= 500) & (frequencies < 4000)].sum(axis=0)

    def over_low(frames):
        return 10 * np.log10(rest[frames].sum() / (low[frames].sum() + 1e-12))

    middle = slice(first + int(0.3 * length), first + int(0.6 * length))
    end = slice(first + int(0.8 * length), last + 1)
    return over_low(end) - over_low(middle)


def falls(pack):
    manifest = json.loads((pack / "manifest.json").read_text())
    files = {fragment["token"]: pack / fragment["file"] for fragment in manifest["fragments"]}
    found = {}
    for token, spellings in SPELLINGS.items():
        path = next((files[spelling] for spelling in spellings if spelling in files), None)
        found[token] = ending_fall(path) if path else None
    return found


def main():
    print("pack  三  八  一  零  三−八  零−一")
    for folder in sys.argv[1:]:
        fall = falls(Path(folder))

        def shown(value):
            return "-" if value is None else f"{value:+.1f}"

        def difference(nasal, other):
            return None if fall[nasal] is None or fall[other] is None else fall[nasal] - fall[other]

        print(Path(folder).name, *(shown(fall[token]) for token in SPELLINGS),
              shown(difference("三", "八")), shown(difference("零", "一")), sep="  ")


if __name__ == "__main__":
    main()
