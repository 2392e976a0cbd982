use super::upsample_common::{upsample, Mode};
use crate::Rule;

/// `F.interpolate(mode="nearest-exact")`: source index `floor((d + 0.5) * scale)`.
pub const RULES: &[Rule] = &[
    Rule::custom("aten._upsample_nearest_exact1d.vec", |c| upsample(c, Mode::NearestExact, 1))
        .samples(&[
            "input: T[1,2,5]; output_size: none; scale_factors: [2.0]",
            "input: T[1,2,5]; output_size: none; scale_factors: [1.5]",
            "input: T[1,2,7]; output_size: none; scale_factors: [0.6]",
            "input: T[1,2,5]; output_size: [8]; scale_factors: none",
        ])
        .dtypes(&["f32"]),
    Rule::custom("aten._upsample_nearest_exact1d.default", |c| upsample(c, Mode::NearestExact, 1))
        .samples(&["self: T[1,2,5]; output_size: [7]", "self: T[1,2,5]; output_size: [7]; scales: 1.5"])
        .dtypes(&["f32"]),
];
