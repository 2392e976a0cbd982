use super::math_common::along_dim;
use crate::{Attr, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.softmax.int", |c| softmax(c, "Softmax")).samples(&[
        "self: T[2,3]; dim: -1",
        "self: T[2,3,4]; dim: 1",
        "self: T[0,3]; dim: 1",
        "self: T[]; dim: 0",
        "self: T[]; dim: -1",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten._softmax.default", |c| softmax(c, "Softmax"))
        .samples(&["self: T[2,3]; dim: 1; half_to_float: false", "self: T[]; dim: 0; half_to_float: false"]).dtypes(&["f32", "f16", "bf16", "f64"]),
];

/// `Softmax(axis=dim)` (per-axis semantics since opset 13), computed in the
/// requested dtype; a 0-d input as a 1-element vector.
pub fn softmax<'c, 'a>(ctx: &Ctx<'c, 'a>, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    let dim = ctx.args.int("dim")?;
    if ctx.rank(x)? > 0 {
        return Ok(vec![ctx.op(op, &[x], &[("axis", Attr::Int(dim))])?]);
    }
    Ok(vec![along_dim(ctx, x, dim, |x, axis| ctx.b.op_like(op, &[x], &[("axis", Attr::Int(axis))], x))?])
}
