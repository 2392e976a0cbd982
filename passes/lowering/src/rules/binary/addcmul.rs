use crate::Rule;

/// `self + value * tensor1 * tensor2`.
pub const RULES: &[Rule] = &[Rule::custom("aten.addcmul.default", |c| {
    // Half inputs: computed in float32 with a float32 `value`, as torch does.
    let e = c.opmath_element()?;
    let (x, t1, t2) = (c.tensor_as("self", e)?, c.tensor_as("tensor1", e)?, c.tensor_as("tensor2", e)?);
    // torch's order: `self + value * tensor1 * tensor2` = (value * t1) * t2.
    // `value`: a number, or a value computed in the graph (`t.item()`).
    let scaled = if c.args.is_dynamic("value")? || c.args.number("value")?.as_f64() != 1.0 {
        c.b.onnx().mul(c.tensor_as("value", e)?, t1).like(t1)?
    } else {
        t1
    };
    let p = c.b.onnx().mul(scaled, t2).like(x)?;
    Ok(vec![c.opmath_result(c.b.onnx().add(x, p).like(x)?)?])
})
.samples(&[
    "self: T[2,3]; tensor1: T[2,3]; tensor2: T[3]",
    "self: T[3]; tensor1: T[2,3]; tensor2: T[2,3]; value: 0.5",
]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8"])];
