//! `aten.empty.memory_format`: zeros of `size` (`Expand` of a constant 0 of the result type). torch leaves the
//! contents unspecified; the differential test compares only shape and dtype.

use super::common::filled;
use crate::Rule;

// torch leaves the contents of `empty` unspecified: the lowering gives
// zeros, and the differential test compares only shape and dtype
// (SHAPE_ONLY in tests/integration/differential.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.empty.memory_format", |c| {
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    filled(c, shape, 0.0)
})
.samples(&["size: [2,3]", "size: [0,4]", "size: []", "size: [3]; dtype: dtype(i64)", "size: [2,2]; dtype: dtype(bool)", "size: [2]; dtype: dtype(f64)", "size: [2]; dtype: dtype(i32)"])];
