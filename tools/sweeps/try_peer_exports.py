#!/usr/bin/env python3
"""Smoke run (prints results; not a test): the optimizer on other exporters'
models. Each model of tools/sweeps/try_real_models.py (random weights) is exported
by torch.onnx.export(dynamo=True, optimize=True), then re-optimized with
`aten-translate --to-onnx PEER.onnx --opset 23`; onnxruntime runs both on the
model's two input sets and the outputs must agree within 1e-4 + 1e-4|x|
(the fused ops round differently). A row reports the node counts before and
after and the largest difference; EXPORT-FAIL when torch.onnx itself fails
and PEER-ORT-FAIL when onnxruntime cannot load or run its model (neither
counted against the converter), CONVERT-FAIL / ORT-FAIL / MISMATCH otherwise.

With `--torchscript` the peer is torch.onnx's TorchScript exporter
(`dynamo=False`, opset 17, the dynamic dims named after the model's
torch.export Dims): graphs without intermediate types, sizes computed with
Shape/Gather/Concat, as older pipelines and Hugging Face Optimum write them.

    cargo build --release --bins
    .venv/bin/python tools/sweeps/try_peer_exports.py [--torchscript] [NAME ...]     # default: every model
"""
import os, subprocess, sys, time, warnings

import numpy as np
import onnx
import onnxruntime as ort
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
warnings.filterwarnings("ignore")
import try_real_models as trm  # noqa: E402  (its MODELS table)

OUT = "target/try_peer"
BIN = os.environ.get("ATEN2ONNX_TRANSLATE", "target/release/aten-translate")


def run_ort(path, args):
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    feeds = {i.name: a.numpy() for i, a in zip(sess.get_inputs(), args)}
    # The TorchScript exporter drops inputs the graph does not read.
    if len(sess.get_inputs()) < len(args):
        names = {i.name for i in sess.get_inputs()}
        feeds = {f"input_{k}": a.numpy() for k, a in enumerate(args) if f"input_{k}" in names}
    return sess.run(None, feeds)


def flat_dyn(dyn, n):
    """The per-input {axis: Dim} dicts of a dynamic_shapes spec, flattened to
    the model's `n` positional inputs (None when the nesting does not fit)."""
    out = []

    def walk(d):
        if isinstance(d, dict) or d is None:
            out.append(d or {})
        elif isinstance(d, (tuple, list)):
            for x in d:
                walk(x)

    walk(dyn)
    return out if len(out) == n else None


def torchscript_export(model, args, path, dyn):
    names = [f"input_{i}" for i in range(len(args))]
    axes = flat_dyn(dyn, len(args)) or [{} for _ in args]
    dynamic_axes = {
        n: {a: getattr(d, "__name__", f"{n}_{a}") for a, d in spec.items()} for n, spec in zip(names, axes) if spec
    }
    torch.onnx.export(model, tuple(args), path, dynamo=False, opset_version=17, input_names=names,
                      dynamic_axes=dynamic_axes)


def one(name, spec, torchscript=False):
    torch.manual_seed(0)
    model = spec["build"]().eval()
    sets = spec["sets"]
    kind = "torchscript" if torchscript else "dynamo"
    src, dst = f"{OUT}/{name}.{kind}.onnx", f"{OUT}/{name}.{kind}.reopt.onnx"
    try:
        with torch.no_grad():
            if torchscript:
                torchscript_export(model, sets[0], src, spec["dyn"])
            else:
                torch.onnx.export(model, sets[0], src, dynamo=True, optimize=True, dynamic_shapes=spec["dyn"],
                                  external_data=False)
    except Exception as e:
        return "EXPORT-FAIL", f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
    try:
        # The peer's model must load and run on every input set (a trace
        # that baked in a size fails on the second shape): not ours to judge.
        for args in sets:
            run_ort(src, args)
    except Exception as e:
        return "PEER-ORT-FAIL", f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
    t = time.time()
    r = subprocess.run([BIN, "--to-onnx", src, "--opset", "23", "-o", dst, "-q"], capture_output=True, text=True)
    dt = time.time() - t
    if r.returncode != 0:
        return "CONVERT-FAIL", r.stderr.strip().splitlines()[-1][:200] if r.stderr.strip() else f"exit {r.returncode}"
    n0 = len(onnx.load(src, load_external_data=False).graph.node)
    n1 = len(onnx.load(dst, load_external_data=False).graph.node)
    worst = 0.0
    for args in sets:
        try:
            a, b = run_ort(src, args), run_ort(dst, args)
        except Exception as e:
            return "ORT-FAIL", f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
        for x, y in zip(a, b):
            x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
            if x.shape != y.shape:
                return "MISMATCH", f"shape {x.shape} vs {y.shape}"
            d = np.abs(x - y)
            both_nan = np.isnan(x) & np.isnan(y)
            worst = max(worst, float(np.where(both_nan, 0, d).max(initial=0.0)))
            if not np.all(both_nan | (d <= 1e-4 + 1e-4 * np.abs(x))):
                return "MISMATCH", f"nodes {n0} -> {n1}, max diff {worst:.2e}"
    return "OK", f"nodes {n0} -> {n1}, max diff {worst:.2e}, re-optimized in {dt:.2f}s"


def main():
    os.makedirs(OUT, exist_ok=True)
    argv = sys.argv[1:]
    torchscript = "--torchscript" in argv
    names = [a for a in argv if a != "--torchscript"] or [k for k, v in trm.MODELS.items() if not callable(v)]
    results = []
    for name in names:
        try:
            status, text = one(name, trm.MODELS[name], torchscript)
        except Exception as e:
            status, text = "ERROR", f"{type(e).__name__}: {str(e)[:160]}"
        results.append((name, status, text))
        print(f"{name:24s} {status:12s} {text}", flush=True)
    bad = [r for r in results if r[1] not in ("OK", "EXPORT-FAIL", "PEER-ORT-FAIL")]
    print(f"\n{sum(r[1] == 'OK' for r in results)}/{len(results)} OK, "
          f"{sum(r[1] == 'EXPORT-FAIL' for r in results)} torch.onnx export failures, "
          f"{sum(r[1] == 'PEER-ORT-FAIL' for r in results)} exported models onnxruntime cannot load, {len(bad)} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
