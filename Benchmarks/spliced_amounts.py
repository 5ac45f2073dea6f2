"""Spliced amounts measured by BS.1770 (pyloudnorm) and 4x true peak: a dozen amounts across the styles, forms
and templates, said by `assets say` from a built pack. The pack is set so that these measure its target.

    python3 Benchmarks/spliced_amounts.py [PACK]     # PACK: a built voice pack (default: this repository)
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyloudnorm
import soundfile
from scipy.signal import resample_poly

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / ".build/release/assets"
# amount, style, form, template
AMOUNTS = [
    ("202", "spoken", "yuan", None),
    ("88", "spoken", "yuan", "wechat"),
    ("200", "spoken", "yuan", "alipay"),
    ("1234.56", "spoken", "yuan", None),
    ("0.05", "spoken", "decimal", None),
    ("99999.99", "spoken", "decimal", "alipay"),
    ("100010", "formatter", "yuan", None),
    ("3.5", "formatter", "decimal", "wechat"),
    ("20000000", "formatter-hant", "yuan", None),
    ("1010", "formatter-hant", "decimal", None),
    ("7", "financial", "yuan", None),
    ("86420.13", "financial", "decimal", None),
]


def measure(pack=ROOT):
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for index, (amount, style, form, template) in enumerate(AMOUNTS):
            out = Path(folder) / f"{index}.wav"
            command = [str(ASSETS), "say", amount, "--style", style, "--form", form, "-o", str(out)]
            if template:
                command += ["--template", template]
            said = subprocess.run(command, cwd=pack, check=True, capture_output=True, text=True).stdout
            samples, rate = soundfile.read(str(out))
            lufs = pyloudnorm.Meter(rate).integrated_loudness(samples)
            peak = 20 * np.log10(np.max(np.abs(resample_poly(samples, 4, 1))))
            rows.append({"amount": amount, "style": style, "form": form, "template": template,
                         "text": said.splitlines()[0], "seconds": len(samples) / rate, "lufs": lufs, "truePeak": peak})
    return rows


def main():
    pack = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    rows = measure(pack)
    for row in rows:
        print(f"{row['lufs']:7.2f} LUFS {row['truePeak']:6.2f} dBTP {row['seconds']:5.2f} s  {row['text']}")
    values = [row["lufs"] for row in rows]
    print(json.dumps({"mean": float(np.mean(values)), "min": min(values), "max": max(values)}))


if __name__ == "__main__":
    main()
