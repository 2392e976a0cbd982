"""Custom ops through `aten2onnx.export`: `custom_translation_table` (onnxscript
functions and FunctionProtos), CompositeImplicitAutograd decomposition, and
the refusal of an op with neither (docs/custom_ops.md)."""

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch
from onnx import helper
from torch.export import Dim

import aten2onnx

onnxscript = pytest.importorskip("onnxscript")
from onnxscript import opset18 as op18  # noqa: E402

ATOL = 1e-4
RTOL = 1e-4


# A functional custom op with a float and an int argument.
@torch.library.custom_op("a2otest::scaled_add", mutates_args=())
def scaled_add(x: torch.Tensor, y: torch.Tensor, alpha: float = 1.0, power: int = 1) -> torch.Tensor:
    return x + alpha * y**power


@scaled_add.register_fake
def _(x, y, alpha=1.0, power=1):
    return torch.empty_like(x)


# Two results and an optional tensor argument.
@torch.library.custom_op("a2otest::split_gate", mutates_args=())
def split_gate(x: torch.Tensor, bias: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    a, b = x.chunk(2, dim=-1)
    if bias is not None:
        a = a + bias
    return a * torch.sigmoid(b), b.clone()


@split_gate.register_fake
def _(x, bias=None):
    shape = list(x.shape)
    shape[-1] //= 2
    return x.new_empty(shape), x.new_empty(shape)


# No translation, but a CompositeImplicitAutograd kernel.
_lib = torch.library.Library("a2otest", "FRAGMENT")
_lib.define("swish_k(Tensor x, float k=1.5) -> Tensor")
_lib.impl("swish_k", lambda x, k=1.5: x * torch.sigmoid(k * x), "CompositeImplicitAutograd")


# Neither a translation nor a decomposition.
@torch.library.custom_op("a2otest::opaque", mutates_args=())
def opaque(x: torch.Tensor) -> torch.Tensor:
    return x.exp()


@opaque.register_fake
def _(x):
    return torch.empty_like(x)


@onnxscript.script(onnxscript.values.Opset("a2otest", 1), default_opset=op18)
def scaled_add_onnx(x, y, alpha: float = 1.0, power: int = 1):
    p = op18.Cast(op18.Constant(value_int=power), to=1)
    a = op18.CastLike(op18.Constant(value_float=alpha), x)
    return op18.Add(x, op18.Mul(a, op18.Pow(y, op18.CastLike(p, y))))


@onnxscript.script(onnxscript.values.Opset("a2otest", 1), default_opset=op18)
def split_gate_onnx(x, bias):
    a, b = op18.Split(x, axis=-1, num_outputs=2)
    a = op18.Add(a, bias)
    return op18.Mul(a, op18.Sigmoid(b)), b


def _split_gate_no_bias():
    """split_gate without a bias, as a FunctionProto written by hand."""
    nodes = [
        helper.make_node("Split", ["x"], ["a", "b"], axis=-1, num_outputs=2),
        helper.make_node("Sigmoid", ["b"], ["s"]),
        helper.make_node("Mul", ["a", "s"], ["g"]),
    ]
    return helper.make_function(
        "whatever", "f", ["x"], ["g", "b"], nodes, opset_imports=[helper.make_opsetid("", 18)]
    )


class UsesScaledAdd(torch.nn.Module):
    def forward(self, x, y):
        return torch.relu(torch.ops.a2otest.scaled_add(x, y, 0.5, 2)) + torch.ops.a2otest.scaled_add(y, x)


class UsesSplitGate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bias = torch.nn.Parameter(torch.randn(4))

    def forward(self, x):
        g, b = torch.ops.a2otest.split_gate(x, self.bias)
        return g @ b.transpose(-1, -2)


class UsesSplitGateNoBias(torch.nn.Module):
    def forward(self, x):
        g, b = torch.ops.a2otest.split_gate(x)
        return g - b


class UsesComposite(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(6, 6)

    def forward(self, x):
        return torch.ops.a2otest.swish_k(self.fc(x), 0.75) + 1


class UsesOpaque(torch.nn.Module):
    def forward(self, x):
        return torch.ops.a2otest.opaque(x) + 1


def run_onnx(model_bytes, feeds):
    session = ort.InferenceSession(model_bytes, providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    return session.run(None, {n: v.numpy() for n, v in zip(names, feeds)})


def check(model, args, onnx_bytes, other_args=()):
    for feeds in [args, *other_args]:
        expected = model(*feeds)
        expected = expected if isinstance(expected, tuple) else (expected,)
        got = run_onnx(onnx_bytes, feeds)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g, e.detach().numpy(), atol=ATOL, rtol=RTOL)


def test_onnxscript_translation_with_attributes():
    model = UsesScaledAdd()
    args = (torch.randn(3, 5), torch.randn(3, 5))
    onnx_bytes = aten2onnx.export(
        model, args, custom_translation_table={torch.ops.a2otest.scaled_add.default: scaled_add_onnx}
    )
    check(model, args, onnx_bytes)
    # Inlined: no call of a custom domain is left.
    assert all(n.domain in ("", "ai.onnx") for n in onnx.load_from_string(onnx_bytes).graph.node)


def test_packet_key_and_dynamic_shapes():
    model = UsesScaledAdd()
    args = (torch.randn(3, 5), torch.randn(3, 5))
    batch = Dim("batch")
    onnx_bytes = aten2onnx.export(
        model,
        args,
        dynamic_shapes={"x": {0: batch}, "y": {0: batch}},
        custom_translation_table={torch.ops.a2otest.scaled_add: [scaled_add_onnx]},
    )
    check(model, args, onnx_bytes, other_args=[(torch.randn(7, 5), torch.randn(7, 5))])


def test_two_results_and_optional_tensor():
    model = UsesSplitGate()
    args = (torch.randn(2, 3, 8),)
    onnx_bytes = aten2onnx.export(model, args, custom_translation_table={"a2otest::split_gate": split_gate_onnx})
    check(model, args, onnx_bytes)


def test_function_proto_translation_without_optional_input():
    model = UsesSplitGateNoBias()
    args = (torch.randn(4, 6),)
    onnx_bytes = aten2onnx.export(
        model, args, custom_translation_table={torch.ops.a2otest.split_gate.default: _split_gate_no_bias()}
    )
    check(model, args, onnx_bytes)


def test_verify_runs_the_custom_op_on_libtorch():
    if not aten2onnx.has_verify():
        pytest.skip("built without the torch feature")
    model = UsesScaledAdd()
    args = (torch.randn(3, 5), torch.randn(3, 5))
    aten2onnx.export(
        model, args, verify=True, custom_translation_table={torch.ops.a2otest.scaled_add.default: scaled_add_onnx}
    )


def test_composite_implicit_autograd_op_is_decomposed():
    model = UsesComposite()
    args = (torch.randn(4, 6),)
    onnx_bytes = aten2onnx.export(model, args)
    check(model, args, onnx_bytes)


def test_untranslated_custom_op_is_refused_with_its_line():
    with pytest.raises(aten2onnx.ConversionError) as info:
        aten2onnx.export(UsesOpaque(), (torch.randn(2, 3),))
    message = str(info.value)
    assert "a2otest::opaque.default" in message
    assert "custom_translation_table" in message
    assert "test_custom_ops.py" in message  # the Python line of the call


def test_translation_missing_an_argument_is_refused():
    # A translation without the `power` attribute would silently drop it.
    @onnxscript.script(onnxscript.values.Opset("a2otest", 1), default_opset=op18)
    def no_power(x, y, alpha: float = 1.0):
        return op18.Add(x, op18.Mul(op18.CastLike(op18.Constant(value_float=alpha), x), y))

    with pytest.raises(aten2onnx.ConversionError, match="power"):
        aten2onnx.export(
            UsesScaledAdd(),
            (torch.randn(3, 5), torch.randn(3, 5)),
            custom_translation_table={torch.ops.a2otest.scaled_add.default: no_power},
        )


def test_bad_table_values_are_type_errors():
    with pytest.raises(TypeError):
        aten2onnx.export(
            UsesScaledAdd(),
            (torch.randn(3, 5), torch.randn(3, 5)),
            custom_translation_table={torch.ops.a2otest.scaled_add.default: lambda x: x},
        )


# Writes its argument in place: a translation would drop the write.
@torch.library.custom_op("a2otest::add_into", mutates_args=("out",))
def add_into(x: torch.Tensor, out: torch.Tensor) -> None:
    out.add_(x)


@add_into.register_fake
def _(x, out):
    return None


class UsesMutatingOp(torch.nn.Module):
    def forward(self, x, y):
        o = y.clone()
        torch.ops.a2otest.add_into(x, o)
        return o * 2


def test_mutating_custom_op_is_refused_not_mistranslated():
    @onnxscript.script(onnxscript.values.Opset("a2otest", 1), default_opset=op18)
    def add_into_onnx(x, out):
        return op18.Add(out, x)

    with pytest.raises(aten2onnx.ConversionError, match="writes its argument"):
        aten2onnx.export(
            UsesMutatingOp(),
            (torch.randn(2, 3), torch.randn(2, 3)),
            custom_translation_table={torch.ops.a2otest.add_into.default: add_into_onnx},
        )
