//! ONNX registry: counts, version selection, decoded attributes.

use aten2onnx_dialects::onnx::{self, AttrDefault, AttrType, ParamOption};

#[test]
fn counts_match_onnx_1_23_2() {
    assert_eq!(onnx::ONNX_VERSION, "1.23.2");
    assert_eq!(aten2onnx_dialects::ONNX_VERSION, "1.23.2");
    assert_eq!(onnx::all().len(), 659);
    let count = |d: &str| onnx::all().iter().filter(|s| s.domain == d).count();
    assert_eq!(count(""), 629);
    assert_eq!(count("ai.onnx.ml"), 25);
    assert_eq!(count("ai.onnx.preview"), 1);
    assert_eq!(count("ai.onnx.preview.training"), 4);
    assert!(onnx::all()
        .windows(2)
        .all(|w| { (w[0].domain, w[0].name, w[0].since_version) < (w[1].domain, w[1].name, w[1].since_version) }));
    assert_eq!(onnx::max_opset(""), Some(28));
    assert_eq!(onnx::max_opset("ai.onnx"), Some(28));
    assert_eq!(onnx::max_opset("ai.onnx.ml"), Some(5));
    assert!(onnx::all().iter().all(|s| s.since_version >= 1 && s.since_version <= 28));
}

#[test]
fn new_ops_since_versions() {
    let first = |name: &str| onnx::versions("", name).first().map(|s| s.since_version);
    assert_eq!(first("LayerNormalization"), Some(17));
    assert_eq!(first("Gelu"), Some(20));
    assert_eq!(first("Attention"), Some(23));
    assert_eq!(first("RMSNormalization"), Some(23));
    assert_eq!(first("RotaryEmbedding"), Some(23));
    assert!(onnx::lookup("", "LayerNormalization", 16).is_none());
    assert_eq!(onnx::lookup("", "LayerNormalization", 17).unwrap().since_version, 17);
    assert_eq!(onnx::lookup("ai.onnx", "Gelu", 28).unwrap().since_version, 20);
    assert!(onnx::lookup("", "Attention", 22).is_none());
    assert_eq!(onnx::lookup("", "Attention", 23).unwrap().since_version, 23);
    assert!(onnx::lookup("", "NoSuchOp", 28).is_none());
}

#[test]
fn reshape_version_selection() {
    let since: Vec<u32> = onnx::versions("", "Reshape").iter().map(|s| s.since_version).collect();
    assert_eq!(since, [1, 5, 13, 14, 19, 21, 23, 24, 25]);
    let at = |opset| onnx::lookup("", "Reshape", opset).map(|s| s.since_version);
    assert_eq!(at(0), None);
    assert_eq!(at(1), Some(1));
    assert_eq!(at(4), Some(1));
    assert_eq!(at(5), Some(5));
    assert_eq!(at(12), Some(5));
    assert_eq!(at(13), Some(13));
    assert_eq!(at(17), Some(14));
    assert_eq!(at(18), Some(14));
    assert_eq!(at(20), Some(19));
    assert_eq!(at(22), Some(21));
    assert_eq!(at(28), Some(25));
    let r14 = onnx::lookup("", "Reshape", 18).unwrap();
    assert_eq!(r14.next_version().unwrap().since_version, 19);
    assert_eq!(r14.attribute("allowzero").unwrap().default, Some(AttrDefault::Int(0)));
    assert_eq!(r14.input("shape").unwrap().type_str, "tensor(int64)");
    assert_eq!(onnx::latest("", "Reshape").unwrap().since_version, 25);
}

#[test]
fn layer_norm_schema() {
    let ln = onnx::lookup("", "LayerNormalization", 28).unwrap();
    assert_eq!((ln.min_input, ln.max_input, ln.min_output, ln.max_output), (2, 3, 1, 3));
    let ins: Vec<_> = ln.inputs.iter().map(|p| (p.name, p.type_str, p.option)).collect();
    assert_eq!(
        ins,
        [("X", "T", ParamOption::Single), ("Scale", "T", ParamOption::Single), ("B", "T", ParamOption::Optional)]
    );
    let eps = ln.attribute("epsilon").unwrap();
    assert_eq!(eps.ty, AttrType::Float);
    assert!(!eps.required);
    assert_eq!(eps.default, Some(AttrDefault::Float(1e-5)));
    assert_eq!(ln.attribute("axis").unwrap().default, Some(AttrDefault::Int(-1)));
    assert!(ln.allowed_types("T").unwrap().contains(&"tensor(float)"));
    assert!(ln.allowed_types("T").unwrap().contains(&"tensor(bfloat16)"));
}

#[test]
fn attributes_and_parameters() {
    let concat = onnx::lookup("", "Concat", 28).unwrap();
    assert_eq!(concat.inputs[0].option, ParamOption::Variadic);
    assert_eq!(concat.max_input, onnx::UNBOUNDED);
    let axis = concat.attribute("axis").unwrap();
    assert!(axis.required && axis.default.is_none() && axis.ty == AttrType::Int);

    let iff = onnx::lookup("", "If", 28).unwrap();
    assert_eq!(iff.attribute("then_branch").unwrap().ty, AttrType::Graph);
    assert!(!iff.outputs[0].is_homogeneous);

    let gelu = onnx::lookup("", "Gelu", 20).unwrap();
    assert_eq!(gelu.attribute("approximate").unwrap().default, Some(AttrDefault::String("none")));

    let cst = onnx::lookup("", "Constant", 28).unwrap();
    assert_eq!(cst.attribute("value").unwrap().ty, AttrType::Tensor);
    assert_eq!(cst.attribute("value_floats").unwrap().ty, AttrType::Floats);
    assert_eq!(cst.attribute("sparse_value").unwrap().ty.as_str(), "SPARSE_TENSOR");

    let upsample = onnx::lookup("", "Upsample", 28).unwrap();
    assert!(upsample.deprecated);
    assert_eq!(upsample.since_version, 10);

    let ml = onnx::lookup("ai.onnx.ml", "LinearClassifier", 5).unwrap();
    assert_eq!(ml.domain_name(), "ai.onnx.ml");
    assert_eq!(onnx::lookup("", "Add", 14).unwrap().domain_name(), "ai.onnx");
    let rms = onnx::lookup("", "RMSNormalization", 23).unwrap();
    assert_eq!(rms.attribute("stash_type").unwrap().default, Some(AttrDefault::Int(1)));
}
