"""Exports three models with an installed aten2onnx (a wheel in a clean venv,
tools/check-wheel.sh) and runs them in onnxruntime against eager: a CNN, a
transformer block with dynamic batch and sequence dims, and a model calling a
custom op with its translation. Also runs the installed `aten-translate`.
Prints one line per check; exits 1 on the first failure."""

import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnxruntime as ort
import torch
from torch.export import Dim

import aten2onnx

ATOL = RTOL = 1e-4


def run(onnx_bytes, feeds):
    session = ort.InferenceSession(onnx_bytes, providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    return session.run(None, {n: v.numpy() for n, v in zip(names, feeds)})


def check(name, model, onnx_bytes, *input_sets):
    model.eval()
    worst = 0.0
    for feeds in input_sets:
        with torch.no_grad():
            expected = model(*feeds)
        expected = expected if isinstance(expected, tuple) else (expected,)
        got = run(onnx_bytes, feeds)
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g, e.numpy(), atol=ATOL, rtol=RTOL)
            worst = max(worst, float(np.abs(g - e.numpy()).max()))
    print(f"ok  {name}: {len(input_sets)} input set(s), max |diff| {worst:.2e}")


class CNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(16)
        self.conv2 = torch.nn.Conv2d(16, 32, 3, stride=2)
        self.fc = torch.nn.Linear(32, 10)

    def forward(self, image):
        y = torch.relu(self.bn(self.conv1(image)))
        y = torch.nn.functional.gelu(self.conv2(y))
        return self.fc(y.mean(dim=(2, 3))).softmax(-1)


class Block(torch.nn.Module):
    def __init__(self, d=64, heads=4):
        super().__init__()
        self.attn = torch.nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln1 = torch.nn.LayerNorm(d)
        self.ln2 = torch.nn.LayerNorm(d)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(d, 4 * d), torch.nn.GELU(), torch.nn.Linear(4 * d, d))

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


@torch.library.custom_op("smoke::scaled_tanh", mutates_args=())
def scaled_tanh(x: torch.Tensor, scale: float) -> torch.Tensor:
    return torch.tanh(x) * scale


@scaled_tanh.register_fake
def _(x, scale):
    return torch.empty_like(x)


class UsesCustomOp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        return torch.ops.smoke.scaled_tanh(self.fc(x), 2.5) + 1


def scaled_tanh_translation():
    from onnx import helper

    scale = helper.make_node("Constant", [], ["s"])
    reference = helper.make_attribute_ref("value_float", 1)  # AttributeProto.FLOAT
    reference.ref_attr_name = "scale"
    scale.attribute.append(reference)
    nodes = [
        scale,
        helper.make_node("Tanh", ["x"], ["t"]),
        helper.make_node("CastLike", ["s", "x"], ["s2"]),
        helper.make_node("Mul", ["t", "s2"], ["y"]),
    ]
    return helper.make_function(
        "smoke", "scaled_tanh", ["x"], ["y"], nodes, [helper.make_opsetid("", 18)], attributes=["scale"]
    )


def main():
    torch.manual_seed(0)
    print(f"aten2onnx {aten2onnx.__version__} from {os.path.dirname(aten2onnx.__file__)}; torch {torch.__version__}")

    cnn = CNN().eval()
    image = torch.randn(2, 3, 32, 32)
    check("CNN", cnn, aten2onnx.export(cnn, (image,)), (image,))

    block = Block().eval()
    x = torch.randn(2, 7, 64)
    dims = {"x": {0: Dim("batch"), 1: Dim("seq")}}
    onnx_bytes = aten2onnx.export(block, (x,), dynamic_shapes=dims)
    check("transformer block, dynamic batch and seq", block, onnx_bytes, (x,), (torch.randn(3, 11, 64),))

    custom = UsesCustomOp().eval()
    x = torch.randn(4, 8)
    table = {torch.ops.smoke.scaled_tanh.default: scaled_tanh_translation()}
    check("custom op with its translation", custom, aten2onnx.export(custom, (x,), custom_translation_table=table), (x,))

    # The installed commands.
    tool = shutil.which("aten-translate")
    assert tool and os.path.dirname(tool) == os.path.dirname(sys.executable), f"aten-translate is {tool}"
    with tempfile.TemporaryDirectory() as tmp:
        pt2 = os.path.join(tmp, "cnn.pt2")
        torch.export.save(torch.export.export(cnn, (image,)), pt2)
        out = os.path.join(tmp, "cnn.onnx")
        subprocess.run([tool, "--to-onnx", pt2, "-o", out], check=True)
        with open(out, "rb") as f:
            check("aten-translate --to-onnx (the installed command)", cnn, f.read(), (image,))
        bad = subprocess.run([tool, "--to-onnx", os.path.join(tmp, "missing.pt2"), "-o", out + "2"],
                             capture_output=True, text=True)
        assert bad.returncode == 1 and "missing.pt2" in bad.stderr, bad
        print("ok  aten-translate on a missing input: exit 1 with a message")


if __name__ == "__main__":
    main()
