//! `aten.min` (`.dim`, `.other`, `.default`): `ReduceMin` (with `ArgMin` for `.dim`) or the elementwise `Min`.
//! `.dim`'s index is the first minimum (`select_last_index=0`) and a slice holding a NaN gives NaN and its first
//! NaN's index, as in torch; `.default` propagates NaN too; `.other` is `And` on bools.

use super::math_common::reduce_nan;
use super::reduce_common::reduce_with_index;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.min.dim", |c| reduce_with_index(c, crate::Reduction::Min, "ArgMin"))
        .samples(&["self: T[3,4]; dim: 1", "self: T[3,4]; dim: -2; keepdim: true", "self: T[]; dim: 0"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.min.other", |c| {
        let e = c.result_element(0)?;
        let (a, b) = (c.tensor_as("self", e)?, c.tensor_as("other", e)?);
        // ONNX Min takes no bools: on bools min is And.
        let y = if crate::builder::is_bool(e) { c.b.onnx().and(a, b) } else { c.b.onnx().min(&[a, b]) };
        Ok(vec![y.typed(c.result_type(0)?)?])
    })
    .samples(&["self: T[2,3]; other: T[3]", "self: T[]; other: T[2]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.min.default", |c| {
        let x = c.args.tensor("self")?;
        Ok(vec![reduce_nan(c, crate::Reduction::Min, x, None, false, c.result_type(0)?)?])
    })
    .samples(&["self: T[3,4]", "self: T[]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];
