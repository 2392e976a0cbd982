use crate::lowering::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.clamp_min.default", |c| bound(c, "min", "Max"))
    .samples(&["self: T[2,3]; min: 0.25"])
    .dtypes(&["f32"])];

pub(super) fn bound<'c, 'a>(ctx: &Ctx<'c, 'a>, arg: &str, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let x = ctx.tensor_as("self", element)?;
    let b = ctx.tensor_as(arg, element)?;
    Ok(vec![ctx.op(op, &[x, b], &[])?])
}
