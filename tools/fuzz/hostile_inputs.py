#!/usr/bin/env python3
"""Throws hostile inputs at aten-translate and aten-opt (run by hand, not in CI).

Mutates the fixtures and the corpus (`.pt2` archives and the `.mlir` they
import to): truncations, random bytes, JSON edits of node names, arguments,
dims, dtypes, sizes/strides of weights, value references and signature specs;
malformed and deeply nested `.mlir`; `.onnx` models (the fixtures as
aten-translate writes them, and onnx's shipped backend node tests) with
edited dims, element types, attributes, node inputs/outputs, op types,
opsets and initializers, truncated or with random bytes; bad flags and
output paths. Each input is given to

    aten-translate --to-onnx IN -o OUT.onnx     (and --external-data always)
    aten-translate --from-pt2 IN -o OUT.mlir
    aten-opt IN.mlir -o OUT.mlir
    aten-translate --to-onnx IN.onnx -o OUT.onnx   (re-optimizing an ONNX model)

in a scratch directory, and reported as a finding when the exit code is not
0 or 1, the process died of a signal, ran past the timeout, printed no
message on failure, left a file behind on failure (a partial or temporary
output), or touched the input; with --check, a model written with exit 0 is
also loaded by onnx.checker (a model it rejects is a finding).

    .venv/bin/python tools/fuzz/hostile_inputs.py [--runs N] [--seed S] [--jobs 2] [--check]
                                             [--onnx-runs N] [--keep DIR] [--timeout 30]

Prints a summary (runs, findings per kind) and writes every finding's input
and command to --keep (default /tmp/hostile-findings).
"""

import argparse
import copy
import hashlib
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("ATEN2ONNX_BIN_DIR", os.path.join(ROOT, "target", "debug"))
TRANSLATE = os.path.join(BIN, "aten-translate")
OPT = os.path.join(BIN, "aten-opt")

FIXTURES = ["mlp", "mlp_core", "conv_block", "conv_block_core", "attention", "attention_core", "cond", "while_loop"]

INTERESTING_INTS = [-(2**63), -(2**40), -1000, -9, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 9, 1000, 2**31, 2**40, 2**63 - 1]


# ----------------------------------------------------------------- archives


def read_members(path):
    with zipfile.ZipFile(path) as z:
        return [(info.filename, z.read(info.filename)) for info in z.infolist()]


def write_archive(members):
    """A STORED zip of (name, bytes), 64-byte aligned like torch writes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as z:
        for name, data in members:
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_STORED
            z.writestr(info, data)
    return buffer.getvalue()


def find_member(members, suffix):
    for i, (name, _) in enumerate(members):
        if name.endswith(suffix):
            return i
    return None


def json_member(members, suffix):
    i = find_member(members, suffix)
    return i, json.loads(members[i][1])


def set_member(members, i, value):
    members[i] = (members[i][0], json.dumps(value).encode())


# ------------------------------------------------------------- JSON edits


def walk_args(node):
    """(container, key) of every argument value of a node."""
    for inp in node.get("inputs", []):
        yield inp


def int_like_args(node):
    out = []
    for inp in node.get("inputs", []):
        arg = inp.get("arg", {})
        if "as_int" in arg or "as_ints" in arg:
            out.append(inp)
    return out


def mutate_model(rng, model, weights_cfg):
    """One random edit of model.json (and maybe the weights config). Returns a label."""
    graph = model["graph_module"]["graph"]
    nodes = graph["nodes"]
    sig = model["graph_module"]["signature"]
    kind = rng.choice(
        [
            "int_arg",
            "int_arg",
            "int_arg",
            "ints_arg",
            "name",
            "drop_input",
            "extra_input",
            "undefined_ref",
            "target",
            "tensor_meta",
            "dtype",
            "output_spec",
            "input_spec",
            "weight_view",
            "drop_field",
            "swap_arg_kind",
            "duplicate_node",
            "reverse_nodes",
        ]
    )
    if not nodes:
        return "empty"
    node = rng.choice(nodes)
    if kind == "int_arg":
        cands = [i for i in int_like_args(node) if "as_int" in i["arg"]]
        if not cands:
            return None
        inp = rng.choice(cands)
        inp["arg"]["as_int"] = rng.choice(INTERESTING_INTS)
        return f"int_arg {node['name']}.{inp.get('name')}={inp['arg']['as_int']}"
    if kind == "ints_arg":
        cands = [i for i in int_like_args(node) if "as_ints" in i["arg"]]
        if not cands:
            return None
        inp = rng.choice(cands)
        n = rng.choice([0, 1, 2, 3, 5, 9])
        inp["arg"]["as_ints"] = [rng.choice(INTERESTING_INTS) for _ in range(n)]
        return f"ints_arg {node['name']}.{inp.get('name')}={inp['arg']['as_ints']}"
    if kind == "name":
        choice = rng.choice(["empty", "missing", "long", "weird", "dup"])
        if choice == "empty":
            node["name"] = ""
        elif choice == "missing":
            node.pop("name", None)
        elif choice == "long":
            node["name"] = "n" * 100000
        elif choice == "weird":
            node["name"] = "\"\\\n\u0000{}<>%@^"
        else:
            node["name"] = nodes[0].get("name", "x")
        return f"name {choice}"
    if kind == "drop_input":
        if not node.get("inputs"):
            return None
        node["inputs"].pop(rng.randrange(len(node["inputs"])))
        return f"drop_input {node.get('name')}"
    if kind == "extra_input":
        node.setdefault("inputs", []).append(
            rng.choice(
                [
                    {"name": "extra", "arg": {"as_int": 1}, "kind": 1},
                    {"name": "", "arg": {"as_tensor": {"name": graph["inputs"][0].get("as_tensor", {}).get("name", "x") if graph["inputs"] else "x"}}, "kind": 1},
                    {"name": "bogus", "arg": {"as_none": True}, "kind": 1},
                ]
            )
        )
        return f"extra_input {node.get('name')}"
    if kind == "undefined_ref":
        for inp in node.get("inputs", []):
            if "as_tensor" in inp.get("arg", {}):
                inp["arg"]["as_tensor"]["name"] = "no_such_value"
                return f"undefined_ref {node.get('name')}"
        return None
    if kind == "target":
        others = [n["target"] for n in nodes] + [
            "torch.ops.aten.view.default",
            "torch.ops.aten.permute.default",
            "torch.ops.aten.cat.default",
            "torch.ops.aten.slice.Tensor",
            "torch.ops.aten.expand.default",
            "torch.ops.aten.index.Tensor",
            "torch.ops.aten.bogus.default",
            "torch.ops.higher_order.cond",
            "",
        ]
        node["target"] = rng.choice(others)
        return f"target {node.get('name')}={node['target']}"
    if kind == "tensor_meta":
        tv = graph["tensor_values"]
        if not tv:
            return None
        key = rng.choice(sorted(tv))
        meta = tv[key]
        choice = rng.choice(["sizes", "rank", "strides", "empty"])
        if choice == "sizes" and meta.get("sizes"):
            meta["sizes"][rng.randrange(len(meta["sizes"]))] = {"as_int": rng.choice([0, -1, 1, 2**40, 2**62])}
        elif choice == "rank":
            meta["sizes"] = meta.get("sizes", [])[:-1] if rng.random() < 0.5 else meta.get("sizes", []) + [{"as_int": 3}]
        elif choice == "strides":
            meta["strides"] = [{"as_int": rng.choice([0, -1, 2**40])} for _ in meta.get("strides", [])]
        else:
            tv[key] = {}
        return f"tensor_meta {key} {choice}"
    if kind == "dtype":
        tv = graph["tensor_values"]
        if not tv:
            return None
        key = rng.choice(sorted(tv))
        tv[key]["dtype"] = rng.choice([0, 1, 2, 5, 6, 7, 12, 13, 25, 99, -1])
        return f"dtype {key}={tv[key]['dtype']}"
    if kind == "output_spec":
        specs = sig["output_specs"]
        if not specs:
            return None
        spec = rng.choice(specs)
        choice = rng.choice(["undefined", "buffer", "drop", "dup"])
        if choice == "undefined":
            inner = next(iter(spec.values()))
            inner["arg"] = {"as_tensor": {"name": "no_such_value"}}
        elif choice == "buffer":
            name = graph["outputs"][0].get("as_tensor", {}).get("name", "x") if graph["outputs"] else "x"
            specs.append({"buffer_mutation": {"arg": {"name": name}, "buffer_name": "no_such_buffer"}})
            graph["outputs"].append({"as_tensor": {"name": name}})
        elif choice == "drop":
            specs.pop()
        else:
            specs.append(copy.deepcopy(spec))
            graph["outputs"].append(copy.deepcopy(graph["outputs"][-1]) if graph["outputs"] else {})
        return f"output_spec {choice}"
    if kind == "input_spec":
        specs = sig["input_specs"]
        if not specs:
            return None
        spec = rng.choice(specs)
        inner = next(iter(spec.values()))
        for field in ("parameter_name", "buffer_name", "tensor_constant_name"):
            if field in inner:
                inner[field] = rng.choice(["no_such_weight", "", inner[field] + ".x"])
                return f"input_spec {field}"
        if "arg" in inner:
            inner["arg"] = {"as_tensor": {"name": "no_such_value"}} if rng.random() < 0.5 else {"as_none": True}
            return "input_spec arg"
        return None
    if kind == "weight_view" and weights_cfg is not None:
        cfg = weights_cfg.get("config", {})
        if not cfg:
            return None
        key = rng.choice(sorted(cfg))
        meta = cfg[key]["tensor_meta"]
        choice = rng.choice(["broadcast", "huge", "offset", "negative", "rank", "dtype"])
        if choice == "broadcast":
            meta["sizes"] = [{"as_int": 2**40}] + meta["sizes"]
            meta["strides"] = [{"as_int": 0}] + meta["strides"]
        elif choice == "huge" and meta["sizes"]:
            meta["sizes"][0] = {"as_int": 2**40}
        elif choice == "offset":
            meta["storage_offset"] = {"as_int": rng.choice([1, 2**40, -1])}
        elif choice == "negative" and meta["strides"]:
            meta["strides"][0] = {"as_int": -1}
        elif choice == "rank":
            meta["sizes"] = meta["sizes"][:-1]
            meta["strides"] = meta["strides"][:-1]
        else:
            meta["dtype"] = rng.choice([0, 99, 12, 5])
        # keep the graph's view of the weight in sync half of the time
        if rng.random() < 0.5:
            for spec in sig["input_specs"]:
                inner = next(iter(spec.values()))
                if inner.get("parameter_name") == key or inner.get("buffer_name") == key:
                    name = inner["arg"]["name"]
                    if name in graph["tensor_values"]:
                        graph["tensor_values"][name]["sizes"] = meta["sizes"]
                        graph["tensor_values"][name]["strides"] = meta["strides"]
        return f"weight_view {key} {choice}"
    if kind == "drop_field":
        target = rng.choice([node, model, graph, sig])
        if not isinstance(target, dict) or not target:
            return None
        field = rng.choice(sorted(target))
        del target[field]
        return f"drop_field {field}"
    if kind == "swap_arg_kind":
        if not node.get("inputs"):
            return None
        inp = rng.choice(node["inputs"])
        inp["arg"] = rng.choice(
            [
                {"as_int": 3},
                {"as_float": 1.5},
                {"as_ints": []},
                {"as_bool": True},
                {"as_string": "x"},
                {"as_none": True},
                {"as_tensors": []},
                {"as_scalar_type": 99},
                {"as_tensor": {"name": nodes[0]["outputs"][0].get("as_tensor", {}).get("name", "x")}}
                if nodes[0].get("outputs")
                else {"as_int": 0},
            ]
        )
        return f"swap_arg_kind {node.get('name')}.{inp.get('name')}={list(inp['arg'])[0]}"
    if kind == "duplicate_node":
        nodes.insert(rng.randrange(len(nodes) + 1), copy.deepcopy(node))
        return "duplicate_node"
    if kind == "reverse_nodes":
        nodes.reverse()
        return "reverse_nodes"
    return None


# ------------------------------------------------------------------- inputs


def truncated(rng, raw, label):
    """(label, bytes): `raw` cut at a random offset."""
    cut = rng.randrange(len(raw))
    return f"{label}@{cut}", raw[:cut]


def random_bytes(rng, raw, label, counts):
    """(label, bytes): `raw` with one of `counts` random bytes overwritten."""
    data = bytearray(raw)
    for _ in range(rng.choice(counts)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return label, bytes(data)


def pt2_mutants(rng, path, count):
    """(label, bytes) of mutated archives."""
    members = read_members(path)
    raw = open(path, "rb").read()
    for _ in range(count):
        r = rng.random()
        if r < 0.12:
            yield truncated(rng, raw, "truncate")
        elif r < 0.22:
            yield random_bytes(rng, raw, "bytes", [1, 4, 32])
        else:
            ms = list(members)
            mi, model = json_member(ms, "models/model.json")
            wi = find_member(ms, "model_weights_config.json")
            weights = json.loads(ms[wi][1]) if wi is not None else None
            labels = []
            for _ in range(rng.choice([1, 1, 1, 2, 3])):
                try:
                    label = mutate_model(rng, model, weights)
                except (KeyError, TypeError, IndexError, AttributeError, ValueError, StopIteration):
                    label = None  # an earlier edit removed what this one edits
                if label:
                    labels.append(label)
            if not labels:
                continue
            set_member(ms, mi, model)
            if wi is not None:
                set_member(ms, wi, weights)
            yield "json:" + "; ".join(labels), write_archive(ms)


def mlir_mutants(rng, text, count):
    lines = text.splitlines(keepends=True)
    for _ in range(count):
        r = rng.random()
        if r < 0.25:
            cut = rng.randrange(len(text))
            yield f"mlir-truncate@{cut}", text[:cut]
        elif r < 0.4:
            i = rng.randrange(len(lines))
            yield "mlir-drop-line", "".join(lines[:i] + lines[i + 1 :])
        elif r < 0.55:
            # replace an integer literal
            import re

            ints = list(re.finditer(r"(?<![\w%#.])-?\d+(?![\w.])", text))
            if not ints:
                continue
            m = rng.choice(ints)
            new = str(rng.choice(INTERESTING_INTS))
            yield f"mlir-int {m.group()}->{new}", text[: m.start()] + new + text[m.end() :]
        elif r < 0.65:
            data = list(text)
            for _ in range(rng.choice([1, 3, 10])):
                data[rng.randrange(len(data))] = rng.choice('"{}()<>[]%@#!:,= \n\\x0')
            yield "mlir-chars", "".join(data)
        elif r < 0.75:
            depth = rng.choice([300, 5000, 100000])
            opener, closer = rng.choice([("(", ")"), ("[", "]"), ("{", "}"), ("tensor<", ">")])
            yield f"mlir-deep {depth}{opener}", f'"aten.x"() {{a = {opener * depth}{closer * depth}}} : () -> ()\n'
        elif r < 0.85:
            # swap an op name for another aten/onnx name
            import re

            names = list(re.finditer(r'"(aten|onnx)\.[\w.]+"', text))
            if not names:
                continue
            m = rng.choice(names)
            new = rng.choice(['"onnx.Transpose"', '"onnx.Concat"', '"aten.view.default"', '"foo.bar"', '"aten.transpose.int"', '"onnx.Gather"'])
            yield f"mlir-op {m.group()}->{new}", text[: m.start()] + new + text[m.end() :]
        else:
            yield "mlir-onnx-attrs", onnx_attribute_mutant(rng)


def onnx_attribute_mutant(rng):
    perm = rng.choice(["[0, 1]", "[1, 0, 2]", "[2, 0]", "[0, 0]", "[]", "[-1, 0]"])
    axis = rng.choice([0, 1, 2, -3, 5, -100])
    return (
        "module attributes {onnx.opset = 23 : i64} {\n"
        "func.func @forward(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<4x3xf32>) {\n"
        f'  %0 = "onnx.Transpose"(%x) {{perm = array<i64: {perm[1:-1]}>}} : (tensor<2x3xf32>) -> tensor<3x2xf32>\n'
        f'  %1 = "onnx.Concat"(%x, %x) {{axis = {axis} : i64}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>\n'
        "  return %0, %1 : tensor<3x2xf32>, tensor<4x3xf32>\n}\n}\n"
    )


# ------------------------------------------------------------- .onnx inputs


INTERESTING_DIMS = [0, 1, 2, 3, 5, 7, 64, 2**31, -1]


def onnx_sources(scratch):
    """Small ONNX models to mutate: the fixtures converted by aten-translate
    itself, and a sample of the backend node tests shipped in the onnx wheel
    (other exporters' conventions: Constant nodes, optional inputs, old opsets)."""
    out = []
    for f in FIXTURES:
        dst = os.path.join(scratch, f + ".onnx")
        src = os.path.join(ROOT, "tests", "fixtures", f + ".pt2")
        if subprocess.run([TRANSLATE, "--to-onnx", src, "-o", dst], capture_output=True).returncode == 0:
            out.append(dst)
    try:
        import warnings

        from onnx.backend.test.loader import load_model_tests

        warnings.simplefilter("ignore")
        for case in load_model_tests(kind="node"):
            dst = os.path.join(scratch, "node-" + case.name + ".onnx")
            with open(dst, "wb") as f:
                f.write(case.model.SerializeToString())
            out.append(dst)
    except ImportError:
        pass
    return out


def mutate_onnx(rng, m):
    """One structural edit of a ModelProto (in place); returns its label or None."""
    from onnx import AttributeProto, helper

    g = m.graph
    kind = rng.choice(
        ["dim", "dim", "elem", "attr", "attr", "attr", "input_name", "drop_input", "op_type",
         "opset", "init_dims", "dup_output", "cycle", "drop_node", "drop_shape", "extra_input"]
    )
    values = list(g.input) + list(g.output) + list(g.value_info)
    if kind == "dim" and values:
        v = rng.choice(values)
        dims = v.type.tensor_type.shape.dim
        if not dims:
            return None
        d = rng.choice(dims)
        if rng.random() < 0.2:
            d.dim_param = rng.choice(["s0", "batch", "N"])
            return f"dim {v.name} -> symbolic"
        d.dim_value = rng.choice(INTERESTING_DIMS)
        return f"dim {v.name} -> {d.dim_value}"
    if kind == "elem" and values:
        v = rng.choice(values)
        v.type.tensor_type.elem_type = rng.choice([1, 2, 3, 6, 7, 9, 10, 11, 16, 0, 8, 14, 99])
        return f"elem {v.name} -> {v.type.tensor_type.elem_type}"
    if kind == "drop_shape" and values:
        v = rng.choice(values)
        v.type.tensor_type.ClearField("shape")
        return f"drop shape of {v.name}"
    if not g.node:
        return None
    n = rng.choice(list(g.node))
    if kind == "attr":
        if not n.attribute:
            n.attribute.append(helper.make_attribute(rng.choice(["axis", "perm", "to", "mode"]), rng.choice([1, [0, 1], "x"])))
            return f"add attr to {n.op_type}"
        a = rng.choice(list(n.attribute))
        if a.type == AttributeProto.INT:
            a.i = rng.choice(INTERESTING_INTS)
            return f"{n.op_type}.{a.name} = {a.i}"
        if a.type == AttributeProto.INTS:
            ints = list(a.ints)
            r = rng.random()
            if r < 0.3 and ints:
                ints.pop(rng.randrange(len(ints)))
            elif r < 0.6:
                ints.append(rng.choice(INTERESTING_INTS[5:15]))
            elif ints:
                ints[rng.randrange(len(ints))] = rng.choice(INTERESTING_INTS)
            del a.ints[:]
            a.ints.extend(ints)
            return f"{n.op_type}.{a.name} = {ints}"
        if a.type == AttributeProto.FLOAT:
            a.f = rng.choice([float("nan"), float("inf"), -1.0, 0.0, 1e30])
            return f"{n.op_type}.{a.name} = {a.f}"
        if a.type == AttributeProto.STRING:
            a.s = rng.choice([b"", b"bogus", b"NOTSET", b"linear", b"\xff"])
            return f"{n.op_type}.{a.name} = {a.s!r}"
        if a.type == AttributeProto.TENSOR:
            t = a.t
            r = rng.random()
            if r < 0.4:
                t.data_type = rng.choice([1, 6, 7, 9, 10, 11, 0, 99])
            elif r < 0.7:
                t.dims.append(rng.choice([0, 2, 3]))
            else:
                t.raw_data = t.raw_data[: len(t.raw_data) // 2]
            return f"{n.op_type}.{a.name} tensor edited"
        n.attribute.remove(a)
        return f"drop {n.op_type}.{a.name}"
    if kind == "input_name" and n.input:
        i = rng.randrange(len(n.input))
        names = [o for x in g.node for o in x.output] + [x.name for x in g.input] + ["undefined_value", ""]
        n.input[i] = rng.choice(names)
        return f"{n.op_type} input {i} -> {n.input[i]!r}"
    if kind == "drop_input" and n.input:
        del n.input[rng.randrange(len(n.input))]
        return f"{n.op_type} input dropped"
    if kind == "extra_input":
        n.input.append(rng.choice([x.name for x in g.input] or ["x"]))
        return f"{n.op_type} extra input"
    if kind == "op_type":
        n.op_type = rng.choice(["Add", "MatMul", "Transpose", "Concat", "Reshape", "Gather", "Conv", "Resize",
                                "Slice", "If", "Loop", "Unknown", "Softmax", "Split", "Cast", "Einsum", "LayerNormalization"])
        return f"op_type -> {n.op_type}"
    if kind == "opset":
        m.opset_import[0].version = rng.choice([1, 6, 11, 13, 17, 22, 23, 24, 30, 1000])
        return f"opset -> {m.opset_import[0].version}"
    if kind == "init_dims" and g.initializer:
        t = rng.choice(list(g.initializer))
        if t.dims:
            t.dims[rng.randrange(len(t.dims))] = rng.choice(INTERESTING_DIMS)
        else:
            t.dims.append(rng.choice(INTERESTING_DIMS))
        return f"initializer {t.name} dims -> {list(t.dims)}"
    if kind == "dup_output" and n.output and len(g.node) > 1:
        other = rng.choice(list(g.node))
        if other.output:
            n.output[0] = other.output[0]
            return f"{n.op_type} output renamed to {other.output[0]}"
    if kind == "cycle" and n.input:
        later = [o for x in g.node for o in x.output]
        n.input[0] = rng.choice(later)
        return f"{n.op_type} reads {n.input[0]} (maybe its own or a later output)"
    if kind == "drop_node":
        g.node.remove(n)
        return f"{n.op_type} node dropped"
    return None


def onnx_mutants(rng, path, count):
    import onnx

    raw = open(path, "rb").read()
    for _ in range(count):
        r = rng.random()
        if r < 0.08:
            yield truncated(rng, raw, "onnx-truncate")
        elif r < 0.15:
            yield random_bytes(rng, raw, "onnx-bytes", [1, 4])
        else:
            m = onnx.load_from_string(raw)
            labels = [label for _ in range(rng.choice([1, 1, 2])) if (label := mutate_onnx(rng, m))]
            if labels:
                yield "onnx:" + "; ".join(labels), m.SerializeToString()


# -------------------------------------------------------------------- runs


EXIT_CODES = {}


class Result:
    def __init__(self, label, command, kind, detail, input_path):
        self.label, self.command, self.kind, self.detail, self.input_path = label, command, kind, detail, input_path


def run_one(args, label, data, suffix, mode, check):
    """Runs one tool on one input in a fresh scratch dir. Returns a list of findings."""
    findings = []
    with tempfile.TemporaryDirectory(prefix="hostile-") as scratch:
        inp = os.path.join(scratch, "input" + suffix)
        with open(inp, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        digest = hashlib.sha256(open(inp, "rb").read()).hexdigest()
        out_dir = os.path.join(scratch, "out")
        os.mkdir(out_dir)
        if mode == "to-onnx":
            out = os.path.join(out_dir, "model.onnx")
            cmd = [TRANSLATE, "--to-onnx", inp, "-o", out]
        elif mode == "to-onnx-external":
            out = os.path.join(out_dir, "model.onnx")
            cmd = [TRANSLATE, "--to-onnx", inp, "-o", out, "--external-data", "always"]
        elif mode == "from-pt2":
            out = os.path.join(out_dir, "model.mlir")
            cmd = [TRANSLATE, "--from-pt2", inp, "-o", out]
        else:
            out = os.path.join(out_dir, "out.mlir")
            cmd = [OPT, inp, "-o", out]
        start = time.time()
        try:
            proc = subprocess.run(cmd, capture_output=True, timeout=args.timeout, cwd=scratch)
        except subprocess.TimeoutExpired:
            findings.append(("timeout", f"> {args.timeout}s"))
            proc = None
        elapsed = time.time() - start
        if proc is not None:
            rc = proc.returncode
            EXIT_CODES[rc] = EXIT_CODES.get(rc, 0) + 1
            stderr = proc.stderr.decode(errors="replace")
            if rc < 0:
                findings.append((f"signal {signal.Signals(-rc).name}", stderr[-500:]))
            elif rc not in (0, 1):
                findings.append((f"exit {rc}", stderr[-500:]))
            elif rc == 1:
                if not stderr.strip():
                    findings.append(("no message", ""))
                if "internal error" in stderr or "panicked" in stderr:
                    findings.append(("panic caught", stderr[-500:]))
                left = os.listdir(out_dir)
                if left:
                    findings.append(("leftover on failure", str(left)))
            else:
                produced = set(os.listdir(out_dir))
                expected = {os.path.basename(out)}
                if mode == "to-onnx-external":
                    expected.add("model.onnx.data")
                if not produced <= expected or os.path.basename(out) not in produced:
                    findings.append(("unexpected files on success", str(sorted(produced))))
                if check and mode.startswith("to-onnx") and os.path.exists(out):
                    c = subprocess.run(
                        [sys.executable, "-c", "import onnx,sys; onnx.checker.check_model(sys.argv[1], full_check=True)", out],
                        capture_output=True,
                    )
                    if c.returncode != 0:
                        tail = c.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
                        findings.append(("onnx.checker rejects a model written with exit 0", tail[0][:300]))
        if elapsed > args.slow and not any(k == "timeout" for k, _ in findings):
            findings.append(("slow", f"{elapsed:.1f}s"))
        if hashlib.sha256(open(inp, "rb").read()).hexdigest() != digest:
            findings.append(("input modified", ""))
        kept = None
        if findings:
            os.makedirs(args.keep, exist_ok=True)
            kept = os.path.join(args.keep, hashlib.sha1((label + mode).encode() + digest.encode()).hexdigest()[:12] + suffix)
            shutil.copy(inp, kept)
        return [Result(label, " ".join(cmd[:1] + [c if c != inp else kept or inp for c in cmd[1:]]), k, d, kept) for k, d in findings]


def path_cases():
    """Hostile command lines and output paths (each a small shell script run in a scratch dir)."""
    mlp = os.path.join(ROOT, "tests", "fixtures", "mlp.pt2")
    t, o = TRANSLATE, OPT
    return [
        ("bad flag", f"{t} --bogus", 1, []),
        ("no mode", f"{t} {mlp}", 1, []),
        ("opset 0", f"{t} --to-onnx in.pt2 -o m.onnx --opset 0", 1, ["in.pt2"]),
        ("opset text", f"{t} --to-onnx in.pt2 -o m.onnx --opset x", 1, ["in.pt2"]),
        ("help", f"{t} --help", 0, []),
        ("opt help", f"{o} --help", 0, []),
        ("opt bad flag", f"{o} --nope", 1, []),
        ("output = input", f"{t} --to-onnx in.pt2 -o in.pt2", 1, ["in.pt2"]),
        ("output = ./input", f"{t} --to-onnx in.pt2 -o ./in.pt2", 1, ["in.pt2"]),
        ("output = symlink to input", f"ln -s in.pt2 link.onnx && {t} --to-onnx in.pt2 -o link.onnx", 1, ["in.pt2", "link.onnx"]),
        ("from-pt2 output = input", f"{t} --from-pt2 in.pt2 -o in.pt2", 1, ["in.pt2"]),
        ("mlir output = input", f"{t} --from-pt2 in.pt2 -o m.mlir && {o} m.mlir -o m.mlir", 1, ["in.pt2", "m.mlir"]),
        ("mlir output = archive", f"{t} --from-pt2 in.pt2 -o m.mlir && {t} --to-onnx m.mlir -o in.pt2", 1, ["in.pt2", "m.mlir"]),
        ("output dir + external", f"mkdir d && {t} --to-onnx in.pt2 -o d --external-data always", 1, ["in.pt2", "d"]),
        ("output in missing dir", f"{t} --to-onnx in.pt2 -o nope/m.onnx", 1, ["in.pt2"]),
        ("symlink output writes through", f"touch target.onnx && ln -s target.onnx link.onnx && {t} --to-onnx in.pt2 -o link.onnx && test -L link.onnx && test -s target.onnx", 0, ["in.pt2", "target.onnx", "link.onnx"]),
        ("dev null output", f"{t} --to-onnx in.pt2 -o /dev/null && test -c /dev/null", 0, ["in.pt2"]),
    ]


def run_path_case(args, case):
    label, script, want, allowed = case
    mlp = os.path.join(ROOT, "tests", "fixtures", "mlp.pt2")
    with tempfile.TemporaryDirectory(prefix="hostile-path-") as scratch:
        shutil.copy(mlp, os.path.join(scratch, "in.pt2"))
        digest = hashlib.sha256(open(os.path.join(scratch, "in.pt2"), "rb").read()).hexdigest()
        proc = subprocess.run(["bash", "-c", script], cwd=scratch, capture_output=True, timeout=args.timeout)
        findings = []
        if proc.returncode != want:
            findings.append((f"exit {proc.returncode} (want {want})", proc.stderr.decode(errors="replace")[-300:]))
        if hashlib.sha256(open(os.path.join(scratch, "in.pt2"), "rb").read()).hexdigest() != digest:
            findings.append(("input modified", ""))
        left = sorted(set(os.listdir(scratch)) - set(allowed) - {"m.mlir", "in.pt2"})
        if want == 1 and left:
            findings.append(("leftover on failure", str(left)))
        if want == 1 and os.path.isdir(os.path.join(scratch, "d")) and os.listdir(os.path.join(scratch, "d")):
            findings.append(("leftover on failure", "in d/"))
        return [Result(label, script, k, d, None) for k, d in findings]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=600, help="mutated inputs per kind (.pt2 and .mlir)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--slow", type=float, default=10, help="report runs slower than this (seconds)")
    parser.add_argument("--check", action="store_true", help="run onnx.checker on models written with exit 0")
    parser.add_argument("--keep", default="/tmp/hostile-findings")
    parser.add_argument("--onnx-runs", type=int, default=None,
                        help="mutated .onnx inputs (fixtures converted, onnx's node tests); default --runs")
    args = parser.parse_args()
    for tool in (TRANSLATE, OPT):
        if not os.path.exists(tool):
            sys.exit(f"{tool} not found: cargo build --workspace --bins --features aten2onnx/torch")
    rng = random.Random(args.seed)
    sources = [os.path.join(ROOT, "tests", "fixtures", f + ".pt2") for f in FIXTURES]
    sources += sorted(
        os.path.join(ROOT, "tests", "corpus", d, "model.pt2")
        for d in os.listdir(os.path.join(ROOT, "tests", "corpus"))
        if os.path.exists(os.path.join(ROOT, "tests", "corpus", d, "model.pt2"))
    )[:4]

    jobs = []
    per_source = max(1, args.runs // len(sources))
    for src in sources:
        for label, data in pt2_mutants(rng, src, per_source):
            mode = rng.choice(["to-onnx", "to-onnx", "from-pt2", "to-onnx-external"])
            jobs.append((f"{os.path.basename(os.path.dirname(src)) if src.endswith('model.pt2') else os.path.basename(src)}: {label}", data, ".pt2", mode))
    # .mlir inputs: the fixtures imported (archive paths absolute so they resolve).
    for src in sources[: len(FIXTURES)]:
        text = subprocess.run([TRANSLATE, "--from-pt2", src], capture_output=True, text=True).stdout
        for label, data in mlir_mutants(rng, text, per_source):
            mode = rng.choice(["to-onnx", "opt", "opt"])
            jobs.append((f"{os.path.basename(src)}: {label}", data, ".mlir", mode))

    # .onnx inputs (--to-onnx re-optimizes them): sources sampled, one mutant each.
    onnx_scratch = tempfile.mkdtemp(prefix="hostile-onnx-src-")
    onnx_paths = onnx_sources(onnx_scratch)
    for _ in range(args.runs if args.onnx_runs is None else args.onnx_runs):
        src = rng.choice(onnx_paths[: len(FIXTURES)] * 40 + onnx_paths)
        for label, data in onnx_mutants(rng, src, 1):
            name = os.path.basename(src)
            jobs.append((f"{name}: {label}", data, ".onnx", rng.choice(["to-onnx", "to-onnx", "to-onnx-external"])))

    findings = []
    started = time.time()
    done = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_one, args, label, data, suffix, mode, args.check) for label, data, suffix, mode in jobs]
        futures += [pool.submit(run_path_case, args, case) for case in path_cases()]
        for future in futures:
            found = future.result()
            done += 1
            for f in found:
                findings.append(f)
                print(f"FINDING [{f.kind}] {f.label}\n    {f.command}\n    {f.detail.strip()[:400]}", flush=True)
            if done % 100 == 0:
                print(f"... {done}/{len(futures)} runs, {len(findings)} findings, {time.time() - started:.0f}s", flush=True)

    by_kind = {}
    for f in findings:
        by_kind[f.kind] = by_kind.get(f.kind, 0) + 1
    print(f"\n{len(futures)} runs in {time.time() - started:.0f}s; {len(findings)} findings")
    print("  exit codes of the mutated inputs: " + ", ".join(f"{k}: {v}" for k, v in sorted(EXIT_CODES.items())))
    for kind, n in sorted(by_kind.items(), key=lambda kv: -kv[1]):
        print(f"  {n:5d}  {kind}")
    if findings:
        print(f"inputs of findings kept in {args.keep}")
    shutil.rmtree(onnx_scratch, ignore_errors=True)
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
