//! `aten.bitwise_left_shift` / `aten.__lshift__`: ONNX `BitShift(LEFT)` on the bits reinterpreted as the unsigned
//! type of the same width, cast back. torch shifts the two's-complement bits; ONNX `BitShift` is unsigned only.

use super::elementwise_common::shift;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.bitwise_left_shift.Tensor", |c| shift(c, true))
        .samples(&[
            "self: T[2,3]; other: T[2,3]{0..8}",
            "self: T[2,3]; other: T[3]{0..70}",
            "self: T[]; other: T[2]{0..4}",
        ])
        .dtypes(&["i64"]),
    Rule::custom("aten.bitwise_left_shift.Tensor_Scalar", |c| shift(c, true))
        .samples(&["self: T[2,3]; other: 3", "self: T[2,3]; other: 0"])
        .dtypes(&["i64"]),
    Rule::custom("aten.__lshift__.Tensor", |c| shift(c, true))
        .samples(&["self: T[2,3]; other: T[2,3]{0..8}"])
        .dtypes(&["i64"]),
    Rule::custom("aten.__lshift__.Scalar", |c| shift(c, true)).samples(&["self: T[2,3]; other: 2"]).dtypes(&["i64"]),
];
