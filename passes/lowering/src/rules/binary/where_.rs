//! `aten.where` (the file name avoids the Rust keyword).
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.where.self", |c| {
        let element = c.result_element(0)?;
        let cond = c.args.tensor("condition")?;
        let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
        Ok(vec![c.b.onnx().where_(cond, a, b).typed(c.result_type(0)?)?])
    })
    .samples(&["condition: bool[2,3]; self: T[2,3]; other: T[3]", "condition: bool[3]; self: T[2,3]; other: T[2,3]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.where.ScalarOther", |c| {
        let element = c.result_element(0)?;
        let cond = c.args.tensor("condition")?;
        let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
        Ok(vec![c.b.onnx().where_(cond, a, b).typed(c.result_type(0)?)?])
    })
    .samples(&["condition: bool[2,3]; self: T[2,3]; other: 0.5"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.where.ScalarSelf", |c| {
        let element = c.result_element(0)?;
        let cond = c.args.tensor("condition")?;
        let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
        Ok(vec![c.b.onnx().where_(cond, a, b).typed(c.result_type(0)?)?])
    })
    .samples(&["condition: bool[2,3]; self: 1.5; other: T[2,3]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
    // Both branches numbers: the result dtype is torch's (the default float
    // dtype for floats, int64 for ints), read from the result type.
    Rule::custom("aten.where.Scalar", |c| {
        let element = c.result_element(0)?;
        let cond = c.args.tensor("condition")?;
        let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
        Ok(vec![c.b.onnx().where_(cond, a, b).typed(c.result_type(0)?)?])
    })
    .samples(&[
        "condition: bool[2,3]; self: 1.5; other: -2.5",
        "condition: bool[4]; self: 3; other: -1",
        "condition: bool[]; self: 0.5; other: 2",
    ])
    .dtypes(&["f32"]),
];
