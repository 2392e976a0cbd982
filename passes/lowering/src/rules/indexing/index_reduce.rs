//! `aten.index_reduce` (`prod`, `mean`, `amax`, `amin`): `source` scattered into `self` along `dim` by ONNX
//! `ScatterElements` with reduction mul, add, max or min. `include_self=False` first resets the written positions
//! to the reduction's identity; `mean` divides by the count (floor division for integers); `amax` / `amin` need
//! opset 18 and put back the NaN that onnxruntime's max / min drop.

use super::index_add_common::index_scatter;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.index_reduce.default", |c| {
    let reduce = c.args.string("reduce")?;
    if !matches!(reduce.as_str(), "prod" | "mean" | "amax" | "amin") {
        return Err(format!("index_reduce: reduce must be prod, mean, amax or amin, got '{reduce}'"));
    }
    index_scatter(c, &reduce, c.args.bool("include_self")?, None)
})
.samples(&[
    "self: T[5,3]; dim: 0; index: i64[6]{0..5}; source: T[6,3]; reduce: \"prod\"",
    "self: T[5,3]; dim: 0; index: i64[6]{0..5}; source: T[6,3]; reduce: \"prod\"; include_self: false",
    "self: T[3,5]; dim: 1; index: i64[7]{0..5}; source: T[3,7]; reduce: \"mean\"",
    "self: T[3,5]; dim: 1; index: i64[7]{0..5}; source: T[3,7]; reduce: \"mean\"; include_self: false",
    "self: T[3,5]; dim: -1; index: i64[4]{0..5}; source: T[3,4]; reduce: \"amax\"",
    "self: T[3,5]; dim: -1; index: i64[4]{0..5}; source: T[3,4]; reduce: \"amin\"; include_self: false",
])
.dtypes(&["f32", "i64", "i32", "f64"])];
