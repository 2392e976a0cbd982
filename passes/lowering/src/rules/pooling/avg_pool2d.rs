//! `aten.avg_pool2d`: ONNX `AveragePool` with torch's output sizes and divisors (`ceil_mode`,
//! `count_include_pad`); `divisor_override` rescales a count_include_pad average. A ceil_mode window
//! overhanging the padded input gets explicit zero padding; integer inputs are refused.

use super::nn_common::avg_pool;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.avg_pool2d.default", |c| avg_pool(c, 2))
    .samples(&[
        "self: T[1,2,5,5]; kernel_size: [2,2]",
        "self: T[1,2,5,5]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]; count_include_pad: false",
        "self: T[1,1,5,5]; kernel_size: [2,2]; stride: [2,2]; ceil_mode: true",
        "self: T[1,1,6,7]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]; ceil_mode: true",
        "self: T[1,1,6,7]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]; ceil_mode: true; count_include_pad: false",
        "self: T[2,5,6]; kernel_size: [2,3]; stride: [1,2]",
        "self: T[1,2,6,6]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]; divisor_override: 4",
        "self: T[0,2,4,4]; kernel_size: [2,2]",
        // A ceil_mode window overhanging the padded input: explicit zero pads.
        "self: T[1,1,6,7]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]; ceil_mode: true; divisor_override: 2",
        "self: T[2,3,5,5]; kernel_size: [2,2]; stride: [2,2]; ceil_mode: true; divisor_override: 3",
        "self: T[1,2,4,5]; kernel_size: [3,2]; stride: [3,2]; ceil_mode: true; count_include_pad: false; divisor_override: 5",
    ])];
