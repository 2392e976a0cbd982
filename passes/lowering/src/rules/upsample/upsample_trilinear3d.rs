//! `aten.upsample_trilinear3d` (`.vec`, `.default`): torch's trilinear interpolation with its float32
//! coordinates. ONNX `Resize` (linear) where its mapping gives torch's (`align_corners`, no scale, `out == in`,
//! or `out == in * scale` exactly), else per axis `Gather`s of constant indices blended with constant weights.

use super::upsample_common::{upsample, Mode};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.upsample_trilinear3d.vec", |c| upsample(c, Mode::Linear, 3))
        .samples(&[
            "input: T[1,2,2,3,4]; output_size: none; align_corners: false; scale_factors: [2.0,2.0,2.0]",
            "input: T[1,2,2,3,4]; output_size: none; align_corners: true; scale_factors: [2.0,2.0,2.0]",
            "input: T[1,2,3,4,5]; output_size: none; align_corners: false; scale_factors: [1.5,0.8,2.5]",
            "input: T[1,1,3,4,5]; output_size: [4,5,3]; align_corners: false; scale_factors: none",
        ])
        .dtypes(&["f32"]),
    Rule::custom("aten.upsample_trilinear3d.default", |c| upsample(c, Mode::Linear, 3))
        .samples(&[
            "self: T[1,2,2,3,4]; output_size: [4,6,8]; align_corners: false",
            "self: T[1,2,2,3,4]; output_size: [3,4,6]; align_corners: false; scales_d: 1.5; scales_h: 1.5; scales_w: 1.6",
        ])
        .dtypes(&["f32"]),
];
