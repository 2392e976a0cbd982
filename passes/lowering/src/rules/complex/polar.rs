use super::complex_common::polar;
use crate::Rule;

/// `torch.polar(abs, angle) = abs * (cos(angle) + i sin(angle))`.
pub const RULES: &[Rule] = &[Rule::custom("aten.polar.default", polar)
    .complex(polar)
    .samples(&["abs: T[2,3]{pos}; angle: T[2,3]", "abs: T[3]{pos}; angle: T[2,3]", "abs: T[]; angle: T[]"])
    .dtypes(&["f32", "f64"])];
