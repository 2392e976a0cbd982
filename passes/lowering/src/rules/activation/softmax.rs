//! `aten.softmax.int` / `aten._softmax`: ONNX `Softmax(axis=dim)` (per-axis since opset 13) on `self` cast to
//! the result dtype (`dtype`, `half_to_float`). A 0-d input goes through a 1-element vector.

use crate::Rule;
use super::softmax_common::{softmax};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.softmax.int", |c| softmax(c, "Softmax")).samples(&[
        "self: T[2,3]; dim: -1",
        "self: T[2,3,4]; dim: 1",
        "self: T[0,3]; dim: 1",
        "self: T[]; dim: 0",
        "self: T[]; dim: -1",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten._softmax.default", |c| softmax(c, "Softmax"))
        .samples(&["self: T[2,3]; dim: 1; half_to_float: false", "self: T[]; dim: 0; half_to_float: false"]).dtypes(&["f32", "f16", "bf16", "f64"]),
];
