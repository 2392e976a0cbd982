//! `aten.channel_shuffle`: `Reshape` to `[N, g, C / g, rest]`, `Transpose` of the two group dims, `Reshape`
//! back. A dynamic channel count is read from the shape; inputs of fewer than 3 dims are refused, as by torch.

use super::nn_common::channel_shuffle;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.channel_shuffle.default", channel_shuffle)
    .samples(&["self: T[2,6,3,3]; groups: 3", "self: T[1,4,5]; groups: 2"])
    .dtypes(&["f32", "i64"])];
