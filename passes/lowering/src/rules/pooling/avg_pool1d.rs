//! `aten.avg_pool1d`: ONNX `AveragePool` with torch's output sizes and divisors (`ceil_mode`,
//! `count_include_pad`). A ceil_mode window overhanging the padded input gets explicit zero padding; integer
//! inputs are refused (torch sums and divides in the integer type).

use super::nn_common::avg_pool;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.avg_pool1d.default", |c| avg_pool(c, 1)).samples(&[
    "self: T[1,2,7]; kernel_size: [2]",
    "self: T[1,2,7]; kernel_size: [3]; stride: [2]; padding: [1]; count_include_pad: false",
    "self: T[1,2,8]; kernel_size: [3]; stride: [2]; padding: [1]; ceil_mode: true",
    "self: T[3,7]; kernel_size: [3]; stride: [1]",
])];
