use super::upsample_common::{upsample, Mode};
use crate::Rule;

/// `F.interpolate(mode="nearest-exact")`: source index `floor((d + 0.5) * scale)`.
pub const RULES: &[Rule] = &[
    Rule::custom("aten._upsample_nearest_exact3d.vec", |c| upsample(c, Mode::NearestExact, 3))
        .samples(&[
            "input: T[1,2,2,3,4]; output_size: none; scale_factors: [2.0,2.0,2.0]",
            "input: T[1,2,3,4,5]; output_size: none; scale_factors: [1.5,0.8,2.5]",
            "input: T[1,1,3,4,5]; output_size: [4,5,3]; scale_factors: none",
        ])
        .dtypes(&["f32"]),
    Rule::custom("aten._upsample_nearest_exact3d.default", |c| upsample(c, Mode::NearestExact, 3))
        .samples(&["self: T[1,2,2,3,4]; output_size: [4,6,8]", "self: T[1,2,2,3,4]; output_size: [3,4,6]; scales_d: 1.5; scales_h: 1.5; scales_w: 1.6"])
        .dtypes(&["f32"]),
];
