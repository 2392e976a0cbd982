use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.view_as.default", |c| {
    let x = c.args.tensor("self")?;
    let shape = c.b.shape(c.args.tensor("other")?)?;
    Ok(vec![c.op("Reshape", &[x, shape], &[])?])
})
.samples(&["self: T[2,6]; other: T[3,4]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
