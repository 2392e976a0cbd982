#!/usr/bin/env python3
"""Quantized PT2E programs in onnxruntime: which ONNX form runs fastest
(the `--target onnxruntime` choices of docs/quantization.md are made from
this). Prints figures; never a pass/fail test.

    cargo build --bins
    .venv/bin/python tools/bench/bench_qdq_forms.py [--binary target/debug/aten-translate] [--rounds 10]
        [--models vgg11_x86,resnet18_xnnpack,encoder_static,encoder_dynamic]

Models (random init, fixed seeds; PT2E with torchao, captured at run time):
- `vgg11_x86`: torchvision VGG-11, 1x3x224x224, X86InductorQuantizer
  (uint8 activations, per-channel int8 weights; torchao 0.18's X86 quantizer
  fails on ResNet's residual Add: "Input partition has more than one output
  node").
- `resnet18_xnnpack`: torchvision ResNet-18, 1x3x224x224, XNNPACKQuantizer
  static per-channel (int8 activations and weights).
- `encoder_static` / `encoder_dynamic`: nn.TransformerEncoder, 4 layers of
  hidden 768, 12 heads, ff 3072, 1x128 tokens, XNNPACKQuantizer static /
  dynamic (activations quantized at run time by choose_qparams).

Forms, run by onnxruntime (1 thread, all graph optimizations; `explicit`
also without any):
- `float`: the float model before quantization, converted by aten2onnx.
- `standard`: `aten-translate --to-onnx` of the PT2E program.
- `onnxruntime`: the same with `--target onnxruntime`.
- `explicit`: `onnxruntime` after onnxruntime's own fusions, saved
  (`optimized_model_filepath` at ORT_ENABLE_EXTENDED): the QLinearConv /
  QGemm / MatMulIntegerToFloat graph that writing those kernels explicitly
  would give.
- `ort-quantizer` (dynamic model only): onnxruntime's own
  `quantize_dynamic` (int8 per-channel weights) of the `float` model, the
  peer users would otherwise run.

Per model and form: the most common op types, session creation time,
latency (median of interleaved rounds), and the largest difference from
the quantized eager model's output.
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _pt2e(model, example, quantizer):
    import torch
    from torchao.quantization.pt2e import move_exported_model_to_eval
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    model = model.eval()
    gm = torch.export.export(model, example, strict=False).module()
    gm = prepare_pt2e(gm, quantizer)
    g = torch.Generator().manual_seed(7)
    with torch.no_grad():
        for _ in range(3):
            gm(*(torch.randn(x.shape, generator=g) for x in example))
    gm = convert_pt2e(gm)
    move_exported_model_to_eval(gm)
    return torch.export.export(gm, example, strict=False)


def _xnnpack(**kw):
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(**kw))


def _x86():
    from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (
        X86InductorQuantizer,
        get_default_x86_inductor_quantization_config,
    )

    return X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config())


def build(name: str):
    import torch
    import torchvision

    torch.manual_seed(0)
    if name == "resnet18_xnnpack":
        model, example = torchvision.models.resnet18(), (torch.randn(1, 3, 224, 224),)
        quantizer = _xnnpack(is_per_channel=True)
    elif name == "vgg11_x86":
        model, example = torchvision.models.vgg11(), (torch.randn(1, 3, 224, 224),)
        quantizer = _x86()
    else:
        layer = torch.nn.TransformerEncoderLayer(768, 12, 3072, dropout=0.0, batch_first=True)
        model, example = torch.nn.TransformerEncoder(layer, 4, enable_nested_tensor=False), (torch.randn(1, 128, 768),)
        quantizer = _xnnpack(is_per_channel=True, is_dynamic=name.endswith("dynamic"))
    import copy

    model = model.eval()
    float_ep = torch.export.export(copy.deepcopy(model), example, strict=False)
    return float_ep, _pt2e(model, example, quantizer), [x.numpy() for x in example]


def session(path: str, optimize: bool, save: str | None = None):
    import onnxruntime as ort

    o = ort.SessionOptions()
    o.intra_op_num_threads = 1
    o.inter_op_num_threads = 1
    level = ort.GraphOptimizationLevel
    o.graph_optimization_level = level.ORT_ENABLE_ALL if optimize else level.ORT_DISABLE_ALL
    if save:
        o.graph_optimization_level = level.ORT_ENABLE_EXTENDED
        o.optimized_model_filepath = save
    return ort.InferenceSession(path, o, providers=["CPUExecutionProvider"])


def op_types(path: str) -> str:
    import onnx

    m = onnx.load(path, load_external_data=False)
    c = collections.Counter(n.op_type for n in m.graph.node)
    return ", ".join(f"{k} {v}" for k, v in c.most_common(7))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(REPO, "target", "debug", "aten-translate"))
    ap.add_argument("--models", default="vgg11_x86,resnet18_xnnpack,encoder_static,encoder_dynamic")
    ap.add_argument("--rounds", type=int, default=10)
    a = ap.parse_args()
    import torch

    tmp = tempfile.mkdtemp(prefix="bench-qdq-")
    print("| model | form | ops (most common) | load ms | ms | ms, no graph optimizations | max err vs quantized eager |")
    print("|---|---|---|---:|---:|---:|---:|")
    for name in a.models.split(","):
        float_ep, ep, inputs = build(name)
        with torch.no_grad():
            want = [o.numpy() for o in torch.utils._pytree.tree_leaves(ep.module()(*(torch.from_numpy(x) for x in inputs)))]
        pt2, fpt2 = os.path.join(tmp, f"{name}.pt2"), os.path.join(tmp, f"{name}.float.pt2")
        torch.export.save(ep, pt2)
        torch.export.save(float_ep, fpt2)
        paths = {f: os.path.join(tmp, f"{name}.{f}.onnx") for f in ("float", "standard", "onnxruntime", "explicit")}
        subprocess.run([a.binary, "--to-onnx", fpt2, "-o", paths["float"]], check=True)
        subprocess.run([a.binary, "--to-onnx", pt2, "-o", paths["standard"]], check=True)
        subprocess.run([a.binary, "--to-onnx", pt2, "-o", paths["onnxruntime"], "--target", "onnxruntime"], check=True)
        session(paths["onnxruntime"], True, save=paths["explicit"])
        if name.endswith("dynamic"):
            from onnxruntime.quantization import QuantType, quantize_dynamic

            paths["ort-quantizer"] = os.path.join(tmp, f"{name}.ortq.onnx")
            # MatMul/Gemm only: its Attention handling expects com.microsoft's.
            quantize_dynamic(paths["float"], paths["ort-quantizer"], weight_type=QuantType.QInt8, per_channel=True,
                             op_types_to_quantize=["MatMul", "Gemm"])
        runners, loads, errs = {}, {}, {}
        for form, path in paths.items():
            for optimize in (True, False) if form == "explicit" else (True,):
                t = time.perf_counter()
                s = session(path, optimize)
                loads[form, optimize] = (time.perf_counter() - t) * 1000
                feeds = {i.name: x for i, x in zip(s.get_inputs(), inputs)}
                got = s.run(None, feeds)
                errs[form, optimize] = max(float(np.abs(np.asarray(g, np.float64) - w).max()) for g, w in zip(got, want))
                runners[form, optimize] = lambda s=s, f=feeds: s.run(None, f)
        times = {k: [] for k in runners}
        order = list(runners)
        rng = random.Random(0)
        for _ in range(a.rounds):
            rng.shuffle(order)
            for k in order:
                for i in range(6):
                    t = time.perf_counter()
                    runners[k]()
                    if i >= 2:
                        times[k].append((time.perf_counter() - t) * 1000)
        for form, path in paths.items():
            med = statistics.median(times[form, True])
            off = f"{statistics.median(times[form, False]):.2f}" if (form, False) in times else ""
            print(f"| {name} | {form} | {op_types(path)} | {loads[form, True]:.0f} | {med:.2f} | {off} | "
                  f"{errs[form, True]:.2g} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
