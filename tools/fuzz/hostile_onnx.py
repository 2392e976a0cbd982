#!/usr/bin/env python3
"""Writes hand-made hostile ONNX models into tests/fuzz_regressions_onnx/.

Each model `NAME.onnx` gets a `NAME.expect` beside it: the first line is
`exit 0` (the model is valid and converts) or `exit 1` (refused), the other
lines are substrings the message must contain. The integration test
`fuzz_regressions_onnx` runs `aten-translate --to-onnx` on every `.onnx` of
the directory (crash inputs found by the `from_onnx` fuzz target are added
there too, with or without an `.expect`: without one, exit 1 naming the file
is expected) and checks the exit code, the message and that nothing is left
behind on failure.

    .venv/bin/python tools/fuzz/hostile_onnx.py [--out tests/fuzz_regressions_onnx]
"""

from __future__ import annotations

import argparse
import os

import onnx
from onnx import TensorProto, helper

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def model(nodes, inputs, outputs, initializers=(), opset=18, ir=8, extra_opsets=()):
    graph = helper.make_graph(list(nodes), "g", list(inputs), list(outputs), list(initializers))
    imports = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    m = helper.make_model(graph, opset_imports=imports)
    m.ir_version = ir
    return m.SerializeToString()


def vi(name, dims, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, dims)


X = vi("x", [2, 3])
Y = vi("y", [2, 3])


def tensor(name, elem, dims, raw=None):
    """A TensorProto built by hand (onnx.helper checks the data against the dims)."""
    t = TensorProto()
    t.name, t.data_type = name, elem
    t.dims.extend(dims)
    if raw is not None:
        t.raw_data = raw
    return t


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def nested_if(depth: int, minimal: bool = False) -> bytes:
    """A model whose graph holds `If` nodes nested `depth` deep in their
    then_branch (each else_branch is `Identity(x)`): valid, but deep. Written
    by hand since protobuf libraries refuse to serialize deep messages.
    `minimal`: no else_branch and no graph outputs (smaller, not valid)."""

    def graph(nodes: bytes, out: str) -> bytes:
        if minimal:
            return nodes
        # GraphProto.node*, name, output
        return nodes + field(2, b"g_" + out.encode()) + field(12, vi(out, [2, 3]).SerializeToString())

    def node(op: str, inputs: list[str], output: str, attrs: bytes = b"") -> bytes:
        return field(1, b"".join(field(1, i.encode()) for i in inputs) + field(2, output.encode()) + field(4, op.encode()) + attrs)

    def graph_attr(name: str, g: bytes) -> bytes:
        return field(5, field(1, name.encode()) + field(6, g) + varint(20 << 3) + varint(5))  # type GRAPH

    inner = graph(node("Identity", ["x"], "y0"), "y0")
    for level in range(1, depth + 1):
        other = b"" if minimal else graph_attr("else_branch", graph(node("Identity", ["x"], f"e{level}"), f"e{level}"))
        inner = graph(
            node("If", ["c"], f"y{level}", graph_attr("then_branch", inner) + other),
            f"y{level}",
        )
    top = inner + field(11, vi("c", [], TensorProto.BOOL).SerializeToString()) + field(11, vi("x", [2, 3]).SerializeToString())
    opset = field(8, field(1, b"") + varint(2 << 3) + varint(18))
    return varint(1 << 3) + varint(8) + opset + field(7, top)  # ir_version 8, opset_import, graph


def cases():
    relu = helper.make_node("Relu", ["x"], ["y"], name="relu")
    yield "cyclic_graph", model(
        [
            helper.make_node("Add", ["x", "b"], ["a"], name="first"),
            helper.make_node("Add", ["a", "x"], ["b"], name="second"),
            helper.make_node("Identity", ["b"], ["y"], name="out"),
        ],
        [X],
        [Y],
    ), 1, ["cyclic_graph.onnx", "first", "`b` is not defined"]
    yield "undefined_value", model(
        [helper.make_node("Relu", ["nowhere"], ["y"], name="relu")], [X], [Y]
    ), 1, ["undefined_value.onnx", "relu", "`nowhere` is not defined"]
    yield "duplicate_output", model(
        [relu, helper.make_node("Neg", ["x"], ["y"], name="neg")], [X], [Y]
    ), 1, ["duplicate_output.onnx", "neg", "`y` is already defined"]
    yield "duplicate_graph_input", model([relu], [X, vi("x", [4])], [Y]), 1, [
        "duplicate_graph_input.onnx",
        "graph input `x` is declared twice",
    ]
    huge = tensor("w", TensorProto.FLOAT, [1 << 40, 1 << 20])
    yield "huge_dims_no_data", model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add")], [X], [Y], [huge]
    ), 1, ["huge_dims_no_data.onnx", "`w`", "0 values for 1152921504606846976 elements"]
    huge_raw = tensor("w", TensorProto.FLOAT, [1 << 40, 1 << 20], b"\0" * 8)
    yield "huge_dims_raw_data", model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add")], [X], [Y], [huge_raw]
    ), 1, ["huge_dims_raw_data.onnx", "`w`", "holds 8 bytes"]
    short = tensor("w", TensorProto.FLOAT, [2, 3], b"\0" * 8)
    yield "raw_data_short", model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add")], [X], [Y], [short]
    ), 1, ["raw_data_short.onnx", "`w`", "holds 8 bytes, but 6 elements of float need 24"]
    # No elements, but a huge dim: valid (the dense literal must not walk the dims).
    bools = tensor("w", TensorProto.BOOL, [1 << 62, 0])
    yield "empty_bool_huge_dim", model(
        [helper.make_node("Identity", ["w"], ["y"], name="id")], [X], [vi("y", [1 << 62, 0], TensorProto.BOOL)], [bools]
    ), 0, []
    strings = tensor("w", TensorProto.STRING, [0, 1 << 62])
    yield "empty_string_huge_dim", model(
        [helper.make_node("Identity", ["w"], ["y"], name="id")],
        [X],
        [vi("y", [0, 1 << 62], TensorProto.STRING)],
        [strings],
    ), 0, []
    external = tensor("w", TensorProto.FLOAT, [2, 3])
    external.data_location = TensorProto.EXTERNAL
    for key, value in [("location", "../../etc/passwd"), ("offset", "0"), ("length", "24")]:
        entry = external.external_data.add()
        entry.key, entry.value = key, value
    yield "external_data_escapes", model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add")], [X], [Y], [external]
    ), 1, ["external_data_escapes.onnx", "../../etc/passwd", "inside the model's directory"]
    absolute = onnx.TensorProto()
    absolute.CopyFrom(external)
    absolute.external_data[0].value = "/etc/passwd"
    yield "external_data_absolute", model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add")], [X], [Y], [absolute]
    ), 1, ["external_data_absolute.onnx", "/etc/passwd", "inside the model's directory"]
    negative = tensor("w", TensorProto.FLOAT, [-1, 3])
    yield "negative_initializer_dim", model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add")], [X], [Y], [negative]
    ), 1, ["negative_initializer_dim.onnx", "`w`", "negative dim (-1)"]
    # A negative dim_value in a graph input's type: read as an unknown dim.
    yield "negative_input_dim", model([relu], [vi("x", [-5, 3])], [vi("y", [-5, 3])]), 0, []
    yield "unknown_domain", model(
        [helper.make_node("Relu", ["x"], ["y"], name="evil", domain="com.evil")],
        [X],
        [Y],
        extra_opsets=[("com.evil", 1)],
    ), 1, ["unknown_domain.onnx", "evil", "domain `com.evil` is not supported"]
    yield "opset_0", model([relu], [X], [Y], opset=0), 1, ["opset_0.onnx", "opset 0"]
    yield "opset_999", model([relu], [X], [Y], opset=999), 1, ["opset_999.onnx", "opset 999"]
    yield "nested_if_10000", nested_if(10_000, minimal=True), 1, ["nested_if_10000.onnx", "nested more than 100 deep"]
    yield "nested_if_30", nested_if(30), 0, []
    yield "unknown_op", model(
        [helper.make_node("Frobnicate", ["x"], ["y"], name="frob")], [X], [Y]
    ), 1, ["unknown_op.onnx", "frob", "`Frobnicate` is not an ONNX op"]
    yield "no_outputs", model([relu], [X], []), 1, ["no_outputs.onnx", "no outputs"]
    yield "bad_elem_type", model([relu], [vi("x", [2, 3], 999)], [Y]), 1, ["bad_elem_type.onnx", "`x`"]
    yield "not_protobuf", b"\xff" * 64, 1, ["not_protobuf.onnx", "not an ONNX model"]
    # Constant folding: int64 edge values.
    big = helper.make_tensor("a", TensorProto.INT64, [], vals=[-(1 << 63)])
    minus_one = helper.make_tensor("b", TensorProto.INT64, [], vals=[-1])
    yield "fold_div_overflow", model(
        [helper.make_node("Div", ["a", "b"], ["y"], name="div")],
        [],
        [vi("y", [], TensorProto.INT64)],
        [big, minus_one],
    ), 0, []
    top = helper.make_tensor("l", TensorProto.INT64, [], vals=[(1 << 63) - 1])
    one = helper.make_tensor("d", TensorProto.INT64, [], vals=[1])
    yield "fold_range_overflow", model(
        [helper.make_node("Range", ["a", "l", "d"], ["y"], name="range")],
        [],
        [vi("y", [None], TensorProto.INT64)],
        [big, top, one],
    ), 0, []
    # Cast to bool is `x != 0` (not the value truncated to 1 bit).
    yield "fold_cast_to_bool", model(
        [helper.make_node("Cast", ["a"], ["y"], name="cast", to=TensorProto.BOOL)],
        [],
        [vi("y", [3], TensorProto.BOOL)],
        [helper.make_tensor("a", TensorProto.INT64, [3], vals=[2, 0, -4])],
    ), 0, []
    # A string tensor through the optimizer (its blocks are rebuilt).
    yield "string_identity", model(
        [helper.make_node("Identity", ["w"], ["y"], name="id")],
        [],
        [vi("y", [2], TensorProto.STRING)],
        [helper.make_tensor("w", TensorProto.STRING, [2], vals=[b"a", b"b"])],
    ), 0, []
    # Shape inference: static dims whose sum or product overflows int64.
    xx = vi("x", [1 << 62, 1 << 62])
    yield "concat_dim_overflow", model(
        [helper.make_node("Concat", ["x", "x", "x", "x"], ["y"], name="concat", axis=0)], [xx], [vi("y", None)]
    ), 0, []
    yield "reshape_dim_overflow", model(
        [helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
        [xx],
        [vi("y", None)],
        [helper.make_tensor("s", TensorProto.INT64, [1], vals=[-1])],
    ), 0, []
    # A graph output declared without a shape, computed by an op the
    # constant folder replaces (its result type is refined).
    yield "folded_output_without_shape", model(
        [helper.make_node("Shape", ["x"], ["y"], name="shape")], [X], [vi("y", None, TensorProto.INT64)]
    ), 0, []
    yield "constant_two_values", model(
        [
            helper.make_node("Constant", [], ["c"], name="two", value_float=1.0, value_int=2),
            helper.make_node("Add", ["x", "c"], ["y"], name="add"),
        ],
        [X],
        [Y],
    ), 1, ["constant_two_values.onnx", "two", "exactly one of the attributes"]
    scan_body = helper.make_graph(
        [helper.make_node("Identity", ["xi"], ["yi"])], "body", [vi("xi", [])], [vi("yi", [])]
    )
    yield "scan_negative_num_scan_inputs", model(
        [helper.make_node("Scan", ["x"], ["y"], name="scan", body=scan_body, num_scan_inputs=-5)], [X], [Y]
    ), 1, ["scan_negative_num_scan_inputs.onnx", "scan", "'num_scan_inputs' is -5"]
    # Models whose op semantics contradict their types (found by mutating real
    # exporters' models: a Cast's `to` edited, an input dropped or reordered).
    # onnx.checker rejects each; they must be refused, not written out.
    yield "cast_to_no_type", model(
        [helper.make_node("Cast", ["x"], ["y"], name="cast", to=0)], [X], [Y]
    ), 1, ["cast_to_no_type.onnx", "cast", "attribute 'to' = 0 is not the data type of its result"]
    yield "conv_weight_dropped", model(
        [helper.make_node("Conv", ["x4", "b4"], ["y4"], name="conv")],
        [vi("x4", [1, 3, 8, 8])], [vi("y4", [1, 4, 6, 6])], [tensor("b4", TensorProto.FLOAT, [4], b"\0" * 16)]
    ), 1, ["conv_weight_dropped.onnx", "conv", "need the same rank"]
    yield "einsum_operand_dropped", model(
        [helper.make_node("Einsum", ["m"], ["y2"], name="einsum", equation="ij,jk->ik")],
        [vi("m", [2, 3])], [vi("y2", [2, 2])]
    ), 1, ["einsum_operand_dropped.onnx", "einsum", "names 2 operand(s) but the op has 1"]
    yield "add_no_broadcast", model(
        [helper.make_node("Add", ["m", "n"], ["y2"], name="add")],
        [vi("m", [2, 3]), vi("n", [4, 3])], [vi("y2", [2, 3])]
    ), 1, ["add_no_broadcast.onnx", "add", "do not broadcast"]
    # Found by tools/fuzz/hostile_inputs.py's .onnx mutations (stop 23).
    yield "maxpool_empty_auto_pad", model(
        [helper.make_node("MaxPool", ["x4"], ["y4"], name="pool", kernel_shape=[3, 3], auto_pad="")],
        [vi("x4", [1, 3, 8, 8])], [vi("y4", [1, 3, 6, 6])]
    ), 1, ["maxpool_empty_auto_pad.onnx", "pool", "attribute 'auto_pad' is \"\""]
    no_shape = helper.make_tensor_value_info("x", TensorProto.FLOAT, None)
    yield "input_without_shape", model([relu], [no_shape], [Y]), 1, [
        "input_without_shape.onnx",
        "graph input `x` has no shape",
    ]
    yield "output_without_shape", model(
        [relu], [X], [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
    ), 0, []
    yield "reduce_keepdims_not_a_flag", model(
        [helper.make_node("ReduceMax", ["x"], ["r"], name="reduce", keepdims=5)], [X], [vi("r", [1, 1])], opset=18
    ), 1, ["reduce_keepdims_not_a_flag.onnx", "reduce", "attribute 'keepdims' is 5; it must be 0 or 1"]
    yield "reduce_axes_float", model(
        [helper.make_node("ReduceSum", ["x", "y"], ["r"], name="reduce")], [X, Y], [vi("r", [1, 1])], opset=18
    ), 1, ["reduce_axes_float.onnx", "reduce", "input #1 ('axes')", "it must be tensor(int64)"]
    yield "gemm_bias_no_broadcast", model(
        [helper.make_node("Gemm", ["x", "w", "c"], ["g"], name="gemm")],
        [X, vi("w", [3, 4]), vi("c", [5])], [vi("g", [2, 4])]
    ), 1, ["gemm_bias_no_broadcast.onnx", "gemm", "does not broadcast to the result [2, 4]"]
    yield "slice_lengths_differ", model(
        [helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["s"], name="slice")],
        [X], [vi("s", [1, 2])],
        [helper.make_tensor("starts", TensorProto.INT64, [1], [0]), helper.make_tensor("ends", TensorProto.INT64, [2], [1, 2]),
         helper.make_tensor("axes", TensorProto.INT64, [2], [0, 1])]
    ), 1, ["slice_lengths_differ.onnx", "slice", "Slice's ends has 2 entries but starts has 1"]
    recursive = helper.make_function(
        "local", "f", ["a"], ["b"], [helper.make_node("f", ["a"], ["b"], domain="local")], [helper.make_opsetid("", 18)]
    )
    m = onnx.ModelProto()
    m.ParseFromString(model([helper.make_node("f", ["x"], ["y"], domain="local", name="call")], [X], [Y], extra_opsets=[("local", 1)]))
    m.functions.append(recursive)
    yield "recursive_function", m.SerializeToString(), 1, ["recursive_function.onnx", "calls itself"]
    # Ops whose result types our shape inference now derives or whose
    # operands it checks against each other (hostile seeds 34-37 found each
    # written with exit 0 and refused by onnx.checker).
    f16 = TensorProto.FLOAT16
    yield "flex_attention_batch", model(
        [helper.make_node("FlexAttention", ["q", "k", "v"], ["y"], name="flex", domain="ai.onnx.preview")],
        [vi("q", [2, 4, 8, 16], f16), vi("k", [2, 4, 6, 16], f16), vi("v", [88, 4, 6, 16], f16)],
        [vi("y", [2, 4, 8, 16], f16)], opset=26, ir=13, extra_opsets=[("ai.onnx.preview", 1)]
    ), 1, ["flex_attention_batch.onnx", "flex", "FlexAttention's query [2, 4, 8, 16] and value [88, 4, 6, 16] differ"]
    yield "bitcast_to_no_type", model(
        [helper.make_node("BitCast", ["x"], ["y"], name="bitcast", to=-9)],
        [vi("x", [3], TensorProto.INT64)], [vi("y", [3], TensorProto.DOUBLE)], opset=26, ir=13
    ), 1, ["bitcast_to_no_type.onnx", "bitcast", "attribute 'to' = -9"]
    yield "attention_qk_output_dims", model(
        [helper.make_node("Attention", ["q", "k", "v", "", "pk", "pv"], ["o", "pko", "pvo", "qk"], name="attn",
                          q_num_heads=3, kv_num_heads=3, qk_matmul_output_mode=1)],
        [vi("q", [2, 4, 24]), vi("k", [2, 6, 24]), vi("v", [2, 6, 24]), vi("pk", [2, 3, 12, 8]), vi("pv", [2, 3, 12, 8])],
        [vi("o", [2, 4, 24]), vi("pko", [2, 3, 18, 8]), vi("pvo", [2, 3, 18, 8]), vi("qk", [2, 3, 2, 18])],
        opset=23, ir=11
    ), 1, ["attention_qk_output_dims.onnx", "attn", "result #3 is declared", "[2, 3, 4, 18]"]
    yield "quantize_no_zero_point_int16", model(
        [helper.make_node("QuantizeLinear", ["x", "s"], ["y"], name="quant")],
        [vi("x", [4]), vi("s", [])], [vi("y", [4], TensorProto.INT16)], opset=21, ir=10
    ), 1, ["quantize_no_zero_point_int16.onnx", "quant", "uint8 without a zero point"]
    yield "bernoulli_bool_result", model(
        [helper.make_node("Bernoulli", ["x"], ["y"], name="coin")],
        [vi("x", [5])], [vi("y", [5], TensorProto.BOOL)], opset=22, ir=10
    ), 1, ["bernoulli_bool_result.onnx", "coin", "its input's type, without 'dtype'"]
    yield "linear_attention_batch", model(
        [helper.make_node("LinearAttention", ["q", "k", "v"], ["o", "state"], name="lin", q_num_heads=4, kv_num_heads=4,
                          update_rule="linear")],
        [vi("q", [2, 4, 32]), vi("k", [2, 4, 32]), vi("v", [2, 4, 32])],
        [vi("o", [64, 4, 32]), vi("state", [2, 4, 8, 8])], opset=27, ir=13
    ), 1, ["linear_attention_batch.onnx", "lin", "result #0 is declared"]
    i8 = TensorProto.INT8
    yield "qlinear_matmul_dims", model(
        [helper.make_node("QLinearMatMul", ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"], ["y"], name="qmm")],
        [vi("a", [2, 4], i8), vi("sa", [1]), vi("za", [1], i8), vi("b", [4, 2], i8), vi("sb", [1]), vi("zb", [1], i8),
         vi("sy", [1]), vi("zy", [1], i8)],
        [vi("y", [2, 3], i8)], opset=21, ir=10
    ), 1, ["qlinear_matmul_dims.onnx", "qmm", "result #0 is declared", "[2, 2]"]
    yield "linear_attention_no_beta", model(
        [helper.make_node("LinearAttention", ["q", "k", "v", "", "decay"], ["o", "state"], name="lin",
                          q_num_heads=4, kv_num_heads=4)],
        [vi("q", [2, 4, 32]), vi("k", [2, 4, 32]), vi("v", [2, 4, 32]), vi("decay", [2, 4, 4])],
        [vi("o", [2, 4, 32]), vi("state", [2, 4, 8, 8])], opset=27, ir=13
    ), 1, ["linear_attention_no_beta.onnx", "lin", "update_rule 'gated_delta' needs the beta input"]
    yield "linear_attention_heads", model(
        [helper.make_node("LinearAttention", ["q", "k", "v"], ["o", "state"], name="lin", q_num_heads=4,
                          kv_num_heads=4, update_rule="linear")],
        [vi("q", [2, 4, 5]), vi("k", [2, 4, 32]), vi("v", [2, 4, 32])],
        [vi("o", [2, 4, 32]), vi("state", [2, 4, 8, 8])], opset=27, ir=13
    ), 1, ["linear_attention_heads.onnx", "lin", "query [2, 4, 5] does not split into q_num_heads = 4 heads"]
    yield "label_encoder_no_keys", model(
        [helper.make_node("LabelEncoder", ["x"], ["y"], name="labels", domain="ai.onnx.ml", values_int64s=[0, 1, 2])],
        [vi("x", [5], TensorProto.STRING)], [vi("y", [5], TensorProto.INT64)],
        opset=21, ir=10, extra_opsets=[("ai.onnx.ml", 4)]
    ), 1, ["label_encoder_no_keys.onnx", "labels", "needs one of the attributes keys_tensor"]
    tree = helper.make_node(
        "TreeEnsemble", ["x"], ["y"], name="trees", domain="ai.onnx.ml",
        n_targets=2, aggregate_function=1, post_transform=0, tree_roots=[0],
        nodes_featureids=[0], nodes_splits=helper.make_tensor("splits", TensorProto.DOUBLE, [1], [0.5]),
        nodes_modes=helper.make_tensor("modes", TensorProto.UINT8, [1], [0]),
        nodes_truenodeids=[0], nodes_trueleafs=[1], nodes_falsenodeids=[1], nodes_falseleafs=[1],
        leaf_targetids=[0, 1], leaf_weights=helper.make_tensor("weights", TensorProto.DOUBLE, [2], [1.0, 2.0]),
    )
    yield "tree_ensemble_rows", model(
        [tree], [vi("x", [3, 2], TensorProto.DOUBLE)], [vi("y", [0, 2], TensorProto.DOUBLE)],
        opset=21, ir=10, extra_opsets=[("ai.onnx.ml", 5)]
    ), 1, ["tree_ensemble_rows.onnx", "trees", "result #0 is declared", "[3, 2]"]

    s = TensorProto.STRING
    yield "string_split_rows", model(
        [helper.make_node("StringSplit", ["x"], ["y", "n"], name="split", delimiter="-")],
        [vi("x", [3], s)], [vi("y", [7, 2], s), vi("n", [3], TensorProto.INT64)], opset=20, ir=9
    ), 1, ["string_split_rows.onnx", "split", "result #0 is declared", "[3, ?]"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(REPO, "tests", "fuzz_regressions_onnx"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, data, code, needles in cases():
        with open(os.path.join(args.out, name + ".onnx"), "wb") as f:
            f.write(data)
        with open(os.path.join(args.out, name + ".expect"), "w") as f:
            f.write("\n".join([f"exit {code}"] + needles) + "\n")
        print(name, len(data))


if __name__ == "__main__":
    main()
