//! `aten.any` (`.default`, `.dim`, `.dims`): the count of nonzero elements (`x != 0` in the input's own type,
//! so 0.5 and NaN are true) is above 0. Counting keeps empty reductions false; uint8 inputs give uint8.

use super::reduce_common::{any_all, dims_arg, Dims};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.any.default", |c| any_all(c, Dims::All, true))
        .samples(&["self: T[3,4]", "self: T[0]", "self: T[]"])
        .dtypes(&["bool", "f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.any.dim", |c| any_all(c, Dims::List(vec![c.args.int("dim")?]), true))
        .samples(&[
            "self: T[3,4]; dim: 1",
            "self: T[3,4]; dim: 0; keepdim: true",
            "self: i64[3,4]{0..2}; dim: -1",
            "self: T[]; dim: 0",
            "self: T[]; dim: -1; keepdim: true",
            "self: T[0,3]; dim: 0",
        ])
        .dtypes(&["bool", "f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.any.dims", |c| any_all(c, dims_arg(c)?, true))
        .samples(&[
            "self: T[3,4,2]; dim: [0,2]",
            "self: T[3,4]; dim: [1]; keepdim: true",
            "self: T[3,4]",
            "self: T[3,4]; dim: []",
            "self: T[]; dim: [0]",
        ])
        .dtypes(&["bool", "f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
];
