use super::math_common::unranked_bool;
use crate::Rule;

/// torch: `x <= threshold ? value : x` (NaN kept); both numbers in the
/// tensor's type like torch (truncated for integer tensors).
pub const RULES: &[Rule] = &[Rule::custom("aten.threshold.default", |c| {
    // Narrow integers in int64 (onnxruntime's Where has no int16 / int8).
    let el = c.result_element(0)?;
    let ct = if crate::builder::is_float(el) { el } else { super::prod_common::compute_type(c, el) };
    let x = c.tensor_as("self", ct)?;
    let b = &c.b;
    // Numbers or values computed in the graph (`t.item()`).
    let (th, v) = (c.tensor_as("threshold", ct)?, c.tensor_as("value", ct)?);
    let le = c.b.onnx().less_or_equal(x, th).typed(unranked_bool(c))?;
    let y = b.onnx().where_(le, v, x).like(x)?;
    Ok(vec![super::prod_common::finish(c, y)?])
})
.samples(&[
    "self: T[3,4]; threshold: 0.1; value: 20",
    "self: T[3,4]; threshold: -0.5; value: -2.5",
    "self: T[]; threshold: 0; value: 1",
    "self: T[0,3]; threshold: 0; value: 1",
])
.dtypes(&["f32", "f64", "i64", "f16", "bf16", "i32", "i8"])];
