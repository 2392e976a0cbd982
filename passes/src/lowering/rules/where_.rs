//! `aten.where` (the file name avoids the Rust keyword).
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.where.self", |c| {
        let element = c.result_element(0)?;
        let cond = c.args.tensor("condition")?;
        let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
        Ok(vec![c.op("Where", &[cond, a, b], &[])?])
    }),
    Rule::custom("aten.where.ScalarOther", |c| {
        let element = c.result_element(0)?;
        let cond = c.args.tensor("condition")?;
        let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
        Ok(vec![c.op("Where", &[cond, a, b], &[])?])
    }),
    Rule::custom("aten.where.ScalarSelf", |c| {
        let element = c.result_element(0)?;
        let cond = c.args.tensor("condition")?;
        let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
        Ok(vec![c.op("Where", &[cond, a, b], &[])?])
    }),
];
