use super::common::filled;
use crate::Rule;

/// Zeros shaped like `self` (contents are unspecified in torch).
pub const RULES: &[Rule] = &[Rule::custom("aten.empty_like.default", |c| {
    let shape = c.b.shape(c.args.tensor("self")?)?;
    filled(c, shape, 0.0)
})
.samples(&["self: T[2,3]", "self: T[]", "self: T[0,2]", "self: T[3]; dtype: dtype(i64)"])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];
