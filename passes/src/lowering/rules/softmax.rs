use crate::lowering::{Attr, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.softmax.int", |c| softmax(c, "Softmax")),
    Rule::custom("aten._softmax.default", |c| softmax(c, "Softmax")),
];

/// `Softmax(axis=dim)` (per-axis semantics since opset 13), computed in the
/// requested dtype.
pub fn softmax<'c, 'a>(ctx: &Ctx<'c, 'a>, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    let dim = ctx.args.int("dim")?;
    Ok(vec![ctx.op(op, &[x], &[("axis", Attr::Int(dim))])?])
}
