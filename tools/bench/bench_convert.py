#!/usr/bin/env python3
"""Benchmark (prints figures; never a pass/fail test): aten2onnx against
torch.onnx.export(dynamo=True, optimize=True) and yobx's to_onnx, side by
side in one run, on the same torch.export programs.

    cargo build --release --bins     # without the torch feature: converting needs no libtorch,
                                     # and loading it costs ~0.4 s at start-up
    YOBX_SRC=/path/to/yet-another-onnx-builder .venv/bin/python tools/bench/bench_convert.py [--doc]
        [--models llama32,bert,mobilenet,vit] [--depths 4,8,16,32] [--peers-depth]
        [--runs 90] [--exporters aten2onnx,aten2onnx-ort,dynamo,yobx,dynamo+aten2onnx,yobx+aten2onnx]
        [--timeout 900]

Per model and exporter: conversion wall time and peak RSS (each conversion
runs in its own process; RSS is that process's ru_maxrss), ONNX node count
(subgraphs included), onnxruntime latency with 1 intra-op thread (median of
--runs after warm-up, the exporters' sessions of a model interleaved in
random order) with ORT_ENABLE_ALL and with ORT_DISABLE_ALL, and the
largest error against eager PyTorch on two input shapes (a model is "wrong"
when any output differs by more than 1e-4 + 1e-4 |expected|). Then convert
time versus depth for tiny Llamas of 4..32 layers (aten2onnx; the peers too
with --peers-depth). `--doc` writes the tables to docs/benchmarks.md.

`aten2onnx-ort` is aten2onnx with `--target onnxruntime` (onnxruntime's
com.microsoft contrib ops where they pay); its rows sit beside the default
(standard ONNX) ones, with a line comparing the two. `dynamo+aten2onnx` and
`yobx+aten2onnx` are the peers' models re-optimized by `aten-translate
--to-onnx PEER.onnx --opset 23` (their convert time is that alone): the
optimizer serving models from other exporters.

yobx runs when YOBX_SRC names a checkout of its source (it needs scipy,
ml_dtypes and optree in the venv); otherwise its rows say why not. Captures
and ONNX files go to target/bench/. Figures are one run on whatever machine
runs it: compare within a run, quote ratios.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "target" / "bench"
sys.path.insert(0, str(REPO / "tools" / "capture"))  # capture_corpus
warnings.filterwarnings("ignore")

ATOL = RTOL = 1e-4


# --------------------------------------------------------------------------
# Models (captured once, in this process)
# --------------------------------------------------------------------------

def _llama(layers: int):
    import capture_corpus as cc
    import torch

    tf = cc._quiet_transformers()
    cfg = tf.LlamaConfig(
        vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=layers,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
        use_cache=False, bos_token_id=1, eos_token_id=2, pad_token_id=0, tie_word_embeddings=False,
    )
    cfg._attn_implementation = "sdpa"
    torch.manual_seed(0)
    model = cc.LogitsOnly(tf.LlamaForCausalLM(cfg)).eval()
    g = torch.Generator().manual_seed(1)
    shapes = [(2, 8), (3, 5)]
    inputs = [(torch.randint(0, 128, s, generator=g),) for s in shapes]
    dyn = ({0: torch.export.Dim("batch"), 1: torch.export.Dim("seq", max=64)},)
    return model, inputs, dyn, ["input_ids"]


def _trained_biases(model):
    """Random initialisation leaves every bias at zero, which no trained
    model has: an exporter may then drop the bias Adds (x + 0), a shortcut
    that says nothing about real models (and changes -0.0 to +0.0, so
    aten2onnx does not take it). Small random biases, fixed seed."""
    import torch

    g = torch.Generator().manual_seed(2)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("bias"):
                p.copy_(torch.randn(p.shape, generator=g) * 0.02)
    return model


def _bert():
    import capture_corpus as cc
    import torch

    tf = cc._quiet_transformers()
    cfg = tf.BertConfig(
        vocab_size=128, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=128, max_position_embeddings=64, type_vocab_size=2,
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0, pad_token_id=0,
    )
    cfg._attn_implementation = "sdpa"
    torch.manual_seed(0)
    model = _trained_biases(cc.BertLastHidden(tf.BertModel(cfg, add_pooling_layer=False)).eval())
    g = torch.Generator().manual_seed(1)
    inputs = []
    for b, s in [(2, 8), (3, 5)]:
        ids = torch.randint(0, 128, (b, s), generator=g)
        mask = torch.ones(b, s, dtype=torch.int64)
        mask[0, s - 2:] = 0  # padding in the first row: the mask matters
        inputs.append((ids, mask))
    batch, seq = torch.export.Dim("batch"), torch.export.Dim("seq", max=64)
    dyn = ({0: batch, 1: seq}, {0: batch, 1: seq})
    return model, inputs, dyn, ["input_ids", "attention_mask"]


def _mobilenet():
    import torch
    import torchvision

    torch.manual_seed(0)
    model = torchvision.models.mobilenet_v3_small(weights=None).eval()
    with torch.no_grad():  # non-trivial BatchNorm statistics, so folding them is checked
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)
    g = torch.Generator().manual_seed(1)
    inputs = [(torch.randn(b, 3, 224, 224, generator=g),) for b in (2, 1)]
    dyn = ({0: torch.export.Dim("batch")},)
    return model, inputs, dyn, ["x"]


def _vit():
    import capture_corpus as cc
    import torch

    tf = cc._quiet_transformers()
    cfg = tf.ViTConfig(
        image_size=64, patch_size=8, num_channels=3, hidden_size=64, num_hidden_layers=4,
        num_attention_heads=4, intermediate_size=128, hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    cfg._attn_implementation = "sdpa"
    torch.manual_seed(0)
    model = _trained_biases(cc.ViTLastHidden(tf.ViTModel(cfg, add_pooling_layer=False)).eval())
    g = torch.Generator().manual_seed(1)
    inputs = [(torch.randn(b, 3, 64, 64, generator=g),) for b in (2, 3)]
    dyn = ({0: torch.export.Dim("batch")},)
    return model, inputs, dyn, ["pixel_values"]


MODELS = {
    "llama32": ("tiny Llama, 32 layers (hidden 64, 4 heads, 2 kv heads), dynamic batch and seq", lambda: _llama(32)),
    "bert": ("BERT, 2 layers (hidden 64), attention mask with padding, dynamic batch and seq", _bert),
    "mobilenet": ("torchvision mobilenet_v3_small, dynamic batch, 224x224", _mobilenet),
    "vit": ("ViT, 4 layers (hidden 64), 64x64 images, dynamic batch", _vit),
}


def capture(name: str, build) -> Path:
    """Saves <name>.pt2, the inputs and eager outputs of both shapes."""
    import numpy as np
    import torch

    pt2 = OUT / f"{name}.pt2"
    io = OUT / f"{name}.io.npz"
    if pt2.exists() and io.exists():
        return pt2
    model, inputs, dyn, names = build()
    with torch.no_grad():
        ep = torch.export.export(model, inputs[0], dynamic_shapes=dyn, strict=False)
        torch.export.save(ep, str(pt2))
        arrays = {}
        for k, args in enumerate(inputs):
            out = model(*args)
            outs = out if isinstance(out, (tuple, list)) else (out,)
            for i, a in enumerate(args):
                arrays[f"s{k}_in{i}"] = a.numpy()
            for i, o in enumerate(outs):
                arrays[f"s{k}_out{i}"] = o.detach().numpy()
        np.savez(io, **arrays)
    return pt2


# --------------------------------------------------------------------------
# Conversions (one child process each, for its peak RSS)
# --------------------------------------------------------------------------

def child(exporter: str, pt2: str, onnx_path: str) -> None:
    """Runs in a child process: convert pt2 with a Python exporter."""
    import numpy as np
    import torch

    io = np.load(Path(pt2).with_suffix("").as_posix() + ".io.npz")
    args = tuple(torch.from_numpy(io[k]) for k in sorted(k for k in io.files if k.startswith("s0_in")))
    ep = torch.export.load(pt2)
    start = time.perf_counter()
    if exporter == "dynamo":
        import contextlib

        with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
            torch.onnx.export(ep, args, onnx_path, dynamo=True, optimize=True)
    elif exporter == "yobx":
        sys.path.insert(0, os.environ["YOBX_SRC"])
        import onnx
        from yobx.torch.interpreter import to_onnx

        proto = to_onnx(ep, args)
        proto = proto.get_proto() if hasattr(proto, "get_proto") else proto
        onnx.save(proto, onnx_path)
    else:
        raise SystemExit(f"unknown exporter {exporter}")
    print(json.dumps({"convert_s": time.perf_counter() - start}))


def run_measured(cmd: list[str], timeout: float) -> tuple[int, float, int, str]:
    """(exit code, wall seconds, 0, stdout + stderr) of one child, killed after `timeout`."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    timer = threading.Timer(timeout, lambda: proc.send_signal(signal.SIGKILL))
    timer.start()
    out, err = proc.communicate()
    timer.cancel()
    wall = time.perf_counter() - start
    return proc.returncode, wall, 0, (out or "") + (err or "")


def peak_rss_of(cmd: list[str], timeout: float) -> tuple[int, float, int, str]:
    """Runs cmd under /usr/bin/time to read its own peak RSS."""
    marker = "@@maxrss="
    full = ["/usr/bin/time", "-f", f"{marker}%M"] + cmd
    code, wall, _, text = run_measured(full, timeout)
    rss = 0
    lines = []
    for line in text.splitlines():
        if line.startswith(marker):
            rss = int(line[len(marker):])
        else:
            lines.append(line)
    return code, wall, rss, "\n".join(lines)


def convert(exporter: str, name: str, pt2: Path, timeout: float) -> dict:
    onnx_path = OUT / f"{name}.{exporter}.onnx"
    for p in (onnx_path, Path(str(onnx_path) + ".data")):
        p.unlink(missing_ok=True)
    # aten2onnx on the capture, or on a peer's model (`PEER+aten2onnx`:
    # `aten-translate --to-onnx PEER.onnx --opset 23`, re-optimizing it; the
    # peer must come first in --exporters). Both are timed alike below.
    ours = exporter in ("aten2onnx", "aten2onnx-ort") or exporter.endswith("+aten2onnx")
    if ours:
        binary = REPO / "target/release/aten-translate"
        if not binary.exists():
            binary = REPO / "target/debug/aten-translate"
            print("WARNING: no release build; timing the DEBUG aten-translate (cargo build --release --bins)", file=sys.stderr)
        source, extra = pt2, []
        if exporter == "aten2onnx-ort":
            extra = ["--target", "onnxruntime"]
        elif exporter.endswith("+aten2onnx"):
            source, extra = OUT / f"{name}.{exporter.removesuffix('+aten2onnx')}.onnx", ["--opset", "23"]
            if not source.exists():
                return {"error": f"no {source.name} to re-optimize"}
        cmd = [str(binary), "--to-onnx", str(source), "-o", str(onnx_path), "--quiet", *extra]
    else:
        if exporter == "yobx" and not os.environ.get("YOBX_SRC"):
            return {"error": "YOBX_SRC is not set"}
        cmd = [sys.executable, __file__, "--child", exporter, str(pt2), str(onnx_path)]
    if ours:
        # One untimed run first: the peers' timers start after the program is
        # loaded (torch.export.load), ours reads the archive inside the
        # timed process, so the archive is brought into the page cache first
        # (the first run after a capture measured up to 2x slower).
        run_measured(cmd, timeout)
    code, wall, rss, text = peak_rss_of(cmd, timeout)
    if code == 0 and ours:
        # A conversion takes ~0.1 s, where one sample is mostly scheduler
        # noise: the median of 5 whole-process runs (start-up and loading
        # included, which the peers' figures leave out). The peers take
        # seconds to minutes per run and are timed once.
        walls = [wall] + [run_measured(cmd, timeout)[1] for _ in range(4)]
        wall = statistics.median(walls)
    if code != 0 or not onnx_path.exists():
        last = [l for l in text.splitlines() if l.strip()][-1:] or [f"exit {code}"]
        return {"error": f"exit {code}: {last[0][:160]}", "convert_s": wall}
    convert_s = wall
    for line in text.splitlines():
        if line.startswith("{") and "convert_s" in line:
            convert_s = json.loads(line)["convert_s"]  # the export call alone, without Python start-up
    return {"onnx": onnx_path, "convert_s": convert_s, "process_s": wall, "rss_mb": rss / 1024}


# --------------------------------------------------------------------------
# Measurements of a converted model
# --------------------------------------------------------------------------

def node_count(path: Path) -> int:
    import onnx

    model = onnx.load(str(path), load_external_data=False)

    def count(graph) -> int:
        n = 0
        for node in graph.node:
            n += 1
            for attr in node.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    n += count(attr.g)
                for g in attr.graphs:
                    n += count(g)
        return n

    return count(model.graph)


def op_histogram(path: Path) -> dict:
    import collections

    import onnx

    model = onnx.load(str(path), load_external_data=False)
    return dict(collections.Counter(n.op_type for n in model.graph.node).most_common())


def session(path: Path, optimize: bool):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = (
        ort.GraphOptimizationLevel.ORT_ENABLE_ALL if optimize else ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    )
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def feeds_of(sess, io, k: int) -> dict:
    ins = [io[key] for key in sorted(key for key in io.files if key.startswith(f"s{k}_in"))]
    return {i.name: a for i, a in zip(sess.get_inputs(), ins)}


def max_error(sess, io) -> tuple[float, bool]:
    import numpy as np

    worst, ok = 0.0, True
    for k in (0, 1):
        got = sess.run(None, feeds_of(sess, io, k))
        want = [io[key] for key in sorted((key for key in io.files if key.startswith(f"s{k}_out")), key=lambda s: int(s.split("out")[1]))]
        for g, w in zip(got, want):
            g, w = np.asarray(g, dtype=np.float64), np.asarray(w, dtype=np.float64)
            if g.shape != w.shape:
                return float("inf"), False
            d = np.abs(g - w)
            worst = max(worst, float(d.max(initial=0.0)))
            ok = ok and bool(np.all(d <= ATOL + RTOL * np.abs(w)))
    return worst, ok


def measure(result: dict, name: str) -> dict:
    """Node counts and errors of one exporter's model (latency: `interleaved_latency`)."""
    import numpy as np

    if "onnx" not in result:
        return result
    io = np.load(OUT / f"{name}.io.npz")
    path = result["onnx"]
    result["nodes"] = node_count(path)
    result["ops"] = op_histogram(path)
    try:
        result["err"], result["ok"] = max_error(session(path, False), io)
    except Exception as e:  # a model ORT refuses is a result, not a crash
        result["error"] = f"onnxruntime: {type(e).__name__}: {str(e).splitlines()[0][:160]}"
    return result


def interleaved_latency(per_exporter: dict, name: str, runs: int) -> None:
    """ORT latency of every exporter's model of one bench model, interleaved:
    each round runs every session (all opts and no opts) 3 times in a random
    order, so that the load of a shared machine hits them alike; the median
    of `runs` timings per session goes to `ms_opt` / `ms_noopt`."""
    import random

    import numpy as np

    io = np.load(OUT / f"{name}.io.npz")
    sessions = []
    for exporter, result in per_exporter.items():
        if "onnx" not in result or "error" in result:
            continue
        for key, optimize in (("ms_opt", True), ("ms_noopt", False)):
            try:
                s = session(result["onnx"], optimize)
                feeds = feeds_of(s, io, 0)
                for _ in range(5):
                    s.run(None, feeds)
            except Exception as e:  # a model ORT refuses is a result, not a crash
                result["error"] = f"onnxruntime: {type(e).__name__}: {str(e).splitlines()[0][:160]}"
                break
            sessions.append((result, key, s, feeds, []))
    rng = random.Random(0)
    for _ in range(max(1, (runs + 2) // 3)):
        rng.shuffle(sessions)
        for _result, _key, s, feeds, times in sessions:
            for _ in range(3):
                t = time.perf_counter()
                s.run(None, feeds)
                times.append((time.perf_counter() - t) * 1000)
    for result, key, _s, _feeds, times in sessions:
        if "error" not in result:
            result[key] = statistics.median(times)


# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------

def fmt(v, spec: str, none: str = "-") -> str:
    return none if v is None else format(v, spec)


def model_table(results: dict) -> str:
    rows = ["| model | exporter | convert (s) | peak RSS (MB) | ONNX nodes | ORT ms, all opts | ORT ms, no opts | max abs err (2 shapes) |",
            "|---|---|---:|---:|---:|---:|---:|---|"]
    for name, per in results.items():
        for exporter, r in per.items():
            if "error" in r and "nodes" not in r:
                rows.append(f"| {name} | {exporter} | {fmt(r.get('convert_s'), '.3f')} | - | - | - | - | {r['error']} |")
                continue
            err = fmt(r.get("err"), ".1e") + ("" if r.get("ok", True) else " **WRONG**")
            if "error" in r:
                err = r["error"]
            rows.append(
                f"| {name} | {exporter} | {r['convert_s']:.3f} | {r['rss_mb']:.0f} | {r['nodes']} | "
                f"{fmt(r.get('ms_opt'), '.3f')} | {fmt(r.get('ms_noopt'), '.3f')} | {err} |"
            )
    return "\n".join(rows)


def latency_ratio(a: dict, b: dict, of: str) -> str:
    """`, ORT latency ..x of <of> (all opts), ..x (no opts)`: a's over b's."""
    if not (a.get("ms_opt") and b.get("ms_opt")):
        return ""
    return (f", ORT latency {a['ms_opt'] / b['ms_opt']:.2f}x of {of} (all opts), "
            f"{a['ms_noopt'] / b['ms_noopt']:.2f}x (no opts)")


def ratio_lines(results: dict) -> str:
    out = []
    for name, per in results.items():
        ours = per.get("aten2onnx", {})
        ort = per.get("aten2onnx-ort", {})
        if "nodes" in ours and "nodes" in ort:
            out.append(f"- {name}: `--target onnxruntime`: nodes {ort['nodes']} vs {ours['nodes']} (standard)"
                       + latency_ratio(ort, ours, "the standard output's"))
        for peer in ("dynamo", "yobx"):
            p, re = per.get(peer, {}), per.get(f"{peer}+aten2onnx", {})
            if "nodes" in p and "nodes" in re:
                out.append(f"- {name}: {peer}'s model re-optimized: nodes {p['nodes']} -> {re['nodes']}"
                           + latency_ratio(re, p, f"{peer}'s own"))
            if "convert_s" in ours and "nodes" in p and "nodes" in ours:
                out.append(f"- {name}: convert {p['convert_s'] / ours['convert_s']:.0f}x faster than {peer}, "
                           f"nodes {ours['nodes']} vs {p['nodes']}" + latency_ratio(ours, p, f"{peer}'s"))
    return "\n".join(out)


def depth_table(depths: dict) -> str:
    exporters = sorted({e for per in depths.values() for e in per})
    rows = ["| layers | " + " | ".join(f"{e} convert (s)" for e in exporters) + " | " + " | ".join(f"{e} nodes" for e in exporters) + " |",
            "|---:|" + "---:|" * (2 * len(exporters))]
    for layers, per in depths.items():
        secs = " | ".join(fmt(per.get(e, {}).get("convert_s"), ".3f") for e in exporters)
        nodes = " | ".join(str(per.get(e, {}).get("nodes", "-")) for e in exporters)
        rows.append(f"| {layers} | {secs} | {nodes} |")
    first, last = list(depths)[0], list(depths)[-1]
    notes = []
    for e in exporters:
        a, b = depths[first].get(e, {}).get("convert_s"), depths[last].get(e, {}).get("convert_s")
        if a and b:
            notes.append(f"{e}: {last} layers take {b / a:.1f}x the time of {first}")
    return "\n".join(rows) + ("\n\n" + "; ".join(notes) if notes else "")


def machine() -> str:
    import onnxruntime as ort
    import torch

    return (f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}), torch {torch.__version__}, "
            f"onnxruntime {ort.__version__}, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:5])
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="llama32,bert,mobilenet,vit")
    ap.add_argument("--exporters", default="aten2onnx,aten2onnx-ort,dynamo,yobx,dynamo+aten2onnx,yobx+aten2onnx",
                    help="aten2onnx-ort: aten2onnx with --target onnxruntime; PEER+aten2onnx: PEER's model "
                         "re-optimized by `aten-translate --to-onnx PEER.onnx --opset 23` (convert = that alone)")
    ap.add_argument("--depths", default="4,8,16,32", help="Llama depths for the convert-time sweep ('' = none)")
    ap.add_argument("--peers-depth", action="store_true", help="also time the peers in the depth sweep")
    ap.add_argument("--runs", type=int, default=90, help="timed ORT runs per model and exporter (median; interleaved)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per conversion")
    ap.add_argument("--doc", action="store_true", help="write docs/benchmarks.md")
    ap.add_argument("--allow-torch-binary", action="store_true",
                    help="time a binary built with the `torch` feature (its start-up loads libtorch)")
    args = ap.parse_args()
    binary = REPO / "target/release/aten-translate"
    linked = subprocess.run(["ldd", str(binary)], capture_output=True, text=True).stdout if binary.exists() else ""
    if "libtorch" in linked and not args.allow_torch_binary:
        # Loading libtorch (the `--verify` reference) adds ~0.25 s and ~100 MB
        # to every conversion: not what users of the converter run.
        print(f"{binary} links libtorch (built with --features aten2onnx/torch): rebuild with "
              "`cargo build --release --bins`, or pass --allow-torch-binary", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    import torch

    torch.set_num_threads(1)
    exporters = [e for e in args.exporters.split(",") if e]
    results: dict = {}
    for name in [m for m in args.models.split(",") if m]:
        desc, build = MODELS[name]
        pt2 = capture(name, build)
        results[name] = {}
        for exporter in exporters:
            print(f"[{name}] {exporter} ...", file=sys.stderr, flush=True)
            results[name][exporter] = measure(convert(exporter, name, pt2, args.timeout), name)
        print(f"[{name}] latency, interleaved ...", file=sys.stderr, flush=True)
        interleaved_latency(results[name], name, args.runs)
    depths: dict = {}
    for layers in [int(d) for d in args.depths.split(",") if d]:
        name = f"llama{layers}"
        pt2 = capture(name, lambda layers=layers: _llama(layers))
        depths[layers] = {}
        for exporter in exporters if args.peers_depth else ["aten2onnx"]:
            print(f"[depth {layers}] {exporter} ...", file=sys.stderr, flush=True)
            r = convert(exporter, name, pt2, args.timeout)
            if "onnx" in r:
                r["nodes"] = node_count(r["onnx"])
            depths[layers] = {**depths[layers], exporter: r}
    command = "YOBX_SRC=... .venv/bin/python tools/bench/bench_convert.py " + " ".join(sys.argv[1:])
    text = "\n\n".join([
        f"Machine: {machine()}.",
        model_table(results),
        ratio_lines(results),
        ("Convert time versus depth (tiny Llama):\n\n" + depth_table(depths)) if depths else "",
    ])
    print(text)
    hist = {name: {e: r.get("ops") for e, r in per.items() if r.get("ops")} for name, per in results.items()}
    (OUT / "results.json").write_text(json.dumps({"models": {n: {e: {k: v for k, v in r.items() if k != "onnx"} for e, r in per.items()} for n, per in results.items()},
                                                  "ops": hist}, indent=1, default=str))
    if args.doc:
        models = "\n".join(f"- `{n}`: {MODELS[n][0]}" for n in results)
        doc = REPO / "docs" / "benchmarks.md"
        # Sections written by hand after the generated part (`## ...`) stay.
        old_doc = doc.read_text() if doc.exists() else ""
        kept = old_doc[old_doc.index("\n## ") :] if "\n## " in old_doc else ""
        doc.write_text(
            "# Benchmarks\n\n"
            "Conversion and runtime of the same `torch.export` programs by aten2onnx (`aten2onnx-ort`: with "
            "`--target onnxruntime`, onnxruntime's contrib ops), "
            "`torch.onnx.export(ep, dynamo=True, optimize=True)` and yobx's `to_onnx`, measured side by side in one run "
            "by `tools/bench/bench_convert.py` (see its docstring). Convert time is the export call (aten2onnx: the whole "
            "`aten-translate --to-onnx` process, start-up included, median of 5 runs; the peers: one run); peak RSS is the converting process's; ORT latency is "
            f"the median of {args.runs} runs after warm-up with one intra-op thread, the exporters' sessions of a model "
            "interleaved in random order (3 runs each per round) so that a shared machine's load hits them alike; "
            "the error is the largest absolute "
            "difference from eager PyTorch over two input shapes (**WRONG** past 1e-4 + 1e-4 |expected|). One run on a "
            "shared machine: read ratios, not absolute times.\n\n"
            f"Command:\n\n```sh\n{command}\n```\n\nModels:\n\n{models}\n\n{text}\n{kept}"
        )
        print(f"wrote {REPO / 'docs' / 'benchmarks.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
