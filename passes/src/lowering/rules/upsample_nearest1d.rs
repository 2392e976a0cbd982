use super::upsample_common::{upsample, Mode};
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.upsample_nearest1d.vec", |c| upsample(c, Mode::Nearest, 1))
        .samples(&[
            "input: T[1,2,5]; output_size: none; scale_factors: [2.0]",
            "input: T[1,2,5]; output_size: none; scale_factors: [1.5]",
            "input: T[2,3,7]; output_size: none; scale_factors: [0.45]",
            "input: T[1,2,5]; output_size: [8]; scale_factors: none",
        ])
        .dtypes(&["f32"]),
    Rule::custom("aten.upsample_nearest1d.default", |c| upsample(c, Mode::Nearest, 1))
        .samples(&["self: T[1,2,5]; output_size: [7]", "self: T[1,2,5]; output_size: [7]; scales: 1.5"])
        .dtypes(&["f32"]),
];
