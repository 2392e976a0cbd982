//! Shape and layout cleanup: transposes, reshapes, squeezes, casts, expands
//! and identities that cancel or compose. Reshape, Squeeze, Unsqueeze and
//! Flatten keep the row-major order of the elements, so any chain of them
//! whose result has its input's type is the input, and any chain is one
//! Reshape to the final shape.

use super::{
    pattern::{Match, PatternRule, Rhs},
    Apply, Rule, Rw,
};
use crate::{
    analysis::{embeds, Dim, TyInfo},
    lang::{dtype, AttrValue, Head},
};
use egg::Id;

pub static RULES: &[Rule] = &[
    Rule {
        name: "transpose-identity",
        roots: &["Transpose"],
        min_opset: 1,
        summary: "Transpose with the identity permutation -> its input",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Transpose{..} ?x)",
            when: |rw, m| {
                let identity = |perm: Vec<usize>| perm.iter().enumerate().all(|(i, &p)| i == p);
                rw.ty(m["x"]).and_then(TyInfo::rank).and_then(|rank| perm_of(m.root_head(), rank)).is_some_and(identity)
                    && rw.same_type(m.root(), m["x"])
            },
            rhs: Rhs::Template("?x"),
        }),
        example: r#"
func.func @f(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = "onnx.Transpose"(%x) {perm = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = "onnx.Abs"(%0) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}"#,
    },
    Rule {
        name: "transpose-transpose",
        roots: &["Transpose"],
        min_opset: 1,
        summary: "Transpose(Transpose(x, p), q) -> Transpose(x, p[q[i]]) (dropped when that is the identity)",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Transpose{..} ?y=(Transpose{..} ?x))",
            when: |rw, m| composed_perm(rw, m).is_some(),
            rhs: Rhs::Build(transpose_transpose),
        }),
        example: r#"
func.func @f(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = "onnx.Transpose"(%x) {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = "onnx.Transpose"(%0) {perm = array<i64: 0, 2, 1>} : (tensor<3x4x2xf32>) -> tensor<3x2x4xf32>
  %2 = "onnx.Transpose"(%1) {perm = array<i64: 2, 1, 0>} : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %3 = "onnx.Transpose"(%0) {perm = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  return %2, %3 : tensor<4x2x3xf32>, tensor<2x3x4xf32>
}"#,
    },
    Rule {
        name: "reshape-same-shape",
        roots: &["Reshape"],
        min_opset: 5,
        summary: "Reshape whose result has its input's type -> its input",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Reshape{..} ?x ?shape)",
            when: |rw, m| rw.same_type(m.root(), m["x"]),
            rhs: Rhs::Template("?x"),
        }),
        example: r#"
func.func @f(%x: tensor<?x8xf32, ["s0"]>) -> tensor<?x8xf32, ["s0"]> {
  %s = "onnx.Shape"(%x) : (tensor<?x8xf32, ["s0"]>) -> tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s) : (tensor<?x8xf32, ["s0"]>, tensor<2xi64>) -> tensor<?x8xf32, ["s0"]>
  %1 = "onnx.Neg"(%0) : (tensor<?x8xf32, ["s0"]>) -> tensor<?x8xf32, ["s0"]>
  return %1 : tensor<?x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "reshape-reshape",
        roots: &["Reshape"],
        min_opset: 5,
        summary:
            "Reshape(Reshape/Squeeze/Unsqueeze/Flatten(x), s) -> Reshape(x, s) when s is a constant without 0 entries",
        apply: Apply::Fn(reshape_reshape),
        example: r#"
func.func @f(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %s1 = "onnx.Constant"() {value = dense<[6, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s1) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %s2 = "onnx.Constant"() {value = dense<[4, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %1 = "onnx.Reshape"(%0, %s2) : (tensor<6x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}"#,
    },
    Rule {
        name: "reshape-transpose-reshape",
        roots: &["Reshape"],
        min_opset: 5,
        summary: "Reshape(Transpose(Reshape(x, [N, T..]), [0, p..]), L ++ T permuted by p) with x = L ++ T -> Transpose(x): leading dims merged, the trailing ones permuted, the leading ones split back (torch.onnx's transpose of a 4-D key, through 3-D)",
        apply: Apply::Fn(reshape_transpose_reshape),
        example: r#"
func.func @f(%k: tensor<?x4x?x16xf32, ["s0", "s1"]>) -> tensor<?x4x16x?xf32, ["s0", "s1"]> {
  %shape = "onnx.Shape"(%k) : (tensor<?x4x?x16xf32, ["s0", "s1"]>) -> tensor<4xi64>
  %m1 = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %i0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %i2 = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %i3 = "onnx.Constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %i4 = "onnx.Constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %lead = "onnx.Slice"(%shape, %i0, %i2) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %s = "onnx.Slice"(%shape, %i2, %i3) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %d = "onnx.Slice"(%shape, %i3, %i4) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %t1 = "onnx.Concat"(%m1, %s, %d) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %r = "onnx.Reshape"(%k, %t1) : (tensor<?x4x?x16xf32, ["s0", "s1"]>, tensor<3xi64>) -> tensor<?x?x16xf32, ["4*s0", "s1"]>
  %t = "onnx.Transpose"(%r) {perm = array<i64: 0, 2, 1>} : (tensor<?x?x16xf32, ["4*s0", "s1"]>) -> tensor<?x16x?xf32, ["4*s0", "s1"]>
  %t2 = "onnx.Concat"(%lead, %d, %s) {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
  %y = "onnx.Reshape"(%t, %t2) : (tensor<?x16x?xf32, ["4*s0", "s1"]>, tensor<4xi64>) -> tensor<?x4x16x?xf32, ["s0", "s1"]>
  return %y : tensor<?x4x16x?xf32, ["s0", "s1"]>
}"#,
    },
    Rule {
        name: "reshape-to-flatten",
        roots: &["Reshape"],
        min_opset: 13,
        summary: "Reshape(x, s) to a 2-D [prod(x.dims[..a]), prod(x.dims[a..])] (known from the types) -> Flatten(x) {axis = a}: the shape computation goes",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Reshape{..} ?x ?shape)",
            when: |_, _| true,
            rhs: Rhs::Build(reshape_to_flatten),
        }),
        example: r#"
func.func @f(%x: tensor<?x16x1x1xf32, ["s0"]>) -> tensor<?x16xf32, ["s0"]> {
  %b = "onnx.Shape"(%x) {end = 1 : i64, start = 0 : i64} : (tensor<?x16x1x1xf32, ["s0"]>) -> tensor<1xi64>
  %n = "onnx.Constant"() {value = dense<16> : tensor<1xi64>} : () -> tensor<1xi64>
  %s = "onnx.Concat"(%b, %n) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s) : (tensor<?x16x1x1xf32, ["s0"]>, tensor<2xi64>) -> tensor<?x16xf32, ["s0"]>
  return %0 : tensor<?x16xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "gather-of-expand",
        roots: &["Gather"],
        min_opset: 13,
        summary: "Gather(data, Expand(idx, s)) {axis = 0} -> Expand(Gather(data, idx), Concat(s, data.dims[1..])): gather the rows once, then broadcast (an Expand a broadcasting op absorbs: BERT's token-type embedding)",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Gather{..} ?data (Expand ?idx ?s))",
            when: |_, m| m.root_head().attrs.iter().all(|(k, v)| k.as_str() == "axis" && *v == AttrValue::Int(0)),
            rhs: Rhs::Build(gather_of_expand),
        }),
        example: r#"
func.func @f(%t: tensor<10x4xf32>, %g: tensor<1x5xi64>, %x: tensor<?x5x4xf32, ["s0"]>) -> tensor<?x5x4xf32, ["s0"]> {
  %b = "onnx.Shape"(%x) {end = 1 : i64, start = 0 : i64} : (tensor<?x5x4xf32, ["s0"]>) -> tensor<1xi64>
  %n = "onnx.Constant"() {value = dense<5> : tensor<1xi64>} : () -> tensor<1xi64>
  %s = "onnx.Concat"(%b, %n) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %e = "onnx.Expand"(%g, %s) : (tensor<1x5xi64>, tensor<2xi64>) -> tensor<?x5xi64, ["s0"]>
  %y = "onnx.Gather"(%t, %e) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<?x5xi64, ["s0"]>) -> tensor<?x5x4xf32, ["s0"]>
  %z = "onnx.Add"(%x, %y) : (tensor<?x5x4xf32, ["s0"]>, tensor<?x5x4xf32, ["s0"]>) -> tensor<?x5x4xf32, ["s0"]>
  return %z : tensor<?x5x4xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "squeeze-unsqueeze",
        roots: &["Squeeze"],
        min_opset: 13,
        summary: "Squeeze(Unsqueeze/Reshape(x)) whose result has x's type -> x",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Squeeze{..} (Reshape{..} ?x ...) ...) | (Squeeze{..} (Squeeze{..} ?x ...) ...) | (Squeeze{..} (Unsqueeze{..} ?x ...) ...) | (Squeeze{..} (Flatten{..} ?x ...) ...)",
            when: |rw, m| rw.same_type(m.root(), m["x"]),
            rhs: Rhs::Template("?x"),
        }),
        example: r#"
func.func @f(%x: tensor<?x8xf32, ["s0"]>) -> tensor<?x8xf32, ["s0"]> {
  %a = "onnx.Constant"() {value = dense<[0, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Unsqueeze"(%x, %a) : (tensor<?x8xf32, ["s0"]>, tensor<2xi64>) -> tensor<1x?x1x8xf32, ["s0"]>
  %1 = "onnx.Squeeze"(%0, %a) : (tensor<1x?x1x8xf32, ["s0"]>, tensor<2xi64>) -> tensor<?x8xf32, ["s0"]>
  %2 = "onnx.Neg"(%1) : (tensor<?x8xf32, ["s0"]>) -> tensor<?x8xf32, ["s0"]>
  return %2 : tensor<?x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "unsqueeze-squeeze",
        roots: &["Unsqueeze"],
        min_opset: 13,
        summary: "Unsqueeze(Squeeze/Reshape(x)) whose result has x's type -> x",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Unsqueeze{..} (Reshape{..} ?x ...) ...) | (Unsqueeze{..} (Squeeze{..} ?x ...) ...) | (Unsqueeze{..} (Unsqueeze{..} ?x ...) ...) | (Unsqueeze{..} (Flatten{..} ?x ...) ...)",
            when: |rw, m| rw.same_type(m.root(), m["x"]),
            rhs: Rhs::Template("?x"),
        }),
        example: r#"
func.func @f(%x: tensor<3x1x4xf32>) -> tensor<3x1x4xf32> {
  %a = "onnx.Constant"() {value = dense<-2> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.Squeeze"(%x, %a) : (tensor<3x1x4xf32>, tensor<1xi64>) -> tensor<3x4xf32>
  %1 = "onnx.Unsqueeze"(%0, %a) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x1x4xf32>
  return %1 : tensor<3x1x4xf32>
}"#,
    },
    Rule {
        name: "cast-same-type",
        roots: &["Cast"],
        min_opset: 1,
        summary: "Cast to the element type its input already has -> its input",
        // A Cast to x's own element type is x itself, whatever its dims (the
        // applier still refuses a union with a result declared another shape).
        apply: Apply::Pattern(PatternRule {
            lhs: "(Cast{..} ?x)",
            when: |rw, m| {
                let head = m.root_head();
                head.attrs.len() == 1 && rw.elem(m["x"]).is_some_and(|e| head.int("to") == Some(e as i64))
            },
            rhs: Rhs::Template("?x"),
        }),
        example: r#"
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "onnx.Cast"(%x) {to = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Sqrt"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}"#,
    },
    Rule {
        name: "cast-cast",
        roots: &["Cast"],
        min_opset: 1,
        summary: "Cast(Cast(x, T1), T2) -> Cast(x, T2) when T1 holds every value of x's type exactly",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Cast{..} ?y=(Cast{..} ?x))",
            when: |rw, m| {
                let (outer, inner) = (m.root_head(), m.head("y"));
                let (Some(mid), Some(src)) = (rw.elem(m["y"]), rw.elem(m["x"])) else { return false };
                outer.attrs.len() == 1 && inner.attrs.len() == 1 && inner.int("to") == Some(mid as i64) && embeds(src, mid)
            },
            rhs: Rhs::Build(|rw, m| {
                let (x, head) = (m["x"], m.root_head());
                if rw.elem(x).is_some_and(|src| head.int("to") == Some(src as i64)) && rw.same_type(m.root(), x) {
                    return Some(x);
                }
                rw.add_like(head.clone(), vec![x], m.root())
            }),
        }),
        example: r#"
func.func @f(%x: tensor<2x3xi32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %0 = "onnx.Cast"(%x) {to = 7 : i64} : (tensor<2x3xi32>) -> tensor<2x3xi64>
  %1 = "onnx.Cast"(%0) {to = 1 : i64} : (tensor<2x3xi64>) -> tensor<2x3xf32>
  %2 = "onnx.Cast"(%y) {to = 10 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %3 = "onnx.Cast"(%2) {to = 6 : i64} : (tensor<2x3xf16>) -> tensor<2x3xi32>
  return %1, %3 : tensor<2x3xf32>, tensor<2x3xi32>
}"#,
    },
    Rule {
        name: "cast-of-data-movement",
        roots: &["Cast"],
        min_opset: 13,
        summary: "Cast(Reshape/Expand/Unsqueeze/Squeeze/Transpose/Flatten(x, ..)) -> the same op of Cast(x): a cast changes elements one by one and these ops only move or repeat them (casting before an Expand casts fewer elements; a float16 repeat_kv under its float32 cast becomes grouped-query heads)",
        // `saturate` (float8 targets) makes the cast depend on more than `to`.
        apply: Apply::Pattern(PatternRule {
            lhs: "(Cast{..} ?y=(Reshape{..} ?x ...)) | (Cast{..} ?y=(Expand{..} ?x ...)) | (Cast{..} ?y=(Unsqueeze{..} ?x ...)) | (Cast{..} ?y=(Squeeze{..} ?x ...)) | (Cast{..} ?y=(Transpose{..} ?x ...)) | (Cast{..} ?y=(Flatten{..} ?x ...))",
            when: |rw, m| {
                let head = m.root_head();
                head.attrs.len() == 1 && head.int("to").is_some() && rw.ty(m["x"]).is_some_and(|t| t.dims.is_some())
            },
            rhs: Rhs::Build(|rw, m| {
                let (head, x) = (m.root_head(), m["x"]);
                let dims = rw.ty(x)?.dims.clone()?;
                let cast = rw.add(head.clone(), vec![x], TyInfo::tensor(head.int("to")? as i32, dims));
                let mut moved = vec![cast];
                moved.extend_from_slice(&m.operands("y")[1..]);
                rw.add_like(m.head("y").clone(), moved, m.root())
            }),
        }),
        example: r#"
func.func @f(%k: tensor<2x2x5x8xf16>) -> tensor<2x4x8x5xf32> {
  %two = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %ones = "onnx.Constant"() {value = dense<[1, 1, 2, 1, 1]> : tensor<5xi64>} : () -> tensor<5xi64>
  %shape = "onnx.Constant"() {value = dense<[2, 4, 5, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %k5 = "onnx.Unsqueeze"(%k, %two) : (tensor<2x2x5x8xf16>, tensor<1xi64>) -> tensor<2x2x1x5x8xf16>
  %ke = "onnx.Expand"(%k5, %ones) : (tensor<2x2x1x5x8xf16>, tensor<5xi64>) -> tensor<2x2x2x5x8xf16>
  %kr = "onnx.Reshape"(%ke, %shape) : (tensor<2x2x2x5x8xf16>, tensor<4xi64>) -> tensor<2x4x5x8xf16>
  %kf = "onnx.Cast"(%kr) {to = 1 : i64} : (tensor<2x4x5x8xf16>) -> tensor<2x4x5x8xf32>
  %kt = "onnx.Transpose"(%kf) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x5x8xf32>) -> tensor<2x4x8x5xf32>
  %r = "onnx.Relu"(%kt) : (tensor<2x4x8x5xf32>) -> tensor<2x4x8x5xf32>
  return %r : tensor<2x4x8x5xf32>
}"#,
    },
    Rule {
        name: "round-of-integer",
        roots: &["Ceil", "Floor", "Round"],
        min_opset: 11,
        summary: "Ceil/Floor/Round(Cast(x, float)) -> Cast(x, float) for an integer or boolean x (a float made from an integer is integral)",
        // Every float a Cast makes from an integer or boolean is integral
        // (the nearest representable value of an integer is an integer, or
        // infinite), so rounding it changes nothing (`+0.0` stays `+0.0`).
        apply: Apply::Pattern(PatternRule {
            lhs: "(Ceil ?y=(Cast{..} ?x)) | (Floor ?y=(Cast{..} ?x)) | (Round ?y=(Cast{..} ?x))",
            when: |rw, m| {
                use crate::lang::dtype::*;
                let integral = rw.elem(m["x"]).is_some_and(|src| {
                    matches!(src, BOOL | UINT8 | INT8 | UINT16 | INT16 | UINT32 | INT32 | UINT64 | INT64)
                });
                rw.same_type(m.root(), m["y"])
                    && m.head("y").attrs.len() == 1
                    && integral
                    && rw.elem(m["y"]).is_some_and(is_float)
            },
            rhs: Rhs::Template("?y"),
        }),
        example: r#"
func.func @f(%x: tensor<2x3xi64>, %y: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "onnx.Cast"(%x) {to = 1 : i64} : (tensor<2x3xi64>) -> tensor<2x3xf32>
  %1 = "onnx.Ceil"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "onnx.Cast"(%y) {to = 1 : i64} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %3 = "onnx.Floor"(%2) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1, %3 : tensor<2x3xf32>, tensor<2x3xf32>
}"#,
    },
    Rule {
        name: "expand-same-shape",
        roots: &["Expand"],
        min_opset: 8,
        summary: "Expand whose result has its input's type -> its input",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Expand ?x ?shape)",
            when: |rw, m| rw.same_type(m.root(), m["x"]),
            rhs: Rhs::Template("?x"),
        }),
        example: r#"
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = "onnx.Constant"() {value = dense<[1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Expand"(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %1 = "onnx.Relu"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}"#,
    },
    Rule {
        name: "expand-into-broadcast",
        roots: &[
            "Add",
            "Sub",
            "Mul",
            "Div",
            "Pow",
            "Max",
            "Min",
            "And",
            "Or",
            "Xor",
            "Equal",
            "Less",
            "Greater",
            "LessOrEqual",
            "GreaterOrEqual",
            "Where",
        ],
        min_opset: 8,
        summary:
            "an Expand feeding a broadcasting op goes when the op's broadcast gives the same result type without it",
        apply: Apply::Fn(expand_into_broadcast),
        example: r#"
func.func @f(%x: tensor<?x1x8xf32, ["s0"]>, %y: tensor<?x4x8xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]> {
  %s = "onnx.Shape"(%y) : (tensor<?x4x8xf32, ["s0"]>) -> tensor<3xi64>
  %e = "onnx.Expand"(%x, %s) : (tensor<?x1x8xf32, ["s0"]>, tensor<3xi64>) -> tensor<?x4x8xf32, ["s0"]>
  %0 = "onnx.Add"(%e, %y) : (tensor<?x4x8xf32, ["s0"]>, tensor<?x4x8xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]>
  return %0 : tensor<?x4x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "unsqueeze-into-broadcast",
        roots: &[
            "Add",
            "Sub",
            "Mul",
            "Div",
            "Pow",
            "Max",
            "Min",
            "And",
            "Or",
            "Xor",
            "Equal",
            "Less",
            "Greater",
            "LessOrEqual",
            "GreaterOrEqual",
            "Where",
        ],
        min_opset: 13,
        summary: "an Unsqueeze of leading axes feeding a broadcasting op goes (numpy broadcasting prepends those 1s) when the result type stays",
        apply: Apply::Fn(unsqueeze_into_broadcast),
        example: r#"
func.func @f(%x: tensor<?x8xf32, ["s0"]>, %y: tensor<2x?x8xf32, ["s0"]>) -> tensor<2x?x8xf32, ["s0"]> {
  %a = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %u = "onnx.Unsqueeze"(%x, %a) : (tensor<?x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<1x?x8xf32, ["s0"]>
  %0 = "onnx.Add"(%y, %u) : (tensor<2x?x8xf32, ["s0"]>, tensor<1x?x8xf32, ["s0"]>) -> tensor<2x?x8xf32, ["s0"]>
  return %0 : tensor<2x?x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "gather-of-arange",
        roots: &["Gather"],
        min_opset: 13,
        summary: "Gather(data [N, ..], Slice(c, starts, ends, [a], steps)) {axis = 0} with c[.., i, ..] = i (N values along a, other dims 1: a constant buffer such as position_ids) -> Unsqueeze(Slice(data, starts, ends, [0], steps))",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Gather{..} ?data ?idx=(Slice ?c ?starts ?ends ?axes ...))",
            when: |_, m| m.root_head().attrs.iter().all(|(k, v)| k.as_str() == "axis" && *v == AttrValue::Int(0)),
            rhs: Rhs::Build(gather_of_arange),
        }),
        example: r#"
func.func @f(%t: tensor<8x4xf32>, %x: tensor<2x?xi64, ["s0"]>) -> tensor<1x?x4xf32, ["s0"]> {
  %c = "onnx.Constant"() {value = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : () -> tensor<1x8xi64>
  %z = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "onnx.Shape"(%x) {end = 2 : i64, start = 1 : i64} : (tensor<2x?xi64, ["s0"]>) -> tensor<1xi64>
  %i = "onnx.Slice"(%c, %z, %e, %one, %one) : (tensor<1x8xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x?xi64, ["s0"]>
  %g = "onnx.Gather"(%t, %i) {axis = 0 : i64} : (tensor<8x4xf32>, tensor<1x?xi64, ["s0"]>) -> tensor<1x?x4xf32, ["s0"]>
  return %g : tensor<1x?x4xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "gather-elements-of-uniform",
        roots: &["GatherElements"],
        min_opset: 13,
        summary: "GatherElements(c, idx) of a constant c holding one value v everywhere (a constant buffer such as token_type_ids) -> Expand(v, Shape(idx))",
        apply: Apply::Pattern(PatternRule {
            lhs: "(GatherElements{..} ?c ?idx)",
            when: |_, m| m.root_head().attrs.iter().all(|(k, _)| k.as_str() == "axis"),
            rhs: Rhs::Build(gather_elements_of_uniform),
        }),
        example: r#"
func.func @f(%t: tensor<2x4xf32>, %x: tensor<2x?xi64, ["s0"]>) -> tensor<1x?x4xf32, ["s0"]> {
  %c = "onnx.Constant"() {value = dense<0> : tensor<1x8xi64>} : () -> tensor<1x8xi64>
  %z = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "onnx.Shape"(%x) {end = 2 : i64, start = 1 : i64} : (tensor<2x?xi64, ["s0"]>) -> tensor<1xi64>
  %i = "onnx.Slice"(%c, %z, %e, %one, %one) : (tensor<1x8xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x?xi64, ["s0"]>
  %k = "onnx.GatherElements"(%c, %i) {axis = 1 : i64} : (tensor<1x8xi64>, tensor<1x?xi64, ["s0"]>) -> tensor<1x?xi64, ["s0"]>
  %g = "onnx.Gather"(%t, %k) {axis = 0 : i64} : (tensor<2x4xf32>, tensor<1x?xi64, ["s0"]>) -> tensor<1x?x4xf32, ["s0"]>
  return %g : tensor<1x?x4xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "concat-one-operand",
        roots: &["Concat"],
        min_opset: 1,
        summary: "Concat(x) of a single operand -> x (a key/value cache concatenated with no past)",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Concat{..} ?x)",
            when: |rw, m| {
                let head = m.root_head();
                let rank = rw.ty(m["x"]).and_then(TyInfo::rank);
                head.attrs.len() == 1 && head.int("axis").zip(rank).is_some_and(|(a, r)| super::norm_axis(a, r).is_some())
            },
            rhs: Rhs::Template("?x"),
        }),
        example: r#"
func.func @f(%x: tensor<?x2x?x8xf32, ["s0", "s1"]>) -> tensor<?x2x?x8xf32, ["s0", "s1"]> {
  %0 = "onnx.Concat"(%x) {axis = -2 : i64} : (tensor<?x2x?x8xf32, ["s0", "s1"]>) -> tensor<?x2x?x8xf32, ["s0", "s1"]>
  %1 = "onnx.Exp"(%0) : (tensor<?x2x?x8xf32, ["s0", "s1"]>) -> tensor<?x2x?x8xf32, ["s0", "s1"]>
  return %1 : tensor<?x2x?x8xf32, ["s0", "s1"]>
}"#,
    },
    Rule {
        name: "identity",
        roots: &["Identity"],
        min_opset: 1,
        summary: "Identity(x) -> x",
        // Identity(x) is x whatever x's unknown dims (the applier still refuses
        // a union with a result declared another shape).
        apply: Apply::Pattern(PatternRule { lhs: "(Identity ?x)", when: |_, _| true, rhs: Rhs::Template("?x") }),
        example: r#"
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "onnx.Identity"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Exp"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}"#,
    },
];

/// The permutation of a Transpose of a rank-`rank` tensor (default: reversed).
fn perm_of(head: &Head, rank: usize) -> Option<Vec<usize>> {
    if !head.attrs.iter().all(|(k, _)| k.as_str() == "perm") {
        return None;
    }
    let perm: Vec<usize> = match head.ints("perm") {
        Some(p) => p.iter().map(|&i| usize::try_from(i).ok()).collect::<Option<_>>()?,
        None if head.attr("perm").is_none() => (0..rank).rev().collect(),
        None => return None,
    };
    let mut seen = vec![false; rank];
    (perm.len() == rank && perm.iter().all(|&i| i < rank && !std::mem::replace(&mut seen[i], true))).then_some(perm)
}

/// The composition `Transpose(Transpose(x, inner), outer)` as one
/// permutation of x's axes, when both permutations are valid.
fn composed_perm(rw: &Rw<'_>, m: &Match) -> Option<Vec<i64>> {
    let rank = rw.ty(m["y"])?.rank()?;
    let (outer, inner) = (perm_of(m.root_head(), rank)?, perm_of(m.head("y"), rank)?);
    Some(outer.iter().map(|&i| inner[i] as i64).collect())
}

/// x when the composition is the identity (and the types agree), else one
/// Transpose by the composed permutation.
fn transpose_transpose(rw: &mut Rw<'_>, m: &Match) -> Option<Id> {
    let (x, class) = (m["x"], m.root());
    let composed = composed_perm(rw, m)?;
    if composed.iter().enumerate().all(|(i, &p)| i as i64 == p) {
        return rw.same_type(class, x).then_some(x);
    }
    rw.add_like(Head::new("Transpose", vec![("perm", AttrValue::Ints(composed))]), vec![x], class)
}

/// Ops that only change the shape, keeping the element order.
const VIEWS: &[&str] = &["Reshape", "Squeeze", "Unsqueeze", "Flatten"];

/// The data input of a view op's e-node.
fn view_inputs(rw: &Rw<'_>, id: Id) -> Vec<Id> {
    VIEWS.iter().flat_map(|op| rw.producers(id, op)).filter_map(|(_, c)| c.first().copied()).collect()
}

fn reshape_reshape(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    let [y, shape] = children else { return None };
    let s = rw.ints(*shape)?;
    if s.contains(&0) || head.int("allowzero").unwrap_or(0) != 0 && s.contains(&0) {
        return None;
    }
    let x = view_inputs(rw, *y).into_iter().find(|&x| rw.find(x) != rw.find(*y) && rw.elem(x) == rw.elem(class))?;
    rw.add_like(head.clone(), vec![x, *shape], class)
}

/// `Reshape(Transpose(Reshape(x, [N, T..]), [0, p..]), L ++ p(T))` with
/// `x = L ++ T` (`T` the trailing dims of the inner result, `L` the rest):
/// the inner Reshape merges `L` into one row-major axis `N` (the trailing
/// dims are the same, so `N` is the size of `L`), the Transpose permutes
/// the trailing axes within each of the `N` blocks, and the outer Reshape
/// splits `N` back into `L`. Element for element that is
/// `Transpose(x, [0..|L|, |L| - 1 + p..])`. Every dim is compared through
/// the types (static, or the same symbol), so the shape operands may be
/// computed (`Shape`, `Slice`, `Concat`).
fn reshape_transpose_reshape(rw: &mut Rw<'_>, class: Id, _head: &Head, children: &[Id]) -> Option<Id> {
    let [t, _] = children else { return None };
    let out = rw.ty(class)?.dims.clone()?;
    for (th, tc) in rw.producers(*t, "Transpose") {
        let [r] = tc[..] else { continue };
        let Some(rd) = rw.ty(r).and_then(|ty| ty.dims.clone()) else { continue };
        let Some(perm) = perm_of(&th, rd.len()) else { continue };
        if rd.len() < 2 || perm[0] != 0 {
            continue;
        }
        for (_, rc) in rw.producers(r, "Reshape") {
            let x = rc[0];
            let Some(xd) = rw.ty(x).and_then(|ty| ty.dims.clone()) else { continue };
            let m = rd.len() - 1; // trailing dims kept
            if xd.len() <= m || out.len() != xd.len() || rw.elem(x) != rw.elem(class) {
                continue;
            }
            let l = xd.len() - m;
            let trailing_kept = (0..m).all(|i| rd[1 + i].same(&xd[l + i]));
            let lead_back = (0..l).all(|i| out[i].same(&xd[i]));
            let permuted = (0..m).all(|i| out[l + i].same(&xd[l + perm[1 + i] - 1]));
            if !(trailing_kept && lead_back && permuted) {
                continue;
            }
            let full: Vec<i64> = (0..l).chain((1..=m).map(|i| l - 1 + perm[i])).map(|a| a as i64).collect();
            return rw.add_like(Head::new("Transpose", vec![("perm", AttrValue::Ints(full))]), vec![x], class);
        }
    }
    None
}

/// The size of `dims` as one dim: their static product, or the one dim
/// among static 1s.
fn product(dims: &[Dim]) -> Option<Dim> {
    let mut total: i64 = 1;
    let mut symbolic: Option<Dim> = None;
    for d in dims {
        match d {
            Dim::Static(n) => total = total.checked_mul(*n)?,
            Dim::Sym(_) if symbolic.is_none() => symbolic = Some(d.clone()),
            _ => return None,
        }
    }
    match symbolic {
        None => Some(Dim::Static(total)),
        Some(d) if total == 1 => Some(d),
        Some(_) => None,
    }
}

/// `Reshape(x, s)` with a 2-D result `[d0, d1]` is `Flatten(x, axis = a)`
/// when `d0` is the size of `x.dims[..a]` and `d1` that of `x.dims[a..]`
/// (both orders are row-major: the same elements in the same places). The
/// sizes come from the types only, so `s` may be computed (`Shape`, `Concat`).
fn reshape_to_flatten(rw: &mut Rw<'_>, m: &Match) -> Option<Id> {
    let (x, class) = (m["x"], m.root());
    let out = rw.ty(class)?.dims.clone()?;
    let xd = rw.ty(x)?.dims.clone()?;
    // (A 2-D x flattens to itself: `reshape-same-shape`'s case.)
    if out.len() != 2 || xd.len() < 3 || rw.elem(x) != rw.elem(class) {
        return None;
    }
    let axis = (1..xd.len()).find(|&a| {
        let (left, right) = (product(&xd[..a]), product(&xd[a..]));
        left.is_some_and(|l| l.same(&out[0])) && right.is_some_and(|r| r.same(&out[1]))
    })?;
    rw.add_like(Head::new("Flatten", vec![("axis", AttrValue::Int(axis as i64))]), vec![x], class)
}

/// `Gather(data, Expand(idx, s))` on axis 0 reads row `idx[j']` at every
/// position `j` that `j'` broadcasts to; `Gather(data, idx)` reads each of
/// those rows once, and expanding it by `s` followed by `data`'s trailing
/// dims (static) puts the same row at the same positions (broadcasting
/// aligns from the right, so `s ++ tail` lines `tail` up with the rows and
/// `s` with `idx` exactly as before). Indices, negative ones included, are
/// the same values.
fn gather_of_expand(rw: &mut Rw<'_>, m: &Match) -> Option<Id> {
    let (data, idx, s, class, head) = (m["data"], m["idx"], m["s"], m.root(), m.root_head());
    let tail = rw.ty(data)?.static_shape()?.get(1..)?.to_vec();
    let out = rw.ty(class)?.clone();
    let (Some(idx_dims), Some(s_len)) =
        (rw.ty(idx).and_then(|t| t.dims.clone()), rw.ty(s).and_then(|t| t.static_shape()))
    else {
        return None;
    };
    if s_len.len() != 1 || rw.elem(s) != Some(dtype::INT64) {
        return None;
    }
    let mut inner_dims = idx_dims;
    inner_dims.extend(tail.iter().map(|&d| Dim::Static(d)));
    let elem = out.elem?;
    let inner = rw.add(head.clone(), vec![data, idx], TyInfo::tensor(elem, inner_dims));
    let shape = if tail.is_empty() {
        s
    } else {
        let t = rw.const_i64s(&tail);
        rw.add(
            Head::new("Concat", vec![("axis", AttrValue::Int(0))]),
            vec![s, t],
            TyInfo::tensor(dtype::INT64, vec![Dim::Static(s_len[0] + tail.len() as i64)]),
        )
    };
    rw.add_like(Head::new("Expand", vec![]), vec![inner, shape], class)
}

/// The broadcast of `shapes` when every dim is provably known (numpy rules:
/// a dim is 1 or the same as every other non-1 dim).
fn broadcast(shapes: &[Vec<Dim>]) -> Option<Vec<Dim>> {
    let rank = shapes.iter().map(Vec::len).max()?;
    (0..rank)
        .map(|i| {
            let mut out = Dim::Static(1);
            for s in shapes {
                let Some(d) = (i + s.len()).checked_sub(rank).map(|j| &s[j]) else { continue };
                match (d, &out) {
                    (Dim::Static(1), _) => {}
                    (Dim::Unknown, _) => return None,
                    (_, Dim::Static(1)) => out = d.clone(),
                    (d, o) if d.same(o) => {}
                    _ => return None,
                }
            }
            Some(out)
        })
        .collect()
}

fn expand_into_broadcast(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    if !head.fully_known() {
        return None;
    }
    let out = rw.ty(class)?.clone();
    let out_dims = out.dims.as_ref()?;
    // Where's condition is operand 0; every operand broadcasts.
    for (i, &operand) in children.iter().enumerate() {
        for (eh, ec) in rw.producers(operand, "Expand") {
            let x = ec[0];
            if !eh.attrs.is_empty() || rw.elem(x) != rw.elem(operand) {
                continue;
            }
            let mut operands = children.to_vec();
            operands[i] = x;
            let shapes: Option<Vec<Vec<Dim>>> = operands.iter().map(|&o| rw.ty(o)?.dims.clone()).collect();
            let Some(b) = shapes.as_deref().and_then(broadcast) else { continue };
            if b.len() == out_dims.len() && b.iter().zip(out_dims).all(|(p, q)| p.same(q)) {
                return rw.add_like(head.clone(), operands, class);
            }
        }
    }
    None
}

/// The operands of a broadcasting op with an operand replaced by what
/// `strip` finds under it, when the op's broadcast still gives its result
/// type (`expand-into-broadcast`, `unsqueeze-into-broadcast`).
fn into_broadcast(
    rw: &mut Rw<'_>,
    class: Id,
    head: &Head,
    children: &[Id],
    strip: fn(&Rw<'_>, Id) -> Vec<Id>,
) -> Option<Id> {
    if !head.fully_known() {
        return None;
    }
    let out = rw.ty(class)?.clone();
    let out_dims = out.dims.as_ref()?;
    // Where's condition is operand 0; every operand broadcasts.
    for (i, &operand) in children.iter().enumerate() {
        for x in strip(rw, operand) {
            if rw.elem(x) != rw.elem(operand) {
                continue;
            }
            let mut operands = children.to_vec();
            operands[i] = x;
            let shapes: Option<Vec<Vec<Dim>>> = operands.iter().map(|&o| rw.ty(o)?.dims.clone()).collect();
            let Some(b) = shapes.as_deref().and_then(broadcast) else { continue };
            if b.len() == out_dims.len() && b.iter().zip(out_dims).all(|(p, q)| p.same(q)) {
                return rw.add_like(head.clone(), operands, class);
            }
        }
    }
    None
}

/// `x` for each `Unsqueeze(x, axes)` in `id`'s class whose constant axes
/// are the leading ones `0..k` of the result (what broadcasting prepends).
fn leading_unsqueeze_inputs(rw: &Rw<'_>, id: Id) -> Vec<Id> {
    let Some(rank) = rw.ty(id).and_then(TyInfo::rank) else { return Vec::new() };
    rw.producers(id, "Unsqueeze")
        .into_iter()
        .filter_map(|(h, c)| {
            let [x, axes] = c[..] else { return None };
            let mut axes: Vec<i64> = rw.ints(axes)?.iter().map(|&a| if a < 0 { a + rank as i64 } else { a }).collect();
            axes.sort_unstable();
            (h.attrs.is_empty() && !axes.is_empty() && axes.iter().enumerate().all(|(i, &a)| a == i as i64))
                .then_some(x)
        })
        .collect()
}

fn unsqueeze_into_broadcast(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    into_broadcast(rw, class, head, children, leading_unsqueeze_inputs)
}

/// `Gather(data, Slice(c, starts, ends, [a], steps)) {axis = 0}` where the
/// constant `c` counts `0, 1, .., N-1` along axis `a` (every other dim 1)
/// and `data` has `N` rows: the gathered rows are the rows of `data` the
/// same Slice selects (both axes have `N` elements, so starts, ends and
/// steps clamp alike), so the value is `Slice(data, starts, ends, [0],
/// steps)` with `c`'s other (size-1) dims put back by an Unsqueeze.
fn gather_of_arange(rw: &mut Rw<'_>, m: &Match) -> Option<Id> {
    let (data, idx, class) = (m["data"], m["idx"], m.root());
    let data_ty = rw.ty(data)?.clone();
    let data_dims = data_ty.dims.clone()?;
    let Some(Dim::Static(n)) = data_dims.first().cloned() else { return None };
    let idx_dims = rw.ty(idx)?.dims.clone()?;
    let sc = m.operands("idx");
    if !(4..=5).contains(&sc.len()) {
        return None;
    }
    let (c, starts, ends, axes) = (sc[0], sc[1], sc[2], sc[3]);
    let shape = rw.ty(c).and_then(TyInfo::static_shape)?;
    let values = rw.ints(c)?;
    let [axis] = rw.ints(axes).and_then(|a| <[i64; 1]>::try_from(a).ok())?;
    let a = super::norm_axis(axis, shape.len())?;
    let counts = shape[a] == n
        && shape.iter().enumerate().all(|(i, &d)| i == a || d == 1)
        && values.len() as i64 == n
        && values.iter().enumerate().all(|(i, &v)| v == i as i64);
    // steps, when given, must be known (any non-zero step selects the same rows of both).
    let steps_ok = sc.len() == 4 || rw.ints(sc[4]).is_some_and(|s| s.len() == 1 && s[0] != 0);
    // The new axes operand is int64: Slice wants one index type.
    let int64 = [starts, ends].iter().chain(sc.get(4)).all(|&v| rw.elem(v) == Some(dtype::INT64));
    if !counts || !steps_ok || !int64 || idx_dims.len() != shape.len() {
        return None;
    }
    let mut sliced_dims = vec![idx_dims[a].clone()];
    sliced_dims.extend(data_dims[1..].iter().cloned());
    // Axis 0 (the starts, when they are that constant, are the same e-class).
    let zero = match rw.ints(starts).as_deref() {
        Some([0]) => starts,
        _ => rw.const_i64s(&[0]),
    };
    let mut operands = vec![data, starts, ends, zero];
    operands.extend(sc.get(4).copied());
    let sliced = rw.add(Head::new("Slice", vec![]), operands, TyInfo::tensor(data_ty.elem?, sliced_dims));
    if shape.len() == 1 {
        return Some(sliced);
    }
    let ones: Vec<i64> = (0..shape.len() as i64).filter(|&i| i != a as i64).collect();
    let axes = rw.const_i64s(&ones);
    rw.add_like(Head::new("Unsqueeze", vec![]), vec![sliced, axes], class)
}

/// `GatherElements(c, idx)` of a constant `c` whose every element is the
/// same `v`: every gathered element is `v`, so the value is `v` broadcast to
/// `idx`'s shape (an index out of range, an error for the op, is not
/// checked any more).
fn gather_elements_of_uniform(rw: &mut Rw<'_>, m: &Match) -> Option<Id> {
    let (c, idx, class) = (m["c"], m["idx"], m.root());
    use crate::lang::{Tensor, Values};
    let elem = rw.elem(c)?;
    let rank = rw.ty(idx)?.rank()?;
    let first = match rw.values(c)? {
        Values::Ints(v) if !v.is_empty() && v.iter().all(|x| *x == v[0]) => Values::Ints(vec![v[0]]),
        Values::Floats(v) if !v.is_empty() && v.iter().all(|x| *x == v[0]) => Values::Floats(vec![v[0]]),
        _ => return None,
    };
    let v = rw.constant(Tensor::scalar_like(elem, vec![], first));
    let shape =
        rw.add(Head::new("Shape", vec![]), vec![idx], TyInfo::tensor(dtype::INT64, vec![Dim::Static(rank as i64)]));
    rw.add_like(Head::new("Expand", vec![]), vec![v, shape], class)
}
