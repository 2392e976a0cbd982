//! `aten.searchsorted` (`.Tensor`, `.Scalar`): the number of boundaries `s` with `!(s >= v)` (left) or
//! `!(s > v)` (right), by a broadcast comparison and `ReduceSum`. That is torch's binary search on a sorted
//! sequence, a NaN value going past every boundary; `sorter` is applied first (`GatherElements`) and both
//! sides are compared in their promoted type.

use crate::Rule;
use super::searchsorted_common::searchsorted;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.searchsorted.Tensor", searchsorted)
        .samples(&[
            "sorted_sequence: T[6]{sorted}; self: T[3,4]",
            "sorted_sequence: T[6]{sorted}; self: T[3,4]; right: true",
            "sorted_sequence: T[2,5]{sorted}; self: T[2,3]; out_int32: true",
            "sorted_sequence: T[2,3,5]{sorted}; self: T[2,3,4]; side: \"right\"",
            "sorted_sequence: T[6]{sorted}; self: T[]",
            "sorted_sequence: T[0]; self: T[3]",
            "sorted_sequence: T[5]{sorted}; self: T[0]",
            "sorted_sequence: i64[8]{sorted}; self: i64[5]{-1..4}; right: true",
        ])
        .dtypes(&["f32", "i64", "i32", "f64"]),
    Rule::custom("aten.searchsorted.Scalar", searchsorted)
        .samples(&[
            "sorted_sequence: T[6]{sorted}; self: 0.5",
            "sorted_sequence: T[6]{sorted}; self: 1; right: true",
            "sorted_sequence: T[5]{sorted}; self: -0.25; out_int32: true",
            "sorted_sequence: i64[8]{sorted}; self: 1; side: \"left\"",
        ])
        .dtypes(&["f32", "i64", "f64"]),
];
