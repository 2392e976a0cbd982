use crate::lowering::{builder, Rule};

/// `Sign`; on bools the identity (torch's sign of a bool is itself; ONNX
/// Sign has no bool kernel).
pub const RULES: &[Rule] = &[Rule::custom("aten.sign.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    if builder::is_bool(c.result_element(0)?) {
        return Ok(vec![c.op("Identity", &[x], &[])?]);
    }
    Ok(vec![c.op("Sign", &[x], &[])?])
})
.samples(&["self: T[2,3]", "self: T[1,4]", "self: T[0,3]", "self: T[]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
