//! `aten.mean` (`.dim`, `.default`): ONNX `ReduceMean` in the result dtype; a 0-d input is reduced as a
//! 1-element vector. A static empty reduction gives NaN (`ReduceSum / 0`, as torch), where onnxruntime's
//! `ReduceMean` of nothing gives 0.

use crate::Rule;
use super::reduce_common::{reduce_all, reduce_dims};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.mean.dim", |c| reduce_dims(c, crate::Reduction::Mean)).samples(&[
        "self: T[2,3,4]; dim: [1]",
        "self: T[2,3]; dim: [-1]; keepdim: true",
        "self: T[2,3]; dim: [0,1]",
        "self: T[]; dim: [0]",
        "self: T[]; dim: [-1]; keepdim: true",
        "self: T[0,3]; dim: [0]",
        "self: T[0,3]; dim: [1]",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.mean.default", |c| reduce_all(c, crate::Reduction::Mean)).samples(&[
        "self: T[2,3]",
        "self: T[4]",
        "self: T[]",
        "self: T[0]",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
];
