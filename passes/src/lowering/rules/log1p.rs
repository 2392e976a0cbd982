use crate::lowering::Rule;

/// `log(1 + x)`.
pub const RULES: &[Rule] = &[Rule::custom("aten.log1p.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let one = c.b.const_like(x, 1.0)?;
    let s = c.b.op_like("Add", &[x, one], &[], x)?;
    Ok(vec![c.op("Log", &[s], &[])?])
})
.samples(&["self: T[2,3]{pos}", "self: T[0]"])];
