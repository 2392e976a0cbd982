//! `aten-decompose` (passes/lowering/src/decompositions/): every decomposition, on
//! every sample and dtype it declares, is checked numerically like a
//! lowering rule: libtorch runs the original op, onnxruntime the model
//! converted with the decomposition forced (`--decompose <op>`), which must
//! have removed the op. Snapshot and lit tests of the pass are with the
//! other passes (tests/integration/passes.rs, lit-tests/aten-decompose.mlir).

use crate::{count_ops, differential, run_pipeline};
use aten2onnx::translate::ConvertOptions;
use aten2onnx_passes::{decompositions, lowering::Rule};

/// Every decomposition, every dtype, every sample: the decomposed program
/// matches libtorch's result of the original op.
#[test]
fn every_decomposition_matches_libtorch() {
    if crate::parity::ort_missing() {
        return;
    }
    let dir = crate::scratch_dir("decompose");
    let only = std::env::var("ATEN2ONNX_ONLY").ok();
    let (mut failures, mut runs, mut count) = (Vec::new(), 0, 0);
    let mut index = 0;
    for d in decompositions::all() {
        if only.as_ref().is_some_and(|o| !o.split(',').any(|p| d.target.contains(p))) {
            continue;
        }
        count += 1;
        if d.samples.is_empty() {
            failures.push(format!("{}: declares no samples", d.target));
            continue;
        }
        // The differential harness reads the target, samples and dtypes of a rule.
        let rule = Rule::custom(d.target, |_| Err("not a lowering rule".into())).samples(d.samples).dtypes(d.dtypes);
        let options = ConvertOptions { decompose: vec![d.target.to_string()], ..Default::default() };
        for dtype in d.dtypes {
            for sample in d.samples {
                index += 1;
                runs += 1;
                if let Err(e) = differential::check_with(&rule, dtype, sample, &dir, index, &options) {
                    failures.push(format!("{} [{dtype}] {{{sample}}}: {e}", d.target));
                    continue;
                }
                // The op is gone after the pass (the model did not come from its rule).
                let text = std::fs::read_to_string(dir.join(format!("case{index}.mlir"))).unwrap();
                let pipeline = format!("builtin.module(aten-decompose{{ops={}}})", d.target);
                match run_pipeline(&text, &pipeline) {
                    Ok(out) if count_ops(&out, d.target) == 0 => {}
                    Ok(_) => {
                        failures.push(format!("{} [{dtype}] {{{sample}}}: still there after {pipeline}", d.target))
                    }
                    Err(e) => failures.push(format!("{} [{dtype}] {{{sample}}}: {pipeline}: {e}", d.target)),
                }
            }
        }
    }
    eprintln!("decompositions: {count}, {runs} (decomposition, dtype, sample) runs, {} failures", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}

/// Targets are registry overloads, listed once.
#[test]
fn decompositions_name_registry_ops_once() {
    let mut seen = std::collections::BTreeSet::new();
    for d in decompositions::all() {
        assert!(aten2onnx_passes::aten_ir::classify(d.target).is_ok(), "{} is not a registry op", d.target);
        assert!(seen.insert(d.target), "{} has two decompositions", d.target);
    }
}

/// By default only ops without a rule are decomposed: a graph whose ops all
/// have rules is left as it is.
#[test]
fn only_ops_without_rules_are_decomposed_by_default() {
    let input = r#"
func.func @f(%g: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "aten.tanh_backward.default"(%g, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "aten.tanh.default"(%y) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}"#;
    let out = run_pipeline(input, "builtin.module(aten-decompose)").unwrap();
    assert_eq!(count_ops(&out, "aten.tanh_backward.default"), 0, "{out}");
    assert_eq!(count_ops(&out, "aten.tanh.default"), 1, "{out}");
    // legal-ops keeps what it lists, decomposes the rest.
    let out = run_pipeline(input, "builtin.module(aten-decompose{legal-ops=aten.tanh_backward.default})").unwrap();
    assert_eq!(count_ops(&out, "aten.tanh_backward.default"), 1, "{out}");
}

/// Bad options name the op.
#[test]
fn bad_options_are_refused() {
    let input = "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> { return %x : tensor<2xf32> }";
    for (pipeline, message) in [
        ("builtin.module(aten-decompose{ops=aten.relu.default})", "'aten.relu.default' has no decomposition"),
        ("builtin.module(aten-decompose{ops=aten.nope.default})", "'aten.nope.default' in 'ops'"),
        (
            "builtin.module(aten-decompose{ops=aten.tanh_backward.default legal-ops=aten.tanh_backward.default})",
            "both in 'ops' and in 'legal-ops'",
        ),
        ("builtin.module(aten-decompose{opset=3})", "outside the supported range"),
    ] {
        let e = run_pipeline(input, pipeline).expect_err(pipeline);
        assert!(e.contains(message), "{pipeline}: {e}");
    }
}
