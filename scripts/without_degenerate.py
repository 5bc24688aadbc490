"""Copy a run folder's records without its degenerate interior candidates.

A sensitivity check for `fp compare` (results/conditioned.md, "One network for
the whole front"): the records of SRC (a run folder) are written to DST with
config.json, leaving out every record at an interior lambda (0 < lambda < 1)
that is a constant predictor ("collapsed") or predicts one class for every
test row ("single_class"). The lambda = 0 and lambda = 1 records stay, so
both sides of a comparison keep their standardization networks. DST then
compares with `fp compare DST_A DST_B` like any run folder. Prints how many
records were left out. Standard library only.

Usage: python3 scripts/without_degenerate.py SRC DST
"""
import glob
import json
import os
import shutil
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: without_degenerate.py SRC DST")
    src, dst = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(src, "records*.jsonl")))
    if not files:
        sys.exit(f"{src}: no records*.jsonl")
    os.makedirs(dst, exist_ok=True)
    shutil.copy(os.path.join(src, "config.json"), dst)
    left, kept = 0, 0
    for f in files:
        with open(f) as inp, open(os.path.join(dst, os.path.basename(f)), "w") as out:
            for n, line in enumerate(inp, 1):
                try:
                    r = json.loads(line)
                except json.JSONDecodeError as e:
                    sys.exit(f"{f}:{n}: not a JSON record ({e})")
                if 0 < r["lambda"] < 1 and (r.get("collapsed") or r.get("single_class")):
                    left += 1
                    continue
                kept += 1
                out.write(line)
    print(f"{src}: {left} degenerate interior records left out, {kept} kept")


if __name__ == "__main__":
    main()
