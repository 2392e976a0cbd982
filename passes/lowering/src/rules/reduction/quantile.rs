//! `aten.quantile` (`.scalar`, `.default` with a tensor `q`): a NaN-last sort along `dim` (or of all elements),
//! the rank `q * (n - 1)`, then torch's `interpolation` (linear, lower, higher, nearest = round half to even,
//! midpoint). A row holding a NaN gives NaN, as in torch; float inputs only.

use super::quantile_common::quantile;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.quantile.scalar", |c| quantile(c, false))
        .samples(&[
            "self: T[3,5]; q: 0.3",
            "self: T[3,5]; q: 0.5; dim: 1",
            "self: T[4,6]; q: 0.25; dim: 0; keepdim: true",
            "self: T[2,3,4]; q: 0.7; dim: -2; interpolation: \"lower\"",
            "self: T[2,3,4]; q: 0.7; dim: 1; interpolation: \"higher\"",
            "self: T[5]; q: 0.375; interpolation: \"nearest\"",
            "self: T[5]; q: 0.125; interpolation: \"nearest\"",
            "self: T[3,5]; q: 0.6; dim: 1; interpolation: \"midpoint\"",
            "self: T[3,5]; q: 1.0; keepdim: true",
            "self: T[3,5]; q: 0.0; dim: 1",
            "self: T[]; q: 0.4",
            "self: T[]; q: 0.4; dim: 0; keepdim: true",
        ])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.quantile.default", |c| quantile(c, false))
        .samples(&[
            "self: T[3,5]; q: T[3]{unit}",
            "self: T[4,6]; q: T[2]{unit}; dim: 1; keepdim: true",
            "self: T[4,6]; q: T[]{unit}; dim: 0",
            "self: T[2,3,4]; q: T[2]{unit}; dim: -1; interpolation: \"midpoint\"",
            "self: T[2,3,4]; q: T[2]{unit}; dim: 0; interpolation: \"nearest\"",
            "self: T[6]; q: T[4]{unit}; keepdim: true; interpolation: \"lower\"",
        ])
        .dtypes(&["f32", "f64"]),
];
