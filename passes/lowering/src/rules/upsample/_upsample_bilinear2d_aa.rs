//! `aten._upsample_bilinear2d_aa` (`.vec`, `.default`): antialiased bilinear resampling of a 4-D float input.
//! Each spatial axis is a `MatMul` with torch's `[in, out]` weight matrix (triangle filter, stretched by the
//! scale when downsampling, normalized per output); integer inputs are refused (torch's use fixed-point weights).

use super::upsample_common::upsample_aa;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten._upsample_bilinear2d_aa.vec", |c| upsample_aa(c, false))
        .samples(&[
            "input: T[1,2,8,9]; output_size: [3,4]; align_corners: false; scale_factors: none",
            "input: T[1,2,5,6]; output_size: [7,10]; align_corners: false; scale_factors: none",
            "input: T[1,2,8,9]; output_size: none; align_corners: false; scale_factors: [0.4,0.5]",
            "input: T[2,1,8,9]; output_size: [3,4]; align_corners: true; scale_factors: none",
        ])
        .refuses(&[(
            "input: u8[2,3,10,20]; output_size: [5,5]; align_corners: false; scale_factors: none",
            "fixed-point",
        )]),
    Rule::custom("aten._upsample_bilinear2d_aa.default", |c| upsample_aa(c, false))
        .samples(&["self: T[1,2,8,9]; output_size: [3,4]; align_corners: false"]),
];
