//! `aten.max_pool2d` / `max_pool2d_with_indices`: ONNX `MaxPool`, its indices taken modulo the plane size (torch
//! counts them per (n, c) plane). A window holding a NaN gives NaN, as torch (`MaxPool` skips it); integers up to
//! 32 bits are pooled exactly in float64.

use super::nn_common::max_pool;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.max_pool2d.default", |c| max_pool(c, 2, false)).samples(&[
        "self: T[1,2,5,5]; kernel_size: [2,2]",
        "self: T[1,2,6,6]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]",
        "self: T[1,1,5,5]; kernel_size: [2,2]; stride: [2,2]; ceil_mode: true",
        "self: T[1,1,7,7]; kernel_size: [2,2]; dilation: [2,2]",
        "self: T[2,6,7]; kernel_size: [3,2]; stride: [2,1]; padding: [1,1]",
        "self: T[0,2,4,4]; kernel_size: [2,2]",
    ])
    .dtypes(&["f32", "f64", "i32", "i16", "u8", "i8"]),
    Rule::custom("aten.max_pool2d_with_indices.default", |c| max_pool(c, 2, true)).samples(&[
        "self: T[1,2,5,5]; kernel_size: [2,2]",
        "self: T[2,3,6,7]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]; ceil_mode: true",
        "self: T[1,2,7,7]; kernel_size: [2,2]; dilation: [2,2]",
        "self: T[2,6,7]; kernel_size: [3,2]; stride: [2,1]; padding: [1,1]",
        "self: T[0,2,4,4]; kernel_size: [2,2]",
    ])
    .dtypes(&["f32", "f64", "i32", "i16", "u8", "i8"]),
];
