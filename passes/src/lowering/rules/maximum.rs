use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.maximum.default", |c| {
    let element = c.result_element(0)?;
    let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
    Ok(vec![c.op("Max", &[a, b], &[])?])
})
.samples(&["self: T[2,3]; other: T[3]", "self: T[2,3]; other: T[2,3]"])
.dtypes(&["f32", "i64"])];
