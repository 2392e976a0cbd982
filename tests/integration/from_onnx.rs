//! `--from-onnx` / `--to-onnx IN.onnx`: importing existing ONNX models into
//! the onnx dialect and writing them back re-optimized.
//!
//! - a handful of ONNX backend node tests (copied from the onnx wheel into
//!   `tests/fixtures/onnx_node/`, with their inputs and expected outputs)
//!   round-trip and still match in onnxruntime (the full sweep is
//!   `tools/sweeps/onnx_node_tests.py`);
//! - a model with a large initializer: it is referenced from the file
//!   (`onnx.initializer` with location/offset/length), never copied, and
//!   written back byte for byte; the same with external data;
//! - errors exit 1 naming the file and the node or tensor, and write nothing.

use crate::{
    parity::{compare, environment, read_tensor, sorted_files, to_value},
    scratch_dir,
};
use onnx_protobuf::{
    attribute_proto::AttributeType,
    tensor_proto::DataLocation,
    tensor_shape_proto::{dimension, Dimension},
    type_proto, AttributeProto, GraphProto, Message, ModelProto, NodeProto, OperatorSetIdProto, StringStringEntryProto,
    TensorProto, TensorShapeProto, TypeProto, ValueInfoProto,
};
use ort::{session::Session, value::Tensor};
use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

const ATEN_TRANSLATE: &str = env!("CARGO_BIN_EXE_aten-translate");

fn translate(args: &[&str]) -> Output {
    Command::new(ATEN_TRANSLATE).args(args).output().expect("running aten-translate")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts exit code 1 and no output file; returns the message.
fn assert_fails(output: &Output, out: &Path) -> String {
    let message = stderr(output);
    assert_eq!(output.status.code(), Some(1), "exit code; stderr:\n{message}");
    assert!(!out.exists(), "no output may be written on failure ({})", out.display());
    assert!(!message.trim().is_empty());
    message
}

// ----------------------------------------------------------------------------
// Node tests of the onnx wheel

/// Round-trips `tests/fixtures/onnx_node/<case>` and compares onnxruntime on
/// ours with the expected outputs of every data set.
fn node_case(case: &str) -> Result<(), String> {
    let dir = Path::new("tests/fixtures/onnx_node").join(case);
    let out = scratch_dir(&format!("from_onnx_node_{case}")).join("model.onnx");
    let model = dir.join("model.onnx");
    let output = translate(&["--to-onnx", model.to_str().unwrap(), "-o", out.to_str().unwrap(), "-q"]);
    if !output.status.success() {
        return Err(format!("{case}: conversion failed:\n{}", stderr(&output)));
    }
    // The text form parses and verifies as well.
    let printed = translate(&["--from-onnx", model.to_str().unwrap()]);
    if !printed.status.success() || !String::from_utf8_lossy(&printed.stdout).contains("func.func @forward") {
        return Err(format!("{case}: --from-onnx failed:\n{}", stderr(&printed)));
    }
    let Some(env) = environment() else { return Ok(()) };
    let builder = Session::builder(env).map_err(|e| format!("session builder: {e}"))?;
    let mut builder = builder.with_intra_threads(1).map_err(|e| format!("session builder: {e}"))?;
    let mut session =
        builder.commit_from_file(&out).map_err(|e| format!("{case}: onnxruntime cannot load ours: {e}"))?;
    for (set, set_dir) in sorted_files(&dir, "test_data_set_").iter().enumerate() {
        let inputs: Vec<_> = sorted_files(set_dir, "input_").iter().map(|p| read_tensor(p)).collect();
        let expected: Vec<_> = sorted_files(set_dir, "output_").iter().map(|p| read_tensor(p)).collect();
        let names: Vec<String> = session.inputs().iter().map(|i| i.name().to_string()).collect();
        let feeds: Vec<(String, ort::value::DynValue)> =
            names.iter().zip(&inputs).map(|(n, a)| (n.clone(), to_value(a))).collect();
        let got = session.run(feeds).map_err(|e| format!("{case}: onnxruntime failed on ours: {e}"))?;
        for (i, exp) in expected.iter().enumerate() {
            compare(case, set, exp, &got[i])?;
        }
    }
    Ok(())
}

#[test]
fn node_tests_round_trip() {
    let mut failures = Vec::new();
    let mut cases: Vec<String> = std::fs::read_dir("tests/fixtures/onnx_node")
        .expect("tests/fixtures/onnx_node")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    assert!(cases.len() >= 8, "the node test fixtures are missing: {cases:?}");
    for case in &cases {
        if let Err(e) = node_case(case) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ----------------------------------------------------------------------------
// Models built here: a large initializer in the file, external data.

fn tensor_type(elem: i32, dims: &[Result<i64, &str>]) -> TypeProto {
    TypeProto {
        value: Some(type_proto::Value::TensorType(type_proto::Tensor {
            elem_type: elem,
            shape: Some(TensorShapeProto {
                dim: dims
                    .iter()
                    .map(|d| Dimension {
                        value: Some(match d {
                            Ok(n) => dimension::Value::DimValue(*n),
                            Err(p) => dimension::Value::DimParam(p.to_string()),
                        }),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
            .into(),
            ..Default::default()
        })),
        ..Default::default()
    }
}

fn value_info(name: &str, ty: TypeProto) -> ValueInfoProto {
    ValueInfoProto { name: name.into(), type_: Some(ty).into(), ..Default::default() }
}

const K: usize = 64;
const M: usize = 32;

/// The weight: K x M floats (8 KiB, above the inline limit).
fn weight() -> Vec<f32> {
    (0..K * M).map(|i| ((i * 37 % 101) as f32 - 50.0) / 64.0).collect()
}

fn le_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// `y = Relu(x @ W + b) * 1` with x: [N, K] (`N` a dim_param), W an
/// initializer (inline raw_data, or external in `weights.bin` at offset 100
/// when `external`), b a small initializer.
fn mlp_model(external: Option<&str>) -> ModelProto {
    let mut w = TensorProto { name: "W".into(), dims: vec![K as i64, M as i64], data_type: 1, ..Default::default() };
    match external {
        None => w.raw_data = le_bytes(&weight()),
        Some(location) => {
            w.data_location = DataLocation::EXTERNAL.into();
            let entry = |k: &str, v: String| StringStringEntryProto { key: k.into(), value: v, ..Default::default() };
            w.external_data = vec![
                entry("location", location.into()),
                entry("offset", "100".into()),
                entry("length", (K * M * 4).to_string()),
            ];
        }
    }
    let b = TensorProto {
        name: "b".into(),
        dims: vec![M as i64],
        data_type: 1,
        float_data: (0..M).map(|i| i as f32 / 8.0 - 2.0).collect(),
        ..Default::default()
    };
    let one = TensorProto {
        name: "one".into(),
        dims: vec![],
        data_type: 1,
        raw_data: le_bytes(&[1.0]),
        ..Default::default()
    };
    let node = |op: &str, inputs: &[&str], output: &str| NodeProto {
        op_type: op.into(),
        name: format!("{output}_node"),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: vec![output.into()],
        ..Default::default()
    };
    let graph = GraphProto {
        name: "mlp".into(),
        node: vec![
            node("MatMul", &["x", "W"], "h"),
            node("Add", &["h", "b"], "hb"),
            node("Relu", &["hb"], "r"),
            node("Mul", &["r", "one"], "y"),
        ],
        initializer: vec![w, b, one],
        input: vec![value_info("x", tensor_type(1, &[Err("N"), Ok(K as i64)]))],
        output: vec![value_info("y", tensor_type(1, &[Err("N"), Ok(M as i64)]))],
        ..Default::default()
    };
    ModelProto {
        ir_version: 8,
        opset_import: vec![OperatorSetIdProto { domain: String::new(), version: 17, ..Default::default() }],
        graph: Some(graph).into(),
        ..Default::default()
    }
}

fn write_model(dir: &Path, name: &str, model: &ModelProto) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, model.write_to_bytes().unwrap()).unwrap();
    path
}

/// x @ W + b, relu, computed here.
fn expected_mlp(x: &[f32], n: usize) -> Vec<f32> {
    let w = weight();
    let mut y = vec![0f32; n * M];
    for r in 0..n {
        for c in 0..M {
            let mut acc = 0f32;
            for k in 0..K {
                acc += x[r * K + k] * w[k * M + c];
            }
            y[r * M + c] = (acc + (c as f32 / 8.0 - 2.0)).max(0.0);
        }
    }
    y
}

/// Runs ours in onnxruntime on a 3 x K input and compares with [`expected_mlp`].
fn check_mlp_numbers(model: &Path) {
    let Some(env) = environment() else { return };
    let n = 3;
    let x: Vec<f32> = (0..n * K).map(|i| ((i * 13 % 29) as f32 - 14.0) / 7.0).collect();
    let mut session = Session::builder(env).unwrap().commit_from_file(model).expect("onnxruntime loads ours");
    let input = Tensor::from_array((vec![n as i64, K as i64], x.clone())).unwrap();
    let outputs = session.run(ort::inputs!["x" => input]).expect("run");
    let (shape, got) = outputs["y"].try_extract_tensor::<f32>().unwrap();
    assert_eq!(shape.to_vec(), vec![n as i64, M as i64]);
    for (g, e) in got.iter().zip(expected_mlp(&x, n)) {
        assert!((g - e).abs() <= 1e-4 + 1e-4 * e.abs(), "got {g}, expected {e}");
    }
}

/// The initializer `name` of a written model, with its bytes (inline or external).
fn initializer_bytes(model_path: &Path, name: &str) -> Vec<u8> {
    let model = ModelProto::parse_from_bytes(&std::fs::read(model_path).unwrap()).unwrap();
    let t = model.graph.initializer.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no initializer {name}"));
    if t.data_location.value() != DataLocation::EXTERNAL as i32 {
        return t.raw_data.clone();
    }
    let get = |k: &str| t.external_data.iter().find(|e| e.key == k).map(|e| e.value.clone());
    let data = std::fs::read(model_path.with_file_name(get("location").unwrap())).unwrap();
    let offset: usize = get("offset").map_or(0, |o| o.parse().unwrap());
    let length: usize = get("length").unwrap().parse().unwrap();
    data[offset..offset + length].to_vec()
}

#[test]
fn large_initializers_are_referenced_from_the_file() {
    let dir = scratch_dir("from_onnx_mlp");
    let input = write_model(&dir, "mlp.onnx", &mlp_model(None));
    let printed = translate(&["--from-onnx", input.to_str().unwrap()]);
    assert!(printed.status.success(), "{}", stderr(&printed));
    let text = String::from_utf8_lossy(&printed.stdout).into_owned();
    // W by reference (its offset inside mlp.onnx), b and `one` as constants;
    // names, order and the dim_param are kept.
    let canonical = std::fs::canonicalize(&input).unwrap();
    let raw = std::fs::read(&input).unwrap();
    let offset = raw.windows(64).position(|w| w == &le_bytes(&weight())[..64]).unwrap();
    assert!(
        text.contains(&format!(
            "\"onnx.initializer\"() {{length = {} : i64, location = \"{}\", name = \"W\", offset = {offset} : i64}}",
            K * M * 4,
            canonical.display()
        )),
        "{text}"
    );
    assert!(text.contains("{aten.name = \"x\"}") && text.contains("{aten.name = \"y\"}"), "{text}");
    assert!(text.contains("tensor<?x64xf32, [\"N\"]>"), "{text}");
    assert_eq!(text.matches("onnx.Constant").count(), 2, "{text}");

    let out = dir.join("out.onnx");
    let output = translate(&["--to-onnx", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "-q"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(initializer_bytes(&out, "W"), le_bytes(&weight()));
    let written = ModelProto::parse_from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(written.graph.input[0].name, "x");
    assert_eq!(written.graph.output[0].name, "y");
    let Some(type_proto::Value::TensorType(t)) = &written.graph.input[0].type_.value else { panic!() };
    assert_eq!(t.shape.dim[0].value, Some(dimension::Value::DimParam("N".into())));
    // onnx-eqsat removed the multiplication by one.
    assert!(written.graph.node.iter().all(|n| n.op_type != "Mul"), "{:?}", written.graph.node);
    check_mlp_numbers(&out);

    // With --external-data always, the bytes are streamed to out.onnx.data.
    let ext = dir.join("ext.onnx");
    let output = translate(&[
        "--to-onnx",
        input.to_str().unwrap(),
        "-o",
        ext.to_str().unwrap(),
        "-q",
        "--external-data",
        "always",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(initializer_bytes(&ext, "W"), le_bytes(&weight()));
    check_mlp_numbers(&ext);
}

#[test]
fn external_data_is_followed() {
    let dir = scratch_dir("from_onnx_external");
    let mut data = vec![0xAB; 100];
    data.extend(le_bytes(&weight()));
    std::fs::write(dir.join("weights.bin"), &data).unwrap();
    let input = write_model(&dir, "model.onnx", &mlp_model(Some("weights.bin")));
    let printed = translate(&["--from-onnx", input.to_str().unwrap()]);
    assert!(printed.status.success(), "{}", stderr(&printed));
    let text = String::from_utf8_lossy(&printed.stdout).into_owned();
    let data_path = std::fs::canonicalize(dir.join("weights.bin")).unwrap();
    assert!(
        text.contains(&format!("location = \"{}\", name = \"W\", offset = 100 : i64", data_path.display())),
        "{text}"
    );

    let out = dir.join("out.onnx");
    let output = translate(&["--to-onnx", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "-q"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(initializer_bytes(&out, "W"), le_bytes(&weight()));
    check_mlp_numbers(&out);

    // The output may not overwrite the data file it reads.
    let clobber = dir.join("weights.bin");
    let output = translate(&["--to-onnx", input.to_str().unwrap(), "-o", clobber.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("weights.bin"), "{}", stderr(&output));
    assert_eq!(std::fs::read(&clobber).unwrap(), data, "the data file is unchanged");
}

/// Runs a one-input, one-output f32 model in onnxruntime.
fn run_f32(model: &Path, shape: &[i64], x: &[f32]) -> Option<Vec<f32>> {
    let env = environment()?;
    let mut session = Session::builder(env).unwrap().commit_from_file(model).expect("onnxruntime loads the model");
    let name = session.inputs()[0].name().to_string();
    let input = Tensor::from_array((shape.to_vec(), x.to_vec())).unwrap();
    let outputs = session.run(vec![(name, input.into_dyn())]).expect("run");
    Some(outputs[0].try_extract_tensor::<f32>().unwrap().1.to_vec())
}

/// `Constant` nodes in their list forms (`value_ints`, `value_float`, as
/// the opset upgrade and the TorchScript exporter write them) import as the
/// equivalent `value` tensors, which the passes read: the shape of the
/// Reshape below is known (the result gets its static type) and the model
/// computes the same numbers.
#[test]
fn constant_list_forms_import_as_tensors() {
    let dir = scratch_dir("from_onnx_constant_forms");
    let attr = |name: &str, kind: AttributeType, ints: Vec<i64>, f: f32| AttributeProto {
        name: name.into(),
        type_: kind.into(),
        ints,
        f,
        ..Default::default()
    };
    let node = |op: &str, inputs: &[&str], output: &str, attribute: Vec<AttributeProto>| NodeProto {
        op_type: op.into(),
        name: format!("{output}_node"),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: vec![output.into()],
        attribute,
        ..Default::default()
    };
    let graph = GraphProto {
        name: "forms".into(),
        node: vec![
            node("Constant", &[], "shape", vec![attr("value_ints", AttributeType::INTS, vec![3, -1], 0.0)]),
            node("Constant", &[], "half", vec![attr("value_float", AttributeType::FLOAT, vec![], 0.5)]),
            node("Reshape", &["x", "shape"], "r", vec![]),
            node("Mul", &["r", "half"], "y", vec![]),
        ],
        input: vec![value_info("x", tensor_type(1, &[Ok(2), Ok(6)]))],
        output: vec![value_info("y", tensor_type(1, &[Ok(3), Ok(4)]))],
        ..Default::default()
    };
    let model = ModelProto {
        ir_version: 8,
        opset_import: vec![OperatorSetIdProto { domain: String::new(), version: 17, ..Default::default() }],
        graph: Some(graph).into(),
        ..Default::default()
    };
    let src = write_model(&dir, "forms.onnx", &model);
    let imported = translate(&["--from-onnx", src.to_str().unwrap()]);
    assert!(imported.status.success(), "{}", stderr(&imported));
    let text = String::from_utf8_lossy(&imported.stdout);
    assert!(text.contains("value = dense<[3, -1]> : tensor<2xi64>"), "{text}");
    assert!(text.contains("value = dense<5.000000e-01> : tensor<f32>"), "{text}");
    let out = dir.join("forms_opt.onnx");
    let output = translate(&["--to-onnx", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let x: Vec<f32> = (0..12).map(|i| i as f32 - 5.5).collect();
    if let Some(y) = run_f32(&out, &[2, 6], &x) {
        assert_eq!(y, x.iter().map(|v| v * 0.5).collect::<Vec<_>>());
    }
}

/// A `dim_param` name is the exporter's claim, never a proof: onnxruntime
/// runs `x: [N, 4]`, `y: [N, 4]` with x of 3 rows and y of 1 (it does not
/// check names). `Expand(y, Shape(x))` is then a real broadcast; when the
/// names counted as equal sizes, the optimizer took it for a no-op
/// (`expand-same-shape`) and the converted model returned y's 1 row where
/// onnxruntime on the original returns 3. The same with the claim in a
/// `value_info` of an intermediate value and in the declared output type.
#[test]
fn dim_param_names_are_claims_not_proofs() {
    let dir = scratch_dir("from_onnx_dim_param_claims");
    let node = |op: &str, inputs: &[&str], output: &str| NodeProto {
        op_type: op.into(),
        name: format!("{output}_node"),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: vec![output.into()],
        ..Default::default()
    };
    let model =
        |nodes: Vec<NodeProto>, inputs: Vec<ValueInfoProto>, value_infos: Vec<ValueInfoProto>, out: ValueInfoProto| {
            ModelProto {
                ir_version: 8,
                opset_import: vec![OperatorSetIdProto { domain: String::new(), version: 17, ..Default::default() }],
                graph: Some(GraphProto {
                    name: "claims".into(),
                    node: nodes,
                    input: inputs,
                    value_info: value_infos,
                    output: vec![out],
                    ..Default::default()
                })
                .into(),
                ..Default::default()
            }
        };
    let n4 = || tensor_type(1, &[Err("N"), Ok(4)]);
    // y's first dim named by an expression that reads as N (or, malformed,
    // as a part of N): a claim as well, never a proof.
    let named = |dim: &'static str| tensor_type(1, &[Err(dim), Ok(4)]);
    let expand = |y: TypeProto| {
        model(
            vec![node("Shape", &["x"], "s"), node("Expand", &["y", "s"], "out")],
            vec![value_info("x", n4()), value_info("y", y)],
            vec![],
            value_info("out", n4()),
        )
    };
    // y[:N] of a y claimed to be `N + 1` long, expanded to x's shape: read
    // as an expression, the claim made the slice N long and the Expand a
    // no-op (a converter that did wrote 1 row where onnxruntime gives 3).
    let ints = |output: &str, values: Vec<i64>| NodeProto {
        op_type: "Constant".into(),
        name: format!("{output}_node"),
        output: vec![output.into()],
        attribute: vec![AttributeProto {
            name: "value_ints".into(),
            type_: AttributeType::INTS.into(),
            ints: values,
            ..Default::default()
        }],
        ..Default::default()
    };
    let slice_expand = |y: TypeProto| {
        model(
            vec![
                ints("zero", vec![0]),
                ints("one", vec![1]),
                node("Shape", &["x"], "s"),
                node("Slice", &["s", "zero", "one"], "n"),
                node("Slice", &["y", "zero", "n", "zero"], "z"),
                node("Expand", &["z", "s"], "out"),
            ],
            vec![value_info("x", n4()), value_info("y", y)],
            vec![],
            value_info("out", n4()),
        )
    };
    let cases = [
        ("slice_plus_one", slice_expand(named("N + 1")), "N + 1"),
        ("slice_one_plus", slice_expand(named("1 + N")), "1 + N"),
        ("slice_trailing_operator", slice_expand(named("N +")), "N +"),
        ("expand_plus_zero", expand(named("N + 0")), "N + 0"),
        ("expand_trailing_operator", expand(named("N +")), "N +"),
        ("expand_max", expand(named("max(N, N)")), "max(N, N)"),
        ("expand_difference", expand(named("2*N - N")), "2*N - N"),
        (
            "expand_output",
            model(
                vec![node("Shape", &["x"], "s"), node("Expand", &["y", "s"], "out")],
                vec![value_info("x", n4()), value_info("y", n4())],
                vec![],
                value_info("out", n4()),
            ),
            "N__2",
        ),
        // A static dim claimed in a value_info ([1, 4] for an Expand to
        // [N, 4]) is no proof either: onnxruntime only warns about it.
        (
            "expand_static_value_info",
            model(
                vec![node("Shape", &["x"], "s"), node("Expand", &["y", "s"], "e"), node("Relu", &["e"], "out")],
                vec![value_info("x", n4()), value_info("y", n4())],
                vec![value_info("e", tensor_type(1, &[Ok(1), Ok(4)]))],
                value_info("out", n4()),
            ),
            "N__2",
        ),
        (
            "expand_value_info",
            model(
                vec![node("Shape", &["x"], "s"), node("Expand", &["y", "s"], "e"), node("Relu", &["e"], "out")],
                vec![value_info("x", n4()), value_info("y", n4())],
                vec![value_info("e", n4())],
                value_info("out", n4()),
            ),
            "N__2",
        ),
    ];
    let x: Vec<f32> = (0..12).map(|i| i as f32 - 5.5).collect();
    let y: Vec<f32> = vec![0.5, -1.5, 2.5, -3.5];
    for (name, m, y_dim) in cases {
        let src = write_model(&dir, &format!("{name}.onnx"), &m);
        let out = dir.join(format!("{name}_opt.onnx"));
        let output = translate(&["--to-onnx", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert!(output.status.success(), "{name}: {}", stderr(&output));
        let Some(env) = environment() else { return };
        let run = |path: &Path| {
            let mut session = Session::builder(env).unwrap().commit_from_file(path).expect("onnxruntime loads");
            let feeds = vec![
                ("x".to_string(), Tensor::from_array((vec![3i64, 4], x.clone())).unwrap().into_dyn()),
                ("y".to_string(), Tensor::from_array((vec![1i64, 4], y.clone())).unwrap().into_dyn()),
            ];
            let outputs = session.run(feeds).expect("run");
            let (shape, values) = outputs[0].try_extract_tensor::<f32>().unwrap();
            (shape.to_vec(), values.to_vec())
        };
        let (want_shape, want) = run(&src);
        assert_eq!(want_shape, vec![3, 4], "{name}: onnxruntime broadcasts y over x's rows");
        let (got_shape, got) = run(&out);
        assert_eq!((got_shape, got), (want_shape, want), "{name}: the converted model computes another result");
        // The output keeps N for x; y's name is a name of its own.
        let written = ModelProto::parse_from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        let dims = |v: &ValueInfoProto| match &v.type_.value {
            Some(type_proto::Value::TensorType(t)) => {
                t.shape.dim.iter().map(|d| format!("{:?}", d.value)).collect::<Vec<_>>().join(",")
            }
            _ => String::new(),
        };
        let graph = written.graph.as_ref().unwrap();
        assert!(dims(&graph.input[0]).contains("DimParam(\"N\")"), "{name}: {}", dims(&graph.input[0]));
        // y keeps its own name, an expression spelled as the model spelled it.
        assert_eq!(dims(&graph.input[1]), format!("Some(DimParam({y_dim:?})),Some(DimValue(4))"), "{name}");
    }
}

/// `com.microsoft` ops are kept as generic ops and written back in their
/// domain; an unknown domain is refused.
#[test]
fn contrib_ops_are_kept() {
    let dir = scratch_dir("from_onnx_contrib");
    let model = |domain: &str| ModelProto {
        ir_version: 8,
        opset_import: vec![
            OperatorSetIdProto { domain: String::new(), version: 17, ..Default::default() },
            OperatorSetIdProto { domain: domain.into(), version: 1, ..Default::default() },
        ],
        graph: Some(GraphProto {
            name: "g".into(),
            node: vec![
                NodeProto {
                    op_type: "Gelu".into(),
                    domain: domain.into(),
                    name: "gelu".into(),
                    input: vec!["x".into()],
                    output: vec!["g".into()],
                    ..Default::default()
                },
                NodeProto {
                    op_type: "Neg".into(),
                    name: "neg".into(),
                    input: vec!["g".into()],
                    output: vec!["y".into()],
                    ..Default::default()
                },
            ],
            input: vec![value_info("x", tensor_type(1, &[Ok(2), Ok(3)]))],
            output: vec![value_info("y", tensor_type(1, &[Ok(2), Ok(3)]))],
            value_info: vec![value_info("g", tensor_type(1, &[Ok(2), Ok(3)]))],
            ..Default::default()
        })
        .into(),
        ..Default::default()
    };
    let input = write_model(&dir, "ms.onnx", &model("com.microsoft"));
    let printed = translate(&["--from-onnx", input.to_str().unwrap()]);
    assert!(printed.status.success(), "{}", stderr(&printed));
    assert!(String::from_utf8_lossy(&printed.stdout).contains("\"onnx.ms.Gelu\"(%arg0)"));
    let out = dir.join("out.onnx");
    let output = translate(&["--to-onnx", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "-q"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let written = ModelProto::parse_from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(written.graph.node[0].domain, "com.microsoft");
    assert!(written.opset_import.iter().any(|o| o.domain == "com.microsoft" && o.version == 1));
    let x = [-2.0f32, -0.5, 0.0, 0.25, 1.0, 3.0];
    if let (Some(a), Some(b)) = (run_f32(&input, &[2, 3], &x), run_f32(&out, &[2, 3], &x)) {
        assert_eq!(a, b);
    }

    let unknown = write_model(&dir, "custom.onnx", &model("com.example"));
    let output = translate(&["--from-onnx", unknown.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("custom.onnx") && stderr(&output).contains("com.example"), "{}", stderr(&output));
}

// ----------------------------------------------------------------------------
// Errors

#[test]
fn import_errors_name_the_file_and_the_node() {
    let dir = scratch_dir("from_onnx_errors");
    let out = dir.join("out.onnx");
    let fails = |input: &Path| -> String {
        let output = translate(&["--to-onnx", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        let message = assert_fails(&output, &out);
        let printed = translate(&["--from-onnx", input.to_str().unwrap()]);
        assert_eq!(printed.status.code(), Some(1), "--from-onnx: {}", stderr(&printed));
        message
    };

    // Not an ONNX file; empty; truncated.
    let text = dir.join("text.onnx");
    std::fs::write(&text, "this is not a protobuf\n").unwrap();
    let message = fails(&text);
    assert!(message.contains("text.onnx") && message.contains("not an ONNX model"), "{message}");
    let empty = dir.join("empty.onnx");
    std::fs::write(&empty, "").unwrap();
    assert!(fails(&empty).contains("empty"));
    let good = mlp_model(None).write_to_bytes().unwrap();
    let truncated = dir.join("truncated.onnx");
    std::fs::write(&truncated, &good[..good.len() - 2000]).unwrap();
    let message = fails(&truncated);
    assert!(message.contains("truncated.onnx") && message.contains("truncated"), "{message}");

    // An op that does not exist at the model's opset.
    let mut model = mlp_model(None);
    model.opset_import[0].version = 13;
    model.graph.as_mut().unwrap().node[2].op_type = "Gelu".into();
    let message = fails(&write_model(&dir, "gelu13.onnx", &model));
    assert!(message.contains("gelu13.onnx") && message.contains("r_node") && message.contains("opset 13"), "{message}");

    // External data: a missing file, bytes past its end.
    let message = fails(&write_model(&dir, "missing.onnx", &mlp_model(Some("nowhere.bin"))));
    assert!(
        message.contains("missing.onnx") && message.contains("nowhere.bin") && message.contains("`W`"),
        "{message}"
    );
    std::fs::write(dir.join("short.bin"), vec![0u8; 500]).unwrap();
    let message = fails(&write_model(&dir, "short.onnx", &mlp_model(Some("short.bin"))));
    assert!(message.contains("past the end") && message.contains("`W`"), "{message}");
    let message = fails(&write_model(&dir, "escape.onnx", &mlp_model(Some("../outside.bin"))));
    assert!(message.contains("inside the model's directory"), "{message}");

    // An attribute kind the importer refuses, and a node input nobody defines.
    let mut model = mlp_model(None);
    model.graph.as_mut().unwrap().node[2].attribute.push(AttributeProto {
        name: "odd".into(),
        type_: AttributeType::SPARSE_TENSOR.into(),
        ..Default::default()
    });
    let message = fails(&write_model(&dir, "sparse.onnx", &model));
    assert!(message.contains("r_node") && message.contains("odd"), "{message}");
    let mut model = mlp_model(None);
    model.graph.as_mut().unwrap().node[1].input[0] = "undefined_value".into();
    let message = fails(&write_model(&dir, "undefined.onnx", &model));
    assert!(message.contains("hb_node") && message.contains("undefined_value"), "{message}");

    // A node the onnx dialect's verifier refuses: named, with no `<unknown location>`
    // (an .onnx node has a name but no source position).
    let mut model = mlp_model(None);
    let node = &mut model.graph.as_mut().unwrap().node[2];
    node.op_type = "Transpose".into();
    node.input.truncate(1);
    node.attribute.push(AttributeProto {
        name: "perm".into(),
        type_: AttributeType::INTS.into(),
        ints: vec![0, 0],
        ..Default::default()
    });
    // (`--from-onnx` prints it: the check is onnx-verify's, in the --to-onnx pipeline.)
    let perm = write_model(&dir, "perm.onnx", &model);
    let output = translate(&["--to-onnx", perm.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let message = assert_fails(&output, &out);
    assert!(
        message.contains("perm.onnx") && message.contains("[node r_node]") && message.contains("permutation"),
        "{message}"
    );
    assert!(!message.contains("unknown location"), "{message}");

    // Output == input is refused before anything is written.
    let input = write_model(&dir, "same.onnx", &mlp_model(None));
    let before = std::fs::read(&input).unwrap();
    let output = translate(&["--to-onnx", input.to_str().unwrap(), "-o", input.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(std::fs::read(&input).unwrap(), before, "the input is unchanged");
}

// ----------------------------------------------------------------------------
// Opset upgrade (`--to-onnx m.onnx --opset N` above the model's opset)

/// Models at opsets 13..18 with every op version whose meaning changed up
/// to 23 (Reduce* axes, Split, GridSample modes, DFT axis, RoiAlign's
/// default, BatchNormalization, a Reduce inside an If branch) and ops whose
/// new versions only add types; each is converted with `--opset 23` and
/// must give onnxruntime's outputs of the original (RoiAlign with `--opset
/// 21`: onnxruntime 1.32 has no kernel for RoiAlign-22, the version opset 23
/// selects, although it only adds types).
const UPGRADE_MODELS: &str = r#"
import sys, subprocess, numpy as np, onnx, onnxruntime as ort
from onnx import helper as h, TensorProto as T
out, binary = sys.argv[1], sys.argv[2]
F = T.FLOAT
def vi(name, dims, t=F): return h.make_tensor_value_info(name, t, dims)
def model(name, opset, nodes, inputs, outputs, inits=(), check=True):
    g = h.make_graph(nodes, name, inputs, outputs, list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    if check:
        onnx.checker.check_model(m, full_check=True)
    return m
rng = np.random.default_rng(0)
cases = []
cases.append((model("reduce_split", 17, [
    h.make_node("ReduceMean", ["x"], ["m"], axes=[1], keepdims=1),
    h.make_node("ReduceMax", ["m"], ["mx"], axes=[-1], keepdims=0),
    h.make_node("ReduceL2", ["x"], ["l2"], keepdims=0),
    h.make_node("ReduceSumSquare", ["x"], ["ss"], axes=[0, 2]),
    h.make_node("ReduceLogSumExp", ["x"], ["lse"], axes=[2], keepdims=1),
    h.make_node("Split", ["x"], ["s0", "s1"], axis=2),
    h.make_node("Relu", ["s1"], ["r"]),
], [vi("x", [2, 3, 4])], [vi("mx", [2, 1]), vi("l2", []), vi("ss", [1, 3, 1]), vi("lse", [2, 3, 1]), vi("s0", [2, 3, 2]), vi("r", [2, 3, 2])]),
    {"x": rng.standard_normal((2, 3, 4)).astype(np.float32)}))
cases.append((model("grid_sample", 16, [
    h.make_node("GridSample", ["x", "g"], ["lin"], mode="bilinear", align_corners=0),
    h.make_node("GridSample", ["x", "g"], ["cub"], mode="bicubic", align_corners=1),
    h.make_node("GridSample", ["x", "g"], ["near"], mode="nearest", padding_mode="border"),
], [vi("x", [1, 2, 4, 5]), vi("g", [1, 3, 3, 2])], [vi("lin", [1, 2, 3, 3]), vi("cub", [1, 2, 3, 3]), vi("near", [1, 2, 3, 3])]),
    {"x": rng.standard_normal((1, 2, 4, 5)).astype(np.float32), "g": rng.uniform(-1.1, 1.1, (1, 3, 3, 2)).astype(np.float32)}))
cases.append((model("dft", 17, [
    h.make_node("DFT", ["x"], ["y"], axis=1, onesided=0),
    h.make_node("DFT", ["x", "n"], ["z"], axis=1, onesided=1),
], [vi("x", [2, 8, 1])], [vi("y", [2, 8, 2]), vi("z", [2, 4, 2])], [h.make_tensor("n", T.INT64, [], [6])]),
    {"x": rng.standard_normal((2, 8, 1)).astype(np.float32)}))
cases.append((model("roi_align_bn_21", 13, [
    h.make_node("RoiAlign", ["x", "rois", "idx"], ["r"], output_height=2, output_width=3, sampling_ratio=2, spatial_scale=0.5),
    h.make_node("BatchNormalization", ["x", "s", "b", "mu", "var"], ["bn"], epsilon=1e-3),
], [vi("x", [1, 2, 8, 8]), vi("rois", [2, 4]), vi("idx", [2], T.INT64)], [vi("r", [2, 2, 2, 3]), vi("bn", [1, 2, 8, 8])],
    [h.make_tensor("s", F, [2], [1.5, 0.5]), h.make_tensor("b", F, [2], [0.1, -0.2]),
     h.make_tensor("mu", F, [2], [0.3, -0.1]), h.make_tensor("var", F, [2], [2.0, 0.7])]),
    {"x": rng.standard_normal((1, 2, 8, 8)).astype(np.float32),
     "rois": np.array([[1, 1, 9, 7], [0, 2, 14, 12]], np.float32), "idx": np.array([0, 0], np.int64)}))
branch = lambda name, axes: h.make_graph([h.make_node("ReduceMean", ["x"], [name], axes=axes, keepdims=0)], name, [], [vi(name, None)])
cases.append((model("if_reduce", 17, [
    h.make_node("If", ["c"], ["y"], then_branch=branch("t", [0]), else_branch=branch("e", [1])),
], [vi("c", [], T.BOOL), vi("x", [3, 3])], [vi("y", [3])]),
    {"c": np.array(False), "x": rng.standard_normal((3, 3)).astype(np.float32)}))
failures = []
for m, feeds in cases:
    name = m.graph.name
    to = 21 if name.endswith("_21") else 23
    src, dst = f"{out}/{name}.onnx", f"{out}/{name}_up.onnx"
    onnx.save(m, src)
    r = subprocess.run([binary, "--to-onnx", src, "--opset", str(to), "-o", dst], capture_output=True, text=True)
    if r.returncode != 0:
        failures.append(f"{name}: exit {r.returncode}: {r.stderr}")
        continue
    up = onnx.load(dst)
    onnx.checker.check_model(up, full_check=True)
    if [o.version for o in up.opset_import if o.domain in ("", "ai.onnx")] != [to]:
        failures.append(f"{name}: the output imports {up.opset_import}")
    run = lambda p: ort.InferenceSession(p, providers=["CPUExecutionProvider"]).run(None, feeds)
    for k, (a, b) in enumerate(zip(run(src), run(dst))):
        if a.shape != b.shape or not np.allclose(a, b, rtol=1e-5, atol=1e-5):
            failures.append(f"{name}: output {k} differs: {a} vs {b}")
# Refused: GroupNormalization's scale changed from per group to per channel
# (onnx.checker calls version 18 deprecated; exporters wrote it).
g = model("group_norm", 18, [h.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2, name="gn")],
          [vi("x", [1, 4, 3]), vi("s", [2]), vi("b", [2])], [vi("y", [1, 4, 3])], check=False)
onnx.save(g, f"{out}/group_norm.onnx")
r = subprocess.run([binary, "--to-onnx", f"{out}/group_norm.onnx", "--opset", "23", "-o", f"{out}/gn_23.onnx"], capture_output=True, text=True)
if r.returncode != 1 or "node `gn` (GroupNormalization)" not in r.stderr or "per channel" not in r.stderr:
    failures.append(f"group_norm: exit {r.returncode}: {r.stderr}")
print("\n".join(failures) if failures else f"{len(cases)} models upgraded, outputs equal")
sys.exit(1 if failures else 0)
"#;

#[test]
fn older_opsets_upgrade_with_the_same_outputs() {
    let Some(python) = crate::export::python() else { return };
    let dir = crate::scratch_dir("onnx_upgrade");
    let run =
        Command::new(&python).arg("-c").arg(UPGRADE_MODELS).arg(&dir).arg(ATEN_TRANSLATE).output().expect("run python");
    let report = format!("{}{}", String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success(), "{report}");

    // A downgrade and an upgrade past the vetted opsets are refused.
    for (model, opset, expected) in [("group_norm", "17", "downgrade"), ("reduce_split", "24", "go up to 23")] {
        let model = dir.join(format!("{model}.onnx"));
        let out = dir.join(format!("refused_{opset}.onnx"));
        let output = translate(&["--to-onnx", model.to_str().unwrap(), "--opset", opset, "-o", out.to_str().unwrap()]);
        let message = assert_fails(&output, &out);
        assert!(message.contains(expected), "{message}");
    }
}

/// Models written by torch.onnx.export (`tools/capture/capture_exporter_onnx.py`:
/// a tiny Llama with grouped-query heads, a tiny BERT with a padding mask,
/// each by the dynamo and the TorchScript exporter) re-optimize at opset 23
/// into the fused standard ops (torch.onnx spells SDPA, RMSNorm and rotary
/// out), with onnxruntime giving the same outputs before and after on two
/// input shapes. The fusions counted here take the exporter's `dim_param`
/// names as equal sizes (`--trust-dim-params`: both inputs say `[batch,
/// seq]`); by default the names prove nothing, fewer of these fuse (the
/// TorchScript exports' masks, dynamo BERT's head layout) and the outputs
/// still match, which the same loop checks.
#[test]
fn torch_onnx_exports_reoptimize_to_fused_ops() {
    let Some(env) = environment() else {
        crate::parity::ort_missing();
        return;
    };
    let dir = scratch_dir("from_onnx_torch_onnx");
    let ids =
        |b: i64, s: i64| crate::optimizer::Input::I64(vec![b, s], (0..b * s).map(|i| (i * 37 + 11) % 64).collect());
    let mask = |b: i64, s: i64| {
        // The first two positions of the first row padded (the mask matters).
        crate::optimizer::Input::I64(vec![b, s], (0..b * s).map(|i| i64::from(i >= 2)).collect())
    };
    type Inputs = Vec<crate::optimizer::Input>;
    let cases: [(&str, &[(&str, usize)], [Inputs; 2]); 4] = [
        (
            "torch_onnx_llama",
            // The causal mask is proven from how it is built (GatherND over
            // position grids): the op's is_causal, no mask computation left.
            &[
                ("Attention", 2),
                ("RotaryEmbedding", 4),
                ("RMSNormalization", 5),
                ("Softmax", 0),
                ("Transpose", 0),
                ("GatherND", 0),
            ],
            [vec![ids(2, 7)], vec![ids(3, 4)]],
        ),
        (
            "torch_onnx_bert",
            &[("Attention", 2), ("LayerNormalization", 5), ("Softmax", 0), ("Transpose", 0)],
            [vec![ids(2, 7), mask(2, 7)], vec![ids(3, 5), mask(3, 5)]],
        ),
        // The TorchScript exporter's models have no intermediate types: the
        // fusions need what onnx-shape-inference derives from the inputs
        // through Shape/Gather/Concat/Where arithmetic.
        (
            "torchscript_llama",
            &[
                ("Attention", 2),
                ("RotaryEmbedding", 4),
                ("RMSNormalization", 5),
                ("Softmax", 0),
                ("Transpose", 0),
                ("Pow", 0),
            ],
            [vec![ids(2, 7), mask(2, 7)], vec![ids(3, 4), mask(3, 4)]],
        ),
        (
            "torchscript_bert",
            &[("Attention", 2), ("LayerNormalization", 5), ("Gelu", 2), ("Softmax", 0), ("Transpose", 0), ("Erf", 0)],
            [vec![ids(2, 7), mask(2, 7)], vec![ids(3, 5), mask(3, 5)]],
        ),
    ];
    for ((name, expected_ops, input_sets), trust) in cases.iter().flat_map(|c| [(c, true), (c, false)]) {
        let src = Path::new("tests/fixtures/onnx").join(format!("{name}.onnx"));
        let out = dir.join(format!("{name}_{trust}.onnx"));
        let mut args = vec!["--to-onnx", src.to_str().unwrap(), "--opset", "23", "-o", out.to_str().unwrap(), "-q"];
        if trust {
            args.push("--trust-dim-params");
        }
        let output = translate(&args);
        assert!(output.status.success(), "{name}: {}", stderr(&output));
        let written = ModelProto::parse_from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        let count = |op: &str| written.graph.node.iter().filter(|n| n.op_type == op).count();
        for (op, n) in expected_ops.iter().filter(|_| trust) {
            assert_eq!(count(op), *n, "{name}: {op} nodes in {:?}", written.graph.node);
        }
        let name = format!("{name} (trusted names: {trust})");
        for inputs in input_sets {
            let before = crate::optimizer::outputs(env, &src, inputs);
            let after = crate::optimizer::outputs(env, &out, inputs);
            assert_eq!(before.len(), after.len(), "{name}");
            for ((sb, vb), (sa, va)) in before.iter().zip(&after) {
                assert_eq!(sb, sa, "{name}: output shape");
                let worst = vb.iter().zip(va).map(|(b, a)| (a - b).abs() / (1e-4 + 1e-4 * b.abs())).fold(0.0, f64::max);
                assert!(worst <= 1.0, "{name}: outputs differ by {worst} x tolerance after re-optimizing");
            }
        }
    }
}
