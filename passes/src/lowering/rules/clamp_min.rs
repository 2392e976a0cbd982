use crate::lowering::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.clamp_min.default", |c| bound(c, "min", "Max"))
        .samples(&["self: T[2,3]; min: 0.25", "self: T[2,3]; min: -1", "self: T[]; min: 0"])
        .dtypes(&["f32", "i64"]),
    Rule::custom("aten.clamp_min.Tensor", |c| bound(c, "min", "Max"))
        .samples(&["self: T[2,3]; min: T[3]", "self: T[2,3]; min: T[]", "self: T[]; min: T[2]"])
        .dtypes(&["f32", "i64"]),
];

/// `Max(x, min)` / `Min(x, max)` in the result type (NaN in `x` or the
/// bound propagates, like torch).
pub(super) fn bound<'c, 'a>(ctx: &Ctx<'c, 'a>, arg: &str, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let x = ctx.tensor_as("self", element)?;
    let b = ctx.tensor_as(arg, element)?;
    Ok(vec![ctx.op(op, &[x, b], &[])?])
}
