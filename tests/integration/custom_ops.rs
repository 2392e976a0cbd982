//! Custom ops translated by ONNX functions (`--custom-ops LIB.onnx`,
//! src/custom_ops.rs): the fixture `custom_op.pt2` calls
//! `aten2onnx_test::scale(x, factor)` twice (`scale(relu(x), 2.0) +
//! scale(x, 3.0)`, tools/capture/capture_fixtures.py).

use crate::{
    errors::{assert_fails, root, run, ATEN_TRANSLATE},
    fixture,
    parity::environment,
    scratch_dir,
};
use onnx_protobuf::{
    attribute_proto::AttributeType, AttributeProto, FunctionProto, GraphProto, Message, ModelProto, NodeProto,
    OperatorSetIdProto,
};
use ort::{session::Session, value::Tensor};
use std::path::Path;

fn opset(domain: &str, version: i64) -> OperatorSetIdProto {
    OperatorSetIdProto { domain: domain.into(), version, ..Default::default() }
}

fn node(op: &str, inputs: &[&str], outputs: &[&str], attributes: Vec<AttributeProto>) -> NodeProto {
    NodeProto {
        op_type: op.into(),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: outputs.iter().map(|s| s.to_string()).collect(),
        attribute: attributes,
        ..Default::default()
    }
}

/// `scale(x, factor) = x * factor` as an ONNX function at `version` of the
/// default domain, `factor` read through `ref_attr_name`.
fn scale_function(name: &str, attribute: &str, version: i64) -> FunctionProto {
    let reference = AttributeProto {
        name: "value_float".into(),
        ref_attr_name: attribute.into(),
        type_: AttributeType::FLOAT.into(),
        ..Default::default()
    };
    FunctionProto {
        name: name.into(),
        domain: "aten2onnx_test".into(),
        input: vec!["x".into()],
        output: vec!["y".into()],
        attribute: vec![attribute.into()],
        node: vec![
            node("Constant", &[], &["f"], vec![reference]),
            node("CastLike", &["f", "x"], &["g"], vec![]),
            node("Mul", &["x", "g"], &["y"], vec![]),
        ],
        opset_import: vec![opset("", version)],
        ..Default::default()
    }
}

fn library(dir: &Path, functions: Vec<FunctionProto>) -> String {
    let model = ModelProto {
        ir_version: 10,
        opset_import: vec![opset("", 18), opset("aten2onnx_test", 1)],
        graph: Some(GraphProto { name: "lib".into(), ..Default::default() }).into(),
        functions,
        ..Default::default()
    };
    let path = dir.join("input_lib.onnx");
    std::fs::write(&path, model.write_to_bytes().unwrap()).unwrap();
    path.to_str().unwrap().to_string()
}

fn expected(x: &[f32]) -> Vec<f32> {
    x.iter().map(|&v| v.max(0.0) * 2.0 + v * 3.0).collect()
}

fn check_numbers(model: &Path) {
    let Some(env) = environment() else { return };
    let x: Vec<f32> = vec![-1.5, -0.0, 0.25, 1.0, f32::INFINITY, -3.0];
    let mut session = Session::builder(env).unwrap().commit_from_file(model).expect("onnxruntime loads it");
    let outputs = session.run(ort::inputs!["x" => Tensor::from_array((vec![2i64, 3], x.clone())).unwrap()]).unwrap();
    let (shape, got) = outputs[0].try_extract_tensor::<f32>().unwrap();
    assert_eq!(shape.to_vec(), vec![2, 3]);
    for (g, e) in got.iter().zip(expected(&x)) {
        assert!(g == &e || (g - e).abs() <= 1e-6 * e.abs(), "got {g}, expected {e}");
    }
}

#[test]
fn translated_by_a_function_of_the_library() {
    let dir = scratch_dir("custom_ops_translated");
    // `scale` (every overload) at opset 18, upgraded to the default opset.
    let lib = library(&dir, vec![scale_function("scale", "factor", 18)]);
    let out = dir.join("model.onnx");
    let output = run(
        ATEN_TRANSLATE,
        &root(),
        &["--to-onnx", &fixture("custom_op"), "--custom-ops", &lib, "-o", out.to_str().unwrap()],
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let written = ModelProto::parse_from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    // Inlined: no call of the library's domain is left, nor any function.
    let graph = written.graph.as_ref().unwrap();
    assert!(graph.node.iter().all(|n| n.domain.is_empty()), "{:?}", graph.node);
    assert!(written.functions.is_empty());
    check_numbers(&out);

    // The overload's own function wins over the op's.
    let lib = library(&dir, vec![scale_function("scale", "factor", 18), scale_function("scale.default", "factor", 17)]);
    let text = run(ATEN_TRANSLATE, &root(), &["--from-pt2", &fixture("custom_op"), "--custom-ops", &lib]);
    let text = String::from_utf8_lossy(&text.stdout).to_string();
    assert!(text.contains("\"aten.custom.aten2onnx_test::scale.default\""), "{text}");
    assert!(text.contains("aten.translation = \"aten2onnx_test::scale.default\""), "{text}");
    assert!(text.contains("factor = 2.000000e+00 : f64") && text.contains("\"onnx.Mul\""), "{text}");
}

/// `scale` written with an `If` whose branches read the function's input
/// and, through `ref_attr_name`, its attribute: the subgraphs are
/// instantiated for the call like the body.
fn scale_through_if() -> FunctionProto {
    use onnx_protobuf::{GraphProto as G, TensorProto, ValueInfoProto};
    let branch = |name: &str, op: &str| G {
        name: name.into(),
        node: vec![
            node(
                "Constant",
                &[],
                &["f"],
                vec![AttributeProto {
                    name: "value_float".into(),
                    ref_attr_name: "factor".into(),
                    type_: AttributeType::FLOAT.into(),
                    ..Default::default()
                }],
            ),
            node("CastLike", &["f", "x"], &["g"], vec![]),
            node(op, &["x", "g"], &[&format!("{name}_out")], vec![]),
        ],
        output: vec![ValueInfoProto { name: format!("{name}_out"), ..Default::default() }],
        ..Default::default()
    };
    let graph_attr = |name: &str, g: G| AttributeProto {
        name: name.into(),
        g: Some(g).into(),
        type_: AttributeType::GRAPH.into(),
        ..Default::default()
    };
    let truth = TensorProto { data_type: 9, int32_data: vec![1], ..Default::default() };
    FunctionProto {
        name: "scale".into(),
        domain: "aten2onnx_test".into(),
        input: vec!["x".into()],
        output: vec!["y".into()],
        attribute: vec!["factor".into()],
        node: vec![
            node(
                "Constant",
                &[],
                &["c"],
                vec![AttributeProto {
                    name: "value".into(),
                    t: Some(truth).into(),
                    type_: AttributeType::TENSOR.into(),
                    ..Default::default()
                }],
            ),
            node(
                "If",
                &["c"],
                &["y"],
                vec![
                    graph_attr("then_branch", branch("then", "Mul")),
                    graph_attr("else_branch", branch("else", "Div")),
                ],
            ),
        ],
        opset_import: vec![opset("", 18)],
        ..Default::default()
    }
}

#[test]
fn translation_with_subgraphs() {
    let dir = scratch_dir("custom_ops_subgraphs");
    let lib = library(&dir, vec![scale_through_if()]);
    let out = dir.join("model.onnx");
    let output = run(
        ATEN_TRANSLATE,
        &root(),
        &["--to-onnx", &fixture("custom_op"), "--custom-ops", &lib, "-o", out.to_str().unwrap()],
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    check_numbers(&out);
}

/// A library function named like a standard op of the default domain does
/// not replace the op (as in onnxruntime): `Mul` below computes Add, and
/// the translation's `Mul` stays a product.
#[test]
fn standard_ops_are_not_shadowed() {
    let dir = scratch_dir("custom_ops_shadow");
    let shadow = FunctionProto {
        name: "Mul".into(),
        domain: String::new(),
        input: vec!["a".into(), "b".into()],
        output: vec!["c".into()],
        node: vec![node("Add", &["a", "b"], &["c"], vec![])],
        opset_import: vec![opset("", 18)],
        ..Default::default()
    };
    let lib = library(&dir, vec![scale_function("scale", "factor", 18), shadow]);
    let out = dir.join("model.onnx");
    let output = run(
        ATEN_TRANSLATE,
        &root(),
        &["--to-onnx", &fixture("custom_op"), "--custom-ops", &lib, "-o", out.to_str().unwrap()],
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    check_numbers(&out);
}

#[test]
fn refused_with_a_reason() {
    let dir = scratch_dir("custom_ops_refused");
    let cases: Vec<(&str, Option<Vec<FunctionProto>>, &str)> = vec![
        // The function is in another domain.
        (
            "other_domain",
            Some(vec![FunctionProto { domain: "elsewhere".into(), ..scale_function("scale", "factor", 18) }]),
            "has no translation in",
        ),
        // Its attribute has another name: `factor` would be dropped.
        ("attribute_name", Some(vec![scale_function("scale", "k", 18)]), "argument `factor` = Float(2.0)"),
        // Written at an opset newer than the conversion's.
        ("newer_opset", Some(vec![scale_function("scale", "factor", 99)]), "newer than the conversion's"),
        // No functions at all.
        ("no_functions", Some(vec![]), "the model has no functions"),
        // Not an ONNX model.
        ("not_onnx", None, "not an ONNX model"),
    ];
    for (name, functions, expect) in cases {
        let lib = match functions {
            Some(functions) => library(&dir, functions),
            None => {
                let path = dir.join("input_lib.onnx");
                std::fs::write(&path, b"\xff\xff\xff not protobuf").unwrap();
                path.to_str().unwrap().to_string()
            }
        };
        let out = dir.join("model.onnx");
        let output = run(
            ATEN_TRANSLATE,
            &root(),
            &["--to-onnx", &fixture("custom_op"), "--custom-ops", &lib, "-o", out.to_str().unwrap()],
        );
        let message = assert_fails(&output, &dir);
        assert!(message.contains(expect), "{name}: {message}");
    }
    // The output may not overwrite the library (nor read a device).
    let lib = library(&dir, vec![scale_function("scale", "factor", 18)]);
    let before = std::fs::read(&lib).unwrap();
    let output = run(ATEN_TRANSLATE, &root(), &["--to-onnx", &fixture("custom_op"), "--custom-ops", &lib, "-o", &lib]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("would overwrite the --custom-ops library"), "{message}");
    assert_eq!(std::fs::read(&lib).unwrap(), before, "the library is untouched");
    let out = dir.join("model.onnx");
    let output = run(
        ATEN_TRANSLATE,
        &root(),
        &["--to-onnx", &fixture("custom_op"), "--custom-ops", "/dev/zero", "-o", out.to_str().unwrap()],
    );
    assert!(assert_fails(&output, &dir).contains("not a regular file"));
    // Helpers calling the next one twice, 30 deep: 2^30 nodes, refused at
    // the inlining budget instead of running out of memory.
    let mut functions = vec![FunctionProto {
        input: vec!["x".into()],
        output: vec!["y".into()],
        attribute: vec!["factor".into()],
        node: vec![node("h0", &["x"], &["y"], vec![])],
        ..scale_function("scale", "factor", 18)
    }];
    functions[0].node[0].domain = "aten2onnx_test".into();
    for k in 0..30 {
        let call = |out: &str, input: &str| {
            let mut n = node(&format!("h{}", k + 1), &[input], &[out], vec![]);
            n.domain = "aten2onnx_test".into();
            n
        };
        functions.push(FunctionProto {
            name: format!("h{k}"),
            domain: "aten2onnx_test".into(),
            input: vec!["x".into()],
            output: vec!["y".into()],
            node: vec![call("t", "x"), call("y", "t")],
            opset_import: vec![opset("", 18)],
            ..Default::default()
        });
    }
    functions.push(FunctionProto {
        name: "h30".into(),
        domain: "aten2onnx_test".into(),
        input: vec!["x".into()],
        output: vec!["y".into()],
        node: vec![node("Identity", &["x"], &["y"], vec![])],
        opset_import: vec![opset("", 18)],
        ..Default::default()
    });
    let lib = library(&dir, functions);
    let output = run(
        ATEN_TRANSLATE,
        &root(),
        &["--to-onnx", &fixture("custom_op"), "--custom-ops", &lib, "-o", out.to_str().unwrap()],
    );
    let message = assert_fails(&output, &dir);
    assert!(message.contains("more than 1000000 nodes"), "{message}");
    // Without a library: the op, its node and Python line, and the way out.
    let output = run(ATEN_TRANSLATE, &root(), &["--from-pt2", &fixture("custom_op")]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("custom op 'aten2onnx_test::scale.default' has no ONNX translation"), "{message}");
    assert!(message.contains("--custom-ops LIB.onnx") && message.contains("tools/capture_fixtures.py:"), "{message}");
}
