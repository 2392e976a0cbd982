use super::pooling_common::fractional_max_pool;
use crate::Rule;

/// `fractional_max_pool3d`: as fractional_max_pool2d.rs, with the samples of
/// T, H, W in `random_samples[..., 0..3]` (torch's order) and torch's
/// stricter size check `out + pool - 1 < in`.
pub const RULES: &[Rule] = &[Rule::custom("aten.fractional_max_pool3d.default", |c| fractional_max_pool(c, 3))
    .samples(&[
        "self: T[1,2,6,7,8]; kernel_size: [2,2,3]; output_size: [3,4,2]; random_samples: T[1,2,3]{unit}",
        "self: T[2,5,5,6]; kernel_size: [2,1,2]; output_size: [2,3,3]; random_samples: T[1,2,3]{unit}",
    ])
    .dtypes(&["f32", "f64"])
    .refuses(&[(
        "self: T[1,2,5,5,5]; kernel_size: [2,2,2]; output_size: [4,4,4]; random_samples: T[1,2,3]{unit}",
        "too large",
    )])];
