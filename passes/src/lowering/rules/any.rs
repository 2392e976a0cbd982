use crate::lowering::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.any.default", |c| any_all(c, None, true))
        .samples(&["self: T[3,4]", "self: T[0]"])
        .dtypes(&["bool"]),
    Rule::custom("aten.any.dim", |c| any_all(c, Some(c.args.int("dim")?), true))
        .samples(&["self: T[3,4]; dim: 1", "self: T[3,4]; dim: 0; keepdim: true", "self: i64[3,4]{0..2}; dim: -1"])
        .dtypes(&["bool"]),
];

/// `any`: the count of non-zero elements is > 0; `all`: the count of zero
/// elements is 0. Counting keeps empty reductions right (any = false,
/// all = true), which Max / Min of nothing would not.
pub(super) fn any_all<'c, 'a>(ctx: &Ctx<'c, 'a>, dim: Option<i64>, any: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = b.cast_like_type(ctx.args.tensor("self")?, b.i64_type())?;
    let zero = b.const_i64_scalar(0)?;
    let bool_type: melior::ir::Type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let is_zero = b.op("Equal", &[x, zero], &[], b.unranked(bool_type))?;
    let hits = if any { b.op("Not", &[is_zero], &[], b.unranked(bool_type))? } else { is_zero };
    let hits = b.cast_like_type(hits, b.i64_type())?;
    let keepdim = if dim.is_some() { ctx.args.bool("keepdim")? } else { false };
    let axes = dim.map(|d| vec![d]);
    let count = ctx.reduce("ReduceSum", hits, axes.as_deref(), keepdim, b.unranked(b.i64_type()))?;
    let op = if any { "Greater" } else { "Equal" };
    Ok(vec![ctx.op(op, &[count, zero], &[])?])
}
