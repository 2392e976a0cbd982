//! `aten.empty_permuted`: zeros of `size` (`Expand` of a constant 0 of the result type). torch leaves the
//! contents unspecified and `physical_layout` only permutes the memory layout, so it is only checked to be a
//! permutation of the dims.

use super::common::filled;
use crate::Rule;

// torch leaves the contents unspecified (only the memory layout is
// permuted): the lowering gives zeros of `size`, and the differential test
// compares only shape and dtype (SHAPE_ONLY in tests/integration/differential.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.empty_permuted.default", |c| {
    let size = c.args.sym_ints("size")?;
    let layout = c.args.ints("physical_layout")?;
    let mut sorted = layout.clone();
    sorted.sort();
    if sorted != (0..size.len() as i64).collect::<Vec<_>>() {
        return Err(format!("empty_permuted: physical_layout {layout:?} is not a permutation of the {} dims", size.len()));
    }
    let shape = c.int_list_tensor(&size)?;
    filled(c, shape, 0.0)
})
.samples(&[
    "size: [2,3]; physical_layout: [1,0]",
    "size: [2,3,4]; physical_layout: [0,2,1]",
    "size: []; physical_layout: []",
    "size: [0,2]; physical_layout: [0,1]; dtype: dtype(i64)",
    "size: [2]; physical_layout: [0]; dtype: dtype(bool)",
    "size: [2,2]; physical_layout: [1,0]; dtype: dtype(f64)",
    "size: [3]; physical_layout: [0]; dtype: dtype(i32)",
])];
