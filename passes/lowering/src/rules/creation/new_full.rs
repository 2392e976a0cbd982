//! `aten.new_full`: the fill value (a number, or a graph value from `t.item()`) cast to the result type and
//! `Expand`ed to `size`.

use super::common::filled_with;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.new_full.default", |c| {
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    filled_with(c, shape, "fill_value")
})
.samples(&["self: T[2]; size: [3]; fill_value: 7"])
.dtypes(&["f32", "i64"])];
