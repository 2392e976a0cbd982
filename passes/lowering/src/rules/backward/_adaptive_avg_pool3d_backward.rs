//! `aten._adaptive_avg_pool3d_backward`: each output gradient divided by the size of its adaptive bin and added
//! into the input positions the bin covers (`Gather` per tap, `ScatterElements` add into zeros). The bins are
//! computed at compile time: the spatial sizes must be static.

use super::pool_backward_common::adaptive_backward;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten._adaptive_avg_pool3d_backward.default", |c| adaptive_backward(c, 3))
    .samples(&["grad_output: T[1,2,2,3,2]; self: T[1,2,5,7,4]"])];
