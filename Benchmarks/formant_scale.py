"""Can a voice be told from another without its pitch, one syllable at a time? An experiment on built real packs,
not a benchmark of `assets`, in two ways, both at 8 kHz (so the 8 kHz pack compares with the rest) over the
frames within 15 dB of the loudest:

- formants: LPC (order 10) F1–F3, the syllable's formant scale against its pack's (the median over F1–F3 of the
  log ratio, less what the same token shows in the other packs);
- warp: the syllable's spectral envelope (cepstrally smoothed, on a log-frequency axis) slid along that axis
  onto the same token's envelope in the other packs (their median); the slide that fits best, in semitones,
  against the pack's median slide.

And two questions for each:

- how far a syllable's scale strays in its own voice (which a rule must allow), against a syllable moved 3–5
  semitones in formants (which the rule should catch);
- whether a syllable taken from another real voice stands out (the area under the ROC curve, the syllables in
  their own voice against every swap).

    python3 Benchmarks/formant_scale.py DIR...    # each DIR a built pack (manifest.json, normalized/)
"""
import json
import sys
from pathlib import Path

import numpy as np
import soundfile
from scipy.signal import lfilter, resample_poly

TOKENS = list("零一二三四五六七八九十百千万亿点元")
RATE = 8000


def lpc(frame, order):
    r = np.correlate(frame, frame, "full")[len(frame) - 1 : len(frame) + order]
    a = np.zeros(order + 1)
    a[0], error = 1.0, r[0]
    if error <= 0:
        return None
    for i in range(1, order + 1):
        k = -(r[i] + np.dot(a[1:i], r[i - 1 : 0 : -1])) / error
        a[1 : i + 1] += k * np.concatenate([a[i - 1 : 0 : -1], [1.0]])
        error *= 1 - k * k
    return a


def formants(signal):
    signal = lfilter([1, -0.63], [1], signal)
    size, hop = int(0.025 * RATE), int(0.010 * RATE)
    frames = [signal[i : i + size] * np.hamming(size) for i in range(0, len(signal) - size, hop)]
    energy = np.array([np.sum(f * f) for f in frames])
    found = []
    for frame, e in zip(frames, energy):
        if e < energy.max() * 10 ** (-1.5) or (a := lpc(frame, 10)) is None:
            continue
        roots = [z for z in np.roots(a) if z.imag > 0]
        peaks = sorted(
            np.angle(z) * RATE / (2 * np.pi)
            for z in roots
            if 200 < np.angle(z) * RATE / (2 * np.pi) < 3800 and -np.log(abs(z)) * RATE / np.pi < 500
        )
        if len(peaks) >= 3:
            found.append(peaks[:3])
    return np.log(np.median(found, axis=0)) if len(found) >= 3 else None


def syllables(pack):
    """Each single-syllable fragment of the built pack at `pack`, at RATE: decoded once for both studies."""
    manifest = json.loads((pack / "manifest.json").read_text())
    signals = {}
    for fragment in manifest["fragments"]:
        if fragment["token"] in TOKENS:
            samples, rate = soundfile.read(pack / fragment["file"])
            signals[fragment["token"]] = resample_poly(samples, RATE, rate)
    return signals


def deviation(packs, name, token, feature, excluded):
    """The syllable's formants against its pack's, less what the token shows in the packs not excluded."""

    def centre(pack, skip=None):
        return np.median([f for t, f in packs[pack].items() if t != skip], axis=0)

    references = [packs[q][token] - centre(q) for q in packs if q not in excluded and token in packs[q]]
    return feature - centre(name, skip=token) - np.median(references, axis=0)


AXIS = np.linspace(np.log(250), np.log(3700), 160)
STEP = AXIS[1] - AXIS[0]


def envelope(signal, size=512, lifter=18):
    """The log power spectrum over the loud frames, cepstrally smoothed, on AXIS, its mean removed."""
    length, hop = int(0.032 * RATE), int(0.010 * RATE)
    frames = np.array([signal[i : i + length] * np.hanning(length) for i in range(0, len(signal) - length, hop)])
    energy = (frames**2).sum(1)
    power = np.mean(np.abs(np.fft.rfft(frames[energy > energy.max() * 10 ** (-1.5)], size)) ** 2, axis=0)
    cepstrum = np.fft.irfft(np.log(power + 1e-12))
    cepstrum[lifter : size - lifter] = 0
    smooth = np.fft.rfft(cepstrum).real
    curve = np.interp(np.exp(AXIS), np.arange(len(smooth)) * RATE / size, smooth)
    return curve - curve.mean()


def slide(curve, reference, widest=10):
    """The slide along the log-frequency axis, in semitones, that best fits `curve` onto `reference`."""
    reach = int(np.log(2 ** (widest / 12)) / STEP)

    def fit(k):
        a, b = curve[max(0, k) : len(curve) + min(0, k)], reference[max(0, -k) : len(reference) + min(0, -k)]
        a, b = a - a.mean(), b - b.mean()
        return np.dot(a, b) / np.sqrt(np.dot(a, a) * np.dot(b, b))

    return max(range(-reach, reach + 1), key=fit) * STEP * 12 / np.log(2)


def moved(curve, semitones):
    return np.interp(AXIS, AXIS + semitones * np.log(2) / 12, curve)


def warp_study(signals):
    packs = {name: {t: envelope(s) for t, s in syllables.items()} for name, syllables in signals.items()}

    def reference(token, excluded):
        return np.median([c[token] for q, c in packs.items() if q not in excluded and token in c], axis=0)

    own, swaps, shifted, voices = [], [], [], []
    for name, curves in packs.items():
        slides = {t: slide(c, reference(t, {name})) for t, c in curves.items()}
        voices.append(f"{name} {np.median(list(slides.values())):+.1f}")
        for token, curve in curves.items():
            centre = np.median([s for t, s in slides.items() if t != token])
            own.append(slides[token] - centre)
            shifted += [slide(moved(curve, s), reference(token, {name})) - centre for s in (5, -5)]
            swaps += [
                slide(other[token], reference(token, {name, q})) - centre
                for q, other in packs.items()
                if q != name and token in other
            ]
    print("warp: each voice's median slide against the others, in semitones:", ", ".join(voices))
    own, swaps, shifted = np.abs(own), np.abs(swaps), np.abs(shifted)
    limit = np.percentile(own, 95)
    print(f"warp: {len(own)} syllables in their own voice stray {limit:.1f} semitones (95th percentile), {own.max():.1f} the largest")
    for threshold in (limit, 4, 6):
        print(
            f"  beyond {threshold:.1f}: {np.mean(own > threshold):.1%} of the own syllables, "
            f"{np.mean(shifted > threshold):.0%} of syllables moved 5 semitones in formants"
        )
    print(f"  another real voice's syllable told from the voice's own: area under the ROC curve {np.mean(swaps[:, None] > own[None, :]):.2f}")


def formant_study(signals):
    packs = {}
    for name, syllables in signals.items():
        found = {t: formants(s) for t, s in syllables.items()}
        packs[name] = {t: f for t, f in found.items() if f is not None}
    own, swaps = [], []
    for name, features in packs.items():
        for token, feature in features.items():
            own.append(deviation(packs, name, token, feature, {name}))
            swaps += [
                deviation(packs, name, token, other[token], {name, q})
                for q, other in packs.items()
                if q != name and token in other
            ]
    scale = np.array([np.median(d) for d in own])
    limit = np.percentile(np.abs(scale), 95)
    semitones = 12 / np.log(2)
    print(f"formants: {len(own)} syllables in their own voice, {len(swaps)} swapped in from another")
    print(
        f"formant scale in its own voice: 95th percentile {limit * semitones:.1f} semitones, "
        f"largest {np.abs(scale).max() * semitones:.1f}"
    )
    for shift in (3, 4, 5):
        moved = shift / semitones
        caught = (np.mean(scale + moved > limit) + np.mean(scale - moved < -limit)) / 2
        print(f"a syllable moved {shift} semitones in formants beyond that 95th percentile: {caught:.0%}")
    rms_own = np.array([np.sqrt(np.mean(d**2)) for d in own])
    rms_swaps = np.array([np.sqrt(np.mean(d**2)) for d in swaps])
    auc = np.mean(rms_swaps[:, None] > rms_own[None, :]) + 0.5 * np.mean(rms_swaps[:, None] == rms_own[None, :])
    print(f"another real voice's syllable told from the voice's own: area under the ROC curve {auc:.2f}")


def main(folders):
    signals = {Path(f).name: syllables(Path(f)) for f in folders}
    formant_study(signals)
    warp_study(signals)


if __name__ == "__main__":
    main(sys.argv[1:])
