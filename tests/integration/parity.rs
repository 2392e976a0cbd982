//! onnxruntime parity on the capture corpus (`tests/corpus/`, made by
//! `tools/capture/capture_corpus.py`): each model is converted with the library's
//! main entry point and run in onnxruntime (the Python wheel's shared
//! library, loaded dynamically) on both recorded input sets; every output
//! must match the eager PyTorch output within |got - exp| <= 1e-4 + 1e-4 |exp|
//! (fp32), integer and bool outputs exactly. One tolerance for every model.

use aten2onnx::translate::{convert, ConvertOptions};
use onnx_protobuf::TensorProto;
use ort::{
    session::Session,
    value::{DynValue, Tensor},
};
use protobuf::Message;
use std::path::{Path, PathBuf};

const ATOL: f64 = 1e-4;
const RTOL: f64 = 1e-4;

/// The onnxruntime environment: with the `torch` feature the library owns
/// it (onnxruntime allows one per process).
#[cfg(feature = "torch")]
pub(crate) fn environment() -> Option<&'static ort::environment::Environment> {
    aten2onnx::verify::ort_environment().ok()
}

/// The onnxruntime environment, from `ORT_DYLIB_PATH` or the venv's wheel.
#[cfg(not(feature = "torch"))]
pub(crate) fn environment() -> Option<&'static ort::environment::Environment> {
    static ENV: std::sync::OnceLock<Option<ort::environment::Environment>> = std::sync::OnceLock::new();
    ENV.get_or_init(|| {
        let path = std::env::var_os("ORT_DYLIB_PATH").map(PathBuf::from).or_else(find_wheel_library)?;
        let builder = ort::init_from(&path).unwrap_or_else(|e| panic!("loading {}: {e}", path.display()));
        Some(builder.build().expect("onnxruntime environment"))
    })
    .as_ref()
}

#[cfg(not(feature = "torch"))]
fn find_wheel_library() -> Option<PathBuf> {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/lib");
    for python in std::fs::read_dir(lib).ok()?.flatten() {
        let capi = python.path().join("site-packages/onnxruntime/capi");
        for entry in std::fs::read_dir(&capi).ok()?.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if name.starts_with("libonnxruntime.so.") {
                return Some(entry.path());
            }
        }
    }
    None
}

/// A tensor read from a `.pb` file.
pub(crate) struct Array {
    pub(crate) name: String,
    shape: Vec<i64>,
    data: Data,
}

enum Data {
    F32(Vec<f32>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
    // Quantized tensors (tests/ops quantized_decomposed / torchao cases),
    // compared exactly like int64.
    I8(Vec<i8>),
    U8(Vec<u8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
}

pub(crate) fn read_tensor(path: &Path) -> Array {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let t = TensorProto::parse_from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let raw = t.raw_data.as_slice();
    let data = match t.data_type {
        1 if !raw.is_empty() => {
            Data::F32(raw.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect())
        }
        1 => Data::F32(t.float_data.clone()),
        7 if !raw.is_empty() => {
            Data::I64(raw.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap())).collect())
        }
        7 => Data::I64(t.int64_data.clone()),
        9 if !raw.is_empty() => Data::Bool(raw.iter().map(|&b| b != 0).collect()),
        9 => Data::Bool(t.int32_data.iter().map(|&b| b != 0).collect()),
        // INT8 / UINT8 / INT16 / INT32: raw little-endian bytes, or (empty
        // raw_data) one int32_data entry per element.
        3 if !raw.is_empty() => Data::I8(raw.iter().map(|&b| b as i8).collect()),
        3 => Data::I8(t.int32_data.iter().map(|&v| v as i8).collect()),
        2 if !raw.is_empty() => Data::U8(raw.to_vec()),
        2 => Data::U8(t.int32_data.iter().map(|&v| v as u8).collect()),
        5 if !raw.is_empty() => {
            Data::I16(raw.chunks_exact(2).map(|c| i16::from_le_bytes(c.try_into().unwrap())).collect())
        }
        5 => Data::I16(t.int32_data.iter().map(|&v| v as i16).collect()),
        6 if !raw.is_empty() => {
            Data::I32(raw.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect())
        }
        6 => Data::I32(t.int32_data.clone()),
        other => panic!("{}: data type {other} is not handled by the parity harness", path.display()),
    };
    Array { name: t.name.clone(), shape: t.dims.clone(), data }
}

pub(crate) fn to_value(array: &Array) -> DynValue {
    let shape = array.shape.clone();
    match &array.data {
        Data::F32(v) => Tensor::from_array((shape, v.clone())).unwrap().into_dyn(),
        Data::I64(v) => Tensor::from_array((shape, v.clone())).unwrap().into_dyn(),
        Data::Bool(v) => Tensor::from_array((shape, v.clone())).unwrap().into_dyn(),
        Data::I8(v) => Tensor::from_array((shape, v.clone())).unwrap().into_dyn(),
        Data::U8(v) => Tensor::from_array((shape, v.clone())).unwrap().into_dyn(),
        Data::I16(v) => Tensor::from_array((shape, v.clone())).unwrap().into_dyn(),
        Data::I32(v) => Tensor::from_array((shape, v.clone())).unwrap().into_dyn(),
    }
}

/// Compares one output; returns the max abs error (floats) or a mismatch.
pub(crate) fn compare(model: &str, set: usize, expected: &Array, got: &DynValue) -> Result<f64, String> {
    compare_within(model, set, expected, got, ATOL, None)
}

/// Integer outputs allowed to differ by at most `steps` at no more than
/// `max_elements` elements (a case's meta.json `int_tolerance`: quantize
/// ops, whose ONNX form divides by the scale where torch multiplies by its
/// reciprocal; docs/quantization.md).
#[derive(Clone, Copy)]
pub(crate) struct IntTolerance {
    steps: i64,
    max_elements: usize,
    /// The float outputs made from those integers (their dequantization)
    /// move by the same steps: one step of their scale.
    float_atol: Option<f64>,
}

fn int_tolerance(meta: &serde_json::Value) -> Option<IntTolerance> {
    let t = meta.get("int_tolerance")?;
    Some(IntTolerance {
        steps: t.get("steps")?.as_i64()?,
        max_elements: t.get("max_elements")?.as_u64()? as usize,
        float_atol: t.get("float_atol").and_then(|a| a.as_f64()),
    })
}

/// [`compare`] with another absolute tolerance for float outputs (a
/// quantized model's `parity_tolerance` in its meta.json: one
/// quantization step of its output, see tests/corpus/README.md).
pub(crate) fn compare_within(
    model: &str,
    set: usize,
    expected: &Array,
    got: &DynValue,
    atol: f64,
    int_tol: Option<IntTolerance>,
) -> Result<f64, String> {
    let what = format!("{model} set_{set} output '{}'", expected.name);
    let atol = int_tol.and_then(|t| t.float_atol).map_or(atol, |a| a.max(atol));
    let check_shape = |shape: &[i64]| {
        if shape != expected.shape.as_slice() {
            Err(format!("{what}: shape {shape:?}, expected {:?}", expected.shape))
        } else {
            Ok(())
        }
    };
    // Integer outputs of the narrower types: exact.
    macro_rules! exact {
        ($t:ty, $exp:expr) => {{
            let (shape, values) = got.try_extract_tensor::<$t>().map_err(|e| format!("{what}: {e}"))?;
            check_shape(shape)?;
            let (mut differ, mut worst) = (0usize, 0i64);
            for (&g, &e) in values.iter().zip($exp.iter()) {
                let d = (g as i64 - e as i64).abs();
                if d != 0 {
                    differ += 1;
                    worst = worst.max(d);
                }
            }
            let refused = int_tol.map_or(true, |t| worst > t.steps || differ > t.max_elements);
            if differ > 0 && refused {
                return Err(format!("{what}: integer values differ at {differ} element(s), by up to {worst}"));
            }
            if differ > 0 {
                eprintln!("{what}: {differ} element(s) one step off (int_tolerance)");
            }
            Ok(worst as f64)
        }};
    }
    match &expected.data {
        Data::I8(exp) => exact!(i8, exp),
        Data::U8(exp) => exact!(u8, exp),
        Data::I16(exp) => exact!(i16, exp),
        Data::I32(exp) => exact!(i32, exp),
        Data::F32(exp) => {
            let (shape, values) = got.try_extract_tensor::<f32>().map_err(|e| format!("{what}: {e}"))?;
            check_shape(shape)?;
            let mut max = 0.0f64;
            for (i, (&g, &e)) in values.iter().zip(exp).enumerate() {
                let (g, e) = (g as f64, e as f64);
                let err = (g - e).abs();
                if !(err <= atol + RTOL * e.abs()) && !(g.is_nan() && e.is_nan()) && !(g == e) {
                    return Err(format!("{what}: element {i} is {g}, expected {e} (|diff| {err:.3e})"));
                }
                if err.is_finite() {
                    max = max.max(err);
                }
            }
            Ok(max)
        }
        Data::I64(exp) => {
            let (shape, values) = got.try_extract_tensor::<i64>().map_err(|e| format!("{what}: {e}"))?;
            check_shape(shape)?;
            if values != exp.as_slice() {
                return Err(format!("{what}: integer values differ"));
            }
            Ok(0.0)
        }
        Data::Bool(exp) => {
            let (shape, values) = got.try_extract_tensor::<bool>().map_err(|e| format!("{what}: {e}"))?;
            check_shape(shape)?;
            if values != exp.as_slice() {
                return Err(format!("{what}: bool values differ"));
            }
            Ok(0.0)
        }
    }
}

pub(crate) fn sorted_files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(prefix)))
        .collect();
    files.sort_by_key(|p| {
        let stem = p.file_stem().unwrap().to_string_lossy().to_string();
        stem.rsplit('_').next().and_then(|n| n.parse::<usize>().ok()).unwrap_or(0)
    });
    files
}

/// Converts `tests/corpus/<model>` and checks both input sets.
pub fn check_model(model: &str) {
    let Some(env) = environment() else {
        skip_or_fail();
        return;
    };
    if let Err(message) = check_dir(env, &Path::new("tests/corpus").join(model), model) {
        panic!("{message}");
    }
}

/// True (after reporting) when onnxruntime is not available outside CI.
pub fn ort_missing() -> bool {
    if environment().is_some() {
        return false;
    }
    skip_or_fail();
    true
}

fn skip_or_fail() {
    if std::env::var_os("CI").is_some() {
        panic!("onnxruntime not found: set ORT_DYLIB_PATH or run tools/setup.sh");
    }
    eprintln!("skipped: onnxruntime not found (set ORT_DYLIB_PATH or run tools/setup.sh)");
}

/// Converts `<dir>/model.pt2` and compares onnxruntime with every recorded
/// input set `<dir>/set_*`.
fn check_dir(env: &ort::environment::Environment, dir: &Path, name: &str) -> Result<(), String> {
    // A case may pin an opset in its meta.json (`"opset": 21`): onnxruntime
    // has no kernels for the opset-22 versions of the random ops.
    let mut options = ConvertOptions::default();
    let opset = std::fs::read(dir.join("meta.json"))
        .ok()
        .and_then(|m| serde_json::from_slice::<serde_json::Value>(&m).ok())
        .and_then(|m| m.get("opset").and_then(|o| o.as_u64()));
    if let Some(opset) = opset {
        options.opset = opset as u32;
        options.opset_given = true;
    }
    check_dir_with(env, dir, name, &|input: &str, out: &Path| {
        convert(input, out, &options).map(|_| ()).map_err(|e| e.to_string())
    })
}

/// [`check_dir`] with another conversion (`convert(model.pt2, out.onnx)`).
pub(crate) fn check_dir_with(
    env: &ort::environment::Environment,
    dir: &Path,
    name: &str,
    convert: &dyn Fn(&str, &Path) -> Result<(), String>,
) -> Result<(), String> {
    if !dir.join("model.pt2").is_file() {
        return Err(format!(
            "{} missing: run `.venv/bin/python tools/capture/capture_corpus.py --only {name}` (tools/test.sh does)",
            dir.display()
        ));
    }
    let out = crate::scratch_dir(&format!("parity-{name}")).join("model.onnx");
    convert(dir.join("model.pt2").to_str().unwrap(), &out).map_err(|e| format!("converting {name}: {e}"))?;
    let builder = Session::builder(env).map_err(|e| format!("session builder: {e}"))?;
    let mut builder = builder.with_intra_threads(2).map_err(|e| format!("session builder: {e}"))?;
    let mut session =
        builder.commit_from_file(&out).map_err(|e| format!("{name}: onnxruntime cannot load the model: {e}"))?;
    let output_names: Vec<String> = session.outputs().iter().map(|o| o.name().to_string()).collect();
    let mut sets: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("set_")))
        .collect();
    sets.sort();
    if sets.is_empty() {
        return Err(format!("{}: no set_* input directories", dir.display()));
    }
    // Quantized models: their documented tolerance, never looser than it says.
    let meta = std::fs::read(dir.join("meta.json"))
        .ok()
        .and_then(|m| serde_json::from_slice::<serde_json::Value>(&m).ok())
        .unwrap_or_default();
    let atol = meta.get("parity_tolerance").and_then(|t| t.get("atol")?.as_f64()).unwrap_or(ATOL);
    let int_tol = int_tolerance(&meta);
    for (set, set_dir) in sets.iter().enumerate() {
        let inputs: Vec<Array> = sorted_files(set_dir, "input_").iter().map(|p| read_tensor(p)).collect();
        let expected: Vec<Array> = sorted_files(set_dir, "output_").iter().map(|p| read_tensor(p)).collect();
        let expected_names: Vec<String> = expected.iter().map(|e| e.name.clone()).collect();
        if output_names != expected_names {
            return Err(format!("{name}: ONNX outputs {output_names:?} differ from the contract {expected_names:?}"));
        }
        let feeds: Vec<(String, DynValue)> = inputs.iter().map(|a| (a.name.clone(), to_value(a))).collect();
        let outputs = session.run(feeds).map_err(|e| format!("{name} set_{set}: onnxruntime run failed: {e}"))?;
        for (i, exp) in expected.iter().enumerate() {
            let err = compare_within(name, set, exp, &outputs[i], atol, int_tol)?;
            eprintln!("{name} set_{set} {}: max |diff| {err:.3e}", exp.name);
        }
    }
    Ok(())
}

/// The single-op cases of `tests/ops/` (made by `tools/capture/capture_op_tests.py`).
fn op_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir("tests/ops")
        .expect("tests/ops (tools/capture/capture_op_tests.py)")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("model.pt2").is_file())
        .collect();
    cases.sort();
    cases
}

/// Every single-op case matches eager PyTorch; all failures are listed.
#[test]
fn every_op_case_matches_eager() {
    let Some(env) = environment() else {
        skip_or_fail();
        return;
    };
    let mut cases = op_cases();
    assert!(!cases.is_empty(), "no cases under tests/ops");
    // ATEN2ONNX_ONLY=a,b: only the cases whose name contains a or b (while
    // working on some rules; the full suite runs all).
    if let Ok(only) = std::env::var("ATEN2ONNX_ONLY") {
        cases.retain(|d| only.split(',').any(|p| d.file_name().unwrap().to_string_lossy().contains(p)));
    }
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|dir| {
            let name = format!("ops-{}", dir.file_name().unwrap().to_string_lossy());
            check_dir(env, dir, &name).err()
        })
        .collect();
    assert!(failures.is_empty(), "{} of {} op cases fail:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// Every lowering rule is exercised by at least one numeric case (corpus or
/// tests/ops): its target appears in a case's aten module after inplace
/// removal. A new rule without a case fails here.
#[test]
fn every_rule_has_a_numeric_test() {
    let mut dirs = op_cases();
    dirs.extend(CORPUS.iter().map(|m| Path::new("tests/corpus").join(m)).filter(|d| d.join("model.pt2").is_file()));
    let mut seen = std::collections::BTreeSet::new();
    for dir in &dirs {
        let context = aten2onnx::create_context();
        let path = dir.join("model.pt2");
        let mut module = aten2onnx::translate::load(&context, path.to_str().unwrap()).unwrap_or_else(|e| panic!("{e}"));
        let manager = aten2onnx::pipeline::Pipeline::parse("builtin.module(aten-remove-inplace)")
            .unwrap()
            .build(&context, false)
            .unwrap();
        manager.run(&mut module).unwrap_or_else(|_| panic!("{}: aten-remove-inplace failed", dir.display()));
        seen.extend(crate::op_names(module.as_operation()));
    }
    // Ops no capture can contain, checked numerically against libtorch by
    // a named test instead (keep each reason true).
    const NUMERIC_ELSEWHERE: &[(&str, &str)] = &[(
        "aten.sym_stride.int",
        "torch.export rewrites x.stride() into sym_size arithmetic: layout_meta::sym_stride_matches_libtorch",
    )];
    let missing: Vec<&str> = aten2onnx_passes::lowering::all_rules()
        .map(|r| r.target)
        .filter(|t| !seen.contains(*t) && !NUMERIC_ELSEWHERE.iter().any(|(op, _)| op == t))
        .collect();
    assert!(
        missing.is_empty(),
        "{} lowering rule(s) have no numeric test (add a case to tools/capture/capture_op_tests.py):\n  {}",
        missing.len(),
        missing.join("\n  ")
    );
}

macro_rules! parity {
    ($($model:ident),* $(,)?) => {
        /// Every corpus model.
        pub(crate) const CORPUS: &[&str] = &[$(stringify!($model)),*];
        $(
            #[test]
            fn $model() {
                check_model(stringify!($model));
            }
        )*
    };
}

parity!(
    mlp,
    mlp_core,
    cnn_block,
    resnet18,
    llama,
    llama_decode,
    bert,
    bert_core,
    gpt2,
    vit,
    inplace_ops,
    buffer_mutation,
    slice_assign,
    attention_block,
    pt2e_cnn_xnnpack,
    pt2e_cnn_x86,
    pt2e_mlp_dynamic,
    pt2e_transformer_xnnpack,
    pt2e_transformer_static_xnnpack,
);

/// The PT2E corpus models converted with `--target onnxruntime` match the
/// quantized eager model within their documented tolerance, and no int8
/// activation is left in a QDQ pair (`onnx-qdq-uint8`: onnxruntime's x86
/// kernels fuse uint8 activations with int8 weights; weights stay int8).
#[test]
fn pt2e_models_with_target_onnxruntime() {
    let Some(env) = environment() else {
        skip_or_fail();
        return;
    };
    let options =
        ConvertOptions { target: aten2onnx_passes::optimizer::rules::Target::OnnxRuntime, ..ConvertOptions::default() };
    let mut failures = Vec::new();
    for name in CORPUS.iter().filter(|n| n.starts_with("pt2e_")) {
        let dir = Path::new("tests/corpus").join(name);
        let written = std::cell::RefCell::new(None);
        let result = check_dir_with(env, &dir, &format!("{name}-ort"), &|input: &str, out: &Path| {
            *written.borrow_mut() = Some(out.to_path_buf());
            convert(input, out, &options).map(|_| ()).map_err(|e| e.to_string())
        });
        if let Err(e) = result {
            failures.push(e);
            continue;
        }
        let path = written.borrow().clone().expect("converted");
        let model = onnx_protobuf::ModelProto::parse_from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        let int8 = onnx_protobuf::tensor_proto::DataType::INT8 as i32;
        let mut int8_zero_points: std::collections::HashSet<&str> = model
            .graph
            .initializer
            .iter()
            .filter(|t| t.data_type == int8 && t.dims.len() <= 1)
            .map(|t| t.name.as_str())
            .collect();
        for n in model.graph.node.iter().filter(|n| n.op_type == "Constant") {
            if n.attribute.iter().any(|a| a.t.as_ref().is_some_and(|t| t.data_type == int8)) {
                int8_zero_points.extend(n.output.iter().map(String::as_str));
            }
        }
        let int8_quantize = model
            .graph
            .node
            .iter()
            .filter(|n| n.op_type == "QuantizeLinear")
            .find(|n| n.input.get(2).is_some_and(|z| int8_zero_points.contains(z.as_str())));
        if let Some(q) = int8_quantize {
            failures.push(format!("{name}: QuantizeLinear '{}' still quantizes to int8", q.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The decode step of `llama_decode` (one query token against a KV cache
/// whose past key and past value lengths are separate symbols) converted
/// with the default pipeline: the attention of each of the 2 layers is one
/// `Attention` node and no `Softmax` is left.
#[test]
fn llama_decode_fuses_decode_attention() {
    let input = Path::new("tests/corpus/llama_decode/model.pt2");
    assert!(input.is_file(), "{} missing: tools/capture/capture_corpus.py --only llama_decode", input.display());
    let out = crate::scratch_dir("llama_decode_attention").join("model.onnx");
    convert(input.to_str().unwrap(), &out, &ConvertOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let model = onnx_protobuf::ModelProto::parse_from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let ops: Vec<&str> = model.graph.node.iter().map(|n| n.op_type.as_str()).collect();
    let count = |op: &str| ops.iter().filter(|o| **o == op).count();
    assert_eq!((count("Attention"), count("Softmax")), (2, 0), "decode attention not fused: {ops:?}");
}

/// `onnx.checker.check_model(full_check=True)` accepts the conversion of
/// every corpus model (one Python process for all of them).
#[test]
fn checker_accepts_every_corpus_model() {
    let Some(python) = crate::export::python() else { return };
    let dir = crate::scratch_dir("checker");
    let mut paths = Vec::new();
    for model in CORPUS {
        let input = Path::new("tests/corpus").join(model).join("model.pt2");
        assert!(input.is_file(), "{} missing (tools/test.sh generates it)", input.display());
        let out = dir.join(format!("{model}.onnx"));
        convert(input.to_str().unwrap(), &out, &ConvertOptions::default()).unwrap_or_else(|e| panic!("{model}: {e}"));
        paths.push(out);
    }
    let script = "import sys, onnx\nfor p in sys.argv[1:]:\n    onnx.checker.check_model(onnx.load(p), full_check=True)\n    print('ok', p)\n";
    let output = std::process::Command::new(python).arg("-c").arg(script).args(&paths).output().expect("run python");
    assert!(
        output.status.success(),
        "onnx.checker rejected a model:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), CORPUS.len());
}
