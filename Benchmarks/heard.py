"""The independent judge of heard loudness: ISO 532-1 time-varying loudness by mosqito (`loudness_zwtv`),
summed up as N5 in phon, with a full-scale 1 kHz sine calibrated to 90 dB SPL (assets' default)."""
import contextlib
import io
import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import soundfile

FULL_SCALE_DB_SPL = 90.0


def n5_phon(samples, rate, full_scale_db_spl=FULL_SCALE_DB_SPL):
    """N5 (95th percentile of the loudness over time, linearly interpolated) as a loudness level in phon."""
    import matplotlib  # mosqito imports it
    matplotlib.use("Agg")
    from mosqito.sq_metrics import loudness_zwtv

    mono = samples if samples.ndim == 1 else samples.mean(axis=1)
    pascals = mono * (20e-6 * 10 ** (full_scale_db_spl / 20) * np.sqrt(2))
    with contextlib.redirect_stdout(io.StringIO()):  # its note that it resamples to 48 kHz
        loudness, _, _, _ = loudness_zwtv(pascals, rate, field_type="free")
    n5 = float(np.percentile(loudness, 95))
    return 40 + 33.22 * np.log10(n5) if n5 >= 1 else 40 * (n5 + 0.0005) ** 0.35


def _file_phon(path):
    samples, rate = soundfile.read(str(path))
    return n5_phon(samples, rate)


def files_phon(paths):
    """N5 in phon of each file, on every core."""
    with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        return list(pool.map(_file_phon, paths))


def spread(values):
    return max(values) - min(values)
