use crate::lowering::{Attr, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.softmax.int", |c| softmax(c, "Softmax")).samples(&[
        "self: T[2,3]; dim: -1",
        "self: T[2,3,4]; dim: 1",
        "self: T[0,3]; dim: 1",
    ]),
    Rule::custom("aten._softmax.default", |c| softmax(c, "Softmax"))
        .samples(&["self: T[2,3]; dim: 1; half_to_float: false"]),
];

/// `Softmax(axis=dim)` (per-axis semantics since opset 13), computed in the
/// requested dtype.
pub fn softmax<'c, 'a>(ctx: &Ctx<'c, 'a>, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    let dim = ctx.args.int("dim")?;
    Ok(vec![ctx.op(op, &[x], &[("axis", Attr::Int(dim))])?])
}
