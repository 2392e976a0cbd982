use crate::lowering::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.mean.dim", |c| reduce_dims(c, "ReduceMean")).samples(&[
        "self: T[2,3,4]; dim: [1]",
        "self: T[2,3]; dim: [-1]; keepdim: true",
        "self: T[2,3]; dim: [0,1]",
    ]),
    Rule::custom("aten.mean.default", |c| reduce_all(c, "ReduceMean")).samples(&["self: T[2,3]", "self: T[4]"]),
];

/// A reduction over `dim` (all dims when None or empty), in the result dtype.
pub fn reduce_dims<'c, 'a>(ctx: &Ctx<'c, 'a>, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    let dims = if ctx.args.is_none("dim")? { Vec::new() } else { ctx.args.ints("dim")? };
    let keepdim = ctx.args.bool("keepdim")?;
    let axes = (!dims.is_empty()).then_some(dims.as_slice());
    Ok(vec![ctx.reduce(op, x, axes, keepdim, ctx.result_type(0)?)?])
}

/// A reduction over all dims to a 0-d tensor.
pub fn reduce_all<'c, 'a>(ctx: &Ctx<'c, 'a>, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    Ok(vec![ctx.reduce(op, x, None, false, ctx.result_type(0)?)?])
}
