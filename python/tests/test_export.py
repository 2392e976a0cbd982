"""Tests of the Python entry point `aten2onnx.export` (run by tools/test.sh)."""

import io
import os

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch
from torch.export import Dim

import aten2onnx

ATOL = 1e-4
RTOL = 1e-4


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 16)
        self.fc2 = torch.nn.Linear(16, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class CNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, image):
        y = torch.relu(self.bn(self.conv(image)))
        y = torch.nn.functional.max_pool2d(y, 2)
        return self.fc(y.mean(dim=(2, 3)))


class WithKwargs(torch.nn.Module):
    def forward(self, x, *, scale, bias=None):
        y = x * scale
        if bias is not None:
            y = y + bias
        return y.sum(dim=-1)


class Eigvals(torch.nn.Module):
    def forward(self, x):
        return torch.linalg.eigvals(x).real + 1  # no lowering to ONNX (general eigen-solver)


def run_onnx(model_bytes, feeds):
    session = ort.InferenceSession(model_bytes, providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    return session.run(None, {n: v.numpy() for n, v in zip(names, feeds)})


def assert_close(actual, expected):
    expected = expected.detach().numpy()
    assert actual.shape == expected.shape
    bound = ATOL + RTOL * np.abs(expected)
    assert np.all(np.abs(actual - expected) <= bound), f"max |diff| {np.abs(actual - expected).max()}"


def input_dims(model_bytes):
    model = onnx.load_from_string(model_bytes)
    out = {}
    for value in model.graph.input:
        out[value.name] = [
            d.dim_param if d.HasField("dim_param") else d.dim_value for d in value.type.tensor_type.shape.dim
        ]
    return model, out


@pytest.mark.parametrize(
    "make, shape, arg",
    [(MLP, (3, 8), "x"), (CNN, (2, 3, 16, 16), "image")],
    ids=["mlp", "cnn"],
)
def test_module_with_dynamic_batch(make, shape, arg):
    torch.manual_seed(0)
    model = make().eval()
    x = torch.randn(*shape)
    data = aten2onnx.export(model, (x,), dynamic_shapes={arg: {0: Dim("batch")}})
    assert isinstance(data, bytes)
    proto, dims = input_dims(data)
    onnx.checker.check_model(proto)
    (name,) = dims
    assert dims[name][0] == "batch", dims
    assert all(isinstance(d, int) for d in dims[name][1:]), dims
    out_dims = proto.graph.output[0].type.tensor_type.shape.dim
    assert out_dims[0].dim_param == "batch"
    # other batch sizes than the one exported with
    for batch in (1, shape[0], 5):
        x = torch.randn(batch, *shape[1:])
        (got,) = run_onnx(data, [x])
        with torch.no_grad():
            assert_close(got, model(x))


def test_dim_names_follow_the_dims_given():
    class Two(torch.nn.Module):
        def forward(self, tokens, mask):
            return tokens * mask

    x = torch.randn(2, 6)
    m = torch.ones(2, 6)
    b, s = Dim("batch_size"), Dim("tokens")
    data = aten2onnx.export(Two(), (x, m), dynamic_shapes=({0: b, 1: s}, (b, s)))
    _, dims = input_dims(data)
    assert dims == {"tokens": ["batch_size", "tokens"], "mask": ["batch_size", "tokens"]}


def test_derived_dim_names_its_root():
    class Halves(torch.nn.Module):
        def forward(self, x, y):
            return x[: y.shape[0]] + y, x[y.shape[0] :]

    n = Dim("n", min=2, max=64)
    x, y = torch.randn(8, 3), torch.randn(4, 3)
    data = aten2onnx.export(Halves(), (x, y), dynamic_shapes={"x": {0: 2 * n}, "y": {0: n}})
    _, dims = input_dims(data)
    assert dims["y"][0] == "n"
    assert dims["x"][0] == "2*n"
    x, y = torch.randn(10, 3), torch.randn(5, 3)
    got = run_onnx(data, [x, y])
    for g, e in zip(got, Halves()(x, y)):
        assert_close(g, e)


def test_from_exported_program_and_to_file(tmp_path):
    torch.manual_seed(1)
    model = MLP().eval()
    x = torch.randn(4, 8)
    ep = torch.export.export(model, (x,), dynamic_shapes={"x": {0: Dim("rows")}})
    path = tmp_path / "mlp.onnx"
    assert aten2onnx.export(ep, f=path) is None
    data = path.read_bytes()
    # the Dim names are not in the ExportedProgram: dynamic_shapes names them
    _, dims = input_dims(data)
    assert dims["x"][0] == "batch"
    named = aten2onnx.export(ep, dynamic_shapes={"x": {0: Dim("rows")}})
    _, dims = input_dims(named)
    assert dims["x"][0] == "rows"
    (got,) = run_onnx(data, [x])
    assert_close(got, model(x))
    assert sorted(os.listdir(tmp_path)) == ["mlp.onnx"]


def test_bytes_file_object_and_proto():
    model = MLP().eval()
    x = torch.randn(2, 8)
    data = aten2onnx.export(model, (x,))
    assert isinstance(data, bytes) and len(data) > 0
    buffer = io.BytesIO()
    assert aten2onnx.export(model, (x,), f=buffer) is None
    assert buffer.getvalue() == data
    proto = aten2onnx.export(model, (x,), return_proto=True)
    assert isinstance(proto, onnx.ModelProto)
    assert proto == onnx.load_from_string(data)
    assert proto.producer_name == "aten2onnx"
    # static shapes without dynamic_shapes
    _, dims = input_dims(data)
    assert dims["x"] == [2, 8]


def test_kwargs():
    model = WithKwargs()
    x, scale, bias = torch.randn(3, 4), torch.randn(4), torch.randn(3, 4)
    data = aten2onnx.export(
        model, (x,), {"scale": scale, "bias": bias}, dynamic_shapes={"x": {0: Dim("batch")}, "scale": None, "bias": {0: Dim("batch")}}
    )
    proto, dims = input_dims(data)
    assert list(dims) == ["x", "scale", "bias"]
    assert dims["bias"][0] == "batch"
    x, bias = torch.randn(5, 4), torch.randn(5, 4)
    (got,) = run_onnx(data, [x, scale, bias])
    assert_close(got, model(x, scale=scale, bias=bias))


def test_opset():
    data = aten2onnx.export(MLP(), (torch.randn(2, 8),), opset=18)
    model = onnx.load_from_string(data)
    assert [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")] == [18]
    with pytest.raises(aten2onnx.ConversionError, match="--opset 3 is outside the supported range"):
        aten2onnx.export(MLP(), (torch.randn(2, 8),), opset=3)
    for bad in (-1, 2**40):
        with pytest.raises(aten2onnx.ConversionError, match="outside the supported range"):
            aten2onnx.export(MLP(), (torch.randn(2, 8),), opset=bad)
    with pytest.raises(TypeError):
        aten2onnx.export(MLP(), (torch.randn(2, 8),), opset="23")


class Block(torch.nn.Module):
    """Residual + RMSNorm + gated MLP: what `target="onnxruntime"` fuses."""

    def __init__(self):
        super().__init__()
        self.norm = torch.nn.RMSNorm(16)
        self.up = torch.nn.Linear(16, 32)
        self.down = torch.nn.Linear(32, 16)

    def forward(self, x, r):
        h = self.norm(x + r)
        return self.down(torch.nn.functional.silu(self.up(h))) + h


def test_target_and_decompose():
    x, r = torch.randn(2, 5, 16), torch.randn(2, 5, 16)
    torch.manual_seed(0)
    model = Block().eval()
    want = model(x, r)
    standard = aten2onnx.export(model, (x, r))
    ort_target = aten2onnx.export(model, (x, r), target="onnxruntime")
    domains = lambda data: {n.domain for n in onnx.load_from_string(data).graph.node}
    assert domains(standard) <= {"", "ai.onnx"}
    assert "com.microsoft" in domains(ort_target)
    for data in (standard, ort_target):
        assert_close(run_onnx(data, [x, r])[0], want)
    # silu decomposed into simpler aten ops (x * sigmoid(x)) still matches.
    decomposed = aten2onnx.export(model, (x, r), decompose=["aten.silu.default"])
    assert_close(run_onnx(decomposed, [x, r])[0], want)
    with pytest.raises(ValueError, match="target must be"):
        aten2onnx.export(model, (x, r), target="tensorrt")
    with pytest.raises(aten2onnx.ConversionError, match="has no decomposition"):
        aten2onnx.export(model, (x, r), decompose=["aten.relu.default"])


def test_quantize_weights():
    # A Linear of K = 64: int4 weights, DequantizeLinear + MatMul (standard)
    # or MatMulNBits (target onnxruntime); the float weight is not written.
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8)).eval()
    x = torch.randn(3, 64)
    want = model(x)
    for target, op in (("standard", "DequantizeLinear"), ("onnxruntime", "MatMulNBits")):
        data = aten2onnx.export(model, (x,), target=target, quantize_weights="int4:block=32")
        m = onnx.load_from_string(data)
        assert op in {n.op_type for n in m.graph.node}, target
        assert not any(i.data_type == onnx.TensorProto.FLOAT and list(i.dims) == [32, 64] for i in m.graph.initializer)
        got = run_onnx(data, [x])[0]
        # 4-bit weights: close to the float model, not equal to it.
        assert np.abs(got - want.detach().numpy()).max() < 0.1, target
    with pytest.raises(ValueError, match="int4 or int8"):
        aten2onnx.export(model, (x,), quantize_weights="int3")


def test_half_precision():
    # a*b - c*d in float16: eager rounds each product; with the default
    # half_precision="torch" onnxruntime gives eager's bits.
    class Cancel(torch.nn.Module):
        def forward(self, a, b, c, d):
            return a * b - c * d
    torch.manual_seed(0)
    args = tuple((torch.randn(32, 32) * 4).half() for _ in range(4))
    want = Cancel()(*args).numpy()
    torch_mode = aten2onnx.export(Cancel(), args)
    assert (run_onnx(torch_mode, list(args))[0].view("uint16") == want.view("uint16")).all()
    native = aten2onnx.export(Cancel(), args, half_precision="native")
    ops = lambda data: [n.op_type for n in onnx.load_from_string(data).graph.node]
    assert "Cast" in ops(torch_mode) and "Cast" not in ops(native)
    with pytest.raises(ValueError, match="half_precision must be"):
        aten2onnx.export(Cancel(), args, half_precision="fp32")


def test_unsupported_op_raises_and_leaves_nothing(tmp_path):
    out = tmp_path / "eigvals.onnx"
    with pytest.raises(aten2onnx.ConversionError) as raised:
        aten2onnx.export(Eigvals(), (torch.randn(4, 4),), f=out)
    message = str(raised.value)
    assert isinstance(raised.value, RuntimeError)
    assert "linalg_eigvals" in message, message
    # the Python source line of the op
    assert "test_export.py:" in message, message
    # the temporary .pt2 is named after the module, not its temporary path
    assert message.startswith("Eigvals.pt2"), message
    assert os.listdir(tmp_path) == []


@torch.library.custom_op("aten2onnx_test::twice", mutates_args=())
def twice(x: torch.Tensor) -> torch.Tensor:
    return 2 * x


@twice.register_fake
def _(x):
    return torch.empty_like(x)


class Custom(torch.nn.Module):
    def forward(self, x):
        return twice(x).relu()


def test_custom_op_raises_and_leaves_nothing(tmp_path):
    out = tmp_path / "custom.onnx"
    with pytest.raises(aten2onnx.ConversionError) as raised:
        aten2onnx.export(Custom(), (torch.randn(3),), f=out)
    message = str(raised.value)
    assert "aten2onnx_test" in message and "twice" in message, message
    assert message.startswith("Custom.pt2"), message
    assert os.listdir(tmp_path) == []


def test_output_errors(tmp_path):
    # a directory as the output
    with pytest.raises(aten2onnx.ConversionError, match="directory"):
        aten2onnx.export(MLP(), (torch.randn(2, 8),), f=tmp_path)
    # a missing directory
    with pytest.raises(aten2onnx.ConversionError):
        aten2onnx.export(MLP(), (torch.randn(2, 8),), f=tmp_path / "no" / "m.onnx")
    assert os.listdir(tmp_path) == []


def test_bad_arguments():
    with pytest.raises(TypeError):
        aten2onnx.export(lambda x: x, (torch.randn(2),))
    with pytest.raises(ValueError, match="external_data"):
        aten2onnx.export(MLP(), (torch.randn(2, 8),), f=os.devnull, external_data="sometimes")


def test_report(tmp_path):
    import json

    path = tmp_path / "report.json"
    aten2onnx.export(MLP(), (torch.randn(2, 8),), f=tmp_path / "m.onnx", report=path)
    report = json.loads(path.read_text())
    assert report["status"] == "ok"
    assert report["input"] == "MLP.pt2"
    assert report["options"]["opset"] == aten2onnx.DEFAULT_OPSET
    # written on failure too
    with pytest.raises(aten2onnx.ConversionError):
        aten2onnx.export(Eigvals(), (torch.randn(3, 3),), f=tmp_path / "eigvals.onnx", report=path)
    report = json.loads(path.read_text())
    assert report["status"] == "error"
    assert not (tmp_path / "eigvals.onnx").exists()


def test_verify():
    model = MLP().eval()
    x = torch.randn(2, 8)
    if not aten2onnx.has_verify():
        with pytest.raises(aten2onnx.ConversionError, match="torch"):
            aten2onnx.export(model, (x,), verify=True)
        return
    data = aten2onnx.export(model, (x,), verify=True)
    (got,) = run_onnx(data, [x])
    assert_close(got, model(x))


def test_verify_report(tmp_path):
    # with verify=True the report holds the comparison too (one conversion)
    import json

    if not aten2onnx.has_verify():
        pytest.skip("built without the torch feature")
    path = tmp_path / "report.json"
    aten2onnx.export(MLP().eval(), (torch.randn(2, 8),), f=tmp_path / "m.onnx", verify=True, report=path)
    report = json.loads(path.read_text())
    assert report["status"] == "ok"
    assert report["input"] == "MLP.pt2"
    assert report["options"]["verify"] is True
    assert report["verify"]["ok"] is True and not report["verify"]["bisected"]
    assert [o["ok"] for o in report["verify"]["outputs"]] == [True]
    assert report["onnx"]["nodes"] > 0


def test_threads():
    # conversions run with the GIL released, each in its own MLIR context
    from concurrent.futures import ThreadPoolExecutor

    model = MLP().eval()
    programs = [torch.export.export(model, (torch.randn(2, 8),)) for _ in range(4)]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda ep: aten2onnx.export(ep), programs))
    assert all(r == results[0] for r in results)
