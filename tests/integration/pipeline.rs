//! Pipelines through `aten2onnx::opt::run`: project passes mixed with
//! upstream MLIR passes, nested anchors, `--split-input-file` and
//! `--verify-diagnostics` semantics.

use crate::{count_ops, opt_options, run_pipeline, INPUT};
use aten2onnx::opt::{self, OptOptions, SPLIT_MARKER};

/// Dead aten ops, foldable arith, and duplicate arith ops.
const MIXED: &str = r#"
func.func @forward(%x: tensor<4xf32>, %i: index) -> (tensor<4xf32>, index, index) {
  %0 = "aten.relu.default"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "aten.neg.default"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.addi %c1, %c2 : index
  %a = arith.muli %i, %c3 : index
  %b = arith.muli %i, %c3 : index
  return %0, %a, %b : tensor<4xf32>, index, index
}
"#;

#[test]
fn project_and_upstream_passes_mix() {
    let pipeline = "builtin.module(func.func(dce, canonicalize), cse, aten-verify)";
    let output = run_pipeline(MIXED, pipeline).unwrap_or_else(|e| panic!("{e}"));
    let snapshot = format!("// pipeline: {pipeline}\n{output}");
    insta::assert_snapshot!("mixed", snapshot);
    assert_eq!(count_ops(&output, "aten.neg.default"), 0, "dce ran:\n{output}");
    assert_eq!(count_ops(&output, "aten.relu.default"), 1);
    assert_eq!(count_ops(&output, "arith.addi"), 0, "canonicalize folded 1 + 2:\n{output}");
    assert_eq!(count_ops(&output, "arith.muli"), 1, "cse merged the two muls:\n{output}");
    // Upstream passes keep unregistered ops they cannot reason about: without
    // dce the dead aten op stays.
    let output = run_pipeline(MIXED, "builtin.module(func.func(canonicalize), cse)").unwrap();
    assert_eq!(count_ops(&output, "aten.neg.default"), 1, "{output}");
}

#[test]
fn upstream_pass_options_are_handed_to_mlir() {
    let output =
        run_pipeline(MIXED, "builtin.module(func.func(canonicalize{max-iterations=3 region-simplify=disabled}))");
    assert!(output.is_ok(), "{output:?}");
}

/// Two functions in a nested module and one outside.
const NESTED: &str = r#"
module {
  func.func @outer(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "aten.neg.default"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %x : tensor<4xf32>
  }
  module @inner {
    func.func @inner(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = "aten.sin.default"(%x) : (tensor<4xf32>) -> tensor<4xf32>
      return %x : tensor<4xf32>
    }
  }
}
"#;

#[test]
fn nested_anchors() {
    // func.func(...) runs on the functions directly in the top module only.
    let output = run_pipeline(NESTED, "builtin.module(func.func(dce))").unwrap();
    assert_eq!((count_ops(&output, "aten.neg.default"), count_ops(&output, "aten.sin.default")), (0, 1), "{output}");
    // builtin.module(func.func(...)) nested once more reaches the inner module only.
    let output = run_pipeline(NESTED, "builtin.module(builtin.module(func.func(dce)))").unwrap();
    assert_eq!((count_ops(&output, "aten.neg.default"), count_ops(&output, "aten.sin.default")), (1, 0), "{output}");
    // On the module itself, dce reaches everything nested.
    let output = run_pipeline(NESTED, "builtin.module(dce)").unwrap();
    assert_eq!((count_ops(&output, "aten.neg.default"), count_ops(&output, "aten.sin.default")), (0, 0), "{output}");
    let pipeline = "builtin.module(builtin.module(func.func(dce)))";
    let snapshot = format!("// pipeline: {pipeline}\n{}", run_pipeline(NESTED, pipeline).unwrap());
    insta::assert_snapshot!("nested_inner_only", snapshot);
}

#[test]
fn an_empty_pipeline_only_parses_verifies_and_prints() {
    let output = run_pipeline(MIXED, "builtin.module()").unwrap();
    assert_eq!(output, opt::run(MIXED, INPUT, &OptOptions { verify_each: true, ..Default::default() }).unwrap());
    assert_eq!(count_ops(&output, "aten.neg.default"), 1);
}

/// The same function defined in two chunks: each chunk is its own module.
const SPLIT: &str = r#"func.func @forward(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "aten.neg.default"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}
// -----
func.func @forward(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "aten.sin.default"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"#;

fn split_options(pipeline: &str) -> OptOptions {
    OptOptions { split_input_file: true, ..opt_options(pipeline) }
}

#[test]
fn split_input_file_processes_chunks_independently() {
    let pipeline = "builtin.module(func.func(dce))";
    let output = opt::run(SPLIT, INPUT, &split_options(pipeline)).unwrap_or_else(|e| panic!("{e}"));
    let snapshot = format!("// pipeline: {pipeline} (split-input-file)\n{output}");
    insta::assert_snapshot!("split_input_file", snapshot);
    let chunks: Vec<&str> = output.split(&format!("{SPLIT_MARKER}\n")).collect();
    assert_eq!(chunks.len(), 2, "outputs are joined by the marker:\n{output}");
    // Each chunk's output is exactly what the chunk gives on its own.
    let (first, second) = SPLIT.split_once(&format!("{SPLIT_MARKER}\n")).unwrap();
    assert_eq!(chunks[0], run_pipeline(first, pipeline).unwrap());
    assert_eq!(chunks[1], run_pipeline(second, pipeline).unwrap());
    assert_eq!(count_ops(chunks[0], "aten.neg.default"), 0);
    assert_eq!(count_ops(chunks[1], "aten.sin.default"), 1);
    // Without splitting, the two @forward clash in one module.
    let error = run_pipeline(SPLIT, pipeline).expect_err("redefinition of @forward");
    assert!(error.contains("redefinition of symbol named 'forward'"), "{error}");
}

#[test]
fn split_input_file_reports_every_failing_chunk_with_file_lines() {
    let source = format!(
        "{SPLIT}{SPLIT_MARKER}\nfunc.func @bad(%x: tensor<4xf32>) {{\n  %0 = \"aten.frobnicate.default\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  return\n}}\n\
         {SPLIT_MARKER}\nfunc.func @worse(%x: tensor<4xf32>) {{\n  %0 = \"aten.relu.default\"(%x) {{foo = 1 : i64}} : (tensor<4xf32>) -> tensor<4xf32>\n  return\n}}\n"
    );
    let error = opt::run(&source, INPUT, &split_options("builtin.module(func.func(dce))")).unwrap_err().to_string();
    assert!(error.contains("input.mlir:12:8: error: 'aten.frobnicate.default'"), "{error}");
    assert!(error.contains("input.mlir:17:8: error: 'aten.relu.default' op has unknown attribute 'foo'"), "{error}");
    insta::assert_snapshot!("split_input_file_errors", error);
}

/// `--verify-diagnostics` with `--split-input-file`, as lit tests use it.
fn verify_diagnostics(source: &str) -> Result<String, String> {
    let options = OptOptions { verify_diagnostics: true, ..split_options("builtin.module(func.func(dce))") };
    opt::run(source, INPUT, &options).map_err(|e| e.to_string())
}

const BAD_OP: &str = r#"func.func @bad(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'aten.frobnicate.default' op is not in the aten registry}}
  %0 = "aten.frobnicate.default"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"#;

#[test]
fn verify_diagnostics_accepts_matching_expectations() {
    let source = format!("{BAD_OP}{SPLIT_MARKER}\n{}", SPLIT.split_once(SPLIT_MARKER).unwrap().0);
    let output = verify_diagnostics(&source).unwrap_or_else(|e| panic!("{e}"));
    // The failing chunk prints nothing; the good chunk is processed.
    assert!(!output.contains("frobnicate") && !output.contains(SPLIT_MARKER), "{output}");
    assert_eq!(count_ops(&output, "aten.neg.default"), 0, "dce ran on the good chunk:\n{output}");
    // The same expectation on the line itself (no offset), and a parse error.
    let same_line = BAD_OP
        .replace("  // expected-error @+1 {{'aten.frobnicate.default' op is not in the aten registry}}\n", "")
        .replace(
            "-> tensor<4xf32>\n  return",
            "-> tensor<4xf32> // expected-error {{not in the aten registry}}\n  return",
        );
    verify_diagnostics(&same_line).unwrap_or_else(|e| panic!("{e}\n{same_line}"));
    let parse_error = "func.func @f() {\n  // expected-error @below {{use of undeclared SSA value name}}\n  return %nope : tensor<4xf32>\n}\n";
    verify_diagnostics(parse_error).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn verify_diagnostics_rejects_a_missing_expectation() {
    let source =
        BAD_OP.replace("  // expected-error @+1 {{'aten.frobnicate.default' op is not in the aten registry}}\n", "");
    let error = verify_diagnostics(&source).expect_err("an unexpected error");
    assert!(error.contains("unexpected input.mlir:2:8: error: 'aten.frobnicate.default'"), "{error}");
    insta::assert_snapshot!("verify_diagnostics_missing", error);
}

#[test]
fn verify_diagnostics_rejects_a_wrong_expectation() {
    let source = BAD_OP.replace("is not in the aten registry", "is perfectly fine");
    let error = verify_diagnostics(&source).expect_err("wrong message");
    assert!(error.contains("unexpected input.mlir:3:8: error:"), "{error}");
    assert!(
        error.contains(
            "line 2: expected error on line 3 was not produced: 'aten.frobnicate.default' op is perfectly fine"
        ),
        "{error}"
    );
    insta::assert_snapshot!("verify_diagnostics_wrong_message", error);
    // Right message, wrong line.
    let source = BAD_OP.replace("@+1", "@+2");
    let error = verify_diagnostics(&source).expect_err("wrong line");
    assert!(error.contains("expected error on line 4 was not produced"), "{error}");
    // An expectation on a valid chunk.
    let source = format!("// expected-error @+1 {{{{nothing wrong}}}}\n{}", SPLIT.split_once(SPLIT_MARKER).unwrap().0);
    let error = verify_diagnostics(&source).expect_err("no error produced");
    assert!(error.contains("was not produced: nothing wrong"), "{error}");
}

/// `aten-translate` verifies the pipeline's result only
/// (`Verification::Result`); on a failure it re-runs the pipeline on a copy
/// of its input with the verifiers after every pass. Both modes must give
/// the same module on success and the same diagnostics on failure.
#[test]
fn verifying_the_result_only_matches_verifying_each_pass() {
    use aten2onnx::translate::{run_pipeline_with, Verification};
    let run = |source: &str, pipeline: &str, mode: Verification| -> Result<String, String> {
        let context = aten2onnx::create_context();
        let mut module = aten2onnx::module::parse(&context, source, INPUT).map_err(|e| e.to_string())?;
        run_pipeline_with(&context, &mut module, INPUT, pipeline, mode).map_err(|e| e.to_string())?;
        Ok(module.as_operation().to_string())
    };
    let lowering = aten2onnx::translate::default_pipeline(23);
    let each = run(MIXED, "builtin.module(func.func(dce, canonicalize), cse)", Verification::EachPass);
    let result = run(MIXED, "builtin.module(func.func(dce, canonicalize), cse)", Verification::Result);
    assert!(each.is_ok(), "{each:?}");
    assert_eq!(each, result);
    // A pass that fails (an op without a lowering): the re-run's error, as
    // with EachPass.
    let no_rule = r#"
func.func @forward(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "aten.relu.default"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "aten.fbgemm_pack_gemm_matrix_fp16.default"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
"#;
    let each = run(no_rule, &lowering, Verification::EachPass).unwrap_err();
    assert!(each.contains("have no lowering to ONNX opset 23"), "{each}");
    let result = run(no_rule, &lowering, Verification::Result).unwrap_err();
    assert_eq!(each, result);
    // A result the verifiers refuse (here the input already was: this
    // function does not verify its input, `translate::load` does): the
    // first run ends invalid, the re-run names the first pass after which
    // the verifiers fail.
    let invalid = MIXED.replace("aten.neg.default", "aten.frobnicate.default");
    let invalid = invalid.replace("return %0, %a, %b", "return %1, %a, %b");
    let each = run(&invalid, "builtin.module(func.func(dce))", Verification::EachPass).unwrap_err();
    let result = run(&invalid, "builtin.module(func.func(dce))", Verification::Result).unwrap_err();
    assert!(each.contains("'aten.frobnicate.default' op is not in the aten registry"), "{each}");
    assert_eq!(each, result);
}
