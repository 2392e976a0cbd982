//! `aten.where` (the file name avoids the Rust keyword).
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.where.self", |c| {
        let element = c.result_element(0)?;
        let cond = c.args.tensor("condition")?;
        let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
        Ok(vec![c.op("Where", &[cond, a, b], &[])?])
    })
    .samples(&["condition: bool[2,3]; self: T[2,3]; other: T[3]", "condition: bool[3]; self: T[2,3]; other: T[2,3]"])
    .dtypes(&["f32", "i64"]),
    Rule::custom("aten.where.ScalarOther", |c| {
        let element = c.result_element(0)?;
        let cond = c.args.tensor("condition")?;
        let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
        Ok(vec![c.op("Where", &[cond, a, b], &[])?])
    })
    .samples(&["condition: bool[2,3]; self: T[2,3]; other: 0.5"]),
    Rule::custom("aten.where.ScalarSelf", |c| {
        let element = c.result_element(0)?;
        let cond = c.args.tensor("condition")?;
        let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
        Ok(vec![c.op("Where", &[cond, a, b], &[])?])
    })
    .samples(&["condition: bool[2,3]; self: 1.5; other: T[2,3]"]),
];
