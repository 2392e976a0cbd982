use super::common::filled;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.full_like.default", |c| {
    let shape = c.b.shape(c.args.tensor("self")?)?;
    filled(c, shape, c.args.number("fill_value")?.as_f64())
})
.samples(&["self: T[2,3]; fill_value: 2.5"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
