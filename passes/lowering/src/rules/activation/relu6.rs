use super::math_common::{is_float_value, isnan};
use crate::Rule;

/// `clamp(x, 0, 6)`; NaN stays NaN (onnxruntime's Clip may not keep it).
pub const RULES: &[Rule] = &[Rule::custom("aten.relu6.default", |c| {
    let x = c.args.tensor("self")?;
    let b = &c.b;
    let y = b.onnx().clip(x, Some(b.const_like(x, 0.0)?), Some(b.const_like(x, 6.0)?)).like(x)?;
    if !is_float_value(x) {
        return Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?]);
    }
    Ok(vec![c.b.onnx().where_(isnan(c, x)?, x, y).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,5]", "self: T[]", "self: T[0]", "self: i64[4,3]{-9..9}"])
.dtypes(&["f32", "f64", "f16", "bf16", "i64", "i32", "i8", "u8"])];
