//! `aten.max_unpool2d`: the values written at their per-plane flat `indices` into zero planes of
//! `output_size` (`ScatterElements` along the flattened plane). Duplicate indices have no defined order in
//! ONNX.

use super::pooling_common::max_unpool;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.max_unpool2d.default", |c| max_unpool(c, 2)).samples(&[
    // One value per plane: random indices cannot collide (duplicates are
    // unordered in ONNX); tests/ops/unpool covers real max_pool indices.
    "self: T[2,3,1,1]; indices: i64[2,3,1,1]{0..20}; output_size: [4,5]",
    "self: T[2,1,1]; indices: i64[2,1,1]{0..12}; output_size: [3,4]",
])];
