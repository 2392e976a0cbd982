//! `aten.nanquantile` (`.scalar`, `.default` with a tensor `q`): a NaN-last sort along `dim` (or of all
//! elements), the rank `q * (n - 1)` over the `n` non-NaN elements, then torch's `interpolation` (linear,
//! lower, higher, nearest, midpoint). A row of NaN only gives NaN; float inputs only.

use super::quantile_common::quantile;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.nanquantile.scalar", |c| quantile(c, true))
        .samples(&[
            "self: T[3,5]; q: 0.3",
            "self: T[3,5]; q: 0.5; dim: 1",
            "self: T[4,6]; q: 0.25; dim: 0; keepdim: true",
            "self: T[2,3,4]; q: 0.7; dim: -2; interpolation: \"lower\"",
            "self: T[2,3,4]; q: 0.7; dim: 1; interpolation: \"higher\"",
            "self: T[5]; q: 0.375; interpolation: \"nearest\"",
            "self: T[3,5]; q: 0.6; dim: 1; interpolation: \"midpoint\"",
            "self: T[]; q: 0.4",
        ])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.nanquantile.default", |c| quantile(c, true))
        .samples(&[
            "self: T[3,5]; q: T[3]{unit}",
            "self: T[4,6]; q: T[2]{unit}; dim: 1; keepdim: true",
            "self: T[2,3,4]; q: T[2]{unit}; dim: -1; interpolation: \"midpoint\"",
        ])
        .dtypes(&["f32", "f64"]),
];
