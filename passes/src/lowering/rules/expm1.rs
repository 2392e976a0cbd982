use crate::lowering::Rule;

/// `exp(x) - 1`.
pub const RULES: &[Rule] = &[Rule::custom("aten.expm1.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let e = c.b.op_like("Exp", &[x], &[], x)?;
    let one = c.b.const_like(x, 1.0)?;
    Ok(vec![c.op("Sub", &[e, one], &[])?])
})
.samples(&["self: T[2,3]", "self: T[0]"])];
