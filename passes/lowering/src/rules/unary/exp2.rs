use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.exp2.default", exp2)
    .samples(&["self: T[2,3]", "self: T[0,3]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];

/// `Pow(2, x)`; integer inputs promoted to the float result.
pub(super) fn exp2<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let two = c.b.const_like(x, 2.0)?;
    Ok(vec![c.b.onnx().pow(two, x).typed(c.result_type(0)?)?])
}
