//! `aten.index_copy`: `source` written into `self` along `dim` at `index` by ONNX `ScatterElements` (no
//! reduction); 0-d inputs go through 1-element tensors. With duplicate indices torch leaves the winner
//! unspecified.

use super::index_add_common::index_scatter;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.index_copy.default", |c| index_scatter(c, "none", true, None))
// Unique indices: with duplicates torch leaves the winner unspecified.
.samples(&[
    "self: T[5,3]; dim: 0; index: i64[1]{0..5}; source: T[1,3]",
    "self: T[3,5]; dim: 1; index: i64[1]{0..5}; source: T[3,1]",
    "self: T[3,5]; dim: -1; index: i64[0]; source: T[3,0]",
    "self: T[]; dim: 0; index: i64[]{0..1}; source: T[]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16", "bf16", "i8", "u8"])];
