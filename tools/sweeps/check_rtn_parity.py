#!/usr/bin/env python3
"""Checks that `aten-translate --quantize-weights` writes, bit for bit, the
quantized weights onnxruntime's own RTN quantizer writes for the same float
weights (MatMulNBitsQuantizer, default algorithm), for MatMulNBits
(`--target onnxruntime`) and, for 4 bits, the QDQ form (`quant_format=QDQ`).

Usage: check_rtn_parity.py FLOAT.onnx OURS.onnx --bits 4 --block 32 [--asym] [--format matmulnbits|qdq]
                           [--run CASE_DIR]

With --run, both quantized models (ours, and onnxruntime's quantizer's on
FLOAT.onnx) also run on CASE_DIR/set_*/input_*.pb: their outputs must agree
within 1e-4 (the same weights in the same graph), and each one's error
against the eager float outputs (CASE_DIR/set_*/output_*.pb) is printed.

FLOAT.onnx is our float conversion of the same program (its MatMul weights
are the initializers the quantizer reads). MatMuls are matched by (K, N)
and their order in the graph. Prints one line per weight; exits 1 on any
difference. Run by tests/integration/quantize_weights.rs.
"""
import argparse
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def quantize_with_ort(model, bits, block, symmetric, fmt, gather=False):
    from onnxruntime.quantization import matmul_nbits_quantizer as mnq
    from onnxruntime.quantization.quant_utils import QuantFormat
    kwargs = dict(block_size=block, is_symmetric=symmetric, bits=bits)
    if fmt == "qdq":
        kwargs["quant_format"] = QuantFormat.QDQ
    if gather:
        kwargs["op_types_to_quantize"] = ("MatMul", "Gather")
    q = mnq.MatMulNBitsQuantizer(model, **kwargs)
    q.process()
    return q.model.model


def products(model, fmt):
    """[(K, N, [data, scales, zero_points?] as raw bytes)] in graph order."""
    inits = {i.name: i for i in model.graph.initializer}
    out = []
    for node in model.graph.node:
        if fmt == "matmulnbits" and node.op_type == "MatMulNBits":
            attrs = {a.name: a.i for a in node.attribute}
            tensors = [inits[n] for n in node.input[1:] if n in inits]
            out.append((attrs["K"], attrs["N"], tensors))
        if fmt == "qdq" and node.op_type == "DequantizeLinear" and node.input[0] in inits:
            data = inits[node.input[0]]
            axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
            if data.data_type not in (21, 22, 2, 3) or len(data.dims) != 2 or axis != 0:
                continue  # an embedding table's DequantizeLinear is axis 1 (see tables())
            tensors = [inits[n] for n in node.input if n in inits]
            out.append((data.dims[0], data.dims[1], tensors))
    return out


def tables(model):
    """[(V, H, [data, scales, zero_points?])] of quantized embedding tables in graph order:
    GatherBlockQuantized, or a DequantizeLinear {axis = 1} feeding a Gather."""
    inits = {i.name: i for i in model.graph.initializer}
    consumers = {}
    for node in model.graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    out = []
    for node in model.graph.node:
        if node.op_type == "GatherBlockQuantized":
            data = inits[node.input[0]]
            tensors = [data] + [inits[n] for n in node.input[2:] if n in inits]
            out.append((data.dims[0], data.dims[1], tensors))
        if node.op_type == "DequantizeLinear" and node.input[0] in inits:
            axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
            if axis == 1 and any(c.op_type == "Gather" for c in consumers.get(node.output[0], [])):
                data = inits[node.input[0]]
                out.append((data.dims[0], data.dims[1], [inits[n] for n in node.input if n in inits]))
    return out


def with_tables_of(model, gathered):
    """`model` (the quantizer's QDQ form, Gather left float) with its Gathers
    replaced by `gathered`'s GatherBlockQuantized nodes (the quantizer writes
    Gather tables only in that form): the reference our QDQ tables run
    against."""
    by_output = {n.output[0]: n for n in gathered.graph.node if n.op_type == "GatherBlockQuantized"}
    inits = {i.name: i for i in gathered.graph.initializer}
    have = {i.name for i in model.graph.initializer}
    nodes = []
    for node in model.graph.node:
        g = by_output.get(node.output[0]) if node.op_type == "Gather" else None
        if g is None:
            nodes.append(node)
            continue
        nodes.append(g)
        for name in g.input:
            if name in inits and name not in have:
                model.graph.initializer.append(inits[name])
                have.add(name)
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    if not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(onnx.helper.make_opsetid("com.microsoft", 1))
    return model


def compare(what, theirs, ours):
    """Prints one line per quantized tensor; returns the number of differences."""
    if [(k, n) for k, n, _ in theirs] != [(k, n) for k, n, _ in ours]:
        print(f"different {what}s: onnxruntime {[(k, n) for k, n, _ in theirs]}, ours {[(k, n) for k, n, _ in ours]}",
              file=sys.stderr)
        return 1
    bad = 0
    for i, ((k, n, t), (_, _, o)) in enumerate(zip(theirs, ours)):
        names = ["data", "scales", "zero_points"]
        for j, (tt, oo) in enumerate(zip(t, o)):
            same_type = tt.data_type == oo.data_type and list(tt.dims) == list(oo.dims)
            rt, ro = raw(tt), raw(oo)
            differ = sum(x != y for x, y in zip(rt, ro)) + abs(len(rt) - len(ro))
            ok = same_type and differ == 0
            bad += not ok
            print(f"{what} {i} [{k}, {n}] {names[j]}: "
                  f"{'identical' if ok else f'DIFFERS ({differ} bytes; types {tt.data_type}{list(tt.dims)} vs {oo.data_type}{list(oo.dims)})'}")
        if len(t) != len(o):
            bad += 1
            print(f"{what} {i}: {len(t)} quantized inputs from onnxruntime, {len(o)} ours")
    print(f"{len(theirs)} {what}s, {bad} differences")
    return bad


def raw(t):
    if t.raw_data:
        return bytes(t.raw_data)
    return numpy_helper.to_array(t).tobytes()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("float_model")
    ap.add_argument("ours")
    ap.add_argument("--bits", type=int, default=4)
    ap.add_argument("--block", type=int, default=32)
    ap.add_argument("--asym", action="store_true")
    ap.add_argument("--format", default="matmulnbits", choices=["matmulnbits", "qdq"])
    ap.add_argument("--run", help="a corpus case directory: run both quantized models on its input sets")
    ap.add_argument("--embeddings", action="store_true",
                    help="ours quantized the Gather tables too (scope=linear,embedding): compare them with the "
                         "quantizer's GatherBlockQuantized tables (op_types_to_quantize MatMul, Gather)")
    a = ap.parse_args()
    ref = quantize_with_ort(onnx.load(a.float_model), a.bits, a.block, not a.asym, a.format)
    theirs = products(ref, a.format)
    ours = products(onnx.load(a.ours), a.format)
    if not theirs:
        print("onnxruntime's quantizer quantized nothing", file=sys.stderr)
        return 1
    bad = compare("product", theirs, ours)
    if a.embeddings:
        # The quantizer writes Gather tables only as GatherBlockQuantized;
        # ours in either form holds the same tensors.
        gathered = quantize_with_ort(onnx.load(a.float_model), a.bits, a.block, not a.asym, "matmulnbits", True)
        theirs_tables, ours_tables = tables(gathered), tables(onnx.load(a.ours))
        if not theirs_tables:
            print("onnxruntime's quantizer quantized no Gather table", file=sys.stderr)
            return 1
        bad += compare("table", theirs_tables, ours_tables)
        ref = gathered if a.format == "matmulnbits" else with_tables_of(ref, gathered)
    if a.run:
        bad += run_both(ref, a.ours, a.run)
    return 1 if bad else 0


def run_both(ref_model, ours_path, case_dir):
    """Runs onnxruntime's quantized model and ours on a case's input sets."""
    import glob
    import onnxruntime as ort
    ref = ort.InferenceSession(ref_model.SerializeToString(), providers=["CPUExecutionProvider"])
    ours = ort.InferenceSession(ours_path, providers=["CPUExecutionProvider"])
    bad = 0
    for set_dir in sorted(glob.glob(f"{case_dir}/set_*")):
        def load(pattern):
            out = []
            for f in sorted(glob.glob(f"{set_dir}/{pattern}"), key=lambda p: int(p.rsplit("_", 1)[1].split(".")[0])):
                t = onnx.TensorProto()
                t.ParseFromString(open(f, "rb").read())
                out.append(numpy_helper.to_array(t))
            return out
        inputs, eager = load("input_*.pb"), load("output_*.pb")
        feeds = lambda s: {i.name: x for i, x in zip(s.get_inputs(), inputs)}
        r, o = ref.run(None, feeds(ref)), ours.run(None, feeds(ours))
        diff = max(float(np.abs(x - y).max()) for x, y in zip(r, o))
        err_ref = max(float(np.abs(x - e).max()) for x, e in zip(r, eager))
        err_ours = max(float(np.abs(x - e).max()) for x, e in zip(o, eager))
        ok = diff <= 1e-4
        bad += not ok
        print(f"{set_dir}: ours vs onnxruntime's quantized model max |diff| {diff:.3e} ({'ok' if ok else 'MISMATCH'}); "
              f"error vs eager float: ours {err_ours:.3e}, onnxruntime's {err_ref:.3e}")
    return bad


if __name__ == "__main__":
    sys.exit(main())
