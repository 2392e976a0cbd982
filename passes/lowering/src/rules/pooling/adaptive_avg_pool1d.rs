//! `aten.adaptive_avg_pool1d`: the means over torch's bins `[floor(i * in / out), ceil((i + 1) * in / out))`.
//! `GlobalAveragePool` for output 1, `AveragePool` when the static size is a multiple of the output, else a
//! `MatMul` with the `[in, out]` averaging matrix of the bins (computed in the graph for a dynamic size).

use super::adaptive_pool_common::adaptive_avg_pool;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.adaptive_avg_pool1d.default", |c| adaptive_avg_pool(c, 1)).samples(&[
    "self: T[1,2,8]; output_size: [1]",
    "self: T[1,2,8]; output_size: [4]",
    "self: T[2,3,7]; output_size: [3]",
    "self: T[3,7]; output_size: [5]",
])];
