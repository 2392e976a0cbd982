#!/usr/bin/env python3
"""OpInfo sweep: PyTorch's own operator samples through aten2onnx.

Run from the repository root (after `source tools/env.sh`; torch's OpInfo
database needs `expecttest` and `hypothesis`: `.venv/bin/pip install
expecttest hypothesis` once):

    .venv/bin/python tools/sweeps/opinfo_sweep.py [--ir default|core|default,core]
        [--dtype float32 | --dtypes all | --dtype float32,int64] [--samples N]
        [--ops name,...] [--jobs N] [--out DIR] [--timeout S] [--no-doc]
        [--dynamic] [--inplace]

For every OpInfo of torch's `op_db` (torch.testing._internal.
common_methods_invocations, CPU) and every selected dtype it supports, each
sample input (`op.sample_inputs("cpu", dtype)`, first N with --samples N,
generated after `torch.manual_seed(0)`) becomes a small nn.Module calling
`op(sample.input, *sample.args, **sample.kwargs)`.  Only tensors become graph
inputs (TensorLists are flattened into one input per tensor); every other
argument (numbers, dtypes, lists of ints, ...) is baked into the module.  Then:

  capture   torch.export.export(module, tensors, strict=False) (TRAINING IR,
            `--ir default`), or that followed by ep.run_decompositions()
            (`--ir core`); torch.export.save to DIR/cache/<ir>/<key>/model.pt2.
            Eager outputs (the module called on copies of the inputs) are
            saved beside it.  Captures are cached by a hash of the sample
            (op, dtype, IR, input bytes, baked arguments), so reruns only
            convert.
  convert   `aten-translate --to-onnx model.pt2 -o model.onnx` in a
            subprocess with a timeout (binary: $ATEN2ONNX_BIN_DIR/aten-translate,
            default target/debug/aten-translate).
  run       onnx.checker (full check), then onnxruntime (CPU, default graph
            optimizations, one thread), and a comparison with the eager outputs.

Every case gets one category:

  pass           all outputs match (shape, dtype and values, see tolerances).
  wrong          the converter exited 0 and onnxruntime ran, but an output
                 differs: values beyond tolerance, NaN positions, shape, dtype
                 or number of outputs.  A silent wrong output: the worst bug.
  convert-error  aten-translate exited 1 with an error (missing rule, a rule
                 refusing its arguments, ...): the first error line is kept,
                 missing rules are listed by overload.
  crash          aten-translate exited with another code (101 = a Rust panic)
                 or was killed by a signal, or did not finish within --timeout.
  ort-error      the model fails onnx.checker, or onnxruntime refuses to load
                 or run it (or dies while doing so).
  ort-gap        onnxruntime's CPU provider has no kernel for an op at this
                 type ("Could not find an implementation"); the model passed
                 onnx.checker with full shape inference first. Not a pass.
  capture-skip   torch.export (or run_decompositions, or eager PyTorch itself)
                 fails on the sample: not the converter's fault; reported.
  skip           the harness cannot judge the case: sparse tensors,
                 non-tensor outputs.

--dynamic captures with every dim of every tensor input `Dim.AUTO`
(dynamic_shapes): torch keeps dims dynamic where it can and specializes the
rest (0/1-sized dims, dims the baked arguments pin), so the converter's
run-time size paths (Shape, ...) meet every op.  A capture that fails only
with dynamic shapes is a capture-skip ("torch.export (dynamic)"), never
retried static.  Captures live under DIR/cache/<ir>-dynamic (their key
includes "dynamic"), the summary under IR/dtype/dynamic in the docs JSON
(the --tag mechanism; "-dynamic" appended to a given tag), results in
DIR/results-<ir>-<dtype>-dynamic.json.  Each case records `dyn_dims`, the
dims left symbolic among the program's user inputs; the totals are repeated
over cases with at least one, and those with none (`none_dynamic`: nothing
new tested) are counted apart.  Cases that pass get a second input set with
every symbol one larger (resized_inputs: grown dims repeat the leading slice,
floats scaled by a random factor in [0.5, 1.5]), eager as the reference,
only when the exported program accepts it and agrees with eager; its verdict
(`resized_status`: pass, wrong, ort-error, none) never changes the case's
category.

--inplace runs each OpInfo's in-place variant (`op.inplace_variant`: x.add_,
F.elu(inplace=True), ...) as `y = x.clone(); y.op_(*args, **kwargs);
return y`: torch.export keeps the in-place ATen op (add_.Tensor, ...) in the
TRAINING IR, so the converter meets the mutating overloads.  Only OpInfos
with an in-place variant, and only deterministic ones: OpInfos whose op or
in-place variant goes through `wrapper_set_seed` (uniform, normal, dropout,
rrelu, ...; `seeded_opinfo`) are left out.  Samples the in-place op refuses
in eager (a result dtype it cannot write back, an input it would have to
broadcast) are capture-skips.  Same categories and report as the default
mode; captures under DIR/cache/<ir>-inplace (their key includes "inplace"),
the summary under IR/dtype/inplace in the docs JSON ("-inplace" appended to
a given tag), results in DIR/results-<ir>-<dtype>-inplace.json.  With
--dynamic as well: cache <ir>-dynamic-inplace, tag dynamic-inplace.

bfloat16 tensors (no numpy dtype) are stored upcast to float32 in io.npz
(exact) and listed in the capture's meta; they are fed to onnxruntime as
BFLOAT16 OrtValues over their bits (run_with_ort_values), bfloat16 outputs
are read through DLPack, and both sides are compared in float32 after
checking that the model's output really is bfloat16.

Ops returning uninitialized memory (empty, empty_like, new_empty, ...) pass
when shape and dtype match (their values are unspecified).

Random outputs (a sample whose exported program gives different outputs
under different seeds) are judged as distributions: the exported program is
run 2 x 64 times (seeds 1000...) at capture, onnxruntime 64 times in one
session, and the draws must agree (distribution_verdict): positions that never
vary in the reference must match it; no position may be stuck in
onnxruntime's draws where the reference varies; and three statistics (KS on
the pooled values, KS on per-position standardized values, the largest
per-position mean-rank gap) must stay within 6 standard deviations of their
null distributions from 200 permutations of whole draws (exact whatever the
correlation between positions of one draw).  This found that onnxruntime's
`Dropout` mask repeats its first element in every run (fixed in the lowering).

Tolerances (|onnx - eager| <= atol + rtol * |eager|, or exactly equal; NaN
positions must match; +-inf must match exactly):

  float32   atol 1e-4,  rtol 1e-4   (the project's tolerance)
  float64   atol 1e-6,  rtol 1e-6
  float16   atol 1e-3,  rtol 2e-3   (about 2 ulp)
  bfloat16  atol 1e-2,  rtol 1.6e-2 (the same rule at bfloat16's eps 2^-7 =
                                     7.8e-3: atol about 1 eps rounded up,
                                     rtol 2 eps; src/verify.rs `tolerance`)
  integer and bool outputs: exact.

float16 and bfloat16 cases found `wrong` may still pass against the float32
truth (Worker.half_truth).

Robustness: each worker is a separate Python process (--jobs of them); a
sample that kills or hangs a worker is classified from the stage it was in
(capture-skip during capture, ort-error in onnxruntime) and the worker is
restarted after it.  Results of a (capture, converter binary) pair are cached
too, so an interrupted sweep resumes where it stopped.

Outputs: a per-op table and totals on stdout, the first failing sample of each
op with its reason; DIR/results-<ir>-<dtype>.json (every case);
docs/opinfo-sweep.json (the per-op summary of each IR/dtype configuration,
merged across runs) and docs/opinfo-sweep.md (generated from it), unless
--no-doc.  Generated captures live under DIR (default
/tmp/aten2onnx-opinfo-sweep), never in git.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import time
import warnings
from collections import Counter, defaultdict
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HARNESS_VERSION = "4"   # captures
RESULT_VERSION = "9"    # conversion + comparison results (per converter binary)
# Random outputs: onnxruntime runs the model RANDOM_DRAWS times and the
# exported program 2 * RANDOM_DRAWS times (different seeds); the draws are
# compared as distributions (distribution_verdict).
RANDOM_DRAWS = 64
# float16 / bfloat16 cases that differ from eager float16 / bfloat16 may
# still pass when no farther from the float32 truth than eager is, by this
# factor (Worker.half_truth; the same criterion as tools/sweeps/try_real_models.py).
TRUTH_FACTOR = 2.0
RANDOM_Z_MAX = 6.0   # a KS statistic this many null std devs above its permutations fails
CATEGORIES = ["pass", "wrong", "convert-error", "crash", "ort-error", "ort-gap", "capture-skip", "skip"]
TOLERANCES = {
    "float32": (1e-4, 1e-4),
    "float64": (1e-6, 1e-6),
    "float16": (1e-3, 2e-3),
    # float16's rule (atol ~1 eps, rtol 2 eps) at bfloat16's eps 2^-7:
    # the project's bfloat16 tolerance (src/verify.rs `tolerance`).
    "bfloat16": (1e-2, 1.6e-2),
}
HALF = ("float16", "bfloat16")
# Ops whose outputs are uninitialized memory: shape and dtype are all there is.
UNINITIALIZED = {"empty", "empty_like", "new_empty", "new_empty_strided", "empty_strided",
                 "empty_permuted"}


def default_binary() -> Path:
    bin_dir = os.environ.get("ATEN2ONNX_BIN_DIR")
    return Path(bin_dir) / "aten-translate" if bin_dir else REPO / "target" / "debug" / "aten-translate"


# ==========================================================================
# Worker side (one process per job): capture, convert, run, compare.
# ==========================================================================

class Worker:
    def __init__(self, args):
        # Everything but the protocol goes to stderr.
        self.proto = os.fdopen(os.dup(1), "w", buffering=1)
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        warnings.filterwarnings("ignore")
        import numpy as np
        import torch
        import torch.utils._pytree as pytree
        from torch.testing._internal.common_methods_invocations import op_db

        torch.set_num_threads(1)
        self.np, self.torch, self.pytree = np, torch, pytree
        self.ops = {op_key(op): op for op in op_db}
        self.args = args
        self.binary = args.binary
        self.bin_hash = args.bin_hash
        self.cache = Path(args.out) / "cache"

    def send(self, **msg):
        self.proto.write(json.dumps(msg) + "\n")
        self.proto.flush()

    def loop(self):
        for line in sys.stdin:
            task = json.loads(line)
            try:
                self.run_task(task)
            except Exception as e:  # never stop: report the op as broken
                self.send(event="op-error", reason=f"{type(e).__name__}: {e}"[:300])
            self.send(event="done")

    def samples(self, op, dtype):
        torch = self.torch
        torch.manual_seed(0)
        out = []
        for s in op.sample_inputs("cpu", dtype, requires_grad=False):
            out.append(s)
            if self.args.samples and len(out) >= self.args.samples:
                break
        return out

    def run_task(self, task):
        torch = self.torch
        op = self.ops[task["op"]]
        dtype = getattr(torch, task["dtype"])
        try:
            samples = self.samples(op, dtype)
        except Exception as e:
            self.send(event="op-error", reason=f"sample_inputs failed: {type(e).__name__}: {e}"[:300])
            return
        self.send(event="count", n=len(samples))
        for i, sample in enumerate(samples):
            if i < task.get("start", 0):
                continue
            self.send(event="start", i=i)
            try:
                res = self.run_sample(op, task, i, sample)
            except Exception as e:
                res = {"status": "capture-skip", "reason": f"harness: {type(e).__name__}: {e}"[:300]}
            res["i"] = i
            self.send(event="result", **res)

    # ---------------------------------------------------------------- capture
    def sample_key(self, op, task, leaves, spec):
        torch = self.torch
        h = hashlib.sha256()
        h.update(f"{HARNESS_VERSION}|{torch.__version__}|{task['op']}|{task['dtype']}|{task['ir']}|{spec}".encode())
        if self.args.dynamic:
            # Never the key of a static capture of the same sample.
            h.update(b"|dynamic")
        if self.args.inplace:
            # Never the key of the out-of-place capture of the same sample.
            h.update(b"|inplace")
        for leaf in leaves:
            if isinstance(leaf, torch.Tensor):
                h.update(f"T{leaf.dtype}{tuple(leaf.shape)}{leaf.layout}".encode())
                if leaf.layout == torch.strided and leaf.dtype == torch.bfloat16:
                    # Its bits (repr abbreviates large tensors).
                    h.update(leaf.detach().contiguous().cpu().view(torch.int16).numpy().tobytes())
                elif leaf.layout == torch.strided and not leaf.is_complex():
                    h.update(leaf.detach().contiguous().cpu().numpy().tobytes())
                else:
                    h.update(repr(leaf).encode())
            else:
                h.update(repr(leaf).encode())
        return h.hexdigest()[:24]

    def sample_module(self, op, leaves, spec, tensor_pos):
        """An nn.Module calling the op on its tensor arguments (the rest baked in)."""
        torch, pytree = self.torch, self.pytree
        fn = op.op

        def sample(ts):
            """(input, args, kwargs) of the sample with its tensors replaced by `ts`."""
            ls = list(leaves)
            for k, t in zip(tensor_pos, ts):
                ls[k] = t
            return pytree.tree_unflatten(ls, spec)

        if self.args.inplace:
            inplace = op.inplace_variant

            class InplaceModule(torch.nn.Module):
                def forward(self, *ts):
                    inp, args, kwargs = sample(ts)
                    # A clone, so the graph mutates no user input: the
                    # in-place op stays in the exported graph.
                    y = inp.clone()
                    inplace(y, *args, **kwargs)
                    return (y,)

            return InplaceModule()

        class SampleModule(torch.nn.Module):
            def forward(self, *ts):
                inp, args, kwargs = sample(ts)
                # A flat tuple: torch.return_types and other named tuples
                # cannot be serialized by torch.export.save.
                return tuple(pytree.tree_leaves(fn(inp, *args, **kwargs)))

        return SampleModule()

    def half_truth(self, op, sample, case_dir, meta, out, dtype):
        """A float16 case (`dtype`; bfloat16 alike) found `wrong` against
        eager float16: torch's half kernels often round intermediate
        results to float16 (grid_sample's
        coordinates, conv_transpose's sums, soft_margin_loss's exp
        overflowing to inf), where the converted model computes them in
        float32 (onnx-widen-half).  Judged against the truth (the op on the
        same inputs upcast to float32): the case passes when every float
        output is no farther from it than eager float16 is, within
        TRUTH_FACTOR in max and RMS error plus the float16 atol, and within
        the float16 tolerance of the truth where eager float16 is not finite
        but the truth is.  Anything else stays `wrong`.  bfloat16 the same,
        with its own tolerance."""
        torch, np, pytree = self.torch, self.np, self.pytree
        got = getattr(self, "_last_got", None)
        if got is None:
            return out
        half = getattr(torch, dtype)
        leaves, spec = pytree.tree_flatten((sample.input, tuple(sample.args), dict(sample.kwargs)))
        tensor_pos = [k for k, l in enumerate(leaves) if isinstance(l, torch.Tensor)]
        ups = [leaves[k].detach().clone().float() if leaves[k].dtype == half else leaves[k].detach().clone()
               for k in tensor_pos]
        try:
            torch.manual_seed(0)
            truth = pytree.tree_leaves(self.sample_module(op, leaves, spec, tensor_pos)(*ups))
        except Exception:
            return out
        data = np.load(case_dir / "io.npz")
        expected = [data[f"output_{k}"] for k in range(meta["n_outputs"])]
        if len(truth) != len(expected):
            return out
        atol, rtol = TOLERANCES[dtype]
        worst = []
        for k, (g, e, t) in enumerate(zip(got, expected, truth)):
            g = np.asarray(g)
            if not isinstance(t, torch.Tensor) or t.is_complex():
                return out
            t = t.detach().double().numpy()
            if e.dtype.kind != "f":
                if compare(np, g, e, dtype) is not None:
                    return out
                continue
            if t.shape != e.shape or g.shape != e.shape or g.dtype != e.dtype:
                return out
            g64, e64 = g.astype(np.float64), e.astype(np.float64)
            tn = np.isnan(t)
            if not np.array_equal(np.isnan(g64), tn) and not np.array_equal(np.isnan(g64), np.isnan(e64)):
                return out
            fin = np.isfinite(t)
            with np.errstate(invalid="ignore", over="ignore"):
                inf_ok = ~np.isinf(t) | (g64 == t)
                if not inf_ok.all():
                    return out
                eager_bad = fin & ~np.isfinite(e64)
                if (eager_bad & ~(np.abs(g64 - t) <= atol + rtol * np.abs(t))).any():
                    return out
                both = fin & np.isfinite(e64)
                if eager_bad.any():
                    worst.append(f"output {k}: eager {dtype} not finite at {int(eager_bad.sum())} element(s) "
                                 "where the truth is; onnx within tolerance of the truth there")
                if not both.any():
                    continue
                err_e, err_g = np.abs(e64 - t)[both], np.abs(g64 - t)[both]
            max_e, max_g = float(err_e.max()), float(err_g.max())
            rms_e, rms_g = float(np.sqrt(np.mean(err_e ** 2))), float(np.sqrt(np.mean(err_g ** 2)))
            if max_g > TRUTH_FACTOR * max_e + atol or rms_g > TRUTH_FACTOR * rms_e + atol:
                return out
            worst.append(f"output {k}: max |x - truth| onnx {max_g:.3g} vs eager {max_e:.3g}, "
                         f"RMS {rms_g:.3g} vs {rms_e:.3g}")
        return {"status": "pass", "max_err": out.get("max_err", 0.0),
                "reason": f"{dtype} truth: differs from eager {dtype} (" + out["reason"][:160] + ") but is no farther "
                          "from the float32 result than eager is (" + "; ".join(worst) + ")"}

    def capture(self, op, task, sample, case_dir):
        """Returns meta (dict) with status 'ok' or a skip reason."""
        torch, np, pytree = self.torch, self.np, self.pytree
        leaves, spec = pytree.tree_flatten((sample.input, tuple(sample.args), dict(sample.kwargs)))
        tensor_pos = [k for k, l in enumerate(leaves) if isinstance(l, torch.Tensor)]
        tensors = [leaves[k] for k in tensor_pos]
        desc = describe(torch, sample)
        meta = {"desc": desc}

        def skip(status, reason):
            meta.update(status=status, reason=reason)
            return meta

        for t in tensors:
            if t.layout != torch.strided:
                return skip("skip", f"{t.layout} input")
        module = self.sample_module(op, leaves, spec, tensor_pos)

        def fresh():
            return [t.detach().clone() for t in tensors]

        try:
            torch.manual_seed(0)
            out = module(*fresh())
            torch.manual_seed(1)
            out2 = module(*fresh())
        except Exception as e:
            return skip("capture-skip", f"eager: {type(e).__name__}: {first_line(str(e))}")
        outs, _ = pytree.tree_flatten(out)
        outs2, _ = pytree.tree_flatten(out2)
        if not outs:
            return skip("skip", "no outputs")
        for o in outs:
            if not isinstance(o, torch.Tensor):
                return skip("skip", f"non-tensor output ({type(o).__name__})")
            if o.layout != torch.strided:
                return skip("skip", f"{o.layout} output")
        base = op.name.split(".")[-1] if op.name.startswith("_refs") else op.name
        random = False
        if op.name in UNINITIALIZED or base in UNINITIALIZED:
            meta["uninitialized"] = True
        else:
            random = any(not same(torch, a, b) for a, b in zip(outs, outs2))
        meta["random"] = random
        dynamic_shapes = None
        if self.args.dynamic and tensors:
            # Every dim Dim.AUTO: torch keeps what it can dynamic and
            # specializes the rest (0/1-sized dims, dims the baked arguments
            # pin).  forward(*ts) takes one varargs tuple: one entry for it.
            Dim = torch.export.Dim
            dynamic_shapes = (tuple({d: Dim.AUTO for d in range(t.dim())} if t.dim() else None
                                    for t in tensors),)
        try:
            ep = torch.export.export(module, tuple(fresh()), dynamic_shapes=dynamic_shapes, strict=False)
        except Exception as e:
            # No fallback to static shapes: that would test nothing new.
            what = "torch.export (dynamic)" if dynamic_shapes else "torch.export"
            return skip("capture-skip", f"{what}: {type(e).__name__}: {first_line(str(e))}")
        if task["ir"] == "core":
            try:
                ep = ep.run_decompositions()
            except Exception as e:
                return skip("capture-skip", f"run_decompositions: {type(e).__name__}: {first_line(str(e))}")
        if not random and not meta.get("uninitialized"):
            # OpInfo wraps random ops in wrapper_set_seed (a fixed seed set
            # inside the call), so two eager runs agree; the exported graph
            # has no seed in it: run it with several seeds (a draw may
            # change the output only sometimes: fractional_max_pool).
            try:
                gm = ep.module()
                torch.manual_seed(0)
                r1 = pytree.tree_leaves(gm(*fresh()))
                for seed in range(1, 8):
                    torch.manual_seed(seed)
                    r2 = pytree.tree_leaves(gm(*fresh()))
                    random = any(isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)
                                 and not same(torch, a, b) for a, b in zip(r1, r2))
                    if random:
                        break
                meta["random"] = random
            except Exception:
                pass
        if self.args.dynamic:
            # Dims left symbolic in the program: a capture with none tests
            # nothing the static sweep does not (reported apart).
            users = {str(n) for n in ep.graph_signature.user_inputs}
            meta["dyn_dims"] = sum(symbolic(torch, d) for n in ep.graph.nodes
                                   if n.op == "placeholder" and n.name in users
                                   and isinstance(n.meta.get("val"), torch.Tensor)
                                   for d in n.meta["val"].shape)
        case_dir.mkdir(parents=True, exist_ok=True)
        try:
            torch.export.save(ep, str(case_dir / "model.pt2"))
        except Exception as e:
            return skip("capture-skip", f"torch.export.save: {type(e).__name__}: {first_line(str(e))}")
        sig = ep.graph_signature
        arrays = {}
        # Complex tensors are fed and compared as their real views (trailing
        # dim of 2), how the converter writes complex graph inputs and outputs
        # (passes/lowering/src/complex.rs).
        # bfloat16 ones (numpy has no such dtype) as float32, exactly; meta
        # lists them (bf16_inputs, bf16_outputs) for feeding and comparing.
        def real_view(t):
            t = t.detach()
            if t.is_complex():
                t = torch.view_as_real(t.resolve_conj().resolve_neg())
            if t.dtype == torch.bfloat16:
                t = t.float()
            return t.contiguous().numpy()
        for k, t in enumerate(tensors):
            arrays[f"input_{k}"] = real_view(t)
        for k, o in enumerate(outs):
            arrays[f"output_{k}"] = real_view(o)
        if self.args.dynamic and meta.get("dyn_dims") and not random:
            # The sample's own sizes hide a size baked in as its trace-time
            # value: a second input set with every symbol one larger.
            resized, why = self.resized_inputs(ep, module, tensors, meta)
            if resized is None:
                meta["resized_skip"] = why
            else:
                r_ins, r_outs = resized
                for k, t in enumerate(r_ins):
                    arrays[f"rinput_{k}"] = real_view(t)
                for k, o in enumerate(r_outs):
                    arrays[f"routput_{k}"] = real_view(o)
                meta["resized"] = ", ".join(f"{'x'.join(map(str, t.shape)) or 'scalar'}" for t in r_ins)
        if meta.get("random"):
            # Reference draws from the exported program (OpInfo's eager
            # wrappers fix the seed inside the call; the graph has none).
            try:
                gm = ep.module()
                draws = [[] for _ in outs]
                for s in range(2 * RANDOM_DRAWS):
                    torch.manual_seed(1000 + s)
                    r = pytree.tree_leaves(gm(*fresh()))
                    for k in range(len(outs)):
                        draws[k].append(real_view(r[k]))
                for k in range(len(outs)):
                    arrays[f"draws_{k}"] = np.stack(draws[k])
                meta["draws"] = 2 * RANDOM_DRAWS
            except Exception as e:
                meta["draws_error"] = f"{type(e).__name__}: {first_line(str(e))}"
        np.savez(case_dir / "io.npz", **arrays)
        meta.update(status="ok", n_inputs=len(tensors), n_outputs=len(outs),
                    bf16_inputs=[k for k, t in enumerate(tensors) if t.dtype == torch.bfloat16],
                    bf16_outputs=[k for k, o in enumerate(outs) if o.dtype == torch.bfloat16],
                    input_names=[str(n) for n in sig.user_inputs],
                    output_names=[str(n) for n in sig.user_outputs])
        return meta

    def resized_inputs(self, ep, module, tensors, meta):
        """((inputs, eager outputs), None) with every symbol of the captured
        program one larger (one smaller at its upper bound), or (None, why).
        Grown dims repeat the leading slice, floats scaled by a random factor
        in [0.5, 1.5] (same sign and domain; no duplicated rows making a
        matrix singular); integers and bools repeat as they are (indices stay
        in range).  The reference is eager on them; the exported program must
        accept them (its guards) and agree with eager, else no second set."""
        torch, pytree = self.torch, self.pytree
        users = [str(n) for n in ep.graph_signature.user_inputs]
        nodes = {n.name: n for n in ep.graph.nodes if n.op == "placeholder"}
        if len(users) != len(tensors):
            return None, "user inputs do not match the sample's tensors"
        new = {}
        shapes = []
        for name, t in zip(users, tensors):
            shape = []
            for d, s in enumerate(nodes[name].meta["val"].shape):
                if not symbolic(torch, s):
                    shape.append(t.shape[d])
                    continue
                expr = s.node.expr
                if not expr.is_Symbol:
                    return None, f"input dim is an expression ({expr})"
                if expr not in new:
                    vr = ep.range_constraints.get(expr)
                    hint = t.shape[d]
                    up = vr.upper if vr is not None else None
                    lo = vr.lower if vr is not None else 2
                    if up is None or hint + 1 <= up:
                        new[expr] = hint + 1
                    elif hint - 1 >= max(int(lo), 2):
                        new[expr] = hint - 1
                    else:
                        return None, f"no other size for {expr}"
                shape.append(new[expr])
            shapes.append(shape)
        g = torch.Generator().manual_seed(0)
        r_ins = []
        for t, shape in zip(tensors, shapes):
            r = t.detach().clone()
            for d, n in enumerate(shape):
                have = r.shape[d]
                if n < have:
                    r = r.narrow(d, 0, n)
                elif n > have:
                    extra = r.narrow(d, 0, n - have).clone()
                    if extra.is_floating_point() or extra.is_complex():
                        extra = extra * (0.5 + torch.rand(extra.shape, generator=g)).to(extra.dtype)
                    r = torch.cat([r, extra], d)
            r_ins.append(r.contiguous())
        try:
            torch.manual_seed(0)
            r_outs = pytree.tree_leaves(module(*[x.clone() for x in r_ins]))
        except Exception as e:
            return None, f"eager at the new sizes: {type(e).__name__}: {first_line(str(e))[:150]}"
        try:
            torch.manual_seed(0)
            r_ep = pytree.tree_leaves(ep.module()(*[x.clone() for x in r_ins]))
        except Exception as e:
            return None, f"exported program at the new sizes: {type(e).__name__}: {first_line(str(e))[:150]}"
        np = self.np
        for a, b in zip(r_outs, r_ep):
            if not isinstance(a, torch.Tensor) or a.layout != torch.strided:
                return None, "non-tensor output at the new sizes"
            if a.shape != b.shape or a.dtype != b.dtype:
                return None, "exported program and eager differ at the new sizes"
            if meta.get("uninitialized"):
                continue
            tol = str(a.dtype).replace("torch.", "") if a.is_floating_point() else None
            if a.is_complex():
                # As stored and compared: real views.
                tol = "float64" if a.dtype == torch.complex128 else "float32"
                a, b = (torch.view_as_real(x.detach().resolve_conj().resolve_neg()) for x in (a, b))
            af, bf = a.detach().double().numpy(), b.detach().double().numpy()
            if compare(np, bf, af, tol, tol_dtype=tol) is not None:
                return None, "exported program and eager differ at the new sizes"
        return (r_ins, r_outs), None

    # ---------------------------------------------------------- per sample
    def run_sample(self, op, task, i, sample):
        torch, np, pytree = self.torch, self.np, self.pytree
        leaves, spec = pytree.tree_flatten((sample.input, tuple(sample.args), dict(sample.kwargs)))
        key = self.sample_key(op, task, leaves, spec)
        case_dir = self.cache / (task["ir"] + mode_suffix(self.args)) / key
        meta_path = case_dir / "meta.json"
        meta = json.loads(meta_path.read_text()) if meta_path.exists() and not self.args.fresh else None
        # Captures from before complex tensors were judged (skipped then).
        if meta and meta.get("status") == "skip" and meta.get("reason") in ("complex input", "complex output"):
            meta = None
        # Captures from before bfloat16 was judged (skipped then).
        if meta and meta.get("status") == "skip" and meta.get("reason", "").startswith("bfloat16 "):
            meta = None
        # Random captures from before the distribution check kept no draws.
        if meta and meta.get("random") and meta.get("draws", 0) < 2 * RANDOM_DRAWS and "draws_error" not in meta:
            meta = None
        if meta is None:
            self.send(event="stage", i=i, stage="capture")
            meta = self.capture(op, task, sample, case_dir)
            case_dir.mkdir(parents=True, exist_ok=True)
            meta_path.write_text(json.dumps(meta))
        res = {"key": key, "desc": meta.get("desc", "")}
        if "dyn_dims" in meta:
            res["dyn_dims"] = meta["dyn_dims"]
        if meta["status"] != "ok":
            res.update(status=meta["status"], reason=meta["reason"])
            return res
        result_path = case_dir / f"result-{RESULT_VERSION}-{self.bin_hash}.json"
        if result_path.exists() and not self.args.fresh:
            cached = json.loads(result_path.read_text())
            res.update(cached)
            return res
        self.send(event="stage", i=i, stage="convert")
        ties = op.name in TIE_OPS and not sample.kwargs.get("stable", False)
        self._last_got = None
        out = self.convert_and_run(case_dir, meta, task["dtype"], i, ties)
        if out["status"] == "wrong" and task["dtype"] in HALF and not meta.get("random"):
            out = self.half_truth(op, sample, case_dir, meta, out, task["dtype"])
        result_path.write_text(json.dumps(out))
        res.update(out)
        return res

    def convert_and_run(self, case_dir, meta, dtype, i, ties=False):
        np = self.np
        onnx_path = case_dir / "model.onnx"
        if onnx_path.exists():
            onnx_path.unlink()
        try:
            proc = subprocess.run([str(self.binary), "--to-onnx", str(case_dir / "model.pt2"), "-o", str(onnx_path)],
                                  capture_output=True, text=True, timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            return {"status": "crash", "reason": f"timeout: aten-translate did not finish in {self.args.timeout} s"}
        if proc.returncode == 1:
            return {"status": "convert-error", **convert_error(proc.stderr)}
        if proc.returncode != 0:
            what = (f"signal {signal.Signals(-proc.returncode).name}" if proc.returncode < 0
                    else f"exit {proc.returncode}")
            return {"status": "crash", "reason": f"{what}: {panic_message(proc.stderr)}"}
        self.send(event="stage", i=i, stage="ort")
        import onnx
        import onnxruntime as ort
        try:
            onnx.checker.check_model(str(onnx_path), full_check=True)
        except Exception as e:
            return {"status": "ort-error", "reason": f"onnx.checker: {first_line(str(e))}"}
        data = np.load(case_dir / "io.npz")
        inputs = [data[f"input_{k}"] for k in range(meta["n_inputs"])]
        expected = [data[f"output_{k}"] for k in range(meta["n_outputs"])]
        try:
            so = ort.SessionOptions()
            so.intra_op_num_threads = 1
            so.inter_op_num_threads = 1
            so.log_severity_level = 3
            sess = ort.InferenceSession(str(onnx_path), so, providers=["CPUExecutionProvider"])
        except Exception as e:
            if "Could not find an implementation" in str(e):
                # A valid model (onnx.checker with shape inference passed above)
                # that this runtime cannot run: reported apart, never a pass.
                return {"status": "ort-gap", "reason": f"onnxruntime has no CPU kernel: {ort_message(str(e))}"}
            return {"status": "ort-error", "reason": f"onnxruntime load: {ort_message(str(e))}"}
        ins = sess.get_inputs()
        names = [x.name for x in ins]
        if sorted(names) == sorted(meta["input_names"]) and len(names) == len(inputs):
            order = {n: meta["input_names"].index(n) for n in names}
        elif len(names) == len(inputs):
            order = {n: k for k, n in enumerate(names)}
        else:
            return {"status": "wrong", "reason": f"the model has {len(names)} inputs, the program {len(inputs)}"}
        feeds = {n: inputs[k] for n, k in order.items()}
        bf16_in = {n for n, k in order.items() if k in meta.get("bf16_inputs", [])}
        bf16_out = set(meta.get("bf16_outputs", []))
        outs = [x.name for x in sess.get_outputs()]
        if all(n in outs for n in meta["output_names"]) and len(set(meta["output_names"])) == len(meta["output_names"]):
            want = list(meta["output_names"])
        elif len(outs) >= len(expected):
            want = outs[:len(expected)]
        else:
            return {"status": "wrong", "reason": f"the model has {len(outs)} outputs, eager {len(expected)}"}
        run = self.ort_runner(sess, want, feeds, bf16_in, bf16_out)
        try:
            got, got_types = run()
            self._last_got = got
        except Exception as e:
            return {"status": "ort-error", "reason": f"onnxruntime run: {ort_message(str(e))}"}
        worst = 0.0
        tie_note = ""
        for k, (g, e) in enumerate(zip(got, expected)):
            # bfloat16 arrives as float32 on both sides: its dtype is checked here.
            is_bf16 = got_types[k] == "tensor(bfloat16)"
            if is_bf16 != (k in bf16_out):
                self._last_got = None   # a wrong dtype is never excused by the truth
                have = "bfloat16" if is_bf16 else (got_types[k] or "")[7:-1] or str(g.dtype)
                return {"status": "wrong", "reason": f"output {k}: dtype {have}, expected "
                        f"{'bfloat16' if k in bf16_out else e.dtype}"}
            verdict = compare(np, g, e, dtype, shape_only=meta.get("random") or meta.get("uninitialized"),
                              tol_dtype="bfloat16" if is_bf16 else None)
            if verdict is not None and ties and inputs and tie_equivalent(np, g, e, inputs[0]):
                verdict = None
                tie_note = "indices differ from eager only among equal values (tie order is unspecified)"
            if verdict is not None:
                return {"status": "wrong", "reason": f"output {k}: {verdict}"}
            if e.dtype.kind == "f" and e.size and not (meta.get("random") or meta.get("uninitialized")):
                fin = np.isfinite(e) & np.isfinite(g)
                if fin.any():
                    worst = max(worst, float(np.abs(g[fin].astype(np.float64) - e[fin]).max()))
        if meta.get("random"):
            if "draws" not in meta:
                return {"status": "skip", "reason": "random output: shape and dtype match, no reference draws "
                        f"({meta.get('draws_error', 'none recorded')})"}
            draws = [[] for _ in want]
            try:
                for _ in range(RANDOM_DRAWS):
                    for k, g in enumerate(run()[0]):
                        draws[k].append(g)
            except Exception as e:
                return {"status": "ort-error", "reason": f"onnxruntime run: {ort_message(str(e))}"}
            notes = []
            for k in range(len(expected)):
                verdict, note = distribution_verdict(np, data[f"draws_{k}"], np.stack(draws[k]), dtype,
                                                     tol_dtype="bfloat16" if k in bf16_out else None)
                if verdict is not None:
                    return {"status": "wrong", "reason": f"output {k}: {verdict}"}
                notes.append(note)
            return {"status": "pass", "reason": "random output: " + "; ".join(notes)}
        r = {"status": "pass", "max_err": worst}
        if tie_note:
            r["reason"] = tie_note
        if meta.get("uninitialized"):
            r["reason"] = "uninitialized output: shape and dtype match"
        if "resized" in meta:
            # Kept apart from the status: judged on inputs the harness made.
            r.update(self.run_resized(sess, want, order, bf16_in, bf16_out, data, meta, dtype, ties))
        elif meta.get("resized_skip"):
            r["resized_status"], r["resized_reason"] = "none", meta["resized_skip"]
        return r

    def run_resized(self, sess, want, order, bf16_in, bf16_out, data, meta, dtype, ties):
        """The second input set (resized_inputs) through the same session."""
        np = self.np
        inputs = [data[f"rinput_{k}"] for k in range(meta["n_inputs"])]
        expected = [data[f"routput_{k}"] for k in range(meta["n_outputs"])]
        feeds = {n: inputs[k] for n, k in order.items()}
        try:
            got, got_types = self.ort_runner(sess, want, feeds, bf16_in, bf16_out)()
        except Exception as e:
            return {"resized_status": "ort-error", "resized_reason": f"onnxruntime run: {ort_message(str(e))}"}
        for k, (g, e) in enumerate(zip(got, expected)):
            is_bf16 = got_types[k] == "tensor(bfloat16)"
            verdict = compare(np, g, e, dtype, shape_only=meta.get("uninitialized"),
                              tol_dtype="bfloat16" if is_bf16 else None)
            if verdict is not None and ties and inputs and tie_equivalent(np, g, e, inputs[0]):
                verdict = None
            if verdict is not None:
                return {"resized_status": "wrong", "resized_reason": f"at {meta['resized']}: output {k}: {verdict}"}
        return {"resized_status": "pass", "resized_reason": f"at {meta['resized']}"}

    def ort_runner(self, sess, want, feeds, bf16_in, bf16_out):
        """A function running `sess` once: (outputs as numpy arrays, their
        onnxruntime types or None).  numpy has no bfloat16: with one
        anywhere (inputs `bf16_in`, stored as float32; eager outputs
        `bf16_out`; or the model's outputs), inputs go in as OrtValues,
        bfloat16 ones over their bits, and bfloat16 outputs come back
        through DLPack as float32 (OrtValue.numpy() refuses bfloat16)."""
        np, torch = self.np, self.torch
        if not (bf16_in or bf16_out or any(x.type == "tensor(bfloat16)" for x in sess.get_outputs() if x.name in want)):
            return lambda: ([np.asarray(g) for g in sess.run(want, feeds)], [None] * len(want))
        import onnx
        import onnxruntime as ort
        # Built once; the OrtValues keep their arrays alive.
        values = {}
        for n, a in feeds.items():
            if n in bf16_in:
                bits = torch.from_numpy(a).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
                values[n] = ort.OrtValue.ortvalue_from_numpy_with_onnx_type(bits, onnx.TensorProto.BFLOAT16)
            else:
                # Not np.ascontiguousarray: it makes 0-d arrays 1-d.
                values[n] = ort.OrtValue.ortvalue_from_numpy(a if a.flags["C_CONTIGUOUS"] else a.copy())

        def run():
            res = sess.run_with_ort_values(want, values)
            types = [v.data_type() for v in res]
            arrays = [torch.from_dlpack(v._ortvalue.to_dlpack()).float().numpy() if t == "tensor(bfloat16)"
                      else np.asarray(v.numpy()) for v, t in zip(res, types)]
            return arrays, types

        return run


# Ops whose index outputs may pick any of several equal values (torch leaves
# the order of ties unspecified unless stable=True).
TIE_OPS = {"sort", "argsort", "topk", "kthvalue", "median", "nanmedian", "mode"}


def tie_equivalent(np, g, e, source) -> bool:
    """True when int64 index outputs `g` and `e` select equal values of
    `source` along some axis (and, for full sorts, are both permutations)."""
    if g.dtype != np.int64 or e.dtype != np.int64 or g.shape != e.shape or source.ndim != g.ndim:
        return False
    if g.ndim == 0:
        return bool(source.reshape(-1)[int(g)] == source.reshape(-1)[int(e)]) if source.ndim == 0 else False
    for axis in range(g.ndim):
        n = source.shape[axis]
        if g.min(initial=0) < 0 or g.max(initial=0) >= n:
            continue
        if any(source.shape[a] != g.shape[a] for a in range(g.ndim) if a != axis):
            continue
        sv = np.take_along_axis(source, g, axis)
        ev = np.take_along_axis(source, e, axis)
        if not np.array_equal(sv, ev, equal_nan=source.dtype.kind == "f"):
            continue
        if g.shape[axis] == n and not np.array_equal(np.sort(g, axis), np.sort(e, axis)):
            continue
        return True
    return False


def symbolic(torch, d) -> bool:
    """A dim left dynamic: a SymInt that is no number (specialized during
    tracing, a SymInt can keep a constant expression)."""
    return isinstance(d, torch.SymInt) and not d.node.expr.is_number


def op_key(op) -> str:
    return op.name + ("." + op.variant_test_name if op.variant_test_name else "")


def mode_suffix(args) -> str:
    """The cache directory and results file suffix of --dynamic / --inplace."""
    return ("-dynamic" if args.dynamic else "") + ("-inplace" if args.inplace else "")


def seeded_opinfo(op) -> bool:
    """OpInfo's random ops call `wrapper_set_seed` (a fixed seed inside
    the call, so eager runs agree) from their op or in-place variant
    lambdas: uniform, normal, dropout, rrelu, ..."""
    return any("wrapper_set_seed" in getattr(getattr(f, "__code__", None), "co_names", ())
               for f in (op.op, op.inplace_variant))


def first_line(s: str) -> str:
    for line in s.strip().splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


def ort_message(s: str) -> str:
    s = first_line(s)
    s = re.sub(r"^\[ONNXRuntimeError\] : \d+ : \w+ : ", "", s)
    return s[:300]


def panic_message(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    for k, line in enumerate(lines):
        if "panicked at" in line:
            msg = lines[k + 1].strip() if k + 1 < len(lines) else ""
            where = line.split("panicked at", 1)[1].strip().rstrip(":")
            return f"panic at {where}: {msg}"[:300]
    return first_line(stderr) or "(no message)"


MISSING_HEAD = re.compile(r"have no lowering to ONNX opset")
# Ops refused because ONNX cannot express them (passes/lowering/src/inexpressible.rs).
INEXPRESSIBLE_HEAD = re.compile(r"have no ONNX expression")
# Ops whose rule handles real tensors only, met on complex tensors
# (passes/lowering/src/complex.rs): listed as missing, `<op> [complex]`.
COMPLEX_HEAD = re.compile(r"are not supported on complex tensors")
MISSING_ITEM = re.compile(r"^\s+(aten\.[\w.]+|[\w.]+\.[\w]+): \d+x")


def convert_error(stderr: str) -> dict:
    lines = [l for l in stderr.splitlines() if l.strip()]
    missing = []
    inexpressible = []
    complex_only = []
    for k, line in enumerate(lines):
        for head, found in ((MISSING_HEAD, missing), (INEXPRESSIBLE_HEAD, inexpressible), (COMPLEX_HEAD, complex_only)):
            if head.search(line):
                for item in lines[k + 1:]:
                    m = MISSING_ITEM.match(item)
                    if not m:
                        break
                    found.append(m.group(1))
    missing += [f"{m} [complex]" for m in complex_only]
    reason = ""
    for line in lines:
        m = re.search(r"\berror: (.*)", line)
        if m:
            reason = m.group(1).strip()
            break
    if not reason:
        for k, line in enumerate(lines):
            if "error" in line.lower() or line.startswith("aten-translate:"):
                reason = re.sub(r"^aten-translate: ", "", line.strip())
                reason = re.sub(r"^\S+\.pt2: ", "", reason)
                if reason.endswith(":") and k + 1 < len(lines):
                    reason += " " + lines[k + 1].strip()
                break
    if not reason and lines:
        reason = lines[0].strip()
    out = {"reason": reason[:400]}
    if inexpressible:
        out["inexpressible"] = inexpressible
        out["reason"] = "no ONNX expression: " + ", ".join(inexpressible)
    if missing:
        out["missing"] = missing
        out["reason"] = "no rule: " + ", ".join(missing)
    return out


def same(torch, a, b) -> bool:
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.is_floating_point:
        return bool(torch.equal(torch.nan_to_num(a, nan=0.5), torch.nan_to_num(b, nan=0.5))
                    and torch.equal(a.isnan(), b.isnan()))
    return bool(torch.equal(a, b))


def compare(np, g, e, dtype, shape_only=False, tol_dtype=None):
    """None when `g` (onnxruntime) matches `e` (eager), else the reason.
    `tol_dtype` names the tolerance when the arrays do not carry their real
    dtype (bfloat16, compared as float32)."""
    if g.dtype != e.dtype:
        return f"dtype {g.dtype}, expected {e.dtype}"
    if g.shape != e.shape:
        return f"shape {list(g.shape)}, expected {list(e.shape)}"
    if shape_only or e.size == 0:
        return None
    if e.dtype.kind == "f":
        atol, rtol = TOLERANCES.get(tol_dtype or str(e.dtype), TOLERANCES["float32"])
        gn, en = np.isnan(g), np.isnan(e)
        if not np.array_equal(gn, en):
            bad = int(np.sum(gn != en))
            return f"NaN positions differ ({bad} of {e.size} elements)"
        g64, e64 = g.astype(np.float64), e.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            err = np.abs(g64 - e64)
            # Infinities must match exactly (the tolerance is infinite there).
            ok = (g64 == e64) | en | (np.isfinite(e64) & (err <= atol + rtol * np.abs(e64)))
        if not ok.all():
            idx = np.unravel_index(int(np.argmax(np.where(ok, -1.0, np.nan_to_num(err, nan=np.inf, posinf=np.inf)))), e.shape)
            return (f"max |diff| {float(np.nan_to_num(err[~ok], nan=np.inf, posinf=np.inf).max()):.3g} > {atol:g} + {rtol:g}|x| "
                    f"({int((~ok).sum())} of {e.size} elements; at {list(map(int, idx))}: got {g[idx]!r}, expected {e[idx]!r})")
        return None
    if not np.array_equal(g, e):
        bad = int(np.sum(g != e))
        idx = np.unravel_index(int(np.argmax(g != e)), e.shape) if e.ndim else ()
        return f"{bad} of {e.size} elements differ (at {list(map(int, idx))}: got {g[idx]!r}, expected {e[idx]!r})"
    return None


def against_permutations(np, stat, n_draws, k, permutations, seed):
    """`stat` (of a bool mask of the draws in group A) for the first `k` draws
    against its values over `permutations` random relabellings of whole
    draws: (statistic, z of it against them, how many reached it)."""
    obs = stat(np.arange(n_draws) < k)
    rng = np.random.default_rng(seed)
    null = np.array([stat(rng.permutation(n_draws) < k) for _ in range(permutations)])
    z = (obs - null.mean()) / max(float(null.std()), 1e-12)
    return obs, float(z), int((null >= obs).sum())


def permutation_ks(np, values, n_draws, k, permutations=200):
    """Two-sample KS statistic between the first `k` rows (draws) of
    `values` [n_draws, positions] and the rest, with its null distribution
    from relabelling whole draws.  Positions of one draw may be correlated
    (dropout2d drops whole channels, attention dropout mixes rows), so the
    draw is the independent unit: permuting draws is exact under the null
    whatever the correlation, where a KS p-value over pooled values would
    be overconfident.  Returns (D, z, exceed): z of D against the
    permutations, exceed = how many permutations reached D."""
    vals = values.ravel()
    draw_of = np.repeat(np.arange(n_draws), values.shape[1])
    order = np.argsort(vals, kind="stable")
    v, d = vals[order], draw_of[order]
    ends = np.r_[v[1:] != v[:-1], True]     # last value of each tie group

    def stat(in_a):
        a = in_a[d]
        na = int(a.sum())
        return float(np.abs(np.cumsum(np.where(a, 1.0 / na, -1.0 / (a.size - na)))[ends]).max())

    return against_permutations(np, stat, n_draws, k, permutations, seed=0)


def permutation_rank_max(np, values, n_draws, k, permutations=200):
    """The largest per-position difference of mean mid-ranks between the
    first `k` draws (rows of `values` [n_draws, positions]) and the rest, with
    its null from relabelling whole draws (as permutation_ks): finds one bad
    position among many (a mask element that never changes) that pooled
    statistics dilute.  Returns (statistic, z, exceed)."""
    ranks = np.empty_like(values, dtype=np.float64)
    for j in range(values.shape[1]):
        col = np.sort(values[:, j])
        ranks[:, j] = (np.searchsorted(col, values[:, j], side="left")
                       + np.searchsorted(col, values[:, j], side="right") - 1) / 2.0

    def stat(in_a):
        a = in_a.astype(np.float64)
        return float(np.abs(a @ ranks / k - (1.0 - a) @ ranks / (n_draws - k)).max())

    return against_permutations(np, stat, n_draws, k, permutations, seed=1)


def distribution_verdict(np, ref_draws, got_draws, dtype, tol_dtype=None):
    """(None, note) when onnxruntime's draws `got_draws` [K, ...] look drawn
    from the same distribution as the exported program's `ref_draws`
    [2K, ...], else (reason, None).  Positions that never vary in the
    reference (p = 0 or 1, dropout's zeros when p = 1, ...) must match it
    exactly (within the dtype's tolerance); the varying ones are compared
    pooled (KS on the raw values) and per position (KS on values
    standardized by each position's median and IQR, taken from the first
    half of the reference draws so that both compared samples are out of
    sample), each against its permutation null (permutation_ks).  NaN
    counts as +inf: its frequency is part of the distribution.  `tol_dtype`
    as in compare (bfloat16 draws are float32 arrays)."""
    k = got_draws.shape[0]
    if ref_draws.shape[1:] != got_draws.shape[1:]:
        return f"draw shape {list(got_draws.shape[1:])}, expected {list(ref_draws.shape[1:])}", None
    if ref_draws.shape[0] < 2 * k:
        return f"internal: {ref_draws.shape[0]} reference draws for {k} onnxruntime draws (need {2 * k})", None
    ref = ref_draws.reshape(ref_draws.shape[0], -1).astype(np.float64)
    got = got_draws.reshape(k, -1).astype(np.float64)
    if ref.shape[1] == 0:
        return None, "empty"
    ref = np.where(np.isnan(ref), np.inf, ref)
    got = np.where(np.isnan(got), np.inf, got)
    fixed = (ref == ref[0]).all(axis=0)
    if fixed.any():
        atol, rtol = (TOLERANCES.get(tol_dtype or str(ref_draws.dtype), (0.0, 0.0)) if ref_draws.dtype.kind == "f"
                      else (0.0, 0.0))
        want, have = ref[0, fixed], got[:, fixed]
        with np.errstate(invalid="ignore"):
            ok = (have == want) | (np.isfinite(want) & (np.abs(have - want) <= atol + rtol * np.abs(want)))
        if not ok.all():
            j = int(np.argmax(~ok.all(axis=0)))
            return (f"{int((~ok.all(axis=0)).sum())} of {int(fixed.sum())} positions that never vary in the "
                    f"reference draws differ (e.g. got {have[:, j][~ok[:, j]][0]!r}, always {want[j]!r} there)"), None
    var = np.flatnonzero(~fixed)
    if var.size == 0:
        return None, f"deterministic at every position over {ref.shape[0]} reference draws"
    if var.size > 1024:
        var = np.sort(np.random.default_rng(0).choice(var, 1024, replace=False))
    half, sample, mine = ref[:k][:, var], ref[k:2 * k][:, var], got[:, var].copy()
    if ref_draws.dtype.kind == "f":
        # Atoms (dropout's kept and dropped values, ...) computed by two
        # runtimes differ in the last bits: a value within the dtype's
        # tolerance of a reference value at its position counts as that
        # value, or KS would see two distributions of disjoint atoms.
        atol, rtol = TOLERANCES.get(tol_dtype or str(ref_draws.dtype), TOLERANCES["float32"])
        # The nearest atom wins: two atoms can both be within tolerance
        # (dropout's 0 and 2w when w is below atol), and snapping to either
        # regardless of distance would make a varying position look stuck.
        for j in range(var.size):
            atoms = np.unique(ref[:, var[j]])
            pos = np.clip(np.searchsorted(atoms, mine[:, j]), 1, max(atoms.size - 1, 1))
            lo, hi = atoms[pos - 1], atoms[np.minimum(pos, atoms.size - 1)]
            with np.errstate(invalid="ignore", over="ignore"):
                cand = np.where(np.abs(mine[:, j] - lo) <= np.abs(mine[:, j] - hi), lo, hi)
                near = np.isfinite(cand) & (np.abs(mine[:, j] - cand) <= atol + rtol * np.abs(cand))
            mine[near, j] = cand[near]
    # A position onnxruntime never varies although the reference does:
    # flagged when even a generous bound on the reference's most frequent
    # value, q, makes K equal draws unlikely (q^K < 1e-9).
    stuck = (mine == mine[0]).all(axis=0)
    if stuck.any():
        n_ref = ref.shape[0]
        for j in np.flatnonzero(stuck):
            _, counts = np.unique(ref[:, var[j]], return_counts=True)
            q = counts.max() / n_ref
            bound = min(1.0, q + 3 * math.sqrt(q * (1 - q) / n_ref) + 1 / n_ref)
            if bound ** k < 1e-9:
                return (f"position {int(var[j])} never varies over {k} onnxruntime draws (always {mine[0, j]!r}); "
                        f"its most frequent reference value has frequency {q:.2f}"), None
    d1, z1, e1 = permutation_ks(np, np.concatenate([sample, mine]), 2 * k, k)
    med = np.median(half, axis=0)
    iqr = np.percentile(half, 75, axis=0) - np.percentile(half, 25, axis=0)
    with np.errstate(invalid="ignore", over="ignore"):
        spread = np.where(np.isfinite(iqr) & (iqr > 0), iqr, 1.0)
        centre = np.where(np.isfinite(med), med, 0.0)
        zs = np.nan_to_num((sample - centre) / spread, nan=0.0)
        zm = np.nan_to_num((mine - centre) / spread, nan=0.0)
    d2, z2, e2 = permutation_ks(np, np.concatenate([zs, zm]), 2 * k, k)
    r3, z3, e3 = permutation_rank_max(np, np.concatenate([sample, mine]), 2 * k, k)
    what = (f"{k} draws x {var.size} varying positions against 200 draw permutations: "
            f"KS pooled D={d1:.3f} (z={z1:.1f}), KS standardized D={d2:.3f} (z={z2:.1f}), "
            f"worst position's mean-rank gap {r3:.1f} (z={z3:.1f})")
    if any(z > RANDOM_Z_MAX and e == 0 for z, e in ((z1, e1), (z2, e2), (z3, e3))):
        return f"random output: its distribution differs from the exported program's ({what})", None
    return None, f"distribution matches ({what})"


def describe(torch, sample) -> str:
    def d(x):
        if isinstance(x, torch.Tensor):
            short = {torch.float32: "f32", torch.float64: "f64", torch.float16: "f16", torch.bfloat16: "bf16",
                     torch.int64: "i64", torch.int32: "i32", torch.int16: "i16", torch.int8: "i8",
                     torch.uint8: "u8", torch.bool: "b8"}.get(x.dtype, str(x.dtype).replace("torch.", ""))
            return f"{short}[{','.join(map(str, x.shape))}]"
        if isinstance(x, (list, tuple)):
            inner = ", ".join(d(v) for v in x)
            return f"[{inner}]" if isinstance(x, list) else f"({inner}{',' if len(x) == 1 else ''})"
        if isinstance(x, dict):
            return "{" + ", ".join(f"{k}={d(v)}" for k, v in x.items()) + "}"
        if isinstance(x, float):
            return repr(x)
        return repr(x) if not isinstance(x, str) else repr(x)

    parts = [d(sample.input)]
    parts += [d(a) for a in sample.args]
    parts += [f"{k}={d(v)}" for k, v in sample.kwargs.items()]
    s = ", ".join(parts)
    return s if len(s) <= 240 else s[:237] + "..."


# ==========================================================================
# Parent side: scheduling, robustness, summary.
# ==========================================================================

class Job:
    def __init__(self, args, argv):
        self.argv = argv
        self.args = args
        self.proc = None
        self.task = None
        self.stage = None
        self.current = None
        self.buf = b""
        self.last = time.time()
        self.start()

    def start(self):
        log = open(Path(self.args.out) / f"worker-{os.getpid()}-{id(self)}.log", "ab")
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                     cwd=str(REPO))
        log.close()
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.buf = b""
        self.last = time.time()

    def send(self, task):
        self.task = task
        self.stage = "capture"
        self.current = None
        self.last = time.time()
        self.proc.stdin.write((json.dumps(task) + "\n").encode())
        self.proc.stdin.flush()

    def kill(self):
        try:
            self.proc.kill()
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except Exception:
            pass


def parse_list(s):
    return [x.strip() for x in s.split(",") if x.strip()]


def run_sweep(args):
    import torch
    warnings.filterwarnings("ignore")
    from torch.testing._internal.common_methods_invocations import op_db

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    binary = Path(args.binary)
    if not binary.exists():
        sys.exit(f"opinfo_sweep: no converter binary at {binary} (cargo build --workspace --bins --features aten2onnx/torch)")
    h = hashlib.sha256()
    with open(binary, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    bin_hash = h.hexdigest()[:16]
    binary_time = datetime.fromtimestamp(binary.stat().st_mtime, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    # Run a private copy: other builds may replace target/debug/aten-translate mid-sweep.
    bin_dir = out / "bin"
    bin_dir.mkdir(exist_ok=True)
    copy = bin_dir / f"aten-translate-{bin_hash}"
    if not copy.exists():
        for old in bin_dir.glob("aten-translate-*"):
            if time.time() - old.stat().st_mtime > 6 * 3600:
                old.unlink()
        tmp = bin_dir / f".tmp-{os.getpid()}"
        shutil.copy2(binary, tmp)
        tmp.rename(copy)
    run_binary = copy

    irs = parse_list(args.ir)
    for ir in irs:
        if ir not in ("default", "core"):
            sys.exit(f"opinfo_sweep: --ir must be default or core, not {ir}")
    wanted_ops = set(parse_list(args.ops)) if args.ops else None
    tasks = []
    dtype_words = parse_list(args.dtype)
    for op in op_db:
        key = op_key(op)
        if wanted_ops and key not in wanted_ops and op.name not in wanted_ops:
            continue
        if args.inplace and (op.inplace_variant is None or seeded_opinfo(op)):
            # --inplace: OpInfos with an in-place variant, deterministic ones.
            continue
        supported = op.supported_dtypes("cpu")
        if dtype_words == ["all"]:
            dts = sorted((str(d).replace("torch.", "") for d in supported), key=str)
        else:
            dts = [d for d in dtype_words if getattr(torch, d, None) in supported]
        for ir in irs:
            for d in dts:
                # Complex dtypes are judged through view_as_real (inputs fed,
                # outputs compared as real views): passes/lowering/src/complex.rs.
                tasks.append({"op": key, "dtype": d, "ir": ir})
    if not tasks:
        sys.exit("opinfo_sweep: nothing to run (check --ops / --dtype; --inplace keeps only deterministic OpInfos with an in-place variant)")

    results = defaultdict(list)   # (ir, dtype) -> list of case dicts
    op_errors = {}
    for t in tasks:
        if t.get("complex"):
            results[(t["ir"], t["dtype"])].append({"op": t["op"], "i": 0, "status": "skip",
                                                   "reason": "complex dtype", "desc": ""})
    queue = [t for t in tasks if not t.get("complex")]
    queue.reverse()
    worker_argv = [sys.executable, str(Path(__file__).resolve()), "--worker", "--out", str(out),
                   "--binary", str(run_binary), "--bin-hash", bin_hash, "--timeout", str(args.timeout),
                   "--samples", str(args.samples or 0)] + (["--fresh"] if args.fresh else []) + \
        (["--dynamic"] if args.dynamic else []) + (["--inplace"] if args.inplace else [])
    jobs = [Job(args, worker_argv) for _ in range(max(1, min(args.jobs, len(queue))))]
    sel = selectors.DefaultSelector()
    for j in jobs:
        sel.register(j.proc.stdout, selectors.EVENT_READ, j)
    stall = args.timeout + args.stall
    started = time.time()
    done_cases = 0
    last_print = 0.0
    total_tasks = len(queue)

    def record(job, msg):
        t = job.task
        case = {"op": t["op"], "i": msg["i"], "status": msg["status"], "reason": msg.get("reason", ""),
                "desc": msg.get("desc", ""), "key": msg.get("key", "")}
        for extra in ("missing", "max_err", "dyn_dims", "resized_status", "resized_reason"):
            if extra in msg:
                case[extra] = msg[extra]
        results[(t["ir"], t["dtype"])].append(case)

    def feed(job):
        if queue:
            job.send(queue.pop())
        else:
            job.task = None

    for j in jobs:
        feed(j)
    while any(j.task is not None for j in jobs):
        events = sel.select(timeout=2.0)
        for sk, _ in events:
            job = sk.data
            try:
                chunk = os.read(job.proc.stdout.fileno(), 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                # The worker died.
                sel.unregister(job.proc.stdout)
                job.kill()
                if job.task is not None:
                    handle_death(job, record, "died (" + describe_exit(job.proc.returncode) + ")")
                job.start()
                sel.register(job.proc.stdout, selectors.EVENT_READ, job)
                if job.task is not None:
                    resume(job)
                else:
                    feed(job)
                continue
            job.buf += chunk
            job.last = time.time()
            while b"\n" in job.buf:
                line, job.buf = job.buf.split(b"\n", 1)
                try:
                    msg = json.loads(line)
                except json.JSONDecodeError:
                    continue
                ev = msg.get("event")
                if ev == "start":
                    job.current = msg["i"]
                    job.stage = "capture"
                elif ev == "stage":
                    job.stage = msg["stage"]
                elif ev == "result":
                    record(job, msg)
                    done_cases += 1
                    job.current = None
                elif ev == "op-error":
                    op_errors[(job.task["ir"], job.task["dtype"], job.task["op"])] = msg["reason"]
                    results[(job.task["ir"], job.task["dtype"])].append(
                        {"op": job.task["op"], "i": -1, "status": "capture-skip", "reason": msg["reason"], "desc": ""})
                elif ev == "done":
                    job.deaths = 0
                    feed(job)
        now = time.time()
        for job in jobs:
            if job.task is not None and now - job.last > stall:
                sel.unregister(job.proc.stdout)
                job.kill()
                handle_death(job, record, f"hung for {int(now - job.last)} s")
                job.start()
                sel.register(job.proc.stdout, selectors.EVENT_READ, job)
                if job.task is not None:
                    resume(job)
                else:
                    feed(job)
        if now - last_print > 30:
            last_print = now
            left = len(queue) + sum(1 for j in jobs if j.task is not None)
            print(f"[{int(now - started)} s] {done_cases} cases done; {total_tasks - left}/{total_tasks} op tasks finished",
                  file=sys.stderr, flush=True)
    for j in jobs:
        try:
            j.proc.stdin.close()
        except Exception:
            pass
        j.kill()

    elapsed = time.time() - started
    summaries = {}
    for (ir, dtype), cases in sorted(results.items()):
        cases.sort(key=lambda c: (c["op"], c["i"]))
        (out / f"results-{ir}-{dtype}{mode_suffix(args)}.json").write_text(json.dumps(
            {"ir": ir, "dtype": dtype, "binary": str(binary), "binary_hash": bin_hash, "cases": cases}, indent=0))
        key = f"{ir}/{dtype}" + (f"/{args.tag}" if args.tag else "")
        summaries[key] = summarize(ir, dtype, cases, args, binary_time, elapsed)
        print_summary(summaries[key], args.verbose)
    if not args.no_doc:
        write_docs(summaries, partial=bool(args.ops) and not args.tag)
    return 0


def describe_exit(rc):
    if rc is None:
        return "unknown"
    if rc < 0:
        try:
            return f"signal {signal.Signals(-rc).name}"
        except ValueError:
            return f"signal {-rc}"
    return f"exit {rc}"


def handle_death(job, record, what):
    """Classify the sample a worker was on when it died or hung."""
    if job.current is None:
        # Died outside a sample (imports, sample generation): retry the op
        # once, then give up on it.
        job.deaths = getattr(job, "deaths", 0) + 1
        if job.deaths >= 2 and job.task is not None:
            record(job, {"i": -1, "status": "capture-skip", "reason": f"worker {what} generating samples",
                         "desc": ""})
            job.task = None
            job.deaths = 0
        return
    job.deaths = 0
    stage = job.stage
    if stage == "ort":
        status, reason = "ort-error", f"onnxruntime {what}"
    elif stage == "convert":
        status, reason = "crash", f"worker {what} while converting"
    else:
        status, reason = "capture-skip", f"capture {what}"
    record(job, {"i": job.current, "status": status, "reason": reason, "desc": ""})
    job.task = dict(job.task, start=job.current + 1)
    job.current = None


def resume(job):
    task = job.task
    job.task = None
    if task is not None:
        job.send(task)


def normalize_reason(r: str) -> str:
    r = re.sub(r"\bat [^ ]+\.(py|rs):\d+(:\d+)?", "at …", r)
    r = re.sub(r"'[^']*'", "'…'", r)
    r = re.sub(r"\b\d+(\.\d+)?(e[-+]?\d+)?\b", "N", r)
    return r[:200]


def summarize(ir, dtype, cases, args, binary_time, elapsed):
    per_op = defaultdict(Counter)
    first_fail = {}
    first_skip = {}
    for c in cases:
        per_op[c["op"]][c["status"]] += 1
        if c["status"] not in ("pass", "skip", "capture-skip") and c["op"] not in first_fail:
            first_fail[c["op"]] = {"i": c["i"], "status": c["status"], "reason": c["reason"], "desc": c["desc"]}
        if c["status"] in ("skip", "capture-skip") and c["op"] not in first_skip:
            first_skip[c["op"]] = {"i": c["i"], "status": c["status"], "reason": c["reason"], "desc": c["desc"]}
    totals = Counter(c["status"] for c in cases)
    missing = Counter()
    missing_ops = defaultdict(set)
    sole = Counter()
    for c in cases:
        if c["status"] == "convert-error":
            ms = set(c.get("missing", []))
            for m in ms:
                missing[m] += 1
                missing_ops[m].add(c["op"])
                if len(ms) == 1:
                    sole[m] += 1
    other = defaultdict(lambda: {"count": 0, "ops": set(), "example": ""})
    for c in cases:
        if c["status"] in ("convert-error", "ort-error", "ort-gap", "crash", "capture-skip", "skip") and not c.get("missing"):
            k = (c["status"], normalize_reason(c["reason"]))
            other[k]["count"] += 1
            other[k]["ops"].add(c["op"])
            other[k]["example"] = other[k]["example"] or c["reason"]
    flagged = [c for c in cases if c["status"] in ("wrong", "crash")]
    n_ops = len(per_op)
    judged = sum(v for k, v in totals.items() if k not in ("capture-skip", "skip"))
    return {
        "ir": ir, "dtype": dtype, "tag": args.tag or "", "ops_filter": args.ops or "", "when": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "binary_built": binary_time, "samples_per_opinfo": args.samples or "all", "elapsed_s": round(elapsed),
        "cases": len(cases), "judged": judged, "opinfos": n_ops,
        "opinfos_all_pass": sum(1 for o, c in per_op.items() if c["pass"] == sum(c.values()) and c["pass"] > 0),
        "totals": {k: totals.get(k, 0) for k in CATEGORIES},
        "per_op": {o: {k: c.get(k, 0) for k in CATEGORIES if c.get(k, 0)} for o, c in sorted(per_op.items())},
        "first_failure": first_fail,
        "first_skip": {o: v for o, v in first_skip.items() if o not in first_fail},
        "missing": [{"overload": m, "cases": n, "sole": sole.get(m, 0), "opinfos": sorted(missing_ops[m])} for m, n in missing.most_common()],
        "other_reasons": sorted(({"status": k[0], "reason": k[1], "cases": v["count"], "opinfos": sorted(v["ops"]),
                                  "example": v["example"]} for k, v in other.items()),
                                key=lambda x: (-x["cases"], x["status"], x["reason"])),
        "wrong_and_crash": [{"op": c["op"], "sample": c["i"], "status": c["status"], "desc": c["desc"],
                             "reason": c["reason"], **({"dyn_dims": c["dyn_dims"], "key": c.get("key", "")}
                                                       if "dyn_dims" in c else {})} for c in flagged],
        **({"dynamic": dynamic_summary(cases)} if args.dynamic else {}),
        **({"inplace": True} if args.inplace else {}),
    }


def dynamic_summary(cases):
    """--dynamic: the totals again over the cases whose program kept a
    dynamic dim (the others test nothing new: `none_dynamic`), and the
    second input set's verdicts (resized_inputs)."""
    captured = [c for c in cases if "dyn_dims" in c and c["status"] not in ("capture-skip", "skip")]
    dyn = [c for c in captured if c["dyn_dims"] > 0]
    none = [c for c in captured if c["dyn_dims"] == 0]
    return {
        "with_dynamic_dims": {k: sum(1 for c in dyn if c["status"] == k) for k in CATEGORIES},
        "none_dynamic": len(none),
        "none_dynamic_by_status": dict(Counter(c["status"] for c in none)),
        "dynamic_dims_total": sum(c["dyn_dims"] for c in dyn),
        "resized": dict(Counter(c.get("resized_status", "not run") for c in dyn if c["status"] == "pass")),
        "resized_wrong": [{"op": c["op"], "sample": c["i"], "status": c["resized_status"], "desc": c["desc"],
                           "reason": c.get("resized_reason", ""), "key": c.get("key", "")}
                          for c in dyn if c.get("resized_status") in ("wrong", "ort-error")],
    }


def pct(n, d):
    return f"{100.0 * n / d:.1f}%" if d else "-"


def print_summary(s, verbose=False):
    t = s["totals"]
    print(f"\n=== OpInfo sweep: IR {s['ir']}, {s['dtype']}{', in-place variants' if s.get('inplace') else ''}, "
          f"{s['cases']} cases over {s['opinfos']} OpInfos ({s['samples_per_opinfo']} samples each) ===")
    print(f"{'op':40} {'n':>4} " + " ".join(f"{k[:7]:>7}" for k in CATEGORIES))
    for op, c in s["per_op"].items():
        n = sum(c.values())
        if not verbose and c.get("pass", 0) == n:
            continue
        print(f"{op[:40]:40} {n:>4} " + " ".join(f"{c.get(k, 0):>7}" for k in CATEGORIES))
        ff = s["first_failure"].get(op)
        if ff:
            print(f"    first failing sample #{ff['i']} [{ff['status']}] {ff['desc'][:120]}\n      -> {ff['reason'][:200]}")
        fs = s["first_skip"].get(op)
        if fs:
            print(f"    first skipped sample #{fs['i']} [{fs['status']}] {fs['desc'][:120]}\n      -> {fs['reason'][:200]}")
    print(f"TOTAL {s['cases']} cases: " + ", ".join(f"{k} {t.get(k, 0)} ({pct(t.get(k, 0), s['cases'])})" for k in CATEGORIES))
    print(f"pass rate over judged cases (excluding capture-skip and skip): {pct(t['pass'], s['judged'])}; "
          f"OpInfos passing every sample: {s['opinfos_all_pass']} of {s['opinfos']}")
    d = s.get("dynamic")
    if d:
        w = d["with_dynamic_dims"]
        print(f"dynamic: {sum(w.values())} judged cases kept >= 1 dynamic dim ({d['dynamic_dims_total']} dims): "
              + ", ".join(f"{k} {w[k]}" for k in CATEGORIES if w[k]))
        print(f"none-dynamic (every dim specialized; nothing new): {d['none_dynamic']} "
              + str(d["none_dynamic_by_status"]))
        print(f"second input set (each symbol +1) on passing dynamic cases: {d['resized']}")
        for c in d["resized_wrong"]:
            print(f"  resized {c['status']}: {c['op']} #{c['sample']} {c['desc'][:100]}\n      -> {c['reason'][:240]}")


# ------------------------------------------------------------------ docs
DOC_JSON = REPO / "docs" / "opinfo-sweep.json"
DOC_MD = REPO / "docs" / "opinfo-sweep.md"


def title_tag(s):
    if not s.get("tag"):
        return ""
    return f" [{s['tag']}: {s['samples_per_opinfo']} samples of {s['opinfos']} selected OpInfos]"


def write_docs(summaries, partial=False):
    if partial:
        print("(--ops given: docs/opinfo-sweep.{json,md} not updated)")
        return
    data = {}
    if DOC_JSON.exists():
        try:
            data = json.loads(DOC_JSON.read_text())
        except json.JSONDecodeError:
            data = {}
    data.setdefault("configs", {}).update(summaries)
    DOC_JSON.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    DOC_MD.write_text(render_md(data))
    print(f"wrote {DOC_JSON.relative_to(REPO)} and {DOC_MD.relative_to(REPO)}")


def md_escape(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def render_md(data):
    configs = data["configs"]
    order = sorted(configs, key=lambda k: (k.split("/")[1] != "float32", k.split("/")[0] != "default", k))
    L = ["# OpInfo sweep", "",
         "Generated by `tools/sweeps/opinfo_sweep.py` (do not edit by hand). PyTorch's OpInfo samples",
         "(`torch.testing._internal.common_methods_invocations.op_db`, torch 2.13, CPU) captured with",
         "`torch.export`, converted with `aten-translate --to-onnx`, run in onnxruntime and compared with",
         "eager PyTorch. Rerun:", "",
         "```sh",
         "source tools/env.sh",
         ".venv/bin/python tools/sweeps/opinfo_sweep.py --ir default          # TRAINING IR (torch.export.export)",
         ".venv/bin/python tools/sweeps/opinfo_sweep.py --ir core             # after ep.run_decompositions()",
         ".venv/bin/python tools/sweeps/opinfo_sweep.py --ops sin,nn.functional.gelu --samples 3   # a quick look",
         "```", "",
         "Categories: **pass**; **wrong** (converted and ran, an output differs: the worst bug);",
         "**convert-error** (aten-translate exit 1: missing rule or a rule refusing its arguments);",
         "**crash** (aten-translate panicked, was killed by a signal or timed out); **ort-error**",
         "(onnx.checker or onnxruntime refuses the model); **ort-gap** (onnxruntime has no CPU kernel",
         "for an op at that type; the model passed onnx.checker with full shape inference; not a pass);",
         "**capture-skip** (torch.export or eager",
         "PyTorch fails on the sample: not counted against the converter); **skip** (sparse or",
         "non-tensor values: the harness cannot compare them). Random outputs are",
         "compared as distributions: 64 onnxruntime draws against 128 draws of the exported program",
         "(permutation tests over whole draws, see `distribution_verdict` in the script).",
         "Tolerance |onnx - eager| <= atol + rtol·|eager|: float32 1e-4 + 1e-4, float64 1e-6 + 1e-6,",
         "float16 1e-3 + 2e-3, bfloat16 1e-2 + 1.6e-2 (bfloat16 compared in float32); NaN positions",
         "and infinities must match; integers and bools exactly. float16 and bfloat16 cases that",
         "differ from eager pass when no farther from the float32 result than eager is (the reason says so).",
         "", "## Totals", "",
         "| IR | dtype | samples/OpInfo | cases | OpInfos | all pass | " + " | ".join(CATEGORIES) +
         " | pass / judged | run at (binary built) |",
         "|---|---|---|---|---|---|" + "---|" * len(CATEGORIES) + "---|---|"]
    for k in order:
        s = configs[k]
        t = s["totals"]
        L.append(f"| {s['ir']} | {s['dtype']}{(' (' + s['tag'] + ')') if s.get('tag') else ''} | {s['samples_per_opinfo']} | {s['cases']} | {s['opinfos']} | "
                 f"{s['opinfos_all_pass']} | " + " | ".join(f"{t.get(c, 0)} ({pct(t.get(c, 0), s['cases'])})" for c in CATEGORIES) +
                 f" | {pct(t['pass'], s['judged'])} | {s['when']} ({s['binary_built']}) |")
    L.append("")
    L.append("*pass / judged* leaves out capture-skip and skip.")
    for k in order:
        s = configs[k]
        L += ["", f"## {s['ir']} IR, {s['dtype']}{title_tag(s)}", ""]
        if s.get("inplace"):
            L += ["Each sample runs the OpInfo's in-place variant on a clone of its input "
                  "(`y = x.clone(); y.op_(...)`; torch.export keeps the in-place op). Only OpInfos with an "
                  "in-place variant, deterministic ones (not those seeded by `wrapper_set_seed`). Samples the "
                  "in-place op refuses in eager (result dtype, broadcast input) are capture-skips.", ""]
        d = s.get("dynamic")
        if d:
            w = d["with_dynamic_dims"]
            L += [f"Captured with every dim `Dim.AUTO`: {sum(w.values())} judged cases kept at least one dynamic "
                  f"dim ({d['dynamic_dims_total']} dims): " + ", ".join(f"{k} {w[k]}" for k in CATEGORIES if w[k]) +
                  f". {d['none_dynamic']} judged cases kept none (not a new test). Second input set (every "
                  f"symbol one larger) on the passing dynamic cases: " +
                  ", ".join(f"{k} {v}" for k, v in sorted(d["resized"].items())) + ".", ""]
            for c in d["resized_wrong"]:
                L.append(f"- resized **{c['status']}** {md_escape(c['op'])} #{c['sample']} `{md_escape(c['desc'])}`: "
                         f"{md_escape(c['reason'])}")
            if d["resized_wrong"]:
                L.append("")
        wc = s["wrong_and_crash"]
        L += [f"### Wrong and crash cases ({len(wc)})", ""]
        if wc:
            L += ["| op | sample | status | inputs | details |", "|---|---|---|---|---|"]
            for c in wc:
                L.append(f"| {md_escape(c['op'])} | {c['sample']} | {c['status']} | `{md_escape(c['desc'])}` | "
                         f"{md_escape(c['reason'])} |")
        else:
            L.append("None.")
        L += ["", f"### Missing rules ({len(s['missing'])} overloads), by cases blocked", "",
              "A case stopped by several missing overloads counts for each; *alone*: cases where it is",
              "the only missing rule.", "",
              "| overload | cases | alone | OpInfos |", "|---|---|---|---|"]
        for m in s["missing"]:
            ops = m["opinfos"]
            L.append(f"| `{m['overload']}` | {m['cases']} | {m.get('sole', '')} | {md_escape(', '.join(ops[:6]))}"
                     f"{' …' if len(ops) > 6 else ''} |")
        L += ["", "### Other failure reasons, grouped", "",
              "| status | reason | cases | OpInfos | example |", "|---|---|---|---|---|"]
        for r in s["other_reasons"]:
            ops = r["opinfos"]
            L.append(f"| {r['status']} | {md_escape(r['reason'][:150])} | {r['cases']} | "
                     f"{md_escape(', '.join(ops[:5]))}{' …' if len(ops) > 5 else ''} | {md_escape(r['example'][:200])} |")
        L += ["", "### Per OpInfo", "",
              "| OpInfo | cases | " + " | ".join(CATEGORIES) + " | first failing sample |",
              "|---|---|" + "---|" * len(CATEGORIES) + "---|"]
        for op, c in s["per_op"].items():
            n = sum(c.values())
            ff = s["first_failure"].get(op) or s["first_skip"].get(op)
            fs = f"#{ff['i']} ({ff['status']}) `{md_escape(ff['desc'][:80])}`: {md_escape(ff['reason'][:160])}" if ff else ""
            L.append(f"| {md_escape(op)} | {n} | " + " | ".join(str(c.get(k, 0)) if c.get(k, 0) else "" for k in CATEGORIES)
                     + f" | {fs} |")
    return "\n".join(L) + "\n"


def render_report(data, top=40):
    """A short report for the team: totals, every wrong/crash case, top missing rules."""
    configs = data["configs"]
    order = sorted(configs, key=lambda k: (k.split("/")[1] != "float32", k.split("/")[0] != "default", k))
    L = ["# OpInfo sweep: latest figures", "",
         "From `tools/sweeps/opinfo_sweep.py` (full tables: docs/opinfo-sweep.md).", "",
         "| IR | dtype | samples/OpInfo | cases | " + " | ".join(CATEGORIES) + " | pass/judged | OpInfos all pass | run at (binary built) |",
         "|---|---|---|---|" + "---|" * len(CATEGORIES) + "---|---|---|"]
    for k in order:
        s = configs[k]
        t = s["totals"]
        L.append(f"| {s['ir']} | {s['dtype']}{(' (' + s['tag'] + ')') if s.get('tag') else ''} | {s['samples_per_opinfo']} | {s['cases']} | " +
                 " | ".join(f"{t.get(c, 0)} ({pct(t.get(c, 0), s['cases'])})" for c in CATEGORIES) +
                 f" | {pct(t['pass'], s['judged'])} | {s['opinfos_all_pass']}/{s['opinfos']} | {s['when']} ({s['binary_built']}) |")
    for k in order:
        s = configs[k]
        wc = s["wrong_and_crash"]
        L += ["", f"## {s['ir']} IR, {s['dtype']}{title_tag(s)}: WRONG and CRASH cases ({len(wc)})", ""]
        for c in wc:
            L.append(f"- **{c['status']}** `{c['op']}` sample #{c['sample']} `{c['desc']}`: {c['reason']}")
        if not wc:
            L.append("None.")
        L += ["", f"### Top missing overloads ({len(s['missing'])} in all), by blocked cases", ""]
        for m in s["missing"][:top]:
            ops = m["opinfos"]
            L.append(f"- `{m['overload']}`: {m['cases']} cases, {m.get('sole', 0)} where it is the only missing rule ({', '.join(ops[:5])}{' …' if len(ops) > 5 else ''})")
        for title, statuses in (("ort-error (onnx.checker or onnxruntime refuses the model), grouped", ("ort-error",)),
                                ("ort-gap (no onnxruntime CPU kernel at that type; onnx.checker passed), grouped",
                                 ("ort-gap",)),
                                ("convert-error other than missing rules (rules refusing, importer), grouped",
                                 ("convert-error",)),
                                ("capture-skip (torch.export / eager fail; not counted), grouped",
                                 ("capture-skip",))):
            rs = [r for r in s["other_reasons"] if r["status"] in statuses]
            L += ["", f"### {title}: {sum(r['cases'] for r in rs)} cases", ""]
            for r in rs:
                ops = r["opinfos"]
                L.append(f"- ×{r['cases']} ({', '.join(ops[:4])}{' …' if len(ops) > 4 else ''}): {r['example'][:260]}")
    return "\n".join(L) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ir", default="default", help="default, core, or default,core")
    p.add_argument("--dtype", "--dtypes", dest="dtype", default="float32",
                   help="float32 (default), a comma list, or all (every dtype the op supports on CPU)")
    p.add_argument("--samples", type=int, default=0, help="samples per OpInfo (default: all)")
    p.add_argument("--ops", default="", help="comma list of OpInfo names (name or name.variant)")
    p.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2)), help="worker processes (default: CPUs)")
    p.add_argument("--out", default=os.environ.get("ATEN2ONNX_SWEEP_DIR", "/tmp/aten2onnx-opinfo-sweep"),
                   help="captures, cache and per-case results ($ATEN2ONNX_SWEEP_DIR, default /tmp/aten2onnx-opinfo-sweep)")
    p.add_argument("--binary", default=str(default_binary()),
                   help="aten-translate (default $ATEN2ONNX_BIN_DIR/aten-translate or target/debug/aten-translate)")
    p.add_argument("--timeout", type=int, default=120, help="seconds per conversion")
    p.add_argument("--stall", type=int, default=240, help="extra seconds before a silent worker is restarted")
    p.add_argument("--fresh", action="store_true", help="ignore cached captures and results")
    p.add_argument("--no-doc", action="store_true", help="do not update docs/opinfo-sweep.{json,md}")
    p.add_argument("--verbose", action="store_true", help="also list OpInfos that pass every sample")
    p.add_argument("--render-doc", action="store_true", help="only regenerate docs/opinfo-sweep.md from the JSON")
    p.add_argument("--tag", default="", help="store the summary under IR/dtype/TAG in the docs JSON "
                   "(a partial run, e.g. --ops with every sample, kept beside the main figures)")
    p.add_argument("--report", metavar="PATH", help="also write a short report (totals, wrong/crash, top missing) here")
    p.add_argument("--dynamic", action="store_true", help="capture with every dim Dim.AUTO (own cache and "
                   "docs row IR/dtype/dynamic); counts dims left dynamic, retries at other sizes")
    p.add_argument("--inplace", action="store_true", help="run each OpInfo's in-place variant on a clone of its "
                   "input (deterministic OpInfos with one; own cache and docs row IR/dtype/inplace)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--bin-hash", default="", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        Worker(args).loop()
        return 0
    if args.render_doc:
        data = json.loads(DOC_JSON.read_text())
        DOC_MD.write_text(render_md(data))
        if args.report:
            Path(args.report).write_text(render_report(data))
        return 0
    if args.dynamic and "dynamic" not in args.tag:
        # Its own row in the docs JSON (IR/dtype/dynamic), never the static one.
        args.tag = f"{args.tag}-dynamic" if args.tag else "dynamic"
    if args.inplace and "inplace" not in args.tag:
        # Likewise its own row (IR/dtype/inplace), never the out-of-place one.
        args.tag = f"{args.tag}-inplace" if args.tag else "inplace"
    rc = run_sweep(args)
    if args.report and DOC_JSON.exists():
        Path(args.report).write_text(render_report(json.loads(DOC_JSON.read_text())))
    return rc


if __name__ == "__main__":
    sys.exit(main())
