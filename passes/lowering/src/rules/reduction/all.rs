//! `aten.all` (`.default`, `.dim`, `.dims`): the count of zero elements (`x == 0` in the input's own type) is 0.
//! Counting keeps empty reductions true, which a `ReduceMin` of nothing would not; uint8 inputs give uint8.

use super::reduce_common::{any_all, dims_arg, Dims};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.all.default", |c| any_all(c, Dims::All, false))
        .samples(&["self: T[3,4]", "self: T[0]", "self: T[]"])
        .dtypes(&["bool", "f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.all.dim", |c| any_all(c, Dims::List(vec![c.args.int("dim")?]), false))
        .samples(&[
            "self: T[3,4]; dim: 1",
            "self: T[3,4]; dim: 0; keepdim: true",
            "self: T[]; dim: 0",
            "self: T[0,3]; dim: 0",
        ])
        .dtypes(&["bool", "f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.all.dims", |c| any_all(c, dims_arg(c)?, false))
        .samples(&["self: T[3,4,2]; dim: [0,2]", "self: T[3,4]; dim: [-1]; keepdim: true", "self: T[3,4]; dim: []"])
        .dtypes(&["bool", "f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
];
