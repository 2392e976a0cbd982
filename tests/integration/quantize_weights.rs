//! Weight-only quantization (`--quantize-weights`, the `onnx-quantize-weights`
//! pass and the writer's RTN transforms, src/export/rtn.rs).
//!
//! The quantized initializers must be, bit for bit, what onnxruntime's own
//! RTN quantizer (`MatMulNBitsQuantizer`) writes for the same float weights,
//! in both forms (MatMulNBits with `--target onnxruntime`; blocked
//! DequantizeLinear + MatMul for 4 bits), and the quantized model must then
//! compute what the quantizer's model computes (tools/check_rtn_parity.py
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
                .arg("tools/check_rtn_parity.py")
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
