//! `aten.adaptive_max_pool1d`: the maxima over torch's adaptive bins and their per-plane indices. `MaxPool` when
//! the static size is a multiple of the output, else a `ReduceMax` / `ArgMax` per output cell (the first
//! maximum, as torch); a bin holding a NaN gives NaN, as in torch. Float inputs only.

use super::pooling_common::adaptive_max_pool;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.adaptive_max_pool1d.default", |c| adaptive_max_pool(c, 1)).samples(&[
    "self: T[1,2,8]; output_size: [1]",
    "self: T[1,2,8]; output_size: [4]",
    "self: T[2,3,7]; output_size: [3]",
    "self: T[3,7]; output_size: [5]",
])];
