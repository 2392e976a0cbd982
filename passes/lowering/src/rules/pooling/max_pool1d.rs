//! `aten.max_pool1d` / `max_pool1d_with_indices`: ONNX `MaxPool`, its indices taken modulo the plane size (torch
//! counts them per (n, c) plane). A window holding a NaN gives NaN, as torch (`MaxPool` skips it); integers up to
//! 32 bits are pooled exactly in float64.

use super::nn_common::max_pool;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.max_pool1d.default", |c| max_pool(c, 1, false)).samples(&[
        "self: T[1,2,8]; kernel_size: [2]",
        "self: T[1,2,9]; kernel_size: [3]; stride: [2]; padding: [1]",
        "self: T[3,9]; kernel_size: [3]; stride: [2]; ceil_mode: true",
    ])
    // libtorch's max_pool1d (without indices) has no integer kernels.
    .dtypes(&["f32", "f64"]),
    Rule::custom("aten.max_pool1d_with_indices.default", |c| max_pool(c, 1, true)).samples(&[
        "self: T[2,2,8]; kernel_size: [2]",
        "self: T[1,2,9]; kernel_size: [3]; stride: [2]; padding: [1]; dilation: [2]; ceil_mode: true",
    ])
    .dtypes(&["f32", "f64", "i32", "i16", "u8", "i8"]),
];
