//! The project passes (`aten2onnx_passes::REGISTRY`) on small modules, run
//! through `aten2onnx::opt::run` like `aten-opt` runs them. Every snapshot
//! records the pipeline it ran (`// pipeline: ...`), the input, and the output
//! or the error message.

use crate::{count_ops, import, opt_options, parse_and_verify, run_pipeline, INPUT, VALID_FIXTURES};
use aten2onnx::{
    module::PrintOptions,
    opt::{self, OptOptions},
    pipeline::{Element, Pipeline},
};
use std::path::Path;

const SNAPSHOT_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/integration/snapshots");
const SNAPSHOT_PREFIX: &str = "integration__passes__";

/// The snapshot name of a case: the pass flag with `_` for `-`, then the case.
fn snapshot_name(pass: &str, case: &str) -> String {
    format!("{}_{case}", pass.replace('-', "_"))
}

/// Runs `pipeline` over `input` (verify-each on: the registry verifiers run on
/// the input and after every project pass), snapshots input and output, and
/// returns the output.
fn check_output(pass: &str, case: &str, pipeline: &str, input: &str) -> String {
    let output = run_pipeline(input, pipeline).unwrap_or_else(|e| panic!("{pass}/{case} failed:\n{e}"));
    // What the pass printed parses back and verifies on its own.
    parse_and_verify(&output, PrintOptions::default()).unwrap_or_else(|e| panic!("{pass}/{case} output:\n{e}"));
    let snapshot =
        format!("// pipeline: {pipeline}\n// ---- input ----\n{}\n// ---- output ----\n{output}", input.trim());
    insta::assert_snapshot!(snapshot_name(pass, case), snapshot);
    output
}

/// Runs a verifier pass over an invalid module and snapshots the error. The
/// pass alone (verify-each off) and the input verification of verify-each
/// must report the same diagnostics.
fn check_error(pass: &str, case: &str, input: &str) -> String {
    let pipeline = format!("builtin.module({pass})");
    let alone = OptOptions { verify_each: false, ..opt_options(&pipeline) };
    let error = match opt::run(input, INPUT, &alone) {
        Ok(output) => panic!("{pass}/{case}: expected an error, got\n{output}"),
        Err(error) => error.to_string(),
    };
    let with_verify_each = run_pipeline(input, &pipeline).expect_err("verify-each must reject the input");
    assert_eq!(with_verify_each, error, "{pass}/{case}: verify-each reports differently from the pass");
    let snapshot =
        format!("// pipeline: {pipeline}\n// ---- input ----\n{}\n// ---- error ----\n{error}", input.trim());
    insta::assert_snapshot!(snapshot_name(pass, case), snapshot);
    error
}

/// Parses `text` and prints it again (the canonical form of a test input).
fn reprinted(text: &str) -> String {
    parse_and_verify(text, PrintOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

// ---------------------------------------------------------------- aten-verify

const VALID_ATEN: &str = r#"
module attributes {aten.archive = "model.pt2"} {
  func.func @forward(%x: tensor<?x8xf32, ["s0"]>, %y: tensor<4x8xf32>) -> (tensor<?x4xf32, ["s0"]>, tensor<?x8xf32, ["s0"]>, tensor<?x2xf32, ["s0"]>, tensor<?x8xf16, ["s0"]>) {
    %w = "aten.weight"() {kind = "parameter", name = "fc.weight"} : () -> tensor<4x8xf32>
    %b = "aten.weight"() {kind = "parameter", name = "fc.bias"} : () -> tensor<4xf32>
    %0 = "aten.linear.default"(%x, %w, %b) : (tensor<?x8xf32, ["s0"]>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
    // No bias: the optional argument is absent without operandSegmentSizes.
    %1 = "aten.linear.default"(%x, %w) : (tensor<?x8xf32, ["s0"]>, tensor<4x8xf32>) -> tensor<?x4xf32, ["s0"]>
    %2 = "aten.add.Tensor"(%0, %1) {alpha = 1 : i64} : (tensor<?x4xf32, ["s0"]>, tensor<?x4xf32, ["s0"]>) -> tensor<?x4xf32, ["s0"]>
    // A wrapped number for a Tensor argument.
    %3 = "aten.mul.Tensor"(%2) {other = 2.0 : f64} : (tensor<?x4xf32, ["s0"]>) -> tensor<?x4xf32, ["s0"]>
    %4 = "aten.cat.default"(%x, %y) {dim = 0 : i64, operandSegmentSizes = array<i32: 2, 0>} : (tensor<?x8xf32, ["s0"]>, tensor<4x8xf32>) -> tensor<?x8xf32, ["s0 + 4"]>
    %n = "aten.sym_size.int"(%x) {dim = 0 : i64} : (tensor<?x8xf32, ["s0"]>) -> i64
    %c = "aten.sym.constant"() {value = 8 : i64} : () -> i64
    %m = "aten.sym.mul"(%n, %c) : (i64, i64) -> i64
    %5 = "aten.view.default"(%x, %n, %c) {operandSegmentSizes = array<i32: 1, 2>} : (tensor<?x8xf32, ["s0"]>, i64, i64) -> tensor<?x8xf32, ["s0"]>
    %none = "aten.none"() : () -> none
    %idx = "aten.weight"() {kind = "constant", name = "idx"} : () -> tensor<2xi64>
    %6 = "aten.index.Tensor"(%5, %none, %idx) {operandSegmentSizes = array<i32: 1, 2>} : (tensor<?x8xf32, ["s0"]>, none, tensor<2xi64>) -> tensor<?x2xf32, ["s0"]>
    %7 = "aten.to.dtype"(%5) {dtype = f16, non_blocking = false, copy = false} : (tensor<?x8xf32, ["s0"]>) -> tensor<?x8xf16, ["s0"]>
    %8 = "aten.add_.Tensor"(%5, %x) {alpha = 1 : i64} : (tensor<?x8xf32, ["s0"]>, tensor<?x8xf32, ["s0"]>) -> tensor<?x8xf32, ["s0"]>
    return %3, %8, %6, %7 : tensor<?x4xf32, ["s0"]>, tensor<?x8xf32, ["s0"]>, tensor<?x2xf32, ["s0"]>, tensor<?x8xf16, ["s0"]>
  }
}
"#;

#[test]
fn aten_verify_passes_a_valid_module_unchanged() {
    let output = check_output("aten-verify", "valid", "builtin.module(aten-verify)", VALID_ATEN);
    assert_eq!(output, reprinted(VALID_ATEN));
}

/// An invalid aten module: `op` is one line inside a function taking `%x`.
fn aten_case(op: &str) -> String {
    format!("func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {{\n  {op}\n  return %x : tensor<2x3xf32>\n}}\n")
}

#[test]
fn aten_verify_rejects_an_unknown_op() {
    let error = check_error(
        "aten-verify",
        "unknown_op",
        &aten_case(r#"%0 = "aten.frobnicate.default"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>"#),
    );
    assert!(
        error.contains("input.mlir:2:8: error: 'aten.frobnicate.default' op is not in the aten registry"),
        "{error}"
    );
}

#[test]
fn aten_verify_lists_the_known_overloads() {
    let error = check_error(
        "aten-verify",
        "unknown_overload",
        &aten_case(r#"%0 = "aten.add.Foo"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>"#),
    );
    assert!(error.contains("'add' has no overload 'Foo' (overloads: "), "{error}");
    for overload in ["Tensor", "Scalar", "out"] {
        assert!(error.contains(&format!(" {overload},")) || error.contains(&format!(" {overload})")), "{error}");
    }
}

#[test]
fn aten_verify_rejects_a_wrong_attribute_kind() {
    let error = check_error(
        "aten-verify",
        "wrong_attribute_kind",
        &aten_case(
            r#"%0 = "aten.transpose.int"(%x) {dim0 = 0.0 : f64, dim1 = 1 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>"#,
        ),
    );
    assert!(error.contains("attribute 'dim0' must hold a value of type int, got float"), "{error}");
}

#[test]
fn aten_verify_rejects_a_missing_argument() {
    let error = check_error(
        "aten-verify",
        "missing_argument",
        &aten_case(
            r#"%0 = "aten.transpose.int"(%x) {dim0 = 0 : i64, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>"#,
        ),
    );
    assert!(error.contains("missing argument 'dim1' (int)"), "{error}");
}

#[test]
fn aten_verify_rejects_an_unknown_attribute() {
    let error = check_error(
        "aten-verify",
        "unknown_attribute",
        &aten_case(r#"%0 = "aten.relu.default"(%x) {foo = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#),
    );
    assert!(error.contains("has unknown attribute 'foo' (arguments: self)"), "{error}");
}

#[test]
fn aten_verify_rejects_a_wrong_operand_count() {
    let error = check_error(
        "aten-verify",
        "wrong_operand_count",
        &aten_case(r#"%0 = "aten.relu.default"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>"#),
    );
    assert!(error.contains("has 2 operands but expects 1 (self)"), "{error}");
}

#[test]
fn aten_verify_rejects_a_wrong_result_count() {
    let error = check_error(
        "aten-verify",
        "wrong_result_count",
        &aten_case(r#"%0:2 = "aten.relu.default"(%x) : (tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)"#),
    );
    assert!(error.contains("has 2 results but the schema returns 1"), "{error}");
}

/// Every problem of a module is reported, each at its op, not only the first.
#[test]
fn aten_verify_reports_every_bad_op() {
    let input = "func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = \"aten.frobnicate.default\"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = \"aten.relu.default\"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = \"aten.relu.default\"(%x) {foo = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %x : tensor<2x3xf32>
}
";
    let error = check_error("aten-verify", "every_bad_op", input);
    assert!(error.contains("input.mlir:2:8: error:") && error.contains("input.mlir:4:8: error:"), "{error}");
    assert!(!error.contains("input.mlir:3:"), "{error}");
}

// ---------------------------------------------------------------- onnx-verify

const VALID_ONNX: &str = r#"
module attributes {onnx.opset = 23 : i64} {
  func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %s: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
    %0 = "onnx.Add"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = "onnx.Concat"(%0, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    %2 = "onnx.LayerNormalization"(%a, %s) {axis = -1 : i64, epsilon = 1.0e-05 : f32} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    // A missing optional input in the middle.
    %none = "onnx.none"() : () -> none
    %max = "onnx.Constant"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
    %3 = "onnx.Clip"(%2, %none, %max) : (tensor<2x3xf32>, none, tensor<f32>) -> tensor<2x3xf32>
    %4 = "onnx.Transpose"(%3) {perm = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %1, %3, %4 : tensor<4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
  }
}
"#;

#[test]
fn onnx_verify_passes_a_valid_module_unchanged() {
    let output = check_output("onnx-verify", "valid", "builtin.module(onnx-verify)", VALID_ONNX);
    assert_eq!(output, reprinted(VALID_ONNX));
}

/// An invalid onnx module at `opset`: `op` is one line inside a function
/// taking `%x: tensor<2x3xf32>` and `%i: tensor<2x3xi64>`.
fn onnx_case(opset: u32, op: &str) -> String {
    format!(
        "module attributes {{onnx.opset = {opset} : i64}} {{\n\
         func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {{\n  {op}\n  return %x : tensor<2x3xf32>\n}}\n}}\n"
    )
}

#[test]
fn onnx_verify_rejects_an_op_not_at_the_module_opset() {
    let op = r#"%0 = "onnx.LayerNormalization"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>"#;
    let error = check_error("onnx-verify", "not_at_opset", &onnx_case(12, op));
    assert!(
        error.contains("'onnx.LayerNormalization' op does not exist at opset 12 (defined since opset 17)"),
        "{error}"
    );
    // The same op is fine at opset 17.
    run_pipeline(&onnx_case(17, op), "builtin.module(onnx-verify)").expect("LayerNormalization exists at opset 17");
}

#[test]
fn onnx_verify_rejects_a_missing_required_attribute() {
    let error = check_error(
        "onnx-verify",
        "missing_attribute",
        &onnx_case(23, r#"%0 = "onnx.Concat"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>"#),
    );
    assert!(error.contains("'onnx.Concat' op misses required attribute 'axis'"), "{error}");
}

#[test]
fn onnx_verify_rejects_a_violated_type_constraint() {
    let error = check_error(
        "onnx-verify",
        "type_constraint",
        &onnx_case(23, r#"%0 = "onnx.Add"(%x, %i) : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>"#),
    );
    assert!(error.contains("input #1 ('B') has type tensor(int64) but T is already bound to tensor(float)"), "{error}");
}

#[test]
fn onnx_verify_rejects_a_wrong_input_count() {
    let error = check_error(
        "onnx-verify",
        "wrong_input_count",
        &onnx_case(23, r#"%0 = "onnx.Add"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>"#),
    );
    assert!(error.contains("'onnx.Add' op has 1 inputs; Add takes 2"), "{error}");
}

#[test]
fn onnx_verify_rejects_an_unknown_op() {
    let error = check_error(
        "onnx-verify",
        "unknown_op",
        &onnx_case(23, r#"%0 = "onnx.Frobnicate"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>"#),
    );
    assert!(error.contains("'onnx.Frobnicate' op is not an ONNX op (domain ai.onnx"), "{error}");
}

/// Without an `onnx.opset` attribute the module targets opset 23.
#[test]
fn onnx_verify_defaults_to_opset_23() {
    let op = r#"%0 = "onnx.Add"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>"#;
    let no_opset =
        format!("func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {{\n  {op}\n  return %0 : tensor<2x3xf32>\n}}\n");
    run_pipeline(&no_opset, "builtin.module(onnx-verify)").expect("Add exists at the default opset");
    let deprecated = no_opset.replace(
        op,
        r#"%s = "onnx.Constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "onnx.Upsample"(%x, %s) : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>"#,
    );
    let error = run_pipeline(&deprecated, "builtin.module(onnx-verify)").expect_err("Upsample is deprecated");
    assert!(error.contains("'onnx.Upsample' op is deprecated at opset 23"), "{error}");
}

/// Each verifier checks its own dialect only.
#[test]
fn each_verifier_checks_its_own_dialect() {
    let bad_aten = aten_case(r#"%0 = "aten.frobnicate.default"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>"#);
    let bad_onnx = onnx_case(23, r#"%0 = "onnx.Add"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>"#);
    let alone = |pass: &str| OptOptions { verify_each: false, ..opt_options(&format!("builtin.module({pass})")) };
    assert!(opt::run(&bad_aten, INPUT, &alone("onnx-verify")).is_ok());
    assert!(opt::run(&bad_onnx, INPUT, &alone("aten-verify")).is_ok());
    assert!(opt::run(&bad_aten, INPUT, &alone("aten-verify")).is_err());
    assert!(opt::run(&bad_onnx, INPUT, &alone("onnx-verify")).is_err());
}

// ------------------------------------------------------------------------ dce

const DCE_PIPELINE: &str = "builtin.module(func.func(dce))";

#[test]
fn dce_removes_dead_chains() {
    let input = r#"
func.func @forward(%x: tensor<?x4xf32, ["s0"]>) -> tensor<?x4xf32, ["s0"]> {
  %w = "aten.weight"() {kind = "parameter", name = "unused.weight"} : () -> tensor<4x4xf32>
  %0 = "aten.relu.default"(%x) : (tensor<?x4xf32, ["s0"]>) -> tensor<?x4xf32, ["s0"]>
  %1 = "aten.neg.default"(%x) : (tensor<?x4xf32, ["s0"]>) -> tensor<?x4xf32, ["s0"]>
  %2 = "aten.sin.default"(%1) : (tensor<?x4xf32, ["s0"]>) -> tensor<?x4xf32, ["s0"]>
  %3 = "aten.mul.Tensor"(%2, %1) : (tensor<?x4xf32, ["s0"]>, tensor<?x4xf32, ["s0"]>) -> tensor<?x4xf32, ["s0"]>
  %4 = "aten.mm.default"(%3, %w) : (tensor<?x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x4xf32, ["s0"]>
  %n = "aten.sym_size.int"(%x) {dim = 0 : i64} : (tensor<?x4xf32, ["s0"]>) -> i64
  %c = "aten.sym.constant"() {value = 2 : i64} : () -> i64
  %m = "aten.sym.mul"(%n, %c) : (i64, i64) -> i64
  return %0 : tensor<?x4xf32, ["s0"]>
}
"#;
    let output = check_output("dce", "dead_chain", DCE_PIPELINE, input);
    for dead in [
        "aten.weight",
        "aten.neg.default",
        "aten.sin.default",
        "aten.mul.Tensor",
        "aten.mm.default",
        "aten.sym_size.int",
        "aten.sym.constant",
        "aten.sym.mul",
    ] {
        assert_eq!(count_ops(&output, dead), 0, "{dead} should be gone:\n{output}");
    }
    assert_eq!(count_ops(&output, "aten.relu.default"), 1);
}

#[test]
fn dce_keeps_ops_that_write_an_argument() {
    let input = r#"
func.func @forward(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %steps = "aten.weight"() {kind = "buffer", name = "steps"} : () -> tensor<i64>
  %0 = "aten.add_.Tensor"(%steps) {alpha = 1 : i64, other = 1 : i64} : (tensor<i64>) -> tensor<i64>
  %1 = "aten.add_.Tensor"(%x, %y) {alpha = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "aten.relu_.default"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "aten.add.Tensor"(%x, %y) {alpha = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %buf = "aten.empty.memory_format"() {size = array<i64: 4>, dtype = f32} : () -> tensor<4xf32>
  %4 = "aten.add.out"(%x, %y, %buf) {alpha = 1 : i64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}
"#;
    let output = check_output("dce", "keeps_inplace", DCE_PIPELINE, input);
    assert_eq!(count_ops(&output, "aten.add_.Tensor"), 2, "inplace ops stay even when unused:\n{output}");
    assert_eq!(count_ops(&output, "aten.relu_.default"), 1);
    assert_eq!(count_ops(&output, "aten.add.out"), 1, "out= variants write their 'out' argument");
    assert_eq!(count_ops(&output, "aten.weight"), 1, "the buffer written in place stays");
    assert_eq!(count_ops(&output, "aten.empty.memory_format"), 1, "the out= buffer stays");
    assert_eq!(count_ops(&output, "aten.add.Tensor"), 0, "the functional add is dead");
}

#[test]
fn dce_removes_dead_onnx_ops() {
    let input = r#"
module attributes {onnx.opset = 23 : i64} {
  func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "onnx.Add"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = "onnx.Mul"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %2 = "onnx.Relu"(%1) : (tensor<4xf32>) -> tensor<4xf32>
    %none = "onnx.none"() : () -> none
    %max = "onnx.Constant"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
    %3 = "onnx.Clip"(%2, %none, %max) : (tensor<4xf32>, none, tensor<f32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
"#;
    let output = check_output("dce", "onnx", DCE_PIPELINE, input);
    assert_eq!(count_ops(&output, "onnx.Add"), 1);
    for dead in ["onnx.Mul", "onnx.Relu", "onnx.none", "onnx.Constant", "onnx.Clip"] {
        assert_eq!(count_ops(&output, dead), 0, "{dead} should be gone:\n{output}");
    }
}

#[test]
fn dce_cleans_higher_order_op_regions() {
    let input = r#"
func.func @forward(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "aten.hop.cond"(%p, %x) ({
  ^bb0(%a: tensor<4xf32>):
    %dead = "aten.neg.default"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %s = "aten.sin.default"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "aten.yield"(%s) : (tensor<4xf32>) -> ()
  }, {
  ^bb0(%a: tensor<4xf32>):
    %c = "aten.cos.default"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %e = "aten.exp.default"(%c) : (tensor<4xf32>) -> tensor<4xf32>
    "aten.yield"(%a) : (tensor<4xf32>) -> ()
  }) {arg_names = ["pred", "operands"], operandSegmentSizes = array<i32: 1, 1>} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  // Unused, but a higher-order op is kept (it may have side effects); its
  // dead inner ops go.
  %1 = "aten.hop.cond"(%p, %x) ({
  ^bb0(%a: tensor<4xf32>):
    %t = "aten.tanh.default"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "aten.yield"(%a) : (tensor<4xf32>) -> ()
  }, {
  ^bb0(%a: tensor<4xf32>):
    "aten.yield"(%a) : (tensor<4xf32>) -> ()
  }) {arg_names = ["pred", "operands"], operandSegmentSizes = array<i32: 1, 1>} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"#;
    let output = check_output("dce", "cond_region", DCE_PIPELINE, input);
    assert_eq!(count_ops(&output, "aten.hop.cond"), 2);
    assert_eq!(count_ops(&output, "aten.sin.default"), 1, "used by the yield");
    for dead in ["aten.neg.default", "aten.cos.default", "aten.exp.default", "aten.tanh.default"] {
        assert_eq!(count_ops(&output, dead), 0, "{dead} should be gone:\n{output}");
    }
}

/// dce keeps nothing dead and removes nothing live: running it twice is the
/// same as once, and on a module without dead ops it changes nothing.
#[test]
fn dce_is_idempotent() {
    let output = run_pipeline(VALID_ATEN, DCE_PIPELINE).unwrap();
    assert_eq!(run_pipeline(&output, DCE_PIPELINE).unwrap(), output);
    let onnx = run_pipeline(VALID_ONNX, DCE_PIPELINE).unwrap();
    assert_eq!(onnx, reprinted(VALID_ONNX), "nothing is dead in VALID_ONNX");
}

/// The op names of `text`, in order, with their count.
fn op_histogram(text: &str) -> std::collections::BTreeMap<String, usize> {
    let context = aten2onnx::create_context();
    let module = aten2onnx::module::parse(&context, text, INPUT).unwrap();
    let mut counts = std::collections::BTreeMap::new();
    for name in crate::op_names(module.as_operation()) {
        *counts.entry(name).or_insert(0) += 1;
    }
    counts
}

/// True for ops dce must never remove: inplace / out= variants (by name) and
/// higher-order ops.
fn has_side_effects(name: &str) -> bool {
    let base = name.strip_prefix("aten.").and_then(|n| n.rsplit_once('.'));
    name.starts_with("aten.hop.") || matches!(base, Some((op, overload)) if op.ends_with('_') || overload == "out")
}

/// dce on every imported fixture leaves a module the verifiers accept, and
/// never removes an op with side effects. The snapshot lists what it removed.
#[test]
fn dce_on_every_fixture() {
    let mut summary = String::new();
    for name in VALID_FIXTURES {
        let text = import(name, false);
        let output = run_pipeline(&text, DCE_PIPELINE).unwrap_or_else(|e| panic!("dce on {name}:\n{e}"));
        parse_and_verify(&output, PrintOptions::default()).unwrap_or_else(|e| panic!("dce on {name}:\n{e}"));
        let before = op_histogram(&text);
        let after = op_histogram(&output);
        let mut removed = Vec::new();
        for (op, count) in &before {
            let left = after.get(op).copied().unwrap_or(0);
            if has_side_effects(op) {
                assert_eq!(left, *count, "dce on {name} removed {op}");
            }
            if left < *count {
                removed.push(format!("{op} x{}", count - left));
            }
        }
        assert!(after.keys().all(|op| before.contains_key(op)), "dce on {name} added ops");
        summary.push_str(&format!(
            "{name}: {} ops -> {}; removed: {}\n",
            before.values().sum::<usize>(),
            after.values().sum::<usize>(),
            if removed.is_empty() { "nothing".to_string() } else { removed.join(", ") }
        ));
    }
    let snapshot = format!("// pipeline: {DCE_PIPELINE}\n{summary}");
    insta::assert_snapshot!(snapshot_name("dce", "fixtures"), snapshot);
}

// ------------------------------------------------------------------ coverage

/// The project passes a pipeline names.
fn passes_in(elements: &[Element], out: &mut Vec<String>) {
    for element in elements {
        match element {
            Element::Pass { name, .. } => out.push(name.clone()),
            Element::Nested { elements, .. } => passes_in(elements, out),
        }
    }
}

/// Every pass in the registry has a snapshot test here (a snapshot of this
/// module whose recorded pipeline runs it) and a lit test
/// `lit-tests/<flag>.mlir`. A new pass without tests fails this test.
#[test]
fn every_registered_pass_has_tests() {
    let mut tested: Vec<String> = Vec::new();
    let entries = std::fs::read_dir(SNAPSHOT_DIR).unwrap_or_else(|e| panic!("{SNAPSHOT_DIR}: {e}"));
    for entry in entries {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        if !(file.starts_with(SNAPSHOT_PREFIX) && file.ends_with(".snap")) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            if let Some(pipeline) = line.strip_prefix("// pipeline: ") {
                let pipeline = Pipeline::parse(pipeline).unwrap_or_else(|e| panic!("{file}: {e}"));
                passes_in(&pipeline.elements, &mut tested);
            }
        }
    }
    let lit_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("lit-tests");
    let mut missing = Vec::new();
    for info in aten2onnx_passes::REGISTRY {
        if !tested.iter().any(|t| t == info.name) {
            missing.push(format!(
                "pass '{}' has no snapshot test in tests/integration/passes.rs (a snapshot named '{}_<case>' recording '// pipeline: ...{}...')",
                info.name,
                info.name.replace('-', "_"),
                info.name
            ));
        }
        let lit = lit_dir.join(format!("{}.mlir", info.name));
        if !lit.is_file() {
            missing.push(format!("pass '{}' has no lit test lit-tests/{}.mlir", info.name, info.name));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

// ------------------------------------------- the stages of the main pipeline

/// The aten module of a fixture after `stages` (an aten-opt pipeline body).
fn staged(fixture_name: &str, stages: &str) -> String {
    let aten = crate::import(fixture_name, false);
    if stages.is_empty() {
        return aten;
    }
    run_pipeline(&aten, &format!("builtin.module({stages})")).unwrap_or_else(|e| panic!("{stages}: {e}"))
}

#[test]
fn aten_remove_inplace_on_attention() {
    // attention: add_ on a user value, masked_fill_, and a buffer counter.
    let input = staged("attention", "");
    let output = check_output("aten-remove-inplace", "attention", "builtin.module(aten-remove-inplace)", &input);
    for gone in ["aten.add_.Tensor", "aten.masked_fill_.Scalar"] {
        assert_eq!(count_ops(&output, gone), 0, "{gone} should be gone");
    }
    assert!(output.contains(r#"aten.kind = "buffer_mutation", aten.name = "steps", aten.target = "steps""#));
}

#[test]
fn convert_aten_to_onnx_on_mlp() {
    let input = staged("mlp", "aten-remove-inplace");
    let output = check_output("convert-aten-to-onnx", "mlp", "builtin.module(convert-aten-to-onnx)", &input);
    assert!(!output.contains("\"aten."), "aten ops left:\n{output}");
    assert!(output.contains("onnx.opset = 23 : i64"));
}

#[test]
fn onnx_fold_constants_on_attention() {
    let input = staged("attention", "aten-remove-inplace, convert-aten-to-onnx");
    let output =
        check_output("onnx-fold-constants", "attention", "builtin.module(func.func(onnx-fold-constants))", &input);
    // Static shapes: every Shape op folds away.
    assert_eq!(count_ops(&output, "onnx.Shape"), 0, "{output}");
}

#[test]
fn onnx_cse_on_attention() {
    let input = staged("attention", "aten-remove-inplace, convert-aten-to-onnx, func.func(onnx-fold-constants)");
    let output = check_output("onnx-cse", "attention", "builtin.module(func.func(onnx-cse))", &input);
    assert!(count_ops(&output, "onnx.Constant") < count_ops(&input, "onnx.Constant"));
}

#[test]
fn onnx_shape_inference_on_mlp() {
    let input =
        staged("mlp", "aten-remove-inplace, convert-aten-to-onnx, func.func(onnx-fold-constants, onnx-cse, dce)");
    let output = check_output("onnx-shape-inference", "mlp", "builtin.module(func.func(onnx-shape-inference))", &input);
    assert!(input.contains("tensor<*x"), "the input should have unknown shapes");
    assert!(!output.contains("tensor<*x"), "unknown shapes left:\n{output}");
}

#[test]
fn onnx_eqsat_on_attention() {
    let input = staged(
        "attention",
        "aten-remove-inplace, convert-aten-to-onnx, func.func(onnx-fold-constants, onnx-cse, onnx-fold-constants, dce, onnx-shape-inference)",
    );
    let output = check_output("onnx-eqsat", "attention", "builtin.module(func.func(onnx-eqsat))", &input);
    assert!(output.contains("stop = \"saturated\""), "{output}");
    assert!(!output.contains("refused ="), "{output}");
}

/// Running the main pipeline's stages one `aten-opt` call at a time gives the
/// same module as running it whole.
#[test]
fn default_pipeline_stage_by_stage() {
    let whole = staged("attention", "");
    let pipeline = aten2onnx::translate::default_pipeline(23);
    let at_once = run_pipeline(&whole, &pipeline).expect("whole pipeline");
    let inner = pipeline.strip_prefix("builtin.module(").and_then(|p| p.strip_suffix(')')).unwrap();
    let mut text = whole;
    for stage in ["aten-remove-inplace", "convert-aten-to-onnx{opset=23}"] {
        text = run_pipeline(&text, &format!("builtin.module({stage})")).unwrap_or_else(|e| panic!("{stage}: {e}"));
    }
    let func_stages = inner.split_once("func.func(").map(|(_, rest)| rest.trim_end_matches(')')).unwrap();
    for stage in func_stages.split(',').map(str::trim) {
        text = run_pipeline(&text, &format!("builtin.module(func.func({stage}))"))
            .unwrap_or_else(|e| panic!("{stage}: {e}"));
    }
    assert_eq!(text, at_once);
}

/// `onnx-fuse-weights` on the QKV projections of a module (more cases:
/// lit-tests/onnx-fuse-weights.mlir; numbers: tests/integration/weights.rs).
#[test]
fn onnx_fuse_weights_on_qkv() {
    let input = r#"module attributes {onnx.opset = 23 : i64} {
func.func @qkv(%x: tensor<?x2x4xf32, ["s0"]>) -> (tensor<?x2x4xf32, ["s0"]>, tensor<?x2x2xf32, ["s0"]>, tensor<?x2x2xf32, ["s0"]>) {
  %q = "onnx.initializer"() {name = "q.weight"} : () -> tensor<4x4xf32>
  %0 = "onnx.MatMul"(%x, %q) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  %k = "onnx.initializer"() {name = "k.weight"} : () -> tensor<4x2xf32>
  %1 = "onnx.MatMul"(%x, %k) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x2xf32>) -> tensor<?x2x2xf32, ["s0"]>
  %v = "onnx.initializer"() {name = "v.weight"} : () -> tensor<4x2xf32>
  %2 = "onnx.MatMul"(%x, %v) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x2xf32>) -> tensor<?x2x2xf32, ["s0"]>
  return %0, %1, %2 : tensor<?x2x4xf32, ["s0"]>, tensor<?x2x2xf32, ["s0"]>, tensor<?x2x2xf32, ["s0"]>
}
}"#;
    let output = check_output("onnx-fuse-weights", "qkv", "builtin.module(func.func(onnx-fuse-weights))", input);
    assert!(output.contains("onnx.fuse_weights = 1") && output.contains("\"onnx.Split\""), "{output}");
    assert_eq!(output.matches("\"onnx.MatMul\"").count(), 1, "{output}");
}

/// `onnx-flatten-tokens` on a transformer MLP block with dynamic batch and
/// sequence (more cases: lit-tests/onnx-flatten-tokens.mlir; numbers:
/// `flatten_tokens_keeps_the_numbers` in tests/integration/optimizer.rs).
#[test]
fn onnx_flatten_tokens_on_a_layer() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("lit-tests/onnx-flatten-tokens.mlir"))
            .unwrap();
    let chunk = text.split("// -----").next().unwrap();
    let input = &chunk[chunk.find("module attributes").unwrap()..];
    let output = check_output("onnx-flatten-tokens", "layer", "builtin.module(func.func(onnx-flatten-tokens))", input);
    assert_eq!(output.matches("\"onnx.Gemm\"").count(), 2, "{output}");
    assert!(!output.contains("\"onnx.MatMul\""), "{output}");
}

// ------------------------------------------------------------- aten-decompose

/// Ops without a rule (backward ops of a training graph, an alias) become
/// simpler aten ops; `tanh` (which has a rule) stays; `ops=` forces one.
#[test]
fn aten_decompose_on_training_graph_ops() {
    let input = r#"
func.func @f(%g: tensor<2x3xf32>, %x: tensor<2x3xf32>, %i: tensor<3xi64>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x4xi64>) {
  %y = "aten.tanh.default"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = "aten.tanh_backward.default"(%g, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "aten.threshold_backward.default"(%g, %x) {threshold = 0.0 : f64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "aten.arctan.default"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "aten.one_hot.default"(%i) {num_classes = 4 : i64} : (tensor<3xi64>) -> tensor<3x4xi64>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x4xi64>
}"#;
    let output = check_output("aten-decompose", "training_graph_ops", "builtin.module(aten-decompose)", input);
    for gone in
        ["aten.tanh_backward.default", "aten.threshold_backward.default", "aten.arctan.default", "aten.one_hot.default"]
    {
        assert_eq!(crate::count_ops(&output, gone), 0, "{gone} should be gone:\n{output}");
    }
    assert_eq!(crate::count_ops(&output, "aten.tanh.default"), 1);
    let forced = run_pipeline(&output, "builtin.module(aten-decompose{ops=aten.arccos.default})").unwrap();
    assert_eq!(forced, reprinted(&output), "decomposing again changes nothing");
}

// ------------------------------------------------------------ onnx-widen-half

/// `onnx-widen-half` after the lowering of a float16 program: each aten op
/// computes in float32 (gelu's several onnx ops share one group, no rounding
/// between them) and its results are rounded to float16 where another aten
/// op or the graph output reads them (more cases:
/// lit-tests/onnx-widen-half.mlir; numbers: tests/integration/half.rs).
#[test]
fn onnx_widen_half_on_lowered_float16_ops() {
    let input = r#"#a = loc("mul"("m.py":3:0))
#b = loc("sub"("m.py":4:0))
#c = loc("gelu"("m.py":5:0))
func.func @forward(%x: tensor<2x3xf16>, %y: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %m = "aten.mul.Tensor"(%x, %y) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16> loc(#a)
  %s = "aten.sub.Tensor"(%m, %x) {alpha = 1 : i64} : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16> loc(#b)
  %g = "aten.gelu.default"(%s) {approximate = "tanh"} : (tensor<2x3xf16>) -> tensor<2x3xf16> loc(#c)
  return %g : tensor<2x3xf16>
}"#;
    let output = check_output(
        "onnx-widen-half",
        "lowered",
        "builtin.module(convert-aten-to-onnx{opset=17}, func.func(onnx-widen-half))",
        input,
    );
    // Three aten ops: two roundings between them and one at the output.
    assert_eq!(output.matches("{to = 10 : i64}").count(), 3, "{output}");
    // gelu (tanh form at opset 17) is several onnx ops, all in float32.
    assert!(output.contains("\"onnx.Tanh\""), "{output}");
    let half_compute: Vec<&str> = output
        .lines()
        .filter(|l| l.contains("\"onnx.") && !l.contains("\"onnx.Cast\"") && !l.contains("\"onnx.Constant\""))
        .filter(|l| l.rsplit("->").next().is_some_and(|r| r.contains("f16>")))
        .collect();
    assert!(half_compute.is_empty(), "ops computing in float16: {half_compute:?}");
}

// ------------------------------------------------------------ onnx-widen-ints

/// `onnx-widen-ints`: int16 Max and bool Where computed in int32 / uint8
/// (more cases: lit-tests/onnx-widen-ints.mlir; numbers:
/// tests/integration/int_kernels.rs).
#[test]
fn onnx_widen_ints_on_int16_and_bool() {
    let input = r#"func.func @f(%a: tensor<4xi16>, %c: tensor<4xi1>, %t: tensor<4xi1>) -> (tensor<4xi16>, tensor<4xi1>) {
  %m = "onnx.Max"(%a, %a) : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  %w = "onnx.Where"(%c, %t, %c) : (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %m, %w : tensor<4xi16>, tensor<4xi1>
}"#;
    let output = check_output("onnx-widen-ints", "int16_bool", "builtin.module(func.func(onnx-widen-ints))", input);
    assert!(output.contains("\"onnx.Max\"(%0, %0) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>"), "{output}");
    assert!(output.contains("-> tensor<4xui8>"), "{output}");
}

// ------------------------------------------------------------ onnx-qdq-uint8

/// `onnx-qdq-uint8`: an int8 activation of a QDQ pair (through a Flatten)
/// becomes uint8 with its zero points shifted by 128; the int8 weight stays
/// (more cases: lit-tests/onnx-qdq-uint8.mlir; numbers:
/// parity::pt2e_models_with_target_onnxruntime).
#[test]
fn onnx_qdq_uint8_on_a_quantized_linear() {
    let input = r#"module attributes {onnx.opset = 21 : i64} {
func.func @f(%x: tensor<2x3x4xf32>, %w: tensor<12x5xi8>, %ws: tensor<5xf32>) -> tensor<2x5xf32> {
  %s = "onnx.Constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %z = "onnx.Constant"() {value = dense<-7> : tensor<i8>} : () -> tensor<i8>
  %q = "onnx.QuantizeLinear"(%x, %s, %z) : (tensor<2x3x4xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3x4xi8>
  %f = "onnx.Flatten"(%q) {axis = 1 : i64} : (tensor<2x3x4xi8>) -> tensor<2x12xi8>
  %d = "onnx.DequantizeLinear"(%f, %s, %z) : (tensor<2x12xi8>, tensor<f32>, tensor<i8>) -> tensor<2x12xf32>
  %wz = "onnx.Constant"() {value = dense<0> : tensor<5xi8>} : () -> tensor<5xi8>
  %wd = "onnx.DequantizeLinear"(%w, %ws, %wz) {axis = 1 : i64} : (tensor<12x5xi8>, tensor<5xf32>, tensor<5xi8>) -> tensor<12x5xf32>
  %y = "onnx.MatMul"(%d, %wd) : (tensor<2x12xf32>, tensor<12x5xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}
}"#;
    let output = check_output("onnx-qdq-uint8", "linear", "builtin.module(func.func(onnx-qdq-uint8))", input);
    assert!(
        output.contains("-> tensor<2x3x4xui8>") && output.contains("(tensor<2x3x4xui8>) -> tensor<2x12xui8>"),
        "{output}"
    );
    assert!(output.contains("dense<121> : tensor<ui8>") && !output.contains("dense<-7>"), "{output}");
    assert!(output.contains("(tensor<12x5xi8>, tensor<5xf32>, tensor<5xi8>) -> tensor<12x5xf32>"), "{output}");
}

// ------------------------------------------------------------ onnx-residual-sum

/// `onnx-residual-sum`: a transformer's residual Add before LayerNormalization
/// becomes Sum (more cases: lit-tests/onnx-residual-sum.mlir; numbers: the
/// parity tests of every corpus model run the full pipeline).
#[test]
fn onnx_residual_sum_before_layer_norm() {
    let input = r#"module attributes {onnx.opset = 23 : i64} {
func.func @f(%x: tensor<?x4x8xf32, ["s0"]>, %r: tensor<?x4x8xf32, ["s0"]>, %g: tensor<8xf32>) -> tensor<?x4x8xf32, ["s0"]> {
  %s = "onnx.Add"(%x, %r) : (tensor<?x4x8xf32, ["s0"]>, tensor<?x4x8xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]>
  %n = "onnx.LayerNormalization"(%s, %g) {axis = -1 : i64} : (tensor<?x4x8xf32, ["s0"]>, tensor<8xf32>) -> tensor<?x4x8xf32, ["s0"]>
  return %n : tensor<?x4x8xf32, ["s0"]>
}
}"#;
    let output = check_output("onnx-residual-sum", "layer_norm", "builtin.module(func.func(onnx-residual-sum))", input);
    assert!(output.contains("\"onnx.Sum\"(%arg0, %arg1)") && !output.contains("onnx.Add"), "{output}");
}

/// `onnx-quantize-weights` on a Linear (more cases:
/// lit-tests/onnx-quantize-weights.mlir; numbers and parity with
/// onnxruntime's quantizer: tests/integration/quantize_weights.rs).
#[test]
fn onnx_quantize_weights_on_a_linear() {
    let input = r#"module attributes {onnx.opset = 23 : i64} {
func.func @linear(%x: tensor<?x4x64xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]> {
  %w = "onnx.initializer"() {name = "fc.weight"} : () -> tensor<8x64xf32>
  %wt = "onnx.weight_transform"(%w) {kind = "transpose", perm = array<i64: 1, 0>} : (tensor<8x64xf32>) -> tensor<64x8xf32>
  %0 = "onnx.MatMul"(%x, %wt) : (tensor<?x4x64xf32, ["s0"]>, tensor<64x8xf32>) -> tensor<?x4x8xf32, ["s0"]>
  return %0 : tensor<?x4x8xf32, ["s0"]>
}
}"#;
    let output = check_output(
        "onnx-quantize-weights",
        "linear",
        "builtin.module(func.func(onnx-quantize-weights{bits=4 block=32 symmetric=0}))",
        input,
    );
    assert!(output.contains("onnx.quantized_weights = 1") && output.contains("\"onnx.DequantizeLinear\""), "{output}");
    assert!(output.contains("rtn_zero_points"), "{output}");
}
