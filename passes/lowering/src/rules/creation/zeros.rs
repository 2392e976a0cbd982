//! `aten.zeros`: `Expand` of a constant 0 of the result type to `size`.

use super::common::filled;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.zeros.default", |c| {
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    filled(c, shape, 0.0)
})
.samples(&["size: [2,3]", "size: [4]; dtype: dtype(i64)"])];
