use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.hardtanh.default", |c| {
    let x = c.args.tensor("self")?;
    let lo = c.b.const_like(x, c.args.number("min_val")?.as_f64())?;
    let hi = c.b.const_like(x, c.args.number("max_val")?.as_f64())?;
    Ok(vec![c.op("Clip", &[x, lo, hi], &[])?])
})
.samples(&["self: T[2,3]", "self: T[2,3]; min_val: -0.5; max_val: 0.5"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8"])];
