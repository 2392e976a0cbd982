//! `aten.avg_pool2d_backward`: each output gradient divided by torch's divisor for its window and added into the
//! input positions the window covers (`Gather` per tap, `ScatterElements` add into zeros). The windows follow
//! torch (ceil_mode windows clipped to input + padding, `count_include_pad`, `divisor_override`) and are
//! computed at compile time: the spatial sizes must be static.

use super::pool_backward_common::avg_pool_backward;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.avg_pool2d_backward.default", |c| avg_pool_backward(c, 2)).samples(&[
    "grad_output: T[2,3,2,2]; self: T[2,3,4,5]; kernel_size: [2,2]; stride: [2,2]; padding: [0,0]; ceil_mode: false; count_include_pad: true; divisor_override: none",
    "grad_output: T[1,2,4,4]; self: T[1,2,6,7]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]; ceil_mode: true; count_include_pad: true; divisor_override: none",
    "grad_output: T[1,2,4,4]; self: T[1,2,6,7]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]; ceil_mode: true; count_include_pad: false; divisor_override: none",
    "grad_output: T[2,3,3]; self: T[2,6,6]; kernel_size: [2,2]; stride: [2,2]; padding: [0,0]; ceil_mode: false; count_include_pad: true; divisor_override: 3",
])];
