//! Sorted search shared by searchsorted, bucketize and isin. Not a rule file.

use super::math_common::{bool_type, elem};
use crate::{builder, Ctx, Number};
use melior::ir::{r#type::IntegerType, Type, Value};

/// A dtype's promotion class: (is float, bits).
pub(super) fn class(t: Type<'_>) -> (bool, u32) {
    let bits = if builder::is_bool(t) {
        1
    } else if let Ok(i) = IntegerType::try_from(t) {
        i.width()
    } else {
        match t.to_string().as_str() {
            "f64" => 64,
            "f32" => 32,
            _ => 16,
        }
    };
    (builder::is_float(t), bits)
}

/// torch's `promote_types` for two real dtypes (no wrapped-number rule:
/// searchsorted promotes the boundaries and the values like tensors).
pub(super) fn promote<'c>(a: Type<'c>, b: Type<'c>) -> Type<'c> {
    let (ca, cb) = (class(a), class(b));
    match (ca.0, cb.0) {
        (true, false) => a,
        (false, true) => b,
        _ => {
            if ca.1 >= cb.1 {
                a
            } else {
                b
            }
        }
    }
}

/// The dtype a tensor of `t` and a Python number are compared in (torch's
/// result_type with a wrapped number: the number counts only by category,
/// a float number with an integer tensor gives the default float32).
pub(super) fn promote_number<'c>(ctx: &Ctx<'c, '_>, t: Type<'c>, n: Number) -> Type<'c> {
    match n {
        Number::Float(_) if !builder::is_float(t) => Type::float32(ctx.b.context),
        Number::Int(_) if builder::is_bool(t) => ctx.b.i64_type(),
        _ => t,
    }
}

/// The boundaries and values of a searchsorted-like op compared pairwise:
/// the insertion index of each value is the number of boundaries `s` (in
/// the last dim) with `!(s >= v)` (left) or `!(s > v)` (right), which is what
/// torch's binary search returns on a sorted sequence (also for a NaN value,
/// which goes past every boundary). `seq` is 1-D (shared) or has the
/// leading dims of `values`.
pub(super) fn insertion_index<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    seq: Value<'c, 'a>,
    seq_rank: usize,
    values: Value<'c, 'a>,
    right: bool,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let bools = b.unranked(bool_type(ctx));
    let i64s = b.unranked(b.i64_type());
    // values [..., M, 1] against seq [N] or [..., 1, N]
    let v = ctx.unsqueeze(values, &[-1])?;
    let s = if seq_rank > 1 { ctx.unsqueeze(seq, &[-2])? } else { seq };
    let cmp = if right { b.onnx().greater(s, v) } else { b.onnx().greater_or_equal(s, v) };
    let cmp = cmp.typed(bools)?;
    let below = b.onnx().not(cmp).typed(bools)?;
    let below = b.cast(below, b.i64_type())?;
    ctx.reduce(crate::Reduction::Sum, below, Some(&[-1]), false, i64s)
}

pub(super) fn searchsorted<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let mut seq = ctx.args.tensor("sorted_sequence")?;
    let seq_rank = ctx.rank(seq)?;
    if seq_rank == 0 {
        return Err("searchsorted: the boundaries must have at least one dim".into());
    }
    let right_flag = ctx.args.bool("right")?;
    let right = if ctx.args.is_none("side")? {
        right_flag
    } else {
        match ctx.args.string("side")?.as_str() {
            "left" if right_flag => return Err("searchsorted: side='left' contradicts right=True".into()),
            "left" => false,
            "right" => true,
            other => return Err(format!("searchsorted: side must be 'left' or 'right', got '{other}'")),
        }
    };
    if let Some(sorter) = ctx.args.opt_tensor("sorter")? {
        let sorter = b.cast_like_type(sorter, b.i64_type())?;
        seq = b.onnx().gather_elements(seq, sorter, Some(-1)).like(seq)?;
    }
    let seq_element = elem(seq)?;
    let values = match ctx.args.tensor_or_number("self")? {
        Ok(v) => {
            let vr = ctx.rank(v)?;
            if seq_rank > 1 && vr != seq_rank {
                return Err("searchsorted: boundaries and values must have the same leading dims".into());
            }
            let common = promote(seq_element, elem(v)?);
            seq = b.cast_like_type(seq, common)?;
            b.cast_like_type(v, common)?
        }
        Err(n) => {
            if seq_rank > 1 {
                return Err("searchsorted: a scalar value needs 1-D boundaries".into());
            }
            let common = promote_number(ctx, seq_element, n);
            seq = b.cast_like_type(seq, common)?;
            b.const_scalar(common, n.as_f64())?
        }
    };
    let index = insertion_index(ctx, seq, seq_rank, values, right)?;
    Ok(vec![b.cast_like_type(index, ctx.result_element(0)?).and_then(|v| ctx.b.onnx().identity(v).typed(ctx.result_type(0)?))?])
}
