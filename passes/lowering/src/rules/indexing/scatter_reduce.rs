//! `aten.scatter_reduce.two` (`sum`, `prod`, `mean`, `amax`, `amin`): ONNX `ScatterElements` with reduction add,
//! mul, max or min, `src` cut to the shape of `index`. `include_self=False` first resets the written positions
//! to the reduction's identity; `mean` divides by the count (floor division for integers); `amax` / `amin`
//! need opset 18 and put back the NaN that onnxruntime's max / min drop. An empty index returns `self`.

use super::tensor_common::{cut_to, empty_index, scatter_reduce, zero_d};
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.scatter_reduce.two", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dim = c.dim(c.args.int("dim")?, rank)?;
    let index = c.args.tensor("index")?;
    if let Some(same) = empty_index(c, index)? {
        return Ok(vec![same]);
    }
    let src = c.tensor_as("src", c.result_element(0)?)?;
    let src = cut_to(c, src, index)?;
    let reduce = c.args.string("reduce")?;
    let include_self = c.args.bool("include_self")?;
    if rank == 0 {
        return Ok(vec![zero_d(c, x, index, src, &reduce, include_self)?]);
    }
    Ok(vec![scatter_reduce(c, x, dim, index, src, &reduce, include_self)?])
})
.samples(&[
    "self: T[3,5]; dim: 0; index: i64[4,5]{0..3}; src: T[4,5]; reduce: \"sum\"",
    "self: T[3,5]; dim: 0; index: i64[4,5]{0..3}; src: T[4,5]; reduce: \"sum\"; include_self: false",
    "self: T[3,5]; dim: 1; index: i64[3,6]{0..5}; src: T[3,6]; reduce: \"prod\"",
    "self: T[3,5]; dim: 1; index: i64[3,6]{0..5}; src: T[3,6]; reduce: \"prod\"; include_self: false",
    "self: T[3,5]; dim: 0; index: i64[4,5]{0..3}; src: T[4,5]; reduce: \"mean\"",
    "self: T[3,5]; dim: 0; index: i64[4,5]{0..3}; src: T[4,5]; reduce: \"mean\"; include_self: false",
    "self: T[3,5]; dim: 1; index: i64[3,6]{0..5}; src: T[3,6]; reduce: \"amax\"",
    "self: T[3,5]; dim: 1; index: i64[3,6]{0..5}; src: T[3,6]; reduce: \"amax\"; include_self: false",
    "self: T[3,5]; dim: -1; index: i64[2,6]{0..5}; src: T[3,7]; reduce: \"amin\"",
    "self: T[3,5]; dim: -1; index: i64[2,6]{0..5}; src: T[3,7]; reduce: \"amin\"; include_self: false",
    "self: T[6]; dim: 0; index: i64[0]; src: T[0]; reduce: \"mean\"; include_self: false",
    "self: T[]; dim: 0; index: i64[]{0..1}; src: T[]; reduce: \"amax\"; include_self: false",
    "self: T[3,1]; dim: 0; index: i64[2,0]; src: T[1,7]; reduce: \"amin\"; include_self: false",
    "self: T[3,5]; dim: 1; index: i64[0,4]; src: T[3,3,5]; reduce: \"mean\"",
    "self: T[3,5]; dim: 0; index: i64[2,3]{0..3}; src: T[4,6]; reduce: \"prod\"; include_self: false",
])
.dtypes(&["f32", "i64", "i32", "f64"])];
