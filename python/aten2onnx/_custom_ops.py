"""Custom ops (`torch.library` ops outside ATen) in `aten2onnx.export`.

`custom_translation_table` maps an op to its ONNX translation, keyed and
valued as `torch.onnx.export`'s: the key is an `OpOverload`
(`torch.ops.mylib.my_op.default`, that overload), an `OpOverloadPacket`
(`torch.ops.mylib.my_op`, every overload) or the text `"mylib::my_op"` /
`"mylib::my_op.overload"`; the value an onnxscript function (anything with
`to_function_proto()`), an `onnx.FunctionProto`, or a list of them (the
first is used). The table becomes a translation library, an ONNX model whose
function `my_op[.overload]` in domain `mylib` translates the op, handed to
the compiler as `aten-translate --custom-ops` takes it (docs/custom_ops.md).

Custom ops without a translation whose registration has a
CompositeImplicitAutograd kernel are decomposed into the ops that kernel
calls before the program is saved.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, Optional, Set, Tuple

import torch

from ._source import user_line

#: Namespaces of torch's own ops and of the ops the compiler knows.
_KNOWN_NAMESPACES = {
    "aten", "prims", "higher_order", "quantized_decomposed", "torchao", "quantized", "_quantized",
    "profiler", "inductor", "rngprims", "_c10d_functional", "torch_nn", "transformers",
}


def _key(op: Any) -> Tuple[str, str]:
    """(namespace, function name) of a table key."""
    if isinstance(op, torch._ops.OpOverload):
        overload = op._overloadname
        return op.namespace, f"{op._opname}.{overload}"
    if isinstance(op, torch._ops.OpOverloadPacket):
        qualified = op._qualified_op_name  # "mylib::my_op"
        namespace, name = qualified.split("::", 1)
        return namespace, name
    if isinstance(op, str) and "::" in op:
        namespace, name = op.split("::", 1)
        if namespace and name:
            return namespace, name
    raise TypeError(
        "custom_translation_table keys must be torch.ops.<namespace>.<op>[.<overload>] or 'namespace::op', "
        f"not {op!r}"
    )


def _function_proto(value: Any, what: str):
    import onnx

    if isinstance(value, (list, tuple)):
        if not value:
            raise TypeError(f"custom_translation_table[{what}] is an empty list")
        value = value[0]
    if isinstance(value, onnx.FunctionProto):
        proto = onnx.FunctionProto()
        proto.CopyFrom(value)
        return proto
    to_proto = getattr(value, "to_function_proto", None)
    if to_proto is None:
        raise TypeError(
            f"custom_translation_table[{what}] must be an onnxscript function (@onnxscript.script()) or an "
            f"onnx.FunctionProto, not {type(value).__name__}"
        )
    return to_proto()


def translation_library(table: Optional[Dict[Any, Any]]) -> Optional[bytes]:
    """The ONNX model (bytes) whose functions translate the table's ops."""
    if not table:
        return None
    try:
        import onnx
        from onnx import helper
    except ImportError as error:  # pragma: no cover - onnx comes with onnxscript
        raise ImportError("custom_translation_table needs the `onnx` package (pip install onnx)") from error
    if not isinstance(table, dict):
        raise TypeError(f"custom_translation_table must be a dict, not {type(table).__name__}")
    functions = []
    seen = set()
    imports = {"": 1}
    for op, value in table.items():
        namespace, name = _key(op)
        if (namespace, name) in seen:
            raise ValueError(f"custom_translation_table names {namespace}::{name} twice")
        seen.add((namespace, name))
        proto = _function_proto(value, f"{namespace}::{name}")
        proto.domain = namespace
        proto.name = name
        for imp in proto.opset_import:
            domain = "" if imp.domain == "ai.onnx" else imp.domain
            imports[domain] = max(imports.get(domain, 1), imp.version)
        functions.append(proto)
    graph = helper.make_graph([], "custom_translations", [], [])
    model = helper.make_model(
        graph,
        functions=functions,
        opset_imports=[helper.make_opsetid(d, v) for d, v in sorted(imports.items())],
    )
    return model.SerializeToString()


def _translated(op: "torch._ops.OpOverload", keys: Set[Tuple[str, str]]) -> bool:
    return (op.namespace, f"{op._opname}.{op._overloadname}") in keys or (op.namespace, op._opname) in keys


def _custom_nodes(graph_module: torch.fx.GraphModule) -> Iterable[Tuple["torch._ops.OpOverload", torch.fx.Node]]:
    for module in graph_module.modules():
        graph = getattr(module, "graph", None)
        if not isinstance(graph, torch.fx.Graph):
            continue
        for node in graph.nodes:
            target = node.target
            if node.op == "call_function" and isinstance(target, torch._ops.OpOverload):
                if target.namespace not in _KNOWN_NAMESPACES:
                    yield target, node


def decompose_composite_custom_ops(ep: "torch.export.ExportedProgram", table: Optional[Dict[Any, Any]]):
    """`ep` with its untranslated CompositeImplicitAutograd custom ops
    decomposed (the same object when there are none)."""
    keys = {_key(op) for op in (table or {})}
    wanted = set()
    for op, node in _custom_nodes(ep.graph_module):
        if _translated(op, keys):
            written = [a.name for a in op._schema.arguments if a.alias_info is not None and a.alias_info.is_write]
            if written:
                from . import ConversionError

                line = user_line(node.meta.get("stack_trace"))
                where = f" at {line}" if line else ""
                raise ConversionError(
                    f"custom op '{op.name()}' (node '{node.name}'{where}) writes its argument(s) {', '.join(written)} "
                    "in place (mutates_args): a translation, a function of the op's inputs, would drop the write "
                    "that later ops read; make the op return the new value instead"
                )
            continue
        if torch._C._dispatch_has_kernel_for_dispatch_key(op.name(), "CompositeImplicitAutograd"):
            wanted.add(op)
    if not wanted:
        return ep
    decompositions = torch.export.default_decompositions()
    for op in list(decompositions.keys()):
        if op not in wanted:
            decompositions.pop(op)
    return ep.run_decompositions(decompositions)
