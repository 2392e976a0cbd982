#!/usr/bin/env python3
"""PT2E-quantized corpus models: onnxruntime latency of aten2onnx's conversion
vs torch.onnx.export(dynamo=True) of the same ExportedProgram, interleaved in
one process, 1 intra-op thread, ORT_ENABLE_ALL and ORT_DISABLE_ALL; and each
model's max error against the quantized eager outputs (set_0).

    .venv/bin/python tools/bench/bench_pt2e.py [--rounds 200] [--binary target/release/aten-translate]
"""
import argparse, glob, os, random, statistics, subprocess, sys, tempfile, time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

MODELS = ["pt2e_cnn_xnnpack", "pt2e_cnn_x86", "pt2e_mlp_dynamic", "pt2e_transformer_xnnpack"]


def load_set(d):
    def read(p):
        t = onnx.TensorProto()
        t.ParseFromString(open(p, "rb").read())
        return numpy_helper.to_array(t)
    key = lambda p: int(p.rsplit("_", 1)[1].split(".")[0])
    ins = [read(p) for p in sorted(glob.glob(f"{d}/set_0/input_*.pb"), key=key)]
    outs = [read(p) for p in sorted(glob.glob(f"{d}/set_0/output_*.pb"), key=key)]
    return ins, outs


def session(path, opt):
    o = ort.SessionOptions()
    o.intra_op_num_threads = 1
    o.inter_op_num_threads = 1
    o.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL if opt else ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(path, o, providers=["CPUExecutionProvider"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--binary", default="target/release/aten-translate")
    a = ap.parse_args()
    import torch
    import torch.ao.quantization.fx._decomposed  # noqa: F401 (registers quantized_decomposed for torch.export.load)
    tmp = tempfile.mkdtemp(prefix="bench-pt2e-")
    print("| model | exporter | nodes | ORT ms all opts | ORT ms no opts | max err vs quantized eager |")
    print("|---|---|---:|---:|---:|---:|")
    for name in MODELS:
        d = f"tests/corpus/{name}"
        ours = os.path.join(tmp, f"{name}.ours.onnx")
        subprocess.run([a.binary, "--to-onnx", f"{d}/model.pt2", "-o", ours], check=True)
        dyn = os.path.join(tmp, f"{name}.dynamo.onnx")
        ep = torch.export.load(f"{d}/model.pt2")
        paths = [("aten2onnx", ours)]
        try:
            torch.onnx.export(ep, dynamo=True).save(dyn)
            paths.append(("torch.onnx.export", dyn))
        except Exception as e:  # noqa: BLE001 (the peer's failure is a result)
            first = str(e).strip().splitlines()[0][:120]
            print(f"| {name} | torch.onnx.export | fails: {first} | | | |")
        ins, outs = load_set(d)
        cfg = [(label, p, opt) for opt in (True, False) for label, p in paths]
        ss = [session(p, opt) for _, p, opt in cfg]
        feeds = [{i.name: x for i, x in zip(s.get_inputs(), ins)} for s in ss]
        errs = [max(float(np.abs(g - e).max()) for g, e in zip(s.run(None, f), outs)) for s, f in zip(ss, feeds)]
        for s, f in zip(ss, feeds):
            for _ in range(20):
                s.run(None, f)
        times = [[] for _ in ss]
        order = list(range(len(ss)))
        for _ in range(a.rounds):
            random.shuffle(order)
            for k in order:
                t = time.perf_counter()
                ss[k].run(None, feeds[k])
                times[k].append((time.perf_counter() - t) * 1000)
        med = [statistics.median(t) for t in times]
        n = len(paths)
        for j, (label, p) in enumerate(paths):
            nodes = len(onnx.load(p).graph.node)
            print(f"| {name} | {label} | {nodes} | {med[j]:.4f} | {med[n + j]:.4f} | {errs[j]:.2e} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
