use crate::{builder, Rule};

/// `Not` on bools, `BitwiseNot` on integers.
pub const RULES: &[Rule] = &[Rule::custom("aten.bitwise_not.default", |c| {
    let x = c.args.tensor("self")?;
    let y = if builder::is_bool(c.result_element(0)?) { c.b.onnx().not(x) } else { c.b.onnx().bitwise_not(x) };
    Ok(vec![y.typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[0]", "self: T[]"])
.dtypes(&["bool", "i64", "i32", "i8", "u8"])];
