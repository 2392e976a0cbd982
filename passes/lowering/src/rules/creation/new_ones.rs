//! `aten.new_ones`: `Expand` of a constant 1 of the result type to `size`.

use super::common::filled;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.new_ones.default", |c| {
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    filled(c, shape, 1.0)
})
.samples(&["self: T[2]; size: [3,4]"])
.dtypes(&["f32", "i64"])];
