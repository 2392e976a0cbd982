#!/usr/bin/env python3
"""Benchmark (prints figures; not a test): conversion wall time and ONNX node
count of aten2onnx against torch.onnx.export(dynamo=True) on the same
torch.export program, plus onnxruntime latency of both models.

    .venv/bin/python tools/bench_convert.py [--layers 32] [--corpus NAME ...]

Default: a 32-layer tiny Llama (hidden 64, GQA) captured here into
target/bench/ and every corpus model given with --corpus. Uses the release
build of aten-translate (cargo build --release). Times are single runs on a
shared machine: read them as ratios.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import torch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
warnings.filterwarnings("ignore")


def capture_llama(layers: int, out: Path) -> tuple[Path, dict]:
    import capture_corpus as cc

    tf = cc._quiet_transformers()
    cfg = tf.LlamaConfig(
        vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=layers,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
        use_cache=False, bos_token_id=1, eos_token_id=2, pad_token_id=0, tie_word_embeddings=False,
    )
    cfg._attn_implementation = "sdpa"
    torch.manual_seed(0)
    model = cc.LogitsOnly(tf.LlamaForCausalLM(cfg)).eval()
    ids = torch.randint(0, 128, (2, 8))
    batch, seq = torch.export.Dim("batch"), torch.export.Dim("seq", max=64)
    ep = torch.export.export(model, (ids,), dynamic_shapes=({0: batch, 1: seq},), strict=False)
    path = out / f"llama{layers}.pt2"
    torch.export.save(ep, str(path))
    return path, {"input_ids": ids.numpy()}


def corpus_inputs(name: str) -> dict:
    from onnx import numpy_helper

    files = sorted((REPO / "tests/corpus" / name / "set_0").glob("input_*.pb"))
    return {t.name: numpy_helper.to_array(t) for t in (onnx.load_tensor(str(f)) for f in files)}


def ort_latency(path: Path, feeds: dict, runs: int = 20) -> float:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 2
    s = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    s.run(None, feeds)
    t = time.perf_counter()
    for _ in range(runs):
        s.run(None, feeds)
    return (time.perf_counter() - t) / runs * 1000


def bench(name: str, pt2: Path, feeds: dict, out: Path) -> None:
    ours = out / f"{name}.aten2onnx.onnx"
    t = time.perf_counter()
    subprocess.run([str(REPO / "target/release/aten-translate"), "--to-onnx", str(pt2), "-o", str(ours)], check=True)
    ours_s = time.perf_counter() - t
    ours_nodes = len(onnx.load(str(ours), load_external_data=False).graph.node)

    ep = torch.export.load(str(pt2))
    theirs = out / f"{name}.dynamo.onnx"
    t = time.perf_counter()
    try:
        with open(os.devnull, "w") as devnull, contextlib_redirect(devnull):
            torch.onnx.export(ep, tuple(torch.from_numpy(v) for v in feeds.values()), str(theirs), dynamo=True)
        theirs_s = time.perf_counter() - t
        theirs_nodes = len(onnx.load(str(theirs), load_external_data=False).graph.node)
        theirs_ms = ort_latency(theirs, feeds)
    except Exception as e:  # report, do not hide
        theirs_s, theirs_nodes, theirs_ms = float("nan"), -1, float("nan")
        print(f"  torch.onnx.export failed: {type(e).__name__}: {str(e)[:200]}")
    ours_ms = ort_latency(ours, feeds)
    print(f"{name:>14}  convert: aten2onnx {ours_s:7.2f}s  dynamo {theirs_s:7.2f}s  (x{theirs_s / ours_s:5.1f})"
          f"  nodes: {ours_nodes:5d} vs {theirs_nodes:5d}  ort: {ours_ms:7.2f}ms vs {theirs_ms:7.2f}ms")


def contextlib_redirect(stream):
    import contextlib

    return contextlib.redirect_stdout(stream)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layers", type=int, default=32)
    ap.add_argument("--corpus", nargs="*", default=["resnet18", "bert", "gpt2"])
    args = ap.parse_args()
    out = REPO / "target" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    if not (REPO / "target/release/aten-translate").exists():
        sys.exit("build first: cargo build --release --bins")
    torch.set_num_threads(2)
    pt2, feeds = capture_llama(args.layers, out)
    bench(f"llama{args.layers}", pt2, feeds, out)
    for name in args.corpus:
        bench(name, REPO / "tests/corpus" / name / "model.pt2", corpus_inputs(name), out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
