//! `aten.max_unpool3d`: the values written at their per-plane flat `indices` into zero planes of
//! `output_size` (`ScatterElements` along the flattened plane); `stride` and `padding` are not read.

use super::pooling_common::max_unpool;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.max_unpool3d.default", |c| max_unpool(c, 3)).samples(&[
    "self: T[2,2,1,1,1]; indices: i64[2,2,1,1,1]{0..27}; output_size: [3,3,3]; stride: [2,2,2]; padding: [0,0,0]",
])];
