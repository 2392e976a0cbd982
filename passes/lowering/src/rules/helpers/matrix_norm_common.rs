//! Matrix norms shared by linalg_matrix_norm, linalg_norm and linalg_cond. Not a rule file.

use super::linalg_jacobi_common::{sv_norm, SvNorm};
use super::math_common::reduce_nan;
use super::vector_norm_common::vector_norm;
use crate::{builder, Ctx};
use melior::ir::{Type, Value};

pub enum MatrixOrd {
    Number(f64),
    Str(String),
}

/// A matrix norm over the two dims `dims`: Frobenius (the vector 2-norm of
/// the matrix), ±1 (max/min column sum of |x|), ±inf (max/min row sum),
/// ±2 (largest/smallest singular value) and nuclear (their sum), the last
/// three by Jacobi singular values (linalg_jacobi_common.rs).
pub fn matrix_norm<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    ord: &MatrixOrd,
    dims: &[i64],
    keepdim: bool,
    result: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let rank = ctx.rank(x)?;
    if rank < 2 {
        return Err(format!("a matrix norm needs a tensor of rank >= 2, got rank {rank}"));
    }
    if dims.len() != 2 {
        return Err(format!("a matrix norm needs two dims, got {dims:?}"));
    }
    let (d0, d1) = (ctx.dim(dims[0], rank)? as i64, ctx.dim(dims[1], rank)? as i64);
    if d0 == d1 {
        return Err(format!("the two dims of a matrix norm must differ, got {dims:?}"));
    }
    let ord = match ord {
        MatrixOrd::Str(s) if s == "fro" => return vector_norm(ctx, x, 2.0, &[d0, d1], keepdim, result),
        MatrixOrd::Str(s) if s == "nuc" => return sv_matrix_norm(ctx, x, SvNorm::Nuclear, d0, d1, keepdim, result),
        MatrixOrd::Str(s) => return Err(format!("matrix norm order '{s}' is not one of 'fro', 'nuc'")),
        MatrixOrd::Number(o) => *o,
    };
    let (sum_axis, max_axis) = if ord.abs() == 1.0 {
        (d0, d1) // column sums, then over columns
    } else if ord.is_infinite() {
        (d1, d0) // row sums, then over rows
    } else if ord == 2.0 || ord == -2.0 {
        let kind = if ord > 0.0 { SvNorm::Max } else { SvNorm::Min };
        return sv_matrix_norm(ctx, x, kind, d0, d1, keepdim, result);
    } else {
        return Err(format!("matrix norm order {ord} is not one of 'fro', 'nuc', 1, -1, 2, -2, inf, -inf"));
    };
    let ty = melior::ir::ValueLike::r#type(&x);
    let element = builder::element_type(ty).ok_or("not a tensor")?;
    // The column/row sums keep the rank (keepdims): a ranked type, which the
    // NaN-aware max/min needs.
    let mut dims: Vec<u64> =
        builder::dims(ty).ok_or("unranked operand")?.iter().map(|d| d.map_or(i64::MIN as u64, |d| d as u64)).collect();
    dims[sum_axis as usize] = 1;
    let sums_ty = melior::ir::r#type::RankedTensorType::new(&dims, element, None).into();
    let abs = ctx.b.onnx().abs(x).like(x)?;
    let sums = ctx.reduce(crate::Reduction::Sum, abs, Some(&[sum_axis]), true, sums_ty)?;
    let op = if ord > 0.0 { crate::Reduction::Max } else { crate::Reduction::Min };
    let reduced = if ord > 0.0 && dims[max_axis as usize] == 0 {
        // No columns / rows to take the max over: torch's amax gives 0 there
        // (ONNX's ReduceMax the lowest value); a sum over nothing is 0.
        ctx.reduce(crate::Reduction::Sum, sums, Some(&[max_axis]), true, ctx.b.unranked(element))?
    } else {
        reduce_nan(ctx, op, sums, Some(&[max_axis]), true, ctx.b.unranked(element))?
    };
    if keepdim {
        return ctx.b.onnx().identity(reduced).typed(result);
    }
    let axes = ctx.b.const_i64s(&[d0.min(d1), d0.max(d1)])?;
    ctx.b.onnx().squeeze(reduced, Some(axes)).typed(result)
}

/// The ±2 and nuclear norms from singular values: the matrix sizes must be
/// static (from `x`'s type).
fn sv_matrix_norm<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    kind: SvNorm,
    d0: i64,
    d1: i64,
    keepdim: bool,
    result: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let dims = builder::dims(melior::ir::ValueLike::r#type(&x)).ok_or("unranked operand")?;
    sv_norm(ctx, x, &dims, kind, d0 as usize, d1 as usize, keepdim, result)
}
