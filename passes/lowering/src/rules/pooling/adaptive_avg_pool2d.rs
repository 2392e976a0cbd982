//! `aten.adaptive_avg_pool2d` / `aten._adaptive_avg_pool2d`: the means over torch's adaptive bins. Output 1x1 is
//! `GlobalAveragePool`, static sizes that are multiples of the output `AveragePool`, others axis by axis a
//! `MatMul` with the `[in, out]` averaging matrix of the bins, computed in the graph for a dynamic size (VGG's
//! and AlexNet's pooling to 7x7 / 6x6 exported with dynamic image sizes).

use crate::Rule;
use super::adaptive_pool_common::adaptive_avg_pool;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.adaptive_avg_pool2d.default", |c| adaptive_avg_pool(c, 2)).samples(&[
        "self: T[1,2,4,4]; output_size: [1,1]",
        "self: T[2,3,4,6]; output_size: [2,3]",
        "self: T[1,2,5,5]; output_size: [2,2]",
        "self: T[1,2,7,5]; output_size: [3,4]",
        "self: T[3,5,7]; output_size: [2,3]",
        "self: T[1,2,3,3]; output_size: [5,4]",
        "self: T[0,2,5,5]; output_size: [2,3]",
    ]),
    // Core ATen's spelling of the same op.
    Rule::custom("aten._adaptive_avg_pool2d.default", |c| adaptive_avg_pool(c, 2))
        .samples(&["self: T[1,2,4,4]; output_size: [2,2]", "self: T[1,2,7,5]; output_size: [3,4]"]),
];
