//! `aten.sum` (`.dim_IntList`, `.default`): ONNX `ReduceSum` of `self` cast to the result dtype. Bool, 8- and
//! 16-bit integer sums run in int64 and are cast back, and int32 sums in 16-bit halves, so that they wrap around
//! as torch's do where onnxruntime's integer sums saturate.

use super::reduce_common::{reduce_all, reduce_dims};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.sum.dim_IntList", |c| reduce_dims(c, crate::Reduction::Sum))
        .samples(&[
            "self: T[2,3,4]; dim: [1]",
            "self: T[2,3]; dim: [-1]; keepdim: true",
            "self: T[2,3]; dim: [0,1]",
            "self: T[2,3]; dim: []",
            "self: T[]; dim: [0]",
            "self: T[]; dim: [-1]; keepdim: true",
            "self: T[0,3]; dim: [0]",
            "self: bool[2,3]; dim: [1]",
            "self: T[2,3]; dim: [1]; dtype: dtype(f32)",
            // Narrow integer sums (computed in int64, wrapped back: ctx.reduce).
            "self: T[3,40]{-100..100}; dim: [1]; dtype: dtype(i8)",
            "self: T[3,40]{0..200}; dim: [1]; keepdim: true; dtype: dtype(u8)",
            "self: T[3,40]{-100..100}; dim: [0,1]; dtype: dtype(i16)",
            "self: T[3,40]{-100..100}; dim: [1]; dtype: dtype(i32)",
            "self: T[3,4]; dim: [1]; dtype: dtype(bool)",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.sum.default", |c| reduce_all(c, crate::Reduction::Sum))
        .samples(&[
            "self: T[2,3]",
            "self: T[0]",
            "self: T[]",
            "self: bool[2,3]",
            "self: T[3,40]{-100..100}; dtype: dtype(i8)",
            "self: T[3,40]{0..200}; dtype: dtype(u8)",
            "self: T[3,40]{-100..100}; dtype: dtype(i16)",
            "self: T[3,40]{-100..100}; dtype: dtype(i32)",
            "self: T[0]; dtype: dtype(i16)",
            "self: T[3,4]; dtype: dtype(bool)",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];
