#!/usr/bin/env python3
"""Benchmark at deployment size (prints figures; never a pass/fail test):
the models users ship, where float graphs are MatMul-bound and only
structure that removes memory traffic shows. One run, side by side,
interleaved, at 1 and 2 onnxruntime threads.

    cargo build --release --bins      # a binary without libtorch (see bench_convert.py)
    .venv/bin/python tools/bench/bench_deploy.py [--models bert_base,vit_base,llama] [--threads 1,2]
        [--rounds 12] [--genai-python /work/genai-venv/bin/python]

Models (random init, fixed seeds; captured once into target/bench/):
- `bert_base`: Hugging Face BertModel, hidden 768, 12 heads, 4 layers,
  intermediate 3072, vocab 30522; batch 2, sequence 128, the first row padded
  over its last 32 tokens (attention mask); batch and sequence dynamic.
- `vit_base`: ViTModel, ViT-B/16 at 224x224 (12 layers, hidden 768, 12
  heads); batch 2, dynamic.
- `llama`: the LlamaForCausalLM of tools/bench/bench_quantize.py (hidden 1024, 16
  heads, 4 KV heads, 4 layers, vocab 8000): prefill of 64 tokens, and one
  decode step with a DynamicCache at past 128, 512 and 2000, captured
  WITHOUT any `torch._check` (torch.export gives every past tensor its own
  length symbol; the compiler must prove them equal itself).

Variants: `aten2onnx` (the .pt2), `aten2onnx-ort` (`--target onnxruntime`),
`dynamo` (torch.onnx.export(dynamo=True, optimize=True) of the same program),
`dynamo+aten2onnx` (dynamo's model through `aten-translate --opset 23`;
`-trusted`: with `--trust-dim-params`, docs/from-onnx.md),
`dynamo+ortopt` (dynamo's model through onnxruntime's transformers
optimizer, model type bert / vit; not for llama), `genai` (llama only:
onnxruntime-genai's model builder, fp32, CPU, from the same HF folder; its
attention_mask input all ones) and `eager` (the PyTorch module, torch threads
= ORT threads).

Per model: ONNX nodes, the largest error against eager, latency (median of
the last 4 of 8 runs in a row per session per round, sessions in random order
each round: a decode step needs a few runs to get its weights back into the
caches after another session ran), and onnxruntime's profile at 1 thread:
kernel time in total and outside MatMul/Gemm (the overhead a graph adds
around the weight products; fused ops such as Attention count as outside).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools" / "bench"))  # bench_convert, bench_quantize
warnings.filterwarnings("ignore")

import bench_convert as bc  # noqa: E402  (captures, conversions, node counts)

OUT = bc.OUT
MATMUL_OPS = {"MatMul", "Gemm", "FusedMatMul", "FusedGemm", "MatMulNBits", "MatMulInteger", "QGemm", "QLinearMatMul"}


# --------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------

def _bert_base():
    import capture_corpus as cc
    import torch

    tf = cc._quiet_transformers()
    cfg = tf.BertConfig(vocab_size=30522, hidden_size=768, num_hidden_layers=4, num_attention_heads=12,
                        intermediate_size=3072, max_position_embeddings=512, hidden_dropout_prob=0.0,
                        attention_probs_dropout_prob=0.0)
    cfg._attn_implementation = "sdpa"
    torch.manual_seed(0)
    model = bc._trained_biases(cc.BertLastHidden(tf.BertModel(cfg, add_pooling_layer=False)).eval())
    g = torch.Generator().manual_seed(1)
    inputs = []
    for b, s, pad in [(2, 128, 32), (3, 96, 10)]:
        ids = torch.randint(0, 30522, (b, s), generator=g)
        mask = torch.ones(b, s, dtype=torch.int64)
        mask[0, s - pad:] = 0
        inputs.append((ids, mask))
    batch, seq = torch.export.Dim("batch"), torch.export.Dim("seq", max=512)
    return model, inputs, ({0: batch, 1: seq}, {0: batch, 1: seq}), ["input_ids", "attention_mask"]


def _vit_base():
    import capture_corpus as cc
    import torch

    tf = cc._quiet_transformers()
    cfg = tf.ViTConfig(image_size=224, patch_size=16, num_channels=3, hidden_size=768, num_hidden_layers=12,
                       num_attention_heads=12, intermediate_size=3072, hidden_dropout_prob=0.0,
                       attention_probs_dropout_prob=0.0)
    cfg._attn_implementation = "sdpa"
    torch.manual_seed(0)
    model = bc._trained_biases(cc.ViTLastHidden(tf.ViTModel(cfg, add_pooling_layer=False)).eval())
    g = torch.Generator().manual_seed(1)
    # Captured (and timed) at batch 2: an example batch of 1 would be specialized.
    inputs = [(torch.randn(b, 3, 224, 224, generator=g),) for b in (2, 3)]
    return model, inputs, ({0: torch.export.Dim("batch")},), ["pixel_values"]


ENCODERS = {
    "bert_base": ("BERT-base shape, 4 layers, batch 2 x 128 with padding", _bert_base, "bert", 12, 768),
    "vit_base": ("ViT-B/16, 224x224, 12 layers, batch 2", _vit_base, "vit", 12, 768),
}


# --------------------------------------------------------------------------
# Conversions
# --------------------------------------------------------------------------

def child_ortopt(src: str, dst: str, model_type: str, heads: str, hidden: str) -> None:
    """In a child: onnxruntime.transformers.optimizer on a dynamo model."""
    from onnxruntime.transformers import optimizer

    t = time.perf_counter()
    opt = optimizer.optimize_model(src, model_type=model_type, num_heads=int(heads), hidden_size=int(hidden),
                                   opt_level=1)
    opt.save_model_to_file(dst)
    print(json.dumps({"convert_s": time.perf_counter() - t}))


def convert_ortopt(name: str, model_type: str, heads: int, hidden: int) -> dict:
    src, dst = OUT / f"{name}.dynamo.onnx", OUT / f"{name}.dynamo+ortopt.onnx"
    if not src.exists():
        return {"error": "no dynamo model"}
    dst.unlink(missing_ok=True)
    code, wall, rss, text = bc.peak_rss_of([sys.executable, __file__, "--child-ortopt", str(src), str(dst),
                                            model_type, str(heads), str(hidden)], 1800)
    if code != 0 or not dst.exists():
        return {"error": f"exit {code}: {([l for l in text.splitlines() if l.strip()] or [''])[-1][:160]}"}
    line = [l for l in text.splitlines() if l.startswith("{") and "convert_s" in l][-1]
    return {"onnx": dst, "convert_s": json.loads(line)["convert_s"], "rss_mb": rss / 1024}


def convert_trusted(name: str) -> dict:
    """dynamo's model through `aten-translate --opset 23 --trust-dim-params`."""
    src, dst = OUT / f"{name}.dynamo.onnx", OUT / f"{name}.dynamo+aten2onnx-trusted.onnx"
    if not src.exists():
        return {"error": "no dynamo model"}
    cmd = [str(REPO / "target/release/aten-translate"), "--to-onnx", str(src), "-o", str(dst), "--quiet",
           "--opset", "23", "--trust-dim-params"]
    code, wall, rss, text = bc.peak_rss_of(cmd, 1800)
    if code != 0:
        return {"error": f"exit {code}: {text.strip()[-160:]}"}
    return {"onnx": dst, "convert_s": wall, "rss_mb": rss / 1024}


def conversions(name: str, pt2: Path, variants: list[str], extra: dict | None = None) -> dict:
    out = {}
    for v in variants:
        print(f"[{name}] {v} ...", file=sys.stderr, flush=True)
        if v == "dynamo+ortopt":
            out[v] = convert_ortopt(name, *extra["ortopt"])
        elif v == "dynamo+aten2onnx-trusted":
            out[v] = convert_trusted(name)
        else:
            out[v] = bc.convert(v, name, pt2, 1800)
        if "onnx" in out[v]:
            out[v]["nodes"] = bc.node_count(out[v]["onnx"])
    return out


# --------------------------------------------------------------------------
# Timing
# --------------------------------------------------------------------------

def ort_session(path, threads: int, profile_prefix: str | None = None):
    import onnxruntime as ort

    o = ort.SessionOptions()
    o.intra_op_num_threads = threads
    o.inter_op_num_threads = 1
    o.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    if profile_prefix:
        o.enable_profiling = True
        o.profile_file_prefix = profile_prefix
    return ort.InferenceSession(str(path), o, providers=["CPUExecutionProvider"])


def interleaved(runners: dict, rounds: int, reps: int = 8, keep: int = 4) -> dict:
    """Median ms of each runner (a no-argument callable): per round, in a
    random order, `reps` runs in a row of each, the last `keep` timed."""
    times = {k: [] for k in runners}
    rng = random.Random(0)
    order = list(runners)
    for run in runners.values():
        run()
    for _ in range(rounds):
        rng.shuffle(order)
        for k in order:
            for i in range(reps):
                t = time.perf_counter()
                runners[k]()
                if i >= reps - keep:
                    times[k].append((time.perf_counter() - t) * 1000)
    return {k: statistics.median(v) for k, v in times.items()}


def profile(path, feeds: dict, runs: int = 10) -> dict:
    """Kernel ms per run at 1 thread: total, outside MatMul/Gemm, top op types."""
    import bench_quantize as bq

    per = bq.kernel_ms(ort_session(path, 1, str(OUT / "deploy_profile")), feeds, runs + 3)
    return {"kernels_ms": sum(per.values()), "outside_ms": sum(t for k, t in per.items() if k not in MATMUL_OPS),
            "top": dict(list(per.items())[:6])}


def max_err(got, want) -> float:
    import numpy as np

    return float(max(np.abs(np.asarray(g, np.float64) - np.asarray(w, np.float64)).max(initial=0.0)
                     for g, w in zip(got, want)))


# --------------------------------------------------------------------------
# Encoders (BERT, ViT)
# --------------------------------------------------------------------------

def bench_encoder(name: str, threads: list[int], rounds: int) -> dict:
    import numpy as np
    import torch

    desc, build, model_type, heads, hidden = ENCODERS[name]
    bc.MODELS[name] = (desc, build)
    pt2 = bc.capture(name, build)
    variants = ["aten2onnx", "aten2onnx-ort", "dynamo", "dynamo+aten2onnx", "dynamo+aten2onnx-trusted", "dynamo+ortopt"]
    res = conversions(name, pt2, variants, {"ortopt": (model_type, heads, hidden)})
    io = np.load(OUT / f"{name}.io.npz")
    args = [io[k] for k in sorted(k for k in io.files if k.startswith("s0_in"))]
    want = [io[k] for k in sorted((k for k in io.files if k.startswith("s0_out")), key=lambda s: int(s.split("out")[1]))]
    model = build()[0]
    targs = [torch.from_numpy(a) for a in args]
    latency = {}
    for t in threads:
        runners = {}
        torch.set_num_threads(t)
        for v, r in res.items():
            if "onnx" not in r:
                continue
            try:
                s = ort_session(r["onnx"], t)
                feeds = {i.name: a for i, a in zip(s.get_inputs(), args)}
                r["err"] = max_err(s.run(None, feeds), want)
            except Exception as e:  # noqa: BLE001 - a model ORT refuses is a result
                r["error"] = f"onnxruntime: {str(e).splitlines()[0][:160]}"
                continue
            runners[v] = (lambda s=s, f=feeds: s.run(None, f))
        runners["eager"] = lambda: model(*targs)
        print(f"[{name}] latency, {t} thread(s) ...", file=sys.stderr, flush=True)
        with torch.no_grad():
            latency[t] = interleaved(runners, rounds)
    for v, r in res.items():
        if "onnx" in r and "error" not in r:
            s = ort_session(r["onnx"], 1)
            r["profile"] = profile(r["onnx"], {i.name: a for i, a in zip(s.get_inputs(), args)})
    return {"desc": desc, "variants": res, "latency": latency}


# --------------------------------------------------------------------------
# Llama: prefill and decode without torch._check
# --------------------------------------------------------------------------

def _decode_module():
    import bench_quantize as bq

    _, DecodeStep = bq._modules()

    class DecodeNoCheck(DecodeStep):
        """bench_quantize's decode step without its torch._check: every past
        tensor keeps its own length symbol in the capture."""

        def forward(self, input_ids, *past):
            from transformers import DynamicCache

            layers = len(past) // 2
            cache = DynamicCache(ddp_cache_data=[(past[2 * i], past[2 * i + 1]) for i in range(layers)],
                                 config=self.hf.config)
            out = self.hf(input_ids=input_ids, past_key_values=cache, use_cache=True)
            present = []
            for layer in out.past_key_values.layers:
                present += [layer.keys, layer.values]
            return (out.logits, *present)

    return DecodeNoCheck


def capture_llama(hf) -> dict:
    import numpy as np
    import torch
    from torch.export import Dim

    import bench_quantize as bq

    Prefill, _ = bq._modules()
    pts = {"llama_prefill": OUT / "llama_prefill.pt2", "llama_decode": OUT / "llama_decode.pt2"}
    if all(p.exists() for p in pts.values()):
        return pts
    with torch.no_grad():
        ids = torch.from_numpy(bq.inputs_prefill()["input_ids"])
        ep = torch.export.export(Prefill(hf), (ids,), dynamic_shapes=({1: Dim("seq", min=2, max=4096)},), strict=False)
        torch.export.save(ep, str(pts["llama_prefill"]))
        np.savez(OUT / "llama_prefill.io.npz", s0_in0=ids.numpy())
        g = torch.Generator().manual_seed(0)
        ex_ids = torch.randint(4, bq.CONFIG["vocab_size"], (1, 1), generator=g)
        ex_past = [torch.randn(1, bq.KV_HEADS, bq.CAPTURE_P, bq.HEAD_DIM, generator=g) for _ in range(2 * bq.LAYERS)]
        dyn = (None, tuple({2: Dim.DYNAMIC} for _ in ex_past))
        ep = torch.export.export(_decode_module()(hf), (ex_ids, *ex_past), dynamic_shapes=dyn, strict=False)
        torch.export.save(ep, str(pts["llama_decode"]))
        np.savez(OUT / "llama_decode.io.npz", **{f"s0_in{i}": a.numpy() for i, a in enumerate([ex_ids, *ex_past])})
    return pts


def bench_llama(threads: list[int], rounds: int, genai_python: str) -> dict:
    import numpy as np
    import torch

    import bench_quantize as bq

    bq.build_hf_folder(False)
    hf = bq.load_hf()
    pts = capture_llama(hf)
    variants = ["aten2onnx", "aten2onnx-ort", "dynamo", "dynamo+aten2onnx", "dynamo+aten2onnx-trusted"]
    res = {prog: conversions(prog, pt2, variants) for prog, pt2 in pts.items()}
    genai = bq.GENAI["e32"] / "model.onnx"
    if not genai.exists():
        print("[llama] genai fp32 ...", file=sys.stderr, flush=True)
        bq.convert_genai("e32", genai_python)
    for prog in res:
        res[prog]["genai"] = {"onnx": genai, "nodes": bc.node_count(genai)} if genai.exists() else {"error": "no genai model"}
    Prefill, _ = bq._modules()
    eager = {"llama_prefill": Prefill(hf), "llama_decode": _decode_module()(hf)}
    scenarios = [("prefill64", "llama_prefill", "prefill")] + [(f"decode{p}", "llama_decode", f"decode{p}") for p in bq.PASTS]
    latency, errors, profiles = {}, {}, {}
    for scen, prog, bq_scen in scenarios:
        if bq_scen == "prefill":
            plain = [bq.inputs_prefill()["input_ids"]]
        else:
            ids, past = bq.inputs_decode(int(bq_scen.removeprefix("decode")))
            plain = [ids, *past]
        targs = [torch.from_numpy(a) for a in plain]
        with torch.no_grad():
            want = [o.numpy() for o in eager[prog](*targs)][:1]  # logits
        for t in threads:
            torch.set_num_threads(t)
            runners = {}
            for v, r in res[prog].items():
                if "onnx" not in r or "error" in r:
                    continue
                s = ort_session(r["onnx"], t)
                feeds = bq.feeds_for(s, "e32", bq_scen) if v == "genai" else {i.name: a for i, a in zip(s.get_inputs(), plain)}
                if t == threads[0]:
                    errors.setdefault(scen, {})[v] = max_err(s.run(None, feeds)[:1], want)
                    if scen in ("prefill64", f"decode{bq.PASTS[-1]}"):
                        profiles.setdefault(scen, {})[v] = profile(r["onnx"], feeds)
                runners[v] = (lambda s=s, f=feeds: s.run(None, f))
            runners["eager"] = lambda m=eager[prog], a=targs: m(*a)
            print(f"[llama] {scen}, {t} thread(s) ...", file=sys.stderr, flush=True)
            with torch.no_grad():
                latency.setdefault(t, {})[scen] = interleaved(runners, rounds)
            del runners
    return {"variants": res, "latency": latency, "errors": errors, "profiles": profiles}


# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------

def encoder_table(name: str, r: dict, threads: list[int]) -> str:
    head = "| variant | nodes | max err | " + " | ".join(f"ms, {t} thr" for t in threads) + \
        " | ratio to best peer, 1 thr | kernels ms | outside MatMul/Gemm ms |"
    rows = [f"**{name}**: {r['desc']}", "", head, "|---" * (6 + len(threads)) + "|"]
    lat1 = r["latency"][threads[0]]
    peers = [lat1[v] for v in ("dynamo", "dynamo+ortopt", "eager") if v in lat1]
    best = min(peers) if peers else None
    for v in list(r["variants"]) + ["eager"]:
        x = r["variants"].get(v, {})
        if "error" in x and v != "eager":
            rows.append(f"| {v} | - | {x['error']} |" + " |" * (3 + len(threads)))
            continue
        ms = " | ".join(bc.fmt(r["latency"][t].get(v), ".2f") for t in threads)
        ratio = f"{lat1[v] / best:.2f}x" if best and v in lat1 else "-"
        p = x.get("profile", {})
        rows.append(f"| {v} | {x.get('nodes', '-')} | {bc.fmt(x.get('err'), '.1e')} | {ms} | {ratio} | "
                    f"{bc.fmt(p.get('kernels_ms'), '.2f')} | {bc.fmt(p.get('outside_ms'), '.2f')} |")
    return "\n".join(rows)


def llama_tables(r: dict, threads: list[int]) -> str:
    scen = list(next(iter(r["latency"].values())))
    out = []
    for t in threads:
        lat = r["latency"][t]
        rows = [f"Llama hidden 1024, {t} thread(s): ms (ratio to genai fp32)", "",
                "| variant | nodes prefill / decode | " + " | ".join(scen) + " |", "|---" * (2 + len(scen)) + "|"]
        for v in ["aten2onnx", "aten2onnx-ort", "dynamo", "dynamo+aten2onnx", "dynamo+aten2onnx-trusted", "genai", "eager"]:
            nodes = " / ".join(str(r["variants"][p].get(v, {}).get("nodes", "-")) for p in ("llama_prefill", "llama_decode"))
            cells = []
            for s in scen:
                x, g = lat[s].get(v), lat[s].get("genai")
                cells.append("-" if x is None else f"{x:.2f}" + (f" ({x / g:.2f}x)" if g else ""))
            rows.append(f"| {v} | {nodes if v != 'eager' else '-'} | " + " | ".join(cells) + " |")
        out.append("\n".join(rows))
    err_rows = ["| scenario | " + " | ".join(f"{v} max err" for v in next(iter(r["errors"].values()))) + " |"]
    err_rows.append("|---" * (1 + len(next(iter(r["errors"].values())))) + "|")
    for s, e in r["errors"].items():
        err_rows.append(f"| {s} | " + " | ".join(f"{x:.1e}" for x in e.values()) + " |")
    prof = ["| scenario | variant | kernels ms | outside MatMul/Gemm ms | top op types (ms) |", "|---|---|---:|---:|---|"]
    for s, per in r["profiles"].items():
        for v, p in per.items():
            top = ", ".join(f"{k} {x:.2f}" for k, x in p["top"].items())
            prof.append(f"| {s} | {v} | {p['kernels_ms']:.2f} | {p['outside_ms']:.2f} | {top} |")
    return "\n\n".join(out + ["Logits against eager:", "\n".join(err_rows), "Profile (1 thread):", "\n".join(prof)])


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child-ortopt":
        child_ortopt(*sys.argv[2:7])
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="bert_base,vit_base,llama")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--genai-python", default="/work/genai-venv/bin/python")
    args = ap.parse_args()
    binary = REPO / "target/release/aten-translate"
    if "libtorch" in subprocess.run(["ldd", str(binary)], capture_output=True, text=True).stdout:
        print(f"{binary} links libtorch: `cargo build --release --bins` first", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    threads = [int(t) for t in args.threads.split(",")]
    results, text = {}, [f"Machine: {bc.machine()}."]
    for name in args.models.split(","):
        if name in ENCODERS:
            results[name] = bench_encoder(name, threads, args.rounds)
            text.append(encoder_table(name, results[name], threads))
        elif name == "llama":
            results[name] = bench_llama(threads, args.rounds, args.genai_python)
            text.append(llama_tables(results[name], threads))
        else:
            ap.error(f"unknown model {name}")
        print("\n\n".join(text[-1:]), flush=True)
    (OUT / "deploy_results.json").write_text(json.dumps(results, indent=1, default=str))
    print("\n\n" + "\n\n".join(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
