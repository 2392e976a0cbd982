//! `aten.bitwise_xor` / `aten.__xor__` (`.Tensor`, `.Scalar`): ONNX `Xor` on bools, `BitwiseXor` on integers,
//! both operands cast to the result type.

use super::common::bitwise;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.bitwise_xor.Tensor", |c| bitwise(c, "Xor", "BitwiseXor"))
        .samples(&["self: T[2,3]; other: T[2,3]", "self: T[2,3]; other: T[3]", "self: T[]; other: T[2]"])
        .dtypes(&["bool", "i64", "i32", "i8", "u8"]),
    Rule::custom("aten.bitwise_xor.Scalar", |c| bitwise(c, "Xor", "BitwiseXor"))
        .samples(&["self: T[2,3]; other: 3", "self: T[]; other: -2", "self: bool[2,3]; other: true"])
        .dtypes(&["i64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.__xor__.Tensor", |c| bitwise(c, "Xor", "BitwiseXor"))
        .samples(&["self: T[2,3]; other: T[2,3]", "self: T[2,3]; other: T[3]"])
        .dtypes(&["bool", "i64", "i32", "i8", "u8"]),
    Rule::custom("aten.__xor__.Scalar", |c| bitwise(c, "Xor", "BitwiseXor"))
        .samples(&["self: T[2,3]; other: 5", "self: bool[2,3]; other: true"])
        .dtypes(&["i64", "i32", "i8", "u8", "bool"]),
];
