//! `aten.max_pool3d_with_indices_backward`: `grad_output` added into zeros shaped like `self` at the recorded
//! per-plane flat `indices` (`ScatterElements` with reduction add). A position picked by several windows gets
//! the sum of their gradients, as in torch.

use super::pool_backward_common::max_pool_backward;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.max_pool3d_with_indices_backward.default", |c| {
    max_pool_backward(c, 3)
})
.samples(&[
    "grad_output: T[1,2,2,2,2]; self: T[1,2,4,4,5]; kernel_size: [2,2,2]; stride: [2,2,2]; padding: [0,0,0]; dilation: [1,1,1]; ceil_mode: false; indices: i64[1,2,2,2,2]{0..80}",
])];
