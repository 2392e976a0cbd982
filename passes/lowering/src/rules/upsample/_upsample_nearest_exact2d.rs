use super::upsample_common::{upsample, Mode};
use crate::Rule;

/// `F.interpolate(mode="nearest-exact")`: source index `floor((d + 0.5) * scale)`.
pub const RULES: &[Rule] = &[
    Rule::custom("aten._upsample_nearest_exact2d.vec", |c| upsample(c, Mode::NearestExact, 2))
        .samples(&[
            "input: T[1,2,3,4]; output_size: none; scale_factors: [2.0,2.0]",
            "input: T[1,2,5,6]; output_size: none; scale_factors: [1.5,1.7]",
            "input: T[1,2,7,9]; output_size: none; scale_factors: [0.6,0.35]",
            "input: T[1,2,3,4]; output_size: [5,7]; scale_factors: none",
            "input: T[1,2,3,4]; output_size: [3,4]; scale_factors: none",
        ])
        .dtypes(&["f32"]),
    Rule::custom("aten._upsample_nearest_exact2d.default", |c| upsample(c, Mode::NearestExact, 2))
        .samples(&["self: T[1,2,3,4]; output_size: [5,7]", "self: T[1,2,5,6]; output_size: [7,10]; scales_h: 1.5; scales_w: 1.7"])
        .dtypes(&["f32"]),
];
