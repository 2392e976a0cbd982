//! `torch.linalg.cond`. p = None / 2 / -2: `sigma_max / sigma_min` (or its
//! inverse) from Jacobi singular values (linalg_jacobi_common.rs), any
//! m x n. Other p (1, -1, inf, -inf, 'fro', 'nuc'), square only:
//! `norm(A) * norm(inv(A))` as torch computes it (`linalg_inv_ex`, the
//! inverse filled with inf where `info > 0`, NaN products made inf).
//! Empty matrices give 0, like torch.
use super::linalg_inv_common::inverse;
use super::linalg_jacobi_common::{cast_result, operand_dims, real_float, singular_values, zeros_result, Ops};
use super::matrix_norm_common::{matrix_norm, MatrixOrd};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.linalg_cond.default", |c| {
        if c.args.is_none("p")? {
            return cond(c, MatrixOrd::Number(2.0));
        }
        cond(c, MatrixOrd::Number(c.args.number("p")?.as_f64()))
    })
    .samples(&[
        "self: T[4,4]",
        "self: T[2,3,5]",
        "self: T[2,1,5,5]; p: -2",
        "self: T[3,3]{dd}; p: 1",
        "self: T[2,3,3]{dd}; p: -1",
        "self: T[3,3]{dd}; p: inf",
        "self: T[3,3]{dd}; p: -inf",
        "self: T[1,1]",
        "self: T[0,0]",
        "self: T[2,0,0]; p: 1",
        "self: T[3,0]",
    ])
    .dtypes(&["f32", "f64"]),
    Rule::custom("aten.linalg_cond.p_str", |c| cond(c, MatrixOrd::Str(c.args.string("p")?)))
        .samples(&["self: T[4,4]{dd}; p: \"fro\"", "self: T[2,3,3]{dd}; p: \"nuc\"", "self: T[0,0]; p: \"fro\""])
        .dtypes(&["f32", "f64"]),
];

fn cond<'c, 'a>(c: &Ctx<'c, 'a>, ord: MatrixOrd) -> Result<Vec<Value<'c, 'a>>, String> {
    real_float(c, "self")?;
    let o = Ops { b: &c.b };
    let a = c.args.tensor("self")?;
    let (m, n, batch) = operand_dims(c, "self", "self")?;
    let two = match &ord {
        MatrixOrd::Number(p) if p.abs() == 2.0 => Some(*p > 0.0),
        MatrixOrd::Number(p) if p.abs() == 1.0 || p.is_infinite() => None,
        MatrixOrd::Str(s) if s == "fro" || s == "nuc" => None,
        MatrixOrd::Number(p) => {
            return Err(format!("linalg.cond: order {p} is not one of None, 2, -2, 1, -1, inf, -inf"))
        }
        MatrixOrd::Str(s) => return Err(format!("linalg.cond: order '{s}' is not one of 'fro', 'nuc'")),
    };
    if two.is_none() && m != n {
        return Err(format!("linalg.cond with this order needs square matrices, got {m}x{n} (torch raises)"));
    }
    if m == 0 || n == 0 {
        // torch: zeros of the batch shape.
        return Ok(vec![zeros_result(c, 0, a, &[])?]);
    }
    if let Some(positive) = two {
        let k = m.min(n);
        let s = singular_values(c, a, m, n, batch)?;
        let first =
            o.f(o.on().slice(s, o.b.const_i64s(&[0])?, o.b.const_i64s(&[1])?, Some(o.b.const_i64s(&[-1])?), None))?;
        let last = o.f(o.on().slice(
            s,
            o.b.const_i64s(&[k as i64 - 1])?,
            o.b.const_i64s(&[k as i64])?,
            Some(o.b.const_i64s(&[-1])?),
            None,
        ))?;
        let r = if positive { o.f(o.on().div(first, last))? } else { o.f(o.on().div(last, first))? };
        let r = o.f(o.on().squeeze(r, Some(o.b.const_i64s(&[-1])?)))?;
        return Ok(vec![cast_result(c, 0, r)?]);
    }
    // norm(A) * norm(inv(A)), in the input's precision like torch.
    let element = c.result_element(0)?;
    let operand_ty = c.aten_operand_types[c.args.operand_range("self")?.ok_or("self is not a tensor")?.start];
    let a_typed = c.b.onnx().identity(a).typed(operand_ty)?;
    let (inv, info) = inverse(c, "self")?;
    let inv = c.b.onnx().identity(inv).typed(operand_ty)?;
    let ity = c.b.unranked(c.b.i64_type());
    let info = c.b.cast(info, c.b.i64_type())?;
    let info = c.b.onnx().unsqueeze(info, o.b.const_i64s(&[-1, -2])?).typed(ity)?;
    let bad = o.bo(o.on().greater(info, c.b.const_i64_scalar(0)?))?;
    let inf = c.b.const_scalar(element, f64::INFINITY)?;
    let inv = c.b.onnx().where_(bad, inf, inv).typed(operand_ty)?;
    let rank = batch + 2;
    let dims = [rank as i64 - 2, rank as i64 - 1];
    let result = c.result_type(0)?;
    let na = matrix_norm(c, a_typed, &ord, &dims, false, result)?;
    let ni = matrix_norm(c, inv, &ord, &dims, false, result)?;
    let r = c.b.onnx().mul(na, ni).typed(c.b.unranked(element))?;
    let nan = c.b.onnx().is_na_n(r).typed(c.b.unranked(melior::ir::r#type::IntegerType::new(c.b.context, 1).into()))?;
    Ok(vec![c.b.onnx().where_(nan, inf, r).typed(result)?])
}
