//! `aten.adaptive_max_pool2d`: the maxima over torch's adaptive bins and their per-plane indices. `MaxPool` when
//! the static sizes are multiples of the output, else a `ReduceMax` / `ArgMax` per output cell (the first maximum
//! in row-major order, as torch; a NaN wins), with the bins of a dynamic size computed in the graph.

use super::pooling_common::adaptive_max_pool;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.adaptive_max_pool2d.default", |c| adaptive_max_pool(c, 2)).samples(&[
    "self: T[1,2,4,4]; output_size: [1,1]",
    "self: T[2,3,4,6]; output_size: [2,3]",
    "self: T[1,2,5,5]; output_size: [2,2]",
    "self: T[1,2,7,5]; output_size: [3,4]",
    "self: T[3,5,7]; output_size: [2,3]",
    "self: T[1,2,3,3]; output_size: [4,4]",
])];
