"""aten2onnx: convert PyTorch programs to ONNX with the aten2onnx compiler.

    import torch, aten2onnx
    from torch.export import Dim

    onnx_bytes = aten2onnx.export(model, (x,), dynamic_shapes={"x": {0: Dim("batch")}})
    aten2onnx.export(model, (x,), f="model.onnx")

`export` runs `torch.export.export` (for an `nn.Module`), saves the
`ExportedProgram` to a temporary `.pt2` (the interchange format), converts it
in-process with the Rust compiler (the same code as `aten-translate
--to-onnx`) and deletes the temporary file. See docs/python.md.
"""

from __future__ import annotations

import inspect
import logging
import os
import tempfile
import threading
from typing import Any, Dict, Optional, Sequence

# torch first: a build with the `torch` feature (verify=True) links the
# libtorch that torch loads.
import torch

from . import _custom_ops, _native
from ._native import ConversionError
from ._flex_attention import decompose_flex_attention

__all__ = ["export", "ConversionError", "has_verify", "DEFAULT_OPSET", "__version__"]

__version__: str = _native.__version__
#: The opset `export` targets by default.
DEFAULT_OPSET: int = _native.DEFAULT_OPSET

_log = logging.getLogger("aten2onnx")
_save_lock = threading.Lock()


def has_verify() -> bool:
    """Whether this build can `export(..., verify=True)` (built with the `torch` feature)."""
    return bool(_native.has_verify())


def export(
    model_or_exported_program: Any,
    args: Any = (),
    kwargs: Optional[Dict[str, Any]] = None,
    dynamic_shapes: Any = None,
    f: Any = None,
    opset: int = DEFAULT_OPSET,
    verify: bool = False,
    report: Optional[str | os.PathLike] = None,
    strict: bool = False,
    *,
    external_data: str = "auto",
    debug_info: bool = True,
    return_proto: bool = False,
    target: str = "standard",
    decompose: Sequence[str] = (),
    half_precision: str = "torch",
    quantize_weights: Optional[str] = None,
    custom_translation_table: Optional[Dict[Any, Any]] = None,
):
    """Exports a module (or an `ExportedProgram`) to ONNX.

    Args:
        model_or_exported_program: a `torch.nn.Module` (exported with
            `torch.export.export(model, args, kwargs, dynamic_shapes=...,
            strict=strict)`), or a `torch.export.ExportedProgram` (converted
            as it is; `args`/`kwargs` are then unused, and `dynamic_shapes`,
            if given, only names its dynamic dims).
        args, kwargs: example inputs, as for `torch.export.export`.
        dynamic_shapes: as for `torch.export.export`. The names of the
            `torch.export.Dim`s become the `dim_param` names of the ONNX
            graph's inputs and outputs (`Dim("batch")` -> `"batch"`; a derived
            dim `2*Dim("n")` names its root `"n"`). Dims without a name
            (`Dim.AUTO`, `Dim.DYNAMIC`) get the compiler's names (`batch`,
            `seq`, `<input>_dim<j>`).
        f: where to write the model: a path (`str` or `os.PathLike`; with
            `external_data`, the weights may go to `<f>.data` beside it) or a
            writable binary file object. `None`: the model is returned as
            `bytes`.
        opset: target ONNX opset (17..28).
        verify: also run the program on libtorch and the model in
            onnxruntime on the example inputs, and raise `ConversionError`
            (with the per-output errors and the first diverging op) when an
            output differs beyond 1e-4 + 1e-4 |expected|. Needs a build with
            the `torch` feature (`has_verify()`).
        report: a path to write the export report to (JSON, or Excel when it
            ends in `.xlsx`): per-pass times, op counts, lowering statistics.
            Written also when the conversion fails.
        strict: `torch.export.export`'s `strict` (default False: non-strict
            tracing, as `torch.export` recommends).
        external_data: `"auto"` (weights in `<f>.data` only past 2 GiB),
            `"always"`, or `"never"`. Returning bytes always uses `"never"`.
        debug_info: keep each ONNX node's origin (aten node, Python line).
        return_proto: return an `onnx.ModelProto` (needs the `onnx` package)
            instead of bytes / None.
        target: `"standard"` (standard ONNX only) or `"onnxruntime"` (the
            optimizer may also use onnxruntime's `com.microsoft` contrib ops),
            as `aten-translate --target`.
        decompose: aten ops (`"aten.gelu.default"`, ...) to decompose into
            simpler aten ops before lowering although they have a rule, as
            `aten-translate --decompose` (`aten-opt --list-decompositions`).
        half_precision: `"torch"` (float16/bfloat16 ops computed in float32
            and rounded at each aten op's results, as PyTorch's CPU kernels
            do) or `"native"` (ops keep their half types), as
            `aten-translate --half-precision`.
        quantize_weights: weight-only quantization of the Linear layers, as
            `aten-translate --quantize-weights`: `"int4"` or `"int8"`, then
            `:`-separated options (`block=N`, `sym`/`asym`, `exclude=REGEX`,
            `accuracy=N`, `scope=linear,embedding` for the embedding tables too), e.g.
            `"int4:block=64:exclude=lm_head"`
            (docs/quantization.md).
        custom_translation_table: ONNX translations of custom ops
            (`torch.library` ops), as `torch.onnx.export`'s: `{op: function}`
            with `op` a `torch.ops.mylib.my_op.default` overload (or the
            `torch.ops.mylib.my_op` packet, or `"mylib::my_op"`) and
            `function` an onnxscript function or an `onnx.FunctionProto`
            (or a list of them: the first is used). Tensor arguments become
            the function's inputs (by name, else in order), the other
            arguments its attributes of the same names. The translation is
            inlined. Custom ops without one whose registration has a
            CompositeImplicitAutograd kernel are decomposed; others are
            refused naming the op and its Python line (docs/custom_ops.md).

    Returns:
        `bytes` of the ONNX model when `f` is None; `None` when it was
        written to `f`; an `onnx.ModelProto` with `return_proto=True`.

    Raises:
        ConversionError: the program could not be converted (the message is
            the one `aten-translate --to-onnx` prints: the node, the op and
            its Python source line). Nothing is written to `f` then.
    """
    if verify and not has_verify():
        raise ConversionError(
            "verify=True needs libtorch: this aten2onnx extension was built without the `torch` "
            "feature (rebuild it with `maturin build --features torch`, see docs/python.md)"
        )
    if isinstance(opset, bool) or not isinstance(opset, int):
        raise TypeError(f"opset must be an int, not {type(opset).__name__}")
    if not 0 <= opset < 2**32:
        raise ConversionError(
            f"--opset {opset} is outside the supported range {_native.MIN_OPSET}..{_native.MAX_OPSET}"
        )
    if isinstance(args, torch.Tensor):
        args = (args,)
    elif isinstance(args, list):
        args = tuple(args)
    if not isinstance(args, tuple):
        raise TypeError(f"args must be a tuple of example inputs, not {type(args).__name__}")
    if kwargs is not None and not isinstance(kwargs, dict):
        raise TypeError(f"kwargs must be a dict, not {type(kwargs).__name__}")

    if isinstance(model_or_exported_program, torch.export.ExportedProgram):
        ep = model_or_exported_program
        label = "exported_program"
        signature_of = None
    elif isinstance(model_or_exported_program, torch.nn.Module):
        model = model_or_exported_program
        ep = torch.export.export(model, args, kwargs, dynamic_shapes=dynamic_shapes, strict=strict)
        label = type(model).__name__ or "model"
        signature_of = model
    else:
        raise TypeError(
            "export() takes a torch.nn.Module or a torch.export.ExportedProgram, "
            f"not {type(model_or_exported_program).__name__}"
        )

    ep = _custom_ops.decompose_composite_custom_ops(ep, custom_translation_table)
    library = _custom_ops.translation_library(custom_translation_table)

    dim_names = _dim_names(ep, signature_of, dynamic_shapes) if dynamic_shapes is not None else {}

    file_object = f is not None and hasattr(f, "write")
    to_path = f is not None and not file_object
    if to_path:
        f = os.fspath(f)
        if not isinstance(f, str):
            raise TypeError("f must be a str path, an os.PathLike or a binary file object")
    report_path = os.fspath(report) if report is not None else None

    with tempfile.TemporaryDirectory(prefix="aten2onnx-") as tmp:
        pt2 = os.path.join(tmp, f"{_safe(label)}.pt2")
        # flex_attention: torch.export.save cannot save its higher-order op (a copy with ATen ops instead)
        ep = decompose_flex_attention(ep)
        with _save_lock:  # torch.export.save is not thread-safe (a global pickler hook)
            torch.export.save(ep, pt2)
        output = f if to_path else os.path.join(tmp, "model.onnx")
        mode = external_data if to_path else "never"
        custom_ops = None
        if library is not None:
            custom_ops = os.path.join(tmp, "custom_translations.onnx")
            with open(custom_ops, "wb") as library_file:
                library_file.write(library)
        try:
            if verify:
                _find_onnxruntime()
                inputs = _save_inputs(ep, tmp)
                ok, text = _native.verify(pt2, output, opset, mode, debug_info, dim_names, inputs, report_path,
                                          os.path.basename(pt2), target, list(decompose), half_precision,
                                          quantize_weights, custom_ops)
                if not ok:
                    # as `aten-translate --verify`: the model stays written
                    raise ConversionError(
                        f"{text.rstrip()}\n{pt2}: the ONNX model differs from libtorch beyond "
                        "|diff| <= 0.0001 + 0.0001 |expected|"
                    )
                _log.info("verify:\n%s", text)
            else:
                _native.convert(pt2, output, opset, mode, debug_info, dim_names, report_path, os.path.basename(pt2),
                                target, list(decompose), half_precision, quantize_weights, custom_ops)
        except ConversionError as error:
            # The temporary .pt2 is gone after this call: name it as the
            # module it came from, the way the CLI names its input.
            message = str(error).replace(pt2, os.path.basename(pt2))
            if custom_ops is not None:
                message = message.replace(custom_ops, "custom_translation_table")
            raise ConversionError(message) from None
        if to_path:
            return _load_proto(f) if return_proto else None
        with open(output, "rb") as model_file:
            data = model_file.read()
    if file_object:
        f.write(data)
        return _load_proto(data) if return_proto else None
    return _load_proto(data) if return_proto else data


def _load_proto(source):
    try:
        import onnx
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("return_proto=True needs the `onnx` package (pip install onnx)") from error
    if isinstance(source, (bytes, bytearray)):
        return onnx.load_from_string(bytes(source))
    return onnx.load(source)


def _safe(label: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in label) or "model"


# ---------------------------------------------------------------------------
# Dim names: torch.export.Dim("batch") -> the program's symbol (s77) -> "batch"


def _user_inputs(ep):
    """The values (FakeTensor, int, ...) of the program's flat user inputs, in
    the order of its input pytree (`ep.call_spec.in_spec`)."""
    from torch.export.graph_signature import InputKind

    placeholders = {n.name: n for n in ep.graph.nodes if n.op == "placeholder"}
    values = []
    for spec in ep.graph_signature.input_specs:
        if spec.kind != InputKind.USER_INPUT:
            continue
        node = placeholders.get(getattr(spec.arg, "name", None))
        values.append(node.meta.get("val") if node is not None else getattr(spec.arg, "value", None))
    return values


def _combined_inputs(ep, signature_of):
    """The program's inputs as `{argument name: structure}` following the
    forward signature (as torch.export binds `dynamic_shapes`), each leaf
    replaced by its flat index."""
    from torch.utils import _pytree as pytree

    in_spec = ep.call_spec.in_spec
    structure = pytree.tree_unflatten(list(range(in_spec.num_leaves)), in_spec)
    args, kwargs = structure
    if signature_of is None:
        signature_of = ep.module()
    forward = signature_of.forward if isinstance(signature_of, torch.nn.Module) else signature_of
    return inspect.signature(forward).bind(*args, **kwargs).arguments


def _dims_of(leaf_index, structure, spec, out):
    """Walks a `dynamic_shapes` entry alongside the input structure, collecting
    `(flat index, dim, Dim)` for every named `torch.export.Dim`."""
    from torch.export.dynamic_shapes import _StaticDim

    Dim = torch.export.Dim
    if spec is None:
        return
    if isinstance(structure, int):  # a tensor (or other leaf): per-dim specs
        if isinstance(spec, dict):
            items = spec.items()
        elif isinstance(spec, (list, tuple)):
            items = enumerate(spec)
        else:
            return
        for d, dim in items:
            if isinstance(d, int) and isinstance(dim, Dim) and not isinstance(dim, _StaticDim):
                out.append((structure, d, dim))
    elif isinstance(structure, (list, tuple)) and isinstance(spec, (list, tuple)):
        for s, sp in zip(structure, spec):
            _dims_of(leaf_index, s, sp, out)
    elif isinstance(structure, dict) and isinstance(spec, dict):
        for key, s in structure.items():
            if key in spec:
                _dims_of(leaf_index, s, spec[key], out)


def _dim_names(ep, signature_of, dynamic_shapes) -> Dict[str, str]:
    """Maps the program's size symbols (`s77`) to the names of the
    `torch.export.Dim`s given in `dynamic_shapes` (best effort: an entry that
    cannot be matched keeps the compiler's name)."""
    from torch.export.dynamic_shapes import _DerivedDim

    try:
        if hasattr(dynamic_shapes, "dynamic_shapes") and callable(dynamic_shapes.dynamic_shapes):
            # ShapesCollection / AdditionalInputs need the real inputs: their
            # tensors are not available for an ExportedProgram
            if signature_of is None:
                return {}
            example_args, example_kwargs = ep.example_inputs or ((), {})
            dynamic_shapes = dynamic_shapes.dynamic_shapes(signature_of, example_args, example_kwargs)
        combined = _combined_inputs(ep, signature_of)
    except Exception as error:  # names are a nicety: never fail the export for them
        _log.debug("dim names: cannot match dynamic_shapes to the inputs: %s", error)
        return {}
    found = []
    if isinstance(dynamic_shapes, dict):
        for name, spec in dynamic_shapes.items():
            if name in combined:
                _dims_of(None, combined[name], spec, found)
    elif isinstance(dynamic_shapes, (list, tuple)):
        for structure, spec in zip(combined.values(), dynamic_shapes):
            _dims_of(None, structure, spec, found)

    values = _user_inputs(ep)
    names: Dict[str, str] = {}
    for index, d, dim in found:
        value = values[index] if index < len(values) else None
        shape = getattr(value, "shape", None)
        if shape is None or not (0 <= d < len(shape)) or not isinstance(shape[d], torch.SymInt):
            continue
        expr = shape[d].node.expr
        symbols = list(expr.free_symbols)
        if len(symbols) != 1:
            continue
        symbol = str(symbols[0])
        if expr.is_Symbol:
            name = dim.__name__  # a derived dim torch gave its own symbol keeps its text
        elif isinstance(dim, _DerivedDim):
            name = dim.root.__name__  # 2*s77 from 2*Dim("n"): s77 is n
        else:
            continue
        names.setdefault(symbol, name)
    return names


def _find_onnxruntime():
    """verify runs the model with the onnxruntime shared library named by
    ORT_DYLIB_PATH (as the CLI does); default: the onnxruntime wheel's."""
    if os.environ.get("ORT_DYLIB_PATH"):
        return
    try:
        import glob

        import onnxruntime
    except ImportError:
        return
    capi = os.path.join(os.path.dirname(onnxruntime.__file__), "capi")
    libs = sorted(glob.glob(os.path.join(capi, "libonnxruntime.so.*")) + glob.glob(os.path.join(capi, "libonnxruntime.*.dylib")))
    if libs:
        os.environ["ORT_DYLIB_PATH"] = libs[-1]


def _save_inputs(ep, tmp):
    """The example inputs as a .npz (arr_0, arr_1, ... in graph-input order)
    for verify, or None (random inputs of the capture's shapes) when they are
    not all tensors."""
    example = ep.example_inputs
    if not example:
        return None
    from torch.utils import _pytree as pytree

    leaves = pytree.tree_leaves(example)
    if not leaves or not all(isinstance(t, torch.Tensor) for t in leaves):
        return None
    try:
        import numpy as np
    except ImportError:
        return None
    path = os.path.join(tmp, "inputs.npz")
    try:
        arrays = [t.detach().cpu().numpy() for t in leaves]
    except (TypeError, RuntimeError) as error:  # bfloat16, sparse, meta...: numpy has no such array
        _log.info("verify: example inputs not representable in numpy (%s): random inputs instead", error)
        return None
    np.savez(path, *arrays)
    return path
