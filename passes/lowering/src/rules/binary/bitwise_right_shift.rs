//! `aten.bitwise_right_shift` / `aten.__rshift__`: torch's arithmetic right shift (`floor(x / 2^n)`) from ONNX's
//! unsigned `BitShift(RIGHT)`: a negative `x` is shifted as `~x` and complemented back (`x >> n == ~(~x >> n)`).

use super::elementwise_common::shift;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.bitwise_right_shift.Tensor", |c| shift(c, false))
        .samples(&[
            "self: T[2,3]; other: T[2,3]{0..4}",
            "self: T[2,3]; other: T[3]{0..70}",
            "self: T[]; other: T[2]{0..3}",
        ])
        .dtypes(&["i64"]),
    Rule::custom("aten.bitwise_right_shift.Tensor_Scalar", |c| shift(c, false))
        .samples(&["self: T[2,3]; other: 1", "self: T[2,3]; other: 0"])
        .dtypes(&["i64"]),
    Rule::custom("aten.__rshift__.Tensor", |c| shift(c, false))
        .samples(&["self: T[2,3]; other: T[2,3]{0..4}"])
        .dtypes(&["i64"]),
    Rule::custom("aten.__rshift__.Scalar", |c| shift(c, false)).samples(&["self: T[2,3]; other: 1"]).dtypes(&["i64"]),
];
