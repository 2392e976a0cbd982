use super::common::reduce_with_index;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.max.dim", |c| reduce_with_index(c, "ReduceMax", "ArgMax"))
        .samples(&["self: T[3,4]; dim: 1", "self: T[3,4]; dim: 0; keepdim: true"])
        .dtypes(&["f32", "i64"]),
    Rule::custom("aten.max.other", |c| {
        let e = c.result_element(0)?;
        let (a, b) = (c.tensor_as("self", e)?, c.tensor_as("other", e)?);
        Ok(vec![c.op("Max", &[a, b], &[])?])
    })
    .samples(&["self: T[2,3]; other: T[3]"])
    .dtypes(&["f32", "i64"]),
    Rule::custom("aten.max.default", |c| {
        let x = c.args.tensor("self")?;
        Ok(vec![c.reduce("ReduceMax", x, None, false, c.result_type(0)?)?])
    })
    .samples(&["self: T[3,4]"])
    .dtypes(&["f32", "i64"]),
];
