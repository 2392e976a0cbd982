use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.cumsum.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let axis = c.b.const_i64_scalar(c.args.int("dim")?)?;
    Ok(vec![c.op("CumSum", &[x, axis], &[])?])
})
.samples(&["self: T[3,4]; dim: 1", "self: T[3,4]; dim: 0"])
.dtypes(&["f32", "i64"])];
