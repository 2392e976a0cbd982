use crate::lowering::{Ctx, Rule, builder};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.to.dtype", convert),
    Rule::custom("aten.to.dtype_layout", convert),
    Rule::custom("aten.to.device", convert),
    Rule::custom("aten.type_as.default", convert),
];

/// A dtype conversion (device, layout and memory format do not exist in
/// ONNX): a Cast to the result's element type, or nothing.
pub(super) fn convert<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let target = ctx.result_element(0)?;
    if builder::element_type(x.r#type()) == Some(target) {
        return Ok(vec![x]);
    }
    Ok(vec![ctx.b.cast(x, target)?])
}
