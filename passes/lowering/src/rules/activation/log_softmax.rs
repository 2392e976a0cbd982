//! `aten.log_softmax.int` / `aten._log_softmax`: ONNX `LogSoftmax(axis=dim)` on `self` cast to the result dtype
//! (`dtype`, `half_to_float`). A 0-d input goes through a 1-element vector.

use super::softmax_common::softmax;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.log_softmax.int", |c| softmax(c, "LogSoftmax")).samples(&[
        "self: T[2,3]; dim: -1",
        "self: T[2,3]; dim: 0",
        "self: T[]; dim: 0",
        "self: T[0,3]; dim: 1",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten._log_softmax.default", |c| softmax(c, "LogSoftmax"))
        .samples(&["self: T[2,3]; dim: 1; half_to_float: false", "self: T[]; dim: -1; half_to_float: false"]).dtypes(&["f32", "f16", "bf16", "f64"]),
];
