#!/usr/bin/env python3
"""Benchmark (run by hand, prints figures; never a pass/fail test): weight-only
int4 at deployment size. A Hugging Face Llama (hidden 1024, 16 heads, 4 KV
heads, 4 layers, intermediate 2816, vocab 8000, random init with a fixed
seed, float32, about 61M parameters) converted five ways from the same
weights, and timed side by side in one process with onnxruntime.

    cargo build --release --bins
    python3 -m venv /work/genai-venv && /work/genai-venv/bin/pip install onnxruntime-genai==0.18.0 onnx_ir
    # torch and transformers for the builder without a second 5 GB install: the
    # main venv's site-packages after the genai venv's own (a .pth file)
    echo $PWD/.venv/lib/python3.11/site-packages > /work/genai-venv/lib/python3.11/site-packages/zz_main_venv.pth
    source tools/env.sh
    .venv/bin/python tools/bench/bench_quantize.py [--genai-python /work/genai-venv/bin/python]
        [--prefill-rounds 12] [--decode-rounds 30] [--reps 8] [--settle 4] [--skip-genai-fp32] [--force]
        [--quantized-binary target/debug/aten-translate] [--profile] [--reuse]

(--reuse: measure the files of the last run again; --prefill-rounds 0: no latency.)

Variants:

- `a` ours, float: `aten-translate --to-onnx M.pt2 -o a.onnx`
- `b` ours, `--quantize-weights int4` (standard ONNX: blocked DequantizeLinear
  + MatMul, which onnxruntime fuses into MatMulNBits when it loads the model)
- `c` ours, `--quantize-weights int4 --target onnxruntime` (com.microsoft.MatMulNBits)
- `d` onnxruntime's `MatMulNBitsQuantizer(model, block_size=32,
  is_symmetric=True)` on `torch.onnx.export(ep, dynamo=True)`'s float model of
  the same program (accuracy_level left unset, as that call leaves it);
  `d4` is the same file with accuracy_level = 4 on every MatMulNBits (the
  level b, c and e use), conversion figures those of d
- `e` onnxruntime-genai's model builder, `-p int4 -e cpu`, on the HF folder
  (its own venv: it pins onnxruntime; torch and transformers may come from
  the main venv through a .pth file); `e32`: the same with `-p fp32`

Programs (torch.export, batch 1): `prefill` input_ids [1, S] -> logits (S
dynamic, timed at 64); `decode` one step with a KV cache: input_ids [1, 1]
and past key/value [1, 4, P, 64] per layer -> logits and the present
key/values (P dynamic, one symbol through torch._check), timed at P = 128,
512, 2000. genai's single model serves both (attention_mask [1, P + S]).

Per variant: file size (.onnx plus its external data), conversion wall time
(ours: whole-process, median of 3 after one untimed run; the Python ones:
the export/quantize calls, one run; genai: the whole builder process, one
run), peak RSS of the converting process (/usr/bin/time %M), onnxruntime
1.32 latency (CPU, 1 intra-op thread, ORT_ENABLE_ALL; interleaved rounds:
each round runs every session `--reps` times in a row, the sessions in a
random order; the table gives the median of the "warm" runs, those after
the first `--settle` of each block, which find the model's weights in the
caches as a decode loop does; the first of each block follows other sessions and
runs "cold": its median, the interquartile range and minimum of the warm runs
and the median of all runs are in the spread table), and the prefill logits' max abs / RMS error
against eager float PyTorch on the same input (plus top-1 agreement), and the
decode logits' max error at P = 128. The ops of each optimized graph
(SessionOptions.optimized_model_filepath) are counted: whether onnxruntime
fused b's DequantizeLinear + MatMul into MatMulNBits, how attention runs.

Files go to target/bench/ (llama1024/ is the HF folder, quantize/ the
captures and ONNX files, genai_int4/ and genai_fp32/ the builder's output);
results to target/bench/quantize/results.json. Figures are one run on
whatever machine runs it: compare within a run.
"""
from __future__ import annotations

import argparse
import collections
import datetime
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "target" / "bench"
HF_DIR = BENCH / "llama1024"
OUT = BENCH / "quantize"
GENAI = {"e": BENCH / "genai_int4", "e32": BENCH / "genai_fp32"}
BINARY = REPO / "target" / "release" / "aten-translate"
warnings.filterwarnings("ignore")

CONFIG = dict(
    vocab_size=8000, hidden_size=1024, intermediate_size=2816, num_hidden_layers=4,
    num_attention_heads=16, num_key_value_heads=4, max_position_embeddings=4096,
    tie_word_embeddings=False, bos_token_id=1, eos_token_id=2, pad_token_id=0, use_cache=True,
)
LAYERS, KV_HEADS, HEAD_DIM = 4, 4, 64
PREFILL_S = 64
PASTS = (128, 512, 2000)
CAPTURE_P = 16  # example past length of the decode capture (not 1: torch.export would specialize it)

VARIANTS = {
    "a": "ours, float",
    "b": "ours, int4 (DequantizeLinear + MatMul)",
    "c": "ours, int4, --target onnxruntime (MatMulNBits)",
    "d": "ORT MatMulNBitsQuantizer on torch.onnx dynamo",
    "d4": "d with accuracy_level=4",
    "e": "onnxruntime-genai builder int4",
    "e32": "onnxruntime-genai builder fp32",
}
OURS_FLAGS = {"a": [], "b": ["--quantize-weights", "int4"],
              "c": ["--quantize-weights", "int4", "--target", "onnxruntime"]}


def log(msg: str) -> None:
    print(f"[{datetime.datetime.now():%H:%M:%S}] {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# The model: an HF folder (config, safetensors, a minimal tokenizer)
# --------------------------------------------------------------------------

def build_hf_folder(force: bool) -> None:
    if (HF_DIR / "model.safetensors").exists() and (HF_DIR / "tokenizer.json").exists() and not force:
        return
    import torch
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers

    transformers.logging.set_verbosity_error()
    HF_DIR.mkdir(parents=True, exist_ok=True)
    cfg = transformers.LlamaConfig(**CONFIG)
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(cfg).eval().to(torch.float32)
    model.save_pretrained(str(HF_DIR), safe_serialization=True)
    # onnxruntime-genai's builder insists on a tokenizer in the folder: a
    # WordLevel one over the vocabulary's size.
    specials = ["<pad>", "<s>", "</s>", "<unk>"]
    vocab = {t: i for i, t in enumerate(specials)}
    vocab.update({f"w{i}": i for i in range(len(specials), CONFIG["vocab_size"])})
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>",
                                                eos_token="</s>", pad_token="<pad>")
    fast.save_pretrained(str(HF_DIR))


def load_hf():
    import torch
    import transformers

    transformers.logging.set_verbosity_error()
    model = transformers.LlamaForCausalLM.from_pretrained(str(HF_DIR), dtype=torch.float32,
                                                          attn_implementation="sdpa")
    return model.eval()


# --------------------------------------------------------------------------
# Programs (torch.export) and their inputs
# --------------------------------------------------------------------------

def _modules():
    import torch
    from torch import nn
    from transformers import DynamicCache

    class Prefill(nn.Module):
        """`hf(input_ids, use_cache=False).logits`."""

        def __init__(self, hf):
            super().__init__()
            self.hf = hf

        def forward(self, input_ids):
            return self.hf(input_ids=input_ids, use_cache=False).logits

    class DecodeStep(nn.Module):
        """One decode step: input_ids [B, 1] and past (k0, v0, k1, v1, ...)
        [B, kv_heads, P, head_dim] -> (logits, present k0, v0, ...)."""

        def __init__(self, hf):
            super().__init__()
            self.hf = hf

        def forward(self, input_ids, *past):
            for t in past[1:]:
                torch._check(t.shape[2] == past[0].shape[2])
            layers = len(past) // 2
            cache = DynamicCache(ddp_cache_data=[(past[2 * i], past[2 * i + 1]) for i in range(layers)],
                                 config=self.hf.config)
            out = self.hf(input_ids=input_ids, past_key_values=cache, use_cache=True)
            present = []
            for layer in out.past_key_values.layers:
                present += [layer.keys, layer.values]
            return (out.logits, *present)

    return Prefill, DecodeStep


def inputs_prefill():
    import numpy as np

    rng = np.random.default_rng(1)
    return {"input_ids": rng.integers(4, CONFIG["vocab_size"], (1, PREFILL_S), dtype=np.int64)}


def inputs_decode(p: int):
    """input_ids [1, 1] and past k/v (same numbers for every variant of one P)."""
    import numpy as np

    rng = np.random.default_rng(100 + p)
    ids = rng.integers(4, CONFIG["vocab_size"], (1, 1), dtype=np.int64)
    past = [rng.standard_normal((1, KV_HEADS, p, HEAD_DIM), dtype=np.float32) for _ in range(2 * LAYERS)]
    return ids, past


def capture(force: bool) -> dict:
    """prefill.pt2, decode.pt2 and eager references; returns capture times."""
    import numpy as np
    import torch
    from torch.export import Dim

    times_path = OUT / "capture_times.json"
    if (OUT / "prefill.pt2").exists() and (OUT / "decode.pt2").exists() and (OUT / "eager.npz").exists() and not force:
        return json.loads(times_path.read_text())
    Prefill, DecodeStep = _modules()
    hf = load_hf()
    times = {}
    ref = {}
    with torch.no_grad():
        # prefill: batch 1 (static), sequence dynamic; example 64 tokens.
        ids = torch.from_numpy(inputs_prefill()["input_ids"])
        t = time.perf_counter()
        ep = torch.export.export(Prefill(hf), (ids,), dynamic_shapes=({1: Dim("seq", min=2, max=4096)},), strict=False)
        torch.export.save(ep, str(OUT / "prefill.pt2"))
        times["prefill"] = time.perf_counter() - t
        ref["prefill_logits"] = Prefill(hf)(ids).numpy()
        # decode: input_ids [1, 1], past length dynamic (one symbol).
        g = torch.Generator().manual_seed(0)
        ex_ids = torch.randint(4, CONFIG["vocab_size"], (1, 1), generator=g)
        ex_past = [torch.randn(1, KV_HEADS, CAPTURE_P, HEAD_DIM, generator=g) for _ in range(2 * LAYERS)]
        dyn = (None, tuple({2: Dim.DYNAMIC} for _ in ex_past))  # *past: one tuple
        t = time.perf_counter()
        ep = torch.export.export(DecodeStep(hf), (ex_ids, *ex_past), dynamic_shapes=dyn, strict=False)
        torch.export.save(ep, str(OUT / "decode.pt2"))
        times["decode"] = time.perf_counter() - t
        for p in PASTS[:1]:
            ids, past = inputs_decode(p)
            out = DecodeStep(hf)(torch.from_numpy(ids), *[torch.from_numpy(a) for a in past])
            ref[f"decode{p}_logits"] = out[0].numpy()
    np.savez(OUT / "eager.npz", **ref)
    # Example inputs of the captures, for torch.onnx.export in the child.
    np.savez(OUT / "prefill.args.npz", a0=inputs_prefill()["input_ids"])
    np.savez(OUT / "decode.args.npz", **{f"a{i}": a.numpy() for i, a in enumerate([ex_ids, *ex_past])})
    times_path.write_text(json.dumps(times))
    return times


# --------------------------------------------------------------------------
# Conversions (one child process each, for its peak RSS)
# --------------------------------------------------------------------------

def run_timed(cmd: list[str], timeout: float = 3600) -> tuple[int, float, int, str]:
    """(exit code, wall s, peak RSS kB, output) of cmd under /usr/bin/time."""
    marker = "@@maxrss="
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", f"{marker}%M", *cmd], capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - start
    rss, lines = 0, []
    for line in (proc.stdout + proc.stderr).splitlines():
        if line.startswith(marker):
            rss = int(line[len(marker):])
        else:
            lines.append(line)
    return proc.returncode, wall, rss, "\n".join(lines)


def onnx_size(path: Path) -> int:
    """Bytes of an .onnx file plus the external data files it names."""
    import onnx

    model = onnx.load(str(path), load_external_data=False)
    files = {path}

    def walk(graph):
        for t in graph.initializer:
            for e in t.external_data:
                if e.key == "location":
                    files.add(path.parent / e.value)
        for n in graph.node:
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g)

    walk(model.graph)
    return sum(f.stat().st_size for f in files if f.exists())


def convert_ours(variant: str, program: str, binary: Path = BINARY) -> dict:
    out = OUT / f"{program}.{variant}.onnx"
    for p in OUT.glob(f"{program}.{variant}.onnx*"):
        p.unlink()
    cmd = [str(binary), "--to-onnx", str(OUT / f"{program}.pt2"), "-o", str(out), "--quiet", *OURS_FLAGS[variant]]
    code, wall, rss, text = run_timed(cmd)  # untimed: brings the archive into the page cache
    if code != 0:
        return {"error": f"exit {code}: {text.strip().splitlines()[-1][:200] if text.strip() else ''}"}
    walls, rsss = [], []
    for _ in range(3):
        code, wall, rss, text = run_timed(cmd)
        walls.append(wall)
        rsss.append(rss)
    return {"onnx": str(out), "convert_s": statistics.median(walls), "convert_runs": walls,
            "rss_mb": max(rsss) / 1024, "size_mb": onnx_size(out) / 1e6, "cmd": " ".join(cmd),
            "binary": str(binary)}


def child_dynamo(program: str) -> None:
    """In a child process: torch.onnx.export(dynamo=True) of the program,
    then MatMulNBitsQuantizer(block_size=32, is_symmetric=True)."""
    import contextlib

    import numpy as np
    import onnx
    import torch
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    io = np.load(OUT / f"{program}.args.npz")
    args = tuple(torch.from_numpy(io[f"a{i}"]) for i in range(len(io.files)))
    ep = torch.export.load(str(OUT / f"{program}.pt2"))
    float_path = OUT / f"{program}.dynamo_float.onnx"
    t0 = time.perf_counter()
    with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
        onnx_program = torch.onnx.export(ep, args, dynamo=True)
        onnx_program.save(str(float_path), external_data=True)
    t1 = time.perf_counter()
    model = onnx.load(str(float_path))
    quant = MatMulNBitsQuantizer(model, block_size=32, is_symmetric=True)
    quant.process()
    out = OUT / f"{program}.d.onnx"
    onnx.save(quant.model.model, str(out), save_as_external_data=True, all_tensors_to_one_file=True,
              location=out.name + ".data", size_threshold=1024)
    t2 = time.perf_counter()
    print(json.dumps({"export_s": t1 - t0, "quantize_s": t2 - t1}))


def convert_dynamo(program: str, fallback: bool = False) -> dict:
    for p in OUT.glob(f"{program}.d.onnx*"):
        p.unlink()
    cmd = [sys.executable, __file__, "--child-dynamo", program]
    code, wall, rss, text = run_timed(cmd)
    out = OUT / f"{program}.d.onnx"
    if code != 0 or not out.exists():
        tail = [l for l in text.splitlines() if l.strip()][-3:]
        return {"error": f"exit {code}: {' | '.join(tail)[:400]}"}
    parts = json.loads([l for l in text.splitlines() if l.startswith("{") and "export_s" in l][-1])
    return {"onnx": str(out), "convert_s": parts["export_s"] + parts["quantize_s"], **parts, "process_s": wall,
            "rss_mb": rss / 1024, "size_mb": onnx_size(out) / 1e6}


def convert_dynamo_fallback(program: str) -> dict:
    """MatMulNBitsQuantizer on our float model (a), when torch.onnx.export fails."""
    import onnx
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    t = time.perf_counter()
    model = onnx.load(str(OUT / f"{program}.a.onnx"))
    quant = MatMulNBitsQuantizer(model, block_size=32, is_symmetric=True)
    quant.process()
    out = OUT / f"{program}.d.onnx"
    onnx.save(quant.model.model, str(out), save_as_external_data=True, all_tensors_to_one_file=True,
              location=out.name + ".data", size_threshold=1024)
    return {"onnx": str(out), "convert_s": time.perf_counter() - t, "rss_mb": None,
            "size_mb": onnx_size(out) / 1e6, "note": "quantizer applied to our float model (a)"}


def with_accuracy_level(src: Path, dst: Path, level: int) -> None:
    """d4: d's file with accuracy_level = level on every MatMulNBits."""
    import onnx

    model = onnx.load(str(src))
    for node in model.graph.node:
        if node.op_type == "MatMulNBits":
            for a in list(node.attribute):
                if a.name == "accuracy_level":
                    node.attribute.remove(a)
            node.attribute.append(onnx.helper.make_attribute("accuracy_level", level))
    for p in dst.parent.glob(dst.name + "*"):
        p.unlink()
    onnx.save(model, str(dst), save_as_external_data=True, all_tensors_to_one_file=True,
              location=dst.name + ".data", size_threshold=1024)


def convert_genai(variant: str, genai_python: str) -> dict:
    out = GENAI[variant]
    precision = "int4" if variant == "e" else "fp32"
    shutil.rmtree(out, ignore_errors=True)
    cmd = [genai_python, "-m", "onnxruntime_genai.models.builder", "-i", str(HF_DIR), "-o", str(out),
           "-p", precision, "-e", "cpu", "-c", str(BENCH / "hf_cache")]
    code, wall, rss, text = run_timed(cmd)
    (OUT / f"genai_{precision}.log").write_text(text)
    model = out / "model.onnx"
    if code != 0 or not model.exists():
        tail = [l for l in text.splitlines() if l.strip()][-3:]
        return {"error": f"exit {code}: {' | '.join(tail)[:400]}"}
    return {"onnx": str(model), "convert_s": wall, "rss_mb": rss / 1024, "size_mb": onnx_size(model) / 1e6,
            "cmd": " ".join(cmd)}


# --------------------------------------------------------------------------
# onnxruntime: sessions, feeds, optimized graphs
# --------------------------------------------------------------------------

def session(path: str, optimized_to: Path | None = None):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    if optimized_to is not None:
        opts.optimized_model_filepath = str(optimized_to)
        opts.add_session_config_entry("session.optimized_model_external_initializers_file_name",
                                      optimized_to.name + ".data")
        opts.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes", "1024")
    return ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])


def feeds_for(sess, variant: str, scenario: str) -> dict:
    """Feeds of one scenario (`prefill` or `decodeP`), the same numbers for every variant."""
    import numpy as np

    names = [i.name for i in sess.get_inputs()]
    genai = variant.startswith("e")
    if scenario == "prefill":
        ids = inputs_prefill()["input_ids"]
        if not genai:
            return {names[0]: ids}
        feeds = {"input_ids": ids, "attention_mask": np.ones((1, PREFILL_S), dtype=np.int64)}
        for i in range(LAYERS):
            for kv in ("key", "value"):
                feeds[f"past_key_values.{i}.{kv}"] = np.zeros((1, KV_HEADS, 0, HEAD_DIM), dtype=np.float32)
    else:
        p = int(scenario.removeprefix("decode"))
        ids, past = inputs_decode(p)
        if not genai:
            return dict(zip(names, [ids, *past]))
        feeds = {"input_ids": ids, "attention_mask": np.ones((1, p + 1), dtype=np.int64)}
        for i in range(LAYERS):
            feeds[f"past_key_values.{i}.key"] = past[2 * i]
            feeds[f"past_key_values.{i}.value"] = past[2 * i + 1]
    extra = set(names) - set(feeds)
    if extra:
        raise RuntimeError(f"{variant}: unexpected inputs {sorted(extra)}")
    return feeds


def op_histogram(path: Path) -> dict:
    import onnx

    model = onnx.load(str(path), load_external_data=False)
    return dict(collections.Counter(n.op_type for n in model.graph.node).most_common())


def model_path(results: dict, variant: str, program: str) -> str | None:
    r = results["convert"].get(variant if variant.startswith("e") else f"{program}.{variant}", {})
    return r.get("onnx")


def optimized_graphs(results: dict, variants: list[str]) -> dict:
    """Op counts of the written and the optimized graph (ORT_ENABLE_ALL) of every model."""
    (OUT / "optimized").mkdir(exist_ok=True)
    hist = {}
    for program in ("prefill", "decode"):
        for v in variants:
            path = model_path(results, v, program)
            if not path:
                continue
            if v.startswith("e") and program == "decode":
                hist[f"decode.{v}"] = hist.get(f"prefill.{v}")  # one model serves both
                continue
            opt = OUT / "optimized" / f"{program}.{v}.onnx"
            try:
                session(path, opt)
                hist[f"{program}.{v}"] = {"written": op_histogram(Path(path)), "optimized": op_histogram(opt)}
            except Exception as e:
                hist[f"{program}.{v}"] = {"error": f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"}
    return hist


# --------------------------------------------------------------------------
# Accuracy and latency
# --------------------------------------------------------------------------

def accuracy(results: dict, variants: list[str]) -> dict:
    import numpy as np

    ref = np.load(OUT / "eager.npz")
    acc = {}
    for v in variants:
        acc[v] = {}
        for program, scenario, key in (("prefill", "prefill", "prefill_logits"),
                                       ("decode", f"decode{PASTS[0]}", f"decode{PASTS[0]}_logits")):
            path = model_path(results, v, program)
            if not path:
                continue
            try:
                s = session(path)
                got = s.run(None, feeds_for(s, v, scenario))[0].astype(np.float64)
            except Exception as e:
                acc[v][program] = {"error": f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"}
                continue
            want = ref[key].astype(np.float64)
            d = got - want
            acc[v][program] = {"max_abs": float(np.abs(d).max()), "rms": float(np.sqrt((d ** 2).mean())),
                               "ref_rms": float(np.sqrt((want ** 2).mean())),
                               "top1": float((got.argmax(-1) == want.argmax(-1)).mean())}
            del s
    return acc


def latency(results: dict, variants: list[str], rounds: dict, reps: int, settle: int) -> dict:
    """Latency (ms) per scenario and variant, interleaved rounds: each round
    runs every session `reps` times in a row, the sessions in a random order.
    The first runs of each block follow other sessions, which have evicted
    this model's weights from the caches ("cold": measured here, a decode
    step took 5-6 runs in a row to settle, 4.5 ms -> 1.9 ms); the runs from
    index `settle` on are "warm", what a decode loop sees. Medians of the
    warm runs, of the first run of each block, and of all runs."""
    lat = {}
    for program, scenarios in (("prefill", ["prefill"]), ("decode", [f"decode{p}" for p in PASTS])):
        sessions = {}
        for v in variants:
            path = model_path(results, v, program)
            if path:
                sessions[v] = session(path)
        for scenario in scenarios:
            log(f"latency {scenario}: {', '.join(sessions)}")
            entries = []
            for v, s in sessions.items():
                try:
                    feeds = feeds_for(s, v, scenario)
                    for _ in range(3):
                        s.run(None, feeds)
                except Exception as e:
                    lat.setdefault(scenario, {})[v] = {"error": f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"}
                    continue
                entries.append((v, s, feeds, [], [], []))
            rng = random.Random(0)
            start = time.perf_counter()
            for _ in range(rounds[program]):
                rng.shuffle(entries)
                for _v, s, feeds, cold, warm, all_runs in entries:
                    for rep in range(reps):
                        t = time.perf_counter()
                        s.run(None, feeds)
                        ms = (time.perf_counter() - t) * 1000
                        if rep == 0:
                            cold.append(ms)
                        if rep >= settle:
                            warm.append(ms)
                        all_runs.append(ms)
            log(f"  {scenario}: {time.perf_counter() - start:.0f} s")
            for v, _s, _f, cold, warm, all_runs in entries:
                warm = warm or cold
                q = statistics.quantiles(warm, n=4) if len(warm) > 1 else [warm[0]] * 3
                lat.setdefault(scenario, {})[v] = {
                    "median": statistics.median(warm), "q1": q[0], "q3": q[2], "min": min(warm), "n": len(warm),
                    "cold": statistics.median(cold), "n_cold": len(cold), "all": statistics.median(all_runs)}
        del sessions
    return lat


def profile(results: dict, variants: list[str], runs: int = 20) -> dict:
    """Kernel time per op type (ms per run, SessionOptions.enable_profiling)
    of prefill-64, decode at the first and the last past length."""
    import onnxruntime as ort

    prof = {}
    for program, scenario in (("prefill", "prefill"), ("decode", f"decode{PASTS[0]}"), ("decode", f"decode{PASTS[-1]}")):
        for v in variants:
            path = model_path(results, v, program)
            if not path:
                continue
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = 1
            opts.inter_op_num_threads = 1
            opts.enable_profiling = True
            opts.profile_file_prefix = str(OUT / f"profile.{scenario}.{v}")
            s = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
            prof.setdefault(scenario, {})[v] = kernel_ms(s, feeds_for(s, v, scenario), runs + 3)
    return prof


def kernel_ms(session, feeds: dict, runs: int) -> dict:
    """Kernel ms per run by op type, most first, of `runs` runs of a
    session made with SessionOptions.enable_profiling (its trace is read,
    then deleted)."""
    for _ in range(runs):
        session.run(None, feeds)
    trace = Path(session.end_profiling())
    total = collections.Counter()
    for e in json.loads(trace.read_text()):
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            total[e["args"]["op_name"]] += e["dur"]
    trace.unlink()
    return {k: t / runs / 1000 for k, t in total.most_common()}


def profile_table(prof: dict) -> str:
    rows = ["| scenario | variant | kernels ms/run | top op types (ms/run) |", "|---|---|---:|---|"]
    for scenario, per in prof.items():
        for v, ops in per.items():
            top = ", ".join(f"{k} {t:.2f}" for k, t in list(ops.items())[:5])
            rows.append(f"| {scenario} | {v} | {sum(ops.values()):.2f} | {top} |")
    return "\n".join(rows)


# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------

def fmt(v, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def conv_cells(results: dict, v: str) -> tuple[str, str, str]:
    """(file MB, convert s, peak RSS MB): prefill / decode, or the one genai model."""
    if v.startswith("e"):
        r = results["convert"].get(v, {})
        if "error" in r:
            return "-", "-", "-"
        return fmt(r.get("size_mb"), ".1f"), fmt(r.get("convert_s"), ".1f"), fmt(r.get("rss_mb"), ".0f")
    key = "d" if v == "d4" else v
    cells = []
    for field, spec in (("size_mb", ".1f"), ("convert_s", ".2f"), ("rss_mb", ".0f")):
        vals = []
        for program in ("prefill", "decode"):
            r = results["convert"].get(f"{program}.{v if field == 'size_mb' else key}", {})
            vals.append(fmt(r.get(field), spec))
        cells.append(" / ".join(vals))
    return tuple(cells)


def table(results: dict, variants: list[str]) -> str:
    scen = ["prefill"] + [f"decode{p}" for p in PASTS]
    rows = ["| variant | file MB | convert s | peak RSS MB | prefill-64 ms (warm median) | decode ms, past 128 | past 512 | past 2000 "
            "| prefill logits max err | RMS err | top-1 agree | decode-128 logits max err |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for v in variants:
        size, conv, rss = conv_cells(results, v)
        lat = []
        for s in scen:
            r = results.get("latency", {}).get(s, {}).get(v)
            lat.append("-" if r is None else ("error" if "error" in r else f"{r['median']:.2f}"))
        a = results.get("accuracy", {}).get(v, {})
        pf, dc = a.get("prefill", {}), a.get("decode", {})
        rows.append(f"| {v}: {VARIANTS[v]} | {size} | {conv} | {rss} | " + " | ".join(lat)
                    + f" | {fmt(pf.get('max_abs'), '.2e')} | {fmt(pf.get('rms'), '.2e')} | "
                    + f"{fmt(pf.get('top1') and pf['top1'] * 100, '.0f')}% | {fmt(dc.get('max_abs'), '.2e')} |")
    return "\n".join(rows)


def spread_table(results: dict, variants: list[str]) -> str:
    scen = ["prefill"] + [f"decode{p}" for p in PASTS]
    rows = ["| variant | " + " | ".join(f"{s}: warm IQR, min (n) / cold median (n) / all median" for s in scen) + " |",
            "|---|" + "---:|" * len(scen)]
    for v in variants:
        cells = []
        for s in scen:
            r = results.get("latency", {}).get(s, {}).get(v)
            cells.append("-" if not r or "error" in r else
                         f"{r['q1']:.2f}-{r['q3']:.2f}, {r['min']:.2f} ({r['n']}) / {r['cold']:.2f} ({r['n_cold']}) / {r['all']:.2f}")
        rows.append(f"| {v} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def ops_table(results: dict, variants: list[str]) -> str:
    keys = ["MatMulNBits", "DequantizeLinear", "MatMul", "FusedMatMul", "Gemm", "GroupQueryAttention",
            "MultiHeadAttention", "Attention", "RotaryEmbedding", "SimplifiedLayerNormalization",
            "SkipSimplifiedLayerNormalization", "RMSNormalization", "Concat", "Softmax"]
    rows = ["| program.variant | nodes written -> optimized | " + " | ".join(keys) + " | other ops (optimized) |",
            "|---|---:|" + "---:|" * len(keys) + "---|"]
    for program in ("prefill", "decode"):
        for v in variants:
            h = results.get("ops", {}).get(f"{program}.{v}")
            if not h or "error" in h:
                continue
            w, o = h["written"], h["optimized"]
            others = ", ".join(f"{k} {n}" for k, n in o.items() if k not in keys)
            rows.append(f"| {program}.{v} | {sum(w.values())} -> {sum(o.values())} | "
                        + " | ".join(f"{w.get(k, 0)}->{o.get(k, 0)}" if w.get(k, 0) or o.get(k, 0) else "" for k in keys)
                        + f" | {others} |")
    return "\n".join(rows)


def machine() -> str:
    import onnxruntime as ort
    import torch

    cpu = "?"
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return (f"nproc {os.cpu_count()}, {cpu}, {platform.machine()}, torch {torch.__version__}, "
            f"onnxruntime {ort.__version__}, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")


# --------------------------------------------------------------------------

def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--child-dynamo":
        child_dynamo(sys.argv[2])
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--genai-python", default="/work/genai-venv/bin/python",
                    help="python of a venv with onnxruntime-genai 0.18 and onnx_ir ('' = skip e, e32)")
    ap.add_argument("--skip-genai-fp32", action="store_true")
    ap.add_argument("--prefill-rounds", type=int, default=12)
    ap.add_argument("--decode-rounds", type=int, default=30)
    ap.add_argument("--reps", type=int, default=8, help="runs of each session in a row per round")
    ap.add_argument("--settle", type=int, default=4, help="runs of each block before the warm ones (not in the median)")
    ap.add_argument("--binary", default=str(BINARY), help="aten-translate for a")
    ap.add_argument("--quantized-binary", default=None,
                    help="aten-translate for b and c (default: --binary); another build's convert figures are flagged")
    ap.add_argument("--profile", action="store_true",
                    help="also print the kernel time per op type (onnxruntime profiling; 0 rounds = no latency)")
    ap.add_argument("--force", action="store_true", help="rebuild the HF folder and the captures")
    ap.add_argument("--reuse", action="store_true", help="reuse the conversions in results.json (measure again)")
    args = ap.parse_args()
    binary = Path(args.binary)
    qbinary = Path(args.quantized_binary or args.binary)
    for b in (binary, qbinary):
        if not b.exists():
            print(f"no {b}: cargo build --release --bins", file=sys.stderr)
            return 1
    OUT.mkdir(parents=True, exist_ok=True)
    import torch

    torch.set_num_threads(os.cpu_count() or 1)
    log("HF folder")
    build_hf_folder(args.force)
    log("capture")
    results: dict = {"capture_s": capture(args.force), "convert": {}}
    res_path = OUT / "results.json"
    if args.reuse and res_path.exists():
        results["convert"] = json.loads(res_path.read_text())["convert"]
    variants = ["a", "b", "c", "d", "d4"]
    if args.genai_python:
        variants += ["e"] + ([] if args.skip_genai_fp32 else ["e32"])
    conv = results["convert"]
    if not args.reuse:
        for program in ("prefill", "decode"):
            for v in ("a", "b", "c"):
                log(f"convert {program}.{v}")
                conv[f"{program}.{v}"] = convert_ours(v, program, binary if v == "a" else qbinary)
            log(f"convert {program}.d (torch.onnx.export dynamo + MatMulNBitsQuantizer)")
            conv[f"{program}.d"] = convert_dynamo(program)
            if "error" in conv[f"{program}.d"] and "onnx" in conv[f"{program}.a"]:
                log(f"  torch.onnx.export failed ({conv[f'{program}.d']['error'][:200]}): quantizing our float model")
                failed = conv[f"{program}.d"]["error"]
                conv[f"{program}.d"] = {**convert_dynamo_fallback(program), "dynamo_error": failed}
            if "onnx" in conv[f"{program}.d"]:
                d4 = OUT / f"{program}.d4.onnx"
                with_accuracy_level(Path(conv[f"{program}.d"]["onnx"]), d4, 4)
                conv[f"{program}.d4"] = {"onnx": str(d4), "size_mb": onnx_size(d4) / 1e6}
        for v in [x for x in variants if x.startswith("e")]:
            log(f"convert {v} (onnxruntime-genai builder)")
            conv[v] = convert_genai(v, args.genai_python)
        res_path.write_text(json.dumps(results, indent=1, default=str))
    for k, r in conv.items():
        if "error" in r:
            log(f"{k}: {r['error']}")
    log("optimized graphs")
    results["ops"] = optimized_graphs(results, variants)
    log("accuracy")
    results["accuracy"] = accuracy(results, variants)
    res_path.write_text(json.dumps(results, indent=1, default=str))
    if args.prefill_rounds > 0 and args.decode_rounds > 0:
        results["latency"] = latency(results, variants, {"prefill": args.prefill_rounds,
                                                         "decode": args.decode_rounds}, args.reps, args.settle)
    if args.profile:
        log("profile")
        results["profile"] = profile(results, variants)
    results["machine"] = machine()
    res_path.write_text(json.dumps(results, indent=1, default=str))
    print(f"Machine: {results['machine']}.\n")
    print(table(results, variants))
    print("\nLatency spread: the warm runs' interquartile range and minimum (their count); the median of the "
          "cold runs (the first of each block, after other sessions; their count); the median of all runs "
          "(the settling ones included):\n")
    print(spread_table(results, variants))
    print("\nOps, written -> after onnxruntime's ORT_ENABLE_ALL optimizations:\n")
    print(ops_table(results, variants))
    if "profile" in results:
        print("\nKernel time per op type (onnxruntime profiling, 23 runs, not interleaved):\n")
        print(profile_table(results["profile"]))
    print(f"\nCapture (torch.export + save, not in convert s): "
          + ", ".join(f"{k} {v:.1f} s" for k, v in results["capture_s"].items()))
    for k, r in conv.items():
        if r.get("binary") and Path(r["binary"]).resolve() != BINARY.resolve():
            print(f"- {k}: converted by {r['binary']} (not the release build): its convert s and RSS are that build's")
        if "error" in r or "note" in r or "dynamo_error" in r:
            print(f"- {k}: {r.get('note', '')} {r.get('error', '')} {r.get('dynamo_error', '')}")
        if "export_s" in r:
            print(f"- {k}: torch.onnx.export {r['export_s']:.1f} s + MatMulNBitsQuantizer {r['quantize_s']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
