use super::math_common::{unranked_bool, is_float_value};
use crate::Rule;

/// `IsNaN` on floats; integers and bools are never NaN (`x != x`).
pub const RULES: &[Rule] = &[Rule::custom("aten.isnan.default", |c| {
    let x = c.args.tensor("self")?;
    if is_float_value(x) {
        return Ok(vec![c.b.onnx().is_na_n(x).typed(c.result_type(0)?)?]);
    }
    let eq = c.b.onnx().equal(x, x).typed(unranked_bool(c))?;
    Ok(vec![c.b.onnx().not(eq).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[0,3]", "self: T[]"])
.dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
