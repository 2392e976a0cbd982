//! `aten.max_pool2d_with_indices_backward`: `grad_output` added into zeros shaped like `self` at the recorded
//! per-plane flat `indices` (`ScatterElements` with reduction add). A position picked by several windows gets
//! the sum of their gradients, as in torch.

use super::pool_backward_common::max_pool_backward;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.max_pool2d_with_indices_backward.default", |c| {
    max_pool_backward(c, 2)
})
.samples(&[
    "grad_output: T[2,3,2,2]; self: T[2,3,4,5]; kernel_size: [2,2]; stride: [2,2]; padding: [0,0]; dilation: [1,1]; ceil_mode: false; indices: i64[2,3,2,2]{0..20}",
    "grad_output: T[1,2,3,3]; self: T[1,2,5,5]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]; dilation: [1,1]; ceil_mode: true; indices: i64[1,2,3,3]{0..25}",
    "grad_output: T[2,2,3]; self: T[2,4,6]; kernel_size: [2,2]; stride: [2,2]; padding: [0,0]; dilation: [1,1]; ceil_mode: false; indices: i64[2,2,3]{0..24}",
])];
