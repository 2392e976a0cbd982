use super::math_common::is_float_value;
use crate::Rule;

/// Floats: `x - x == 0` (NaN for inf and NaN); integers and bools: true.
pub const RULES: &[Rule] = &[Rule::custom("aten.isfinite.default", |c| {
    let x = c.args.tensor("self")?;
    if is_float_value(x) {
        let d = c.b.onnx().sub(x, x).like(x)?;
        let zero = c.b.const_like(x, 0.0)?;
        return Ok(vec![c.b.onnx().equal(d, zero).typed(c.result_type(0)?)?]);
    }
    Ok(vec![c.b.onnx().equal(x, x).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[0,3]", "self: T[]"])
.dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
