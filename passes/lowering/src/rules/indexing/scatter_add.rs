//! `aten.scatter_add`: ONNX `ScatterElements` with reduction add, `src` cut to the shape of `index` (torch reads
//! only that region). A statically empty index returns `self`; 0-d tensors go through 1-element views.

use super::tensor_common::{cut_to, empty_index, scatter_reduce, zero_d};
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.scatter_add.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dim = c.dim(c.args.int("dim")?, rank)?;
    let index = c.args.tensor("index")?;
    if let Some(same) = empty_index(c, index)? {
        return Ok(vec![same]);
    }
    let src = c.tensor_as("src", c.result_element(0)?)?;
    let src = cut_to(c, src, index)?;
    if rank == 0 {
        return Ok(vec![zero_d(c, x, index, src, "sum", true)?]);
    }
    Ok(vec![scatter_reduce(c, x, dim, index, src, "sum", true)?])
})
.samples(&[
    "self: T[3,5]; dim: 0; index: i64[4,5]{0..3}; src: T[4,5]",
    "self: T[3,5]; dim: 1; index: i64[3,7]{0..5}; src: T[3,8]",
    "self: T[3,5]; dim: -2; index: i64[2,2]{0..3}; src: T[3,5]",
    "self: T[3,5]; dim: 1; index: i64[3,0]; src: T[3,5]",
    "self: T[]; dim: 0; index: i64[]{0..1}; src: T[]",
    "self: T[3,1]; dim: 0; index: i64[2,0]; src: T[1,7]",
])
.dtypes(&["f32", "i64", "i32", "f64", "f16", "bf16", "i8", "u8", "bool"])];
