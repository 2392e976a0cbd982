//! Control flow: `torch.cond` / `while_loop` / `scan` / `map` lowered to ONNX
//! `If` / `Loop` / `Scan` with their subgraphs as regions
//! (passes/src/control_flow.rs), the passes on regions, and the ONNX writer's
//! GraphProto attributes. Numeric checks against eager PyTorch are the
//! `cf_*` cases of tests/ops (tools/capture/op_cases/control_flow.py).

use crate::{count_ops, import, run_pipeline, scratch_dir};
use aten2onnx::module::PrintOptions;

/// The lowering and the onnx passes of `--to-onnx` (without the e-graph
/// optimizer, whose output is another test's business), then onnx-verify.
const PIPELINE: &str = "builtin.module(aten-remove-inplace, convert-aten-to-onnx{opset=23}, \
     func.func(onnx-fold-constants, onnx-cse, onnx-fold-constants, dce, onnx-shape-inference), onnx-verify)";

/// The fixture or op case lowered.
fn lowered(aten: &str) -> String {
    run_pipeline(aten, PIPELINE).unwrap_or_else(|e| panic!("{e}"))
}

/// The default pipeline (with whatever optimizer it runs) also handles
/// every control-flow case.
#[test]
fn the_default_pipeline_handles_control_flow() {
    for case in ["cf_cond_nested", "cf_while_closure", "cf_scan", "cf_map", "cf_cond_mutation", "cf_while_cond_in_cond"]
    {
        run_pipeline(&op_case(case), &aten2onnx::translate::default_pipeline(23))
            .unwrap_or_else(|e| panic!("{case}: {e}"));
    }
}

fn op_case(name: &str) -> String {
    aten2onnx::translate::pt2_to_aten_text(&format!("tests/ops/{name}/model.pt2"), PrintOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn cond_becomes_if_with_two_branches() {
    let output = lowered(&import("cond", false));
    assert_eq!(count_ops(&output, "onnx.If"), 1, "{output}");
    assert_eq!(count_ops(&output, "onnx.yield"), 2, "{output}");
    assert_eq!(count_ops(&output, "aten.hop.cond"), 0, "{output}");
    insta::assert_snapshot!("cond_lowered", output);
}

#[test]
fn while_loop_becomes_loop_with_the_condition_before_and_in_the_body() {
    let output = lowered(&import("while_loop", false));
    assert_eq!(count_ops(&output, "onnx.Loop"), 1, "{output}");
    // cond_fn (`it < 5`) once on the initial values, once at the end of the body.
    assert_eq!(count_ops(&output, "onnx.Less"), 2, "{output}");
    insta::assert_snapshot!("while_loop_lowered", output);
}

#[test]
fn scan_and_map_become_scan() {
    let scan = lowered(&op_case("cf_scan"));
    assert_eq!(count_ops(&scan, "onnx.Scan"), 2, "{scan}");
    insta::assert_snapshot!("scan_lowered", scan);
    let map = lowered(&op_case("cf_map"));
    assert_eq!(count_ops(&map, "onnx.Scan"), 1, "{map}");
    insta::assert_snapshot!("map_lowered", map);
}

#[test]
fn nested_control_flow_keeps_its_nesting() {
    let nested = lowered(&op_case("cf_cond_nested"));
    assert_eq!(count_ops(&nested, "onnx.If"), 3, "{nested}");
    insta::assert_snapshot!("cond_nested_lowered", nested);
    let inner = lowered(&op_case("cf_while_closure"));
    assert_eq!(count_ops(&inner, "onnx.Loop"), 1, "{inner}");
    assert_eq!(count_ops(&inner, "onnx.If"), 1, "{inner}");
}

/// Writes inside a branch to a tensor the branch created are rewritten;
/// writes to what the branch receives are refused, naming the op.
#[test]
fn writes_inside_regions() {
    let local = r#"
func.func @f(%p: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %r = "aten.hop.cond"(%p, %x) ({
  ^bb0(%a: tensor<3xf32>):
    %c = "aten.clone.default"(%a) : (tensor<3xf32>) -> tensor<3xf32>
    %d = "aten.add_.Tensor"(%c) {alpha = 1 : i64, other = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
    "aten.yield"(%c) : (tensor<3xf32>) -> ()
  }, {
  ^bb0(%a: tensor<3xf32>):
    "aten.yield"(%a) : (tensor<3xf32>) -> ()
  }) {arg_names = ["pred", "operands"], operandSegmentSizes = array<i32: 1, 1>} : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
"#;
    let output = run_pipeline(local, "builtin.module(aten-remove-inplace)").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(count_ops(&output, "aten.add_.Tensor"), 0, "{output}");
    assert_eq!(count_ops(&output, "aten.add.Tensor"), 1, "{output}");
    // The branch yields the new value, not the clone.
    assert!(output.contains("%2 = \"aten.add.Tensor\"(%1)") && output.contains("\"aten.yield\"(%2)"), "{output}");

    let outer = local.replace(r#""aten.add_.Tensor"(%c)"#, r#""aten.add_.Tensor"(%a)"#);
    let error = run_pipeline(&outer, "builtin.module(aten-remove-inplace)").expect_err("must refuse");
    assert!(
        error.contains(
            "'aten.add_.Tensor' op writes argument 'self', a tensor from outside this region of a higher-order op"
        ),
        "{error}"
    );
    insta::assert_snapshot!("write_to_region_argument", error);
}

/// A `with torch.no_grad()` block is not a region that owns its values: it is
/// inlined first, so its write to a parameter (RWKV's in-place rescaling) is
/// a parameter mutation of the function, and later reads see the new value.
#[test]
fn writes_inside_grad_mode_blocks_are_the_functions() {
    let input = r#"
func.func @forward(%arg0: tensor<2x3xf32> {aten.name = "x"}) -> (tensor<2x3xf32> {aten.kind = "user_output", aten.name = "mul"}) {
  %0 = "aten.weight"() {kind = "parameter", name = "w"} : () -> tensor<3xf32>
  %1 = "aten.hop.wrap_with_set_grad_enabled"(%0) ({
  ^bb0(%arg1: tensor<3xf32>):
    %3 = "aten.div_.Tensor"(%arg1) {other = 2 : i64} : (tensor<3xf32>) -> tensor<3xf32>
    "aten.yield"(%3) : (tensor<3xf32>) -> ()
  }) {arg0 = false, arg_names = ["arg2"], operandSegmentSizes = array<i32: 1>} : (tensor<3xf32>) -> tensor<3xf32>
  %2 = "aten.mul.Tensor"(%arg0, %1) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
"#;
    let output = run_pipeline(input, "builtin.module(aten-remove-inplace)").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(count_ops(&output, "aten.hop.wrap_with_set_grad_enabled"), 0, "{output}");
    assert_eq!(count_ops(&output, "aten.div.Tensor"), 1, "{output}");
    assert!(output.contains("aten.kind = \"parameter_mutation\""), "{output}");
    insta::assert_snapshot!("write_inside_grad_mode_block", output);
    // And the whole lowering accepts it.
    lowered(input);
}

#[test]
fn unsupported_higher_order_ops_are_refused_by_name() {
    let input = r#"
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = "aten.hop.flex_attention"(%x) ({
  ^bb0(%a: tensor<3xf32>):
    "aten.yield"(%a) : (tensor<3xf32>) -> ()
  }) {arg_names = ["query"], operandSegmentSizes = array<i32: 1>} : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
"#;
    let error = run_pipeline(input, "builtin.module(convert-aten-to-onnx)").expect_err("must refuse");
    assert!(
        error.contains(
            "aten.hop.flex_attention (higher-order op without an ONNX lowering; supported: cond, while_loop, scan, \
             map_impl, wrap_with_set_grad_enabled, wrap_with_autocast)"
        ),
        "{error}"
    );
}

/// The writer: one GraphProto attribute per region; If branches without
/// inputs, the Loop body with (iteration_num, cond, carried...); weights
/// stay initializers of the main graph.
#[test]
fn the_writer_turns_regions_into_graph_attributes() {
    use onnx_protobuf::{Message, ModelProto};
    let dir = scratch_dir("control_flow_writer");
    for (fixture, op_type, attrs) in
        [("cond", "If", &["then_branch", "else_branch"][..]), ("while_loop", "Loop", &["body"][..])]
    {
        let out = dir.join(format!("{fixture}.onnx"));
        aten2onnx::translate::convert(&crate::fixture(fixture), &out, &aten2onnx::translate::ConvertOptions::default())
            .unwrap_or_else(|e| panic!("{fixture}: {e}"));
        let model = ModelProto::parse_from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        let node = model.graph.node.iter().find(|n| n.op_type == op_type).expect("the control-flow node");
        let names: Vec<&str> = node.attribute.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, attrs, "{fixture}");
        for attr in &node.attribute {
            let g = attr.g.as_ref().expect("a graph attribute");
            assert!(!g.node.is_empty() && !g.output.is_empty(), "{fixture}: empty subgraph {}", attr.name);
            match op_type {
                "If" => assert!(g.input.is_empty(), "If branches take no inputs"),
                _ => {
                    assert_eq!(g.input.len(), 2 + 2, "(iteration_num, cond, it, x)");
                    assert_eq!(g.output.len(), 1 + 2, "(cond, it, x)");
                }
            }
        }
        if fixture == "cond" {
            let inits: Vec<&str> = model.graph.initializer.iter().map(|t| t.name.as_str()).collect();
            assert!(inits.contains(&"lin.weight") && inits.contains(&"lin.bias"), "{inits:?}");
        }
    }
}
