use crate::{builder, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.sign.default", sign)
    .samples(&["self: T[2,3]", "self: T[1,4]", "self: T[0,3]", "self: T[]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];

/// `Sign`; on bools the identity (torch's sign of a bool is itself; ONNX
/// Sign has no bool kernel). Also `sgn` of real tensors.
pub(super) fn sign<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    if builder::is_bool(c.result_element(0)?) {
        return Ok(vec![c.b.onnx().identity(x).typed(c.result_type(0)?)?]);
    }
    Ok(vec![c.b.onnx().sign(x).typed(c.result_type(0)?)?])
}
