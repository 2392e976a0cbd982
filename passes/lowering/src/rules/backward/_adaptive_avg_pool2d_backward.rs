//! `aten._adaptive_avg_pool2d_backward`: each output gradient divided by the size of its adaptive bin and added
//! into the input positions the bin covers (`Gather` per tap, `ScatterElements` add into zeros). The bins are
//! computed at compile time: the spatial sizes must be static.

use super::pool_backward_common::adaptive_backward;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten._adaptive_avg_pool2d_backward.default", |c| adaptive_backward(c, 2))
    .samples(&[
        "grad_output: T[2,3,2,2]; self: T[2,3,4,4]",
        "grad_output: T[1,2,3,4]; self: T[1,2,7,5]",
        "grad_output: T[2,1,1]; self: T[2,5,3]",
    ])];
