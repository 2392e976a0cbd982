#!/usr/bin/env python3
"""Run a converted model in onnxruntime on a corpus model's recorded inputs and
compare with the recorded eager PyTorch outputs (|got-exp| <= 1e-4 + 1e-4|exp|).

    .venv/bin/python tools/sweeps/compare_with_eager.py MODEL.onnx tests/corpus/NAME

Exit 0 when every output of both input sets matches, 1 otherwise.
"""
import glob
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper


def tensors(pattern):
    files = sorted(glob.glob(pattern), key=lambda p: int(p.rsplit("_", 1)[1].split(".")[0]))
    return [onnx.load_tensor(f) for f in files]


def main(model, corpus_dir):
    onnx.checker.check_model(onnx.load(model), full_check=True)
    session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    ok = True
    for set_dir in sorted(glob.glob(f"{corpus_dir}/set_*")):
        feeds = {t.name: numpy_helper.to_array(t) for t in tensors(f"{set_dir}/input_*.pb")}
        expected = tensors(f"{set_dir}/output_*.pb")
        got = session.run([e.name for e in expected], feeds)
        for g, e in zip(got, expected):
            exp = numpy_helper.to_array(e)
            if g.shape != exp.shape:
                print(f"{set_dir} {e.name}: shape {g.shape}, expected {exp.shape}")
                ok = False
                continue
            if exp.dtype.kind == "f":
                err = np.abs(g.astype(np.float64) - exp)
                good = bool(np.all((err <= 1e-4 + 1e-4 * np.abs(exp)) | (g == exp)))
                print(f"{set_dir} {e.name} {list(exp.shape)}: max |diff| {float(err.max()) if err.size else 0:.2e} {'ok' if good else 'MISMATCH'}")
            else:
                good = bool(np.array_equal(g, exp))
                print(f"{set_dir} {e.name} {list(exp.shape)}: {'exact' if good else 'MISMATCH'}")
            ok &= good
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
