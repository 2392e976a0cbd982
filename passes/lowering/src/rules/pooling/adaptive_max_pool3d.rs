//! `aten.adaptive_max_pool3d`: the maxima over torch's adaptive bins and their per-plane indices. `MaxPool` when
//! the static sizes are multiples of the output, else a `ReduceMax` / `ArgMax` per output cell (the first maximum
//! in row-major order, as torch; a NaN wins), with the bins of a dynamic size computed in the graph.

use super::pooling_common::adaptive_max_pool;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.adaptive_max_pool3d.default", |c| adaptive_max_pool(c, 3)).samples(&[
    "self: T[1,2,4,4,4]; output_size: [1,1,1]",
    "self: T[1,2,4,6,4]; output_size: [2,3,2]",
    "self: T[1,2,5,7,6]; output_size: [3,2,4]",
    "self: T[2,5,4,3]; output_size: [3,2,2]",
])];
