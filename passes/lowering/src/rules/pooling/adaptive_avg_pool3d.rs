//! `aten.adaptive_avg_pool3d` / `aten._adaptive_avg_pool3d`: the means over torch's adaptive bins. Output 1x1x1
//! is `GlobalAveragePool`, static sizes that are multiples of the output `AveragePool`, others axis by axis a
//! `MatMul` with the `[in, out]` averaging matrix of the bins (the mean over a box is the mean over each axis in
//! turn), computed in the graph for a dynamic size.

use super::adaptive_pool_common::adaptive_avg_pool;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.adaptive_avg_pool3d.default", |c| adaptive_avg_pool(c, 3)).samples(&[
        "self: T[1,2,4,4,4]; output_size: [1,1,1]",
        "self: T[1,2,4,6,4]; output_size: [2,3,2]",
        "self: T[1,2,5,7,6]; output_size: [3,2,4]",
        "self: T[2,5,7,6]; output_size: [3,2,4]",
    ]),
    // Core ATen's spelling of the same op.
    Rule::custom("aten._adaptive_avg_pool3d.default", |c| adaptive_avg_pool(c, 3))
        .samples(&["self: T[1,2,4,4,4]; output_size: [2,2,2]", "self: T[1,2,5,7,6]; output_size: [3,2,4]"]),
];
