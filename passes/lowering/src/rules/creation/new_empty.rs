use super::common::filled;
use crate::Rule;

/// Zeros of `size` (contents are unspecified in torch).
pub const RULES: &[Rule] = &[Rule::custom("aten.new_empty.default", |c| {
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    filled(c, shape, 0.0)
})
.samples(&["self: T[2]; size: [3,4]", "self: T[2]; size: []", "self: T[2]; size: [0]; dtype: dtype(f32)"])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];
