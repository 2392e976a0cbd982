use crate::lowering::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.clamp.default", clamp),
    Rule::custom("aten.clamp.Tensor", clamp),
];

/// `Clip(x, min, max)`, a missing bound left out.
fn clamp<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let x = ctx.tensor_as("self", element)?;
    let bound = |name: &str| -> Result<Value<'c, 'a>, String> {
        if ctx.args.is_none(name)? { ctx.none() } else { ctx.tensor_as(name, element) }
    };
    let (min, max) = (bound("min")?, bound("max")?);
    Ok(vec![ctx.op("Clip", &[x, min, max], &[])?])
}
