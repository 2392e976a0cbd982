use super::common::filled;
use crate::Rule;

/// `x.zero_()` made functional: zeros shaped like `self`.
pub const RULES: &[Rule] = &[Rule::custom("aten.zero.default", |c| {
    let shape = c.b.shape(c.args.tensor("self")?)?;
    filled(c, shape, 0.0)
})
.samples(&["self: T[2,3]", "self: T[]", "self: T[0,2]"])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];
