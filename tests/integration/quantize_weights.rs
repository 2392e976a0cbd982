//! Weight-only quantization (`--quantize-weights`, the `onnx-quantize-weights`
//! pass and the writer's RTN transforms, src/export/rtn.rs).
//!
//! The quantized initializers must be, bit for bit, what onnxruntime's own
//! RTN quantizer (`MatMulNBitsQuantizer`) writes for the same float weights,
//! in both forms (MatMulNBits with `--target onnxruntime`; blocked
//! DequantizeLinear + MatMul for 4 bits), and the quantized model must then
//! compute what the quantizer's model computes (tools/sweeps/check_rtn_parity.py
//! does both, over the corpus Llama's input sets).

use aten2onnx::translate::{convert, ConvertOptions, QuantizeWeights};
use aten2onnx_passes::optimizer::rules::Target;
use std::path::Path;

fn convert_with(out: &Path, target: Target, quantize: Option<&str>) {
    let options = ConvertOptions {
        target,
        quantize_weights: quantize.map(|q| QuantizeWeights::parse(q).unwrap()),
        ..Default::default()
    };
    convert("tests/corpus/llama/model.pt2", out, &options).unwrap_or_else(|e| panic!("{quantize:?}: {e}"));
}

#[test]
fn rtn_weights_equal_onnxruntime_quantizer() {
    let Some(python) = crate::export::python() else { return };
    let dir = crate::scratch_dir("quantize_weights");
    for target in [Target::Standard, Target::OnnxRuntime] {
        let float = dir.join(format!("float_{}.onnx", target.name()));
        convert_with(&float, target, None);
        let specs: &[(&str, &[&str])] = match target {
            // MatMulNBits: every scheme the quantizer has (accuracy 0: its compute type, to compare outputs).
            Target::OnnxRuntime => &[
                ("int4:accuracy=0", &["--bits", "4", "--block", "32"]),
                ("int4:asym:accuracy=0", &["--bits", "4", "--block", "32", "--asym"]),
                ("int8:accuracy=0", &["--bits", "8", "--block", "32"]),
                ("int8:asym:block=16:accuracy=0", &["--bits", "8", "--block", "16", "--asym"]),
                ("int4:block=128:accuracy=0", &["--bits", "4", "--block", "128"]),
                // The embedding table too (GatherBlockQuantized).
                ("int4:scope=linear,embedding:accuracy=0", &["--bits", "4", "--block", "32", "--embeddings"]),
                (
                    "int4:asym:block=16:scope=linear,embedding:accuracy=0",
                    &["--bits", "4", "--block", "16", "--asym", "--embeddings"],
                ),
            ],
            // The quantizer's QDQ form is 4-bit only.
            Target::Standard => &[
                ("int4", &["--bits", "4", "--block", "32", "--format", "qdq"]),
                ("int4:asym:block=64", &["--bits", "4", "--block", "64", "--asym", "--format", "qdq"]),
                // The table as DequantizeLinear {axis = 1} + Gather, the quantizer's numbers.
                ("int4:scope=linear,embedding", &["--bits", "4", "--block", "32", "--format", "qdq", "--embeddings"]),
            ],
        };
        for (spec, args) in specs {
            let ours = dir.join(format!("{}_{}.onnx", target.name(), spec.replace([':', '='], "_")));
            convert_with(&ours, target, Some(spec));
            let out = std::process::Command::new(&python)
                .arg("tools/sweeps/check_rtn_parity.py")
                .arg(&float)
                .arg(&ours)
                .args(*args)
                .args(["--run", "tests/corpus/llama"])
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            eprintln!("{} {spec}:\n{stdout}", target.name());
            assert!(
                out.status.success(),
                "{} {spec}: {stdout}\n{}",
                target.name(),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(stdout.contains("9 products, 0 differences"), "{stdout}");
            if spec.contains("embedding") {
                assert!(stdout.contains("1 tables, 0 differences"), "{stdout}");
            }
        }
    }
}

#[test]
fn quantize_weights_spec_errors() {
    for (spec, message) in [
        ("int3", "the type must be int4 or int8"),
        ("int4:block=48", "block must be a power of two"),
        ("int4:scope=embedding", "is not supported"),
        ("int8:scope=linear,embedding", "4 bits only"),
        ("int4:exclude=a b", "without spaces or braces"),
        ("int4:fast", "unknown option"),
    ] {
        let e = QuantizeWeights::parse(spec).unwrap_err().to_string();
        assert!(e.contains(message), "{spec}: {e}");
    }
    assert!(QuantizeWeights::parse("int4:scope=linear,embedding").unwrap().embeddings);
    let q = QuantizeWeights::parse("int8:asym:block=64:exclude=lm_head:accuracy=0").unwrap();
    assert_eq!(
        (q.bits, q.block, q.symmetric, q.exclude.as_deref(), q.accuracy_level),
        (8, 64, false, Some("lm_head"), 0)
    );
}

/// The standard form needs blocked DequantizeLinear (opset 21): an older
/// opset is refused with the reason, and no file is written.
#[test]
fn quantize_weights_below_opset_21_is_refused() {
    let dir = crate::scratch_dir("quantize_weights_opset");
    let out = dir.join("m.onnx");
    let options = ConvertOptions {
        opset: 20,
        opset_given: true,
        quantize_weights: Some(QuantizeWeights::parse("int4").unwrap()),
        ..Default::default()
    };
    let e = convert("tests/corpus/llama/model.pt2", &out, &options).unwrap_err().to_string();
    assert!(e.contains("needs opset 21 or later"), "{e}");
    assert!(!out.exists());
}

/// A float16 or bfloat16 model's Linear weights quantize to the very bytes
/// the float32 model with the same (exactly representable) weights gets:
/// onnx-widen-half runs their products in float32 on `Cast(weight)`, and
/// the pass quantizes the half weight's float32 values, in both forms.
/// The quantized half model then runs in onnxruntime within its output
/// type's rounding of the float32 one. (Half embedding tables stay float.)
#[test]
fn half_weights_quantize_like_their_float32_values() {
    let Some(python) = crate::export::python() else { return };
    let dir = crate::scratch_dir("quantize_weights_half");
    const CAPTURE: &str = r#"
import sys, torch, torch.nn as nn
torch.manual_seed(0)
class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(64, 96)
        self.gate = nn.Linear(64, 96, bias=False)
        self.down = nn.Linear(96, 48)
    def forward(self, x):
        return self.down(self.up(x) * torch.sigmoid(self.gate(x)))
out = sys.argv[1]
m = Mlp().eval()
x = torch.randn(2, 3, 64)
for name, dtype in [("f16", torch.float16), ("bf16", torch.bfloat16)]:
    half = m.to(dtype)
    torch.export.save(torch.export.export(half, (x.to(dtype),)), f"{out}/mlp_{name}.pt2")
    # The float32 model with the half weights' values.
    single = Mlp().eval()
    single.load_state_dict({k: v.float() for k, v in half.state_dict().items()})
    torch.export.save(torch.export.export(single, (x,)), f"{out}/mlp_{name}_as_f32.pt2")
    m = m.float()
"#;
    let status = std::process::Command::new(&python).arg("-c").arg(CAPTURE).arg(&dir).status().expect("run python");
    assert!(status.success(), "capture failed");
    const COMPARE: &str = r#"
import sys, onnx, numpy as np, onnxruntime as ort
from onnx import numpy_helper
half, single, kind = sys.argv[1], sys.argv[2], sys.argv[3]
def quantized(path):
    m = onnx.load(path)
    ops = [n.op_type for n in m.graph.node if n.op_type in ("DequantizeLinear", "MatMulNBits")]
    inits = {i.name: i for i in m.graph.initializer}
    return m, ops, inits
hm, hops, hinits = quantized(half)
sm, sops, sinits = quantized(single)
assert len(hops) >= 2 and hops == sops, (hops, sops)  # up and gate share x: one fused weight
names = lambda m: [i for n in m.graph.node if n.op_type in ("DequantizeLinear", "MatMulNBits") for i in n.input]
for a, b in zip(names(hm), names(sm)):
    if a in hinits or b in sinits:
        ta, tb = hinits[a], sinits[b]
        assert ta.data_type == tb.data_type and list(ta.dims) == list(tb.dims), (a, b)
        assert numpy_helper.to_array(ta).tobytes() == numpy_helper.to_array(tb).tobytes(), (a, b)
x = np.random.default_rng(0).standard_normal((2, 3, 64)).astype(np.float32)
hs = ort.InferenceSession(half); ss = ort.InferenceSession(single)
hx = x.astype(np.float16) if kind == "f16" else x
if kind == "bf16":
    print("bfloat16 inputs: no numpy type; bytes compared only")
    sys.exit(0)
got = hs.run(None, {hs.get_inputs()[0].name: hx})[0].astype(np.float32)
want = ss.run(None, {ss.get_inputs()[0].name: hx.astype(np.float32)})[0]
err = float(np.abs(got - want).max()); scale = float(np.abs(want).max())
print("max |half - float32| %.3g of %.3g" % (err, scale))
# float16 rounds the products, the gate and the sum (values up to about
# twice the output's): a few float16 ulps of the output's scale.
assert err <= scale * 2**-7, err
"#;
    let specs =
        [(Target::Standard, "int4"), (Target::Standard, "int8:asym"), (Target::OnnxRuntime, "int4:asym:block=16")];
    compare_half_with_float32(&python, &dir, "mlp", &specs, COMPARE);
}

/// `scope=linear,embedding` on a float16 / bfloat16 model: the embedding
/// table quantizes like the float32 table of its values (the same
/// initializers, bit for bit), and the gathered rows come back in the
/// table's type.
#[test]
fn half_embedding_tables_quantize_like_their_float32_values() {
    let Some(python) = crate::export::python() else { return };
    let dir = crate::scratch_dir("quantize_weights_half_embedding");
    const CAPTURE: &str = r#"
import sys, torch, torch.nn as nn
torch.manual_seed(0)
class Lm(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 64)
        self.head = nn.Linear(64, 40)
    def forward(self, ids):
        return self.head(torch.relu(self.emb(ids)))
out = sys.argv[1]
m = Lm().eval()
ids = torch.randint(0, 100, (2, 5))
for name, dtype in [("f16", torch.float16), ("bf16", torch.bfloat16)]:
    half = Lm().eval()
    half.load_state_dict(m.state_dict())
    half = half.to(dtype)
    torch.export.save(torch.export.export(half, (ids,)), f"{out}/lm_{name}.pt2")
    single = Lm().eval()
    single.load_state_dict({k: v.float() for k, v in half.state_dict().items()})
    torch.export.save(torch.export.export(single, (ids,)), f"{out}/lm_{name}_as_f32.pt2")
"#;
    let status = std::process::Command::new(&python).arg("-c").arg(CAPTURE).arg(&dir).status().expect("run python");
    assert!(status.success(), "capture failed");
    const COMPARE: &str = r#"
import sys, onnx, numpy as np, onnxruntime as ort
from onnx import numpy_helper
half, single, kind = sys.argv[1], sys.argv[2], sys.argv[3]
QUANT = ("DequantizeLinear", "MatMulNBits", "GatherBlockQuantized")
def load(path):
    m = onnx.load(path)
    return m, [n for n in m.graph.node if n.op_type in QUANT], {i.name: i for i in m.graph.initializer}
hm, hq, hinits = load(half)
sm, sq, sinits = load(single)
assert [n.op_type for n in hq] == [n.op_type for n in sq], ([n.op_type for n in hq], [n.op_type for n in sq])
gathers = [n for n in hq if n.op_type == "GatherBlockQuantized"] + [n for n in hm.graph.node if n.op_type == "Gather"]
assert gathers, "the embedding table was not quantized: %s" % [n.op_type for n in hm.graph.node]
for a, b in zip(hq, sq):
    for x, y in zip(a.input, b.input):
        if x in hinits or y in sinits:
            ta, tb = hinits[x], sinits[y]
            assert ta.data_type == tb.data_type and list(ta.dims) == list(tb.dims), (x, y)
            assert numpy_helper.to_array(ta).tobytes() == numpy_helper.to_array(tb).tobytes(), (x, y)
# No float table is left in the half model.
big = [i.name for i in hm.graph.initializer if i.data_type in (1, 10, 16) and np.prod(i.dims) >= 100 * 64]
assert not big, big
if kind == "bf16":
    print("bfloat16 outputs: no numpy type; bytes compared only")
    sys.exit(0)
ids = np.random.default_rng(0).integers(0, 100, (2, 5)).astype(np.int64)
hs = ort.InferenceSession(half); ss = ort.InferenceSession(single)
got = hs.run(None, {hs.get_inputs()[0].name: ids})[0].astype(np.float32)
want = ss.run(None, {ss.get_inputs()[0].name: ids})[0]
err = float(np.abs(got - want).max()); scale = float(np.abs(want).max())
print("max |half - float32| %.3g of %.3g" % (err, scale))
assert err <= scale * 2**-7, err
"#;
    let specs = [
        (Target::Standard, "int4:scope=linear,embedding"),
        (Target::OnnxRuntime, "int4:asym:block=16:scope=linear,embedding"),
    ];
    compare_half_with_float32(&python, &dir, "lm", &specs, COMPARE);
}

/// Converts `<dir>/<model>_<kind>.pt2` (float16 / bfloat16 weights) and
/// `<dir>/<model>_<kind>_as_f32.pt2` (the float32 model of the same values)
/// with each (target, --quantize-weights spec), and runs `compare` (Python:
/// `half.onnx single.onnx kind`) on the pair; it must exit 0.
fn compare_half_with_float32(python: &Path, dir: &Path, model: &str, specs: &[(Target, &str)], compare: &str) {
    for kind in ["f16", "bf16"] {
        for &(target, spec) in specs {
            let convert_one = |input: &str, out: &Path| {
                let options = ConvertOptions {
                    target,
                    quantize_weights: Some(QuantizeWeights::parse(spec).unwrap()),
                    ..Default::default()
                };
                convert(input, out, &options).unwrap_or_else(|e| panic!("{input} {spec}: {e}"));
            };
            let tag = format!("{kind}_{}_{}", target.name(), spec.replace([':', '=', ','], "_"));
            let (half, single) = (dir.join(format!("{tag}.onnx")), dir.join(format!("{tag}_as_f32.onnx")));
            convert_one(dir.join(format!("{model}_{kind}.pt2")).to_str().unwrap(), &half);
            convert_one(dir.join(format!("{model}_{kind}_as_f32.pt2")).to_str().unwrap(), &single);
            let out = std::process::Command::new(python)
                .arg("-c")
                .arg(compare)
                .arg(&half)
                .arg(&single)
                .arg(kind)
                .output()
                .unwrap();
            eprintln!("{tag}: {}", String::from_utf8_lossy(&out.stdout));
            assert!(out.status.success(), "{tag}: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
}
