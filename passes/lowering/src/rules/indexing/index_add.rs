//! `aten.index_add`: `alpha * source` scattered into `self` along `dim` at `index` by ONNX `ScatterElements`
//! with reduction add, so duplicate indices accumulate as in torch. 0-d inputs go through 1-element tensors; a
//! bool `alpha = False` returns `self`.

use crate::Rule;
use super::index_add_common::index_add;

pub const RULES: &[Rule] = &[Rule::custom("aten.index_add.default", index_add)
    .samples(&[
        "self: T[5,3]; dim: 0; index: i64[4]{0..5}; source: T[4,3]",
        "self: T[3,5]; dim: 1; index: i64[6]{0..5}; source: T[3,6]; alpha: 2",
        "self: T[3,5]; dim: -1; index: i64[0]; source: T[3,0]",
        "self: T[5]; dim: 0; index: i64[]{0..5}; source: T[1]",
        "self: T[]; dim: 0; index: i64[]{0..1}; source: T[]",
        "self: T[5,3]; dim: 0; index: i64[4]{0..5}; source: T[4,3]; alpha: 0",
    ])
    .dtypes(&["f32", "i64", "i32", "f64", "f16", "bf16", "i8", "u8"])];
