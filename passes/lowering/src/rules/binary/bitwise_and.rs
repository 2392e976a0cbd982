//! `aten.bitwise_and` / `aten.__and__` (`.Tensor`, `.Scalar`): ONNX `And` on bools, `BitwiseAnd` on integers,
//! both operands cast to the result type.

use super::common::bitwise;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.bitwise_and.Tensor", |c| bitwise(c, "And", "BitwiseAnd"))
        .samples(&["self: T[2,3]; other: T[2,3]", "self: T[2,3]; other: T[3]"])
        .dtypes(&["bool", "i64", "i32", "i8", "u8"]),
    Rule::custom("aten.__and__.Tensor", |c| bitwise(c, "And", "BitwiseAnd"))
        .samples(&["self: T[2,3]; other: T[2,3]"])
        .dtypes(&["bool", "i64", "i32", "i8", "u8"]),
    Rule::custom("aten.bitwise_and.Scalar", |c| bitwise(c, "And", "BitwiseAnd"))
        .samples(&["self: T[2,3]; other: 3", "self: T[]; other: -2", "self: bool[2,3]; other: true"])
        .dtypes(&["i64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.__and__.Scalar", |c| bitwise(c, "And", "BitwiseAnd"))
        .samples(&["self: T[2,3]; other: 6", "self: bool[2,3]; other: false"])
        .dtypes(&["i64", "i32", "i8", "u8", "bool"]),
];
