//! Matrix products: `MatMul + Add` of 2-D operands as one Gemm, and the
//! transposes Gemm can do itself (`transA`/`transB`) folded into it.

use super::{
    pattern::{PatternRule, Rhs},Apply, Rule, Rw};
use crate::{
    analysis::Dim,
    lang::{dtype, AttrValue, Head},
};
use egg::{Id, Symbol};

pub static RULES: &[Rule] = &[
    Rule {
        name: "matmul-add-to-gemm",
        roots: &["Add"],
        min_opset: 11,
        summary:
            "Add(MatMul(a, b), c) -> Gemm(a, b, c) when a and b are 2-D floats and c broadcasts one-way to the product",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Add ?p=(MatMul ?a ?b) ?c)",
            when: |rw, m| {
                let (a, b, c, p) = (m["a"], m["b"], m["c"], m["p"]);
                let (Some(ta), Some(tb), Some(tc), Some(tp)) = (rw.ty(a), rw.ty(b), rw.ty(c), rw.ty(p)) else {
                    return false;
                };
                let float = matches!(ta.elem, Some(dtype::FLOAT | dtype::DOUBLE | dtype::FLOAT16 | dtype::BFLOAT16));
                if !float || ta.rank() != Some(2) || tb.rank() != Some(2) || ta.elem != tc.elem || !rw.same_type(m.root(), p)
                {
                    return false;
                }
                // C broadcasts to [M, N] one way: each of its dims is 1 or the product's.
                let (Some(cd), Some(pd)) = (tc.dims.as_ref(), tp.dims.as_ref()) else { return false };
                cd.len() <= 2 && cd.iter().rev().zip(pd.iter().rev()).all(|(x, y)| *x == Dim::Static(1) || x.same(y))
            },
            rhs: Rhs::Template("(Gemm ?a ?b ?c)"),
        }),
        example: r#"
func.func @f(%a: tensor<?x4xf32, ["s0"]>, %b: tensor<4x5xf32>, %c: tensor<5xf32>) -> tensor<?x5xf32, ["s0"]> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x4xf32, ["s0"]>, tensor<4x5xf32>) -> tensor<?x5xf32, ["s0"]>
  %1 = "onnx.Add"(%c, %0) : (tensor<5xf32>, tensor<?x5xf32, ["s0"]>) -> tensor<?x5xf32, ["s0"]>
  return %1 : tensor<?x5xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "gemm-transpose",
        roots: &["Gemm"],
        min_opset: 11,
        summary: "Gemm(Transpose(a), Transpose(b)) -> Gemm(a, b) with transA/transB flipped",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Gemm{..} ?t=(Transpose{..} ?x) ?b ...) | (Gemm{..} ?a ?t=(Transpose{..} ?x) ...)",
            when: |rw, m| {
                let flag = ["transA", "transB"][m.alternative()];
                m.root_head().fully_known()
                    && swaps_2d(rw, m.head("t"), m["x"])
                    && matches!(m.root_head().int(flag).unwrap_or(0), 0 | 1)
            },
            rhs: Rhs::Build(|rw, m| {
                let (i, head) = (m.alternative(), m.root_head());
                let flag = ["transA", "transB"][i];
                let mut new_head = head.clone();
                new_head.attrs.retain(|(k, _)| k.as_str() != flag);
                new_head.attrs.push((Symbol::from(flag), AttrValue::Int(1 - head.int(flag).unwrap_or(0))));
                new_head.attrs.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
                let mut operands = m.root_operands().to_vec();
                operands[i] = m["x"];
                rw.add_like(new_head, operands, m.root())
            }),
        }),
        example: r#"
func.func @f(%a: tensor<?x4xf32, ["s0"]>, %w: tensor<5x4xf32>, %c: tensor<5xf32>) -> tensor<?x5xf32, ["s0"]> {
  %t = "onnx.Transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<5x4xf32>) -> tensor<4x5xf32>
  %0 = "onnx.Gemm"(%a, %t, %c) {alpha = 1.0 : f32, beta = 1.0 : f32} : (tensor<?x4xf32, ["s0"]>, tensor<4x5xf32>, tensor<5xf32>) -> tensor<?x5xf32, ["s0"]>
  return %0 : tensor<?x5xf32, ["s0"]>
}"#,
    },
];
/// True when `head` is a Transpose swapping the two axes of a 2-D `x`.
fn swaps_2d(rw: &Rw<'_>, head: &Head, x: Id) -> bool {
    let swap = match head.attr("perm") {
        None => head.attrs.is_empty(),
        Some(AttrValue::Ints(p)) => head.attrs.len() == 1 && p[..] == [1, 0],
        _ => false,
    };
    swap && rw.ty(x).and_then(|t| t.rank()) == Some(2)
}
