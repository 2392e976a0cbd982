use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.prod.dim_int", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let dim = c.args.int("dim")?;
    Ok(vec![c.reduce("ReduceProd", x, Some(&[dim]), c.args.bool("keepdim")?, c.result_type(0)?)?])
})
.samples(&["self: T[3,4]; dim: 1", "self: T[3,4]; dim: 0; keepdim: true"])
.dtypes(&["f32", "i64"])];
