//! Matrix products: `MatMul + Add` of 2-D operands as one Gemm, and the
//! transposes Gemm can do itself (`transA`/`transB`) folded into it.

use super::{both_orders, Apply, Rule, Rw};
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
        apply: Apply::Fn(matmul_add_to_gemm),
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
        apply: Apply::Fn(gemm_transpose),
        example: r#"
func.func @f(%a: tensor<?x4xf32, ["s0"]>, %w: tensor<5x4xf32>, %c: tensor<5xf32>) -> tensor<?x5xf32, ["s0"]> {
  %t = "onnx.Transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<5x4xf32>) -> tensor<4x5xf32>
  %0 = "onnx.Gemm"(%a, %t, %c) {alpha = 1.0 : f32, beta = 1.0 : f32} : (tensor<?x4xf32, ["s0"]>, tensor<4x5xf32>, tensor<5xf32>) -> tensor<?x5xf32, ["s0"]>
  return %0 : tensor<?x5xf32, ["s0"]>
}"#,
    },
];

fn matmul_add_to_gemm(rw: &mut Rw<'_>, class: Id, _head: &Head, children: &[Id]) -> Option<Id> {
    for (p, c) in both_orders(children) {
        for (_, ab) in rw.producers(p, "MatMul") {
            let [a, b] = ab[..] else { continue };
            let (Some(ta), Some(tb), Some(tc), Some(tp)) = (rw.ty(a), rw.ty(b), rw.ty(c), rw.ty(p)) else { continue };
            let float = matches!(ta.elem, Some(dtype::FLOAT | dtype::DOUBLE | dtype::FLOAT16 | dtype::BFLOAT16));
            if !float || ta.rank() != Some(2) || tb.rank() != Some(2) || ta.elem != tc.elem || !rw.same_type(class, p) {
                continue;
            }
            // C broadcasts to [M, N] one way: each of its dims is 1 or the product's.
            let (Some(cd), Some(pd)) = (tc.dims.as_ref(), tp.dims.as_ref()) else { continue };
            let fits =
                cd.len() <= 2 && cd.iter().rev().zip(pd.iter().rev()).all(|(x, y)| *x == Dim::Static(1) || x.same(y));
            if !fits {
                continue;
            }
            return rw.add_like(Head::new("Gemm", vec![]), vec![a, b, c], class);
        }
    }
    None
}

/// The input of a 2-D `Transpose(x, [1, 0])` producing `id`.
fn transposed(rw: &Rw<'_>, id: Id) -> Option<Id> {
    rw.producers(id, "Transpose").into_iter().find_map(|(h, c)| {
        let swap = match h.attr("perm") {
            None => h.attrs.is_empty(),
            Some(AttrValue::Ints(p)) => h.attrs.len() == 1 && p[..] == [1, 0],
            _ => false,
        };
        (swap && rw.ty(c[0]).and_then(|t| t.rank()) == Some(2)).then(|| c[0])
    })
}

fn gemm_transpose(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    if children.len() < 2 || !head.fully_known() {
        return None;
    }
    for (i, flag) in [(0usize, "transA"), (1, "transB")] {
        let Some(x) = transposed(rw, children[i]) else { continue };
        let old = head.int(flag).unwrap_or(0);
        if !(old == 0 || old == 1) {
            continue;
        }
        let mut new_head = head.clone();
        new_head.attrs.retain(|(k, _)| k.as_str() != flag);
        new_head.attrs.push((Symbol::from(flag), AttrValue::Int(1 - old)));
        new_head.attrs.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
        let mut operands = children.to_vec();
        operands[i] = x;
        return rw.add_like(new_head, operands, class);
    }
    None
}
