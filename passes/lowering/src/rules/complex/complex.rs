use super::complex_common::make;
use crate::Rule;

/// `torch.complex(real, imag)`: `[real, imag]` along a new trailing dim
/// (the real view of the result), broadcast like torch.
pub const RULES: &[Rule] = &[Rule::custom("aten.complex.default", make)
    .complex(make)
    .samples(&[
        "real: T[2,3]; imag: T[2,3]",
        "real: T[3]; imag: T[2,3]",
        "real: T[]; imag: T[]",
        "real: T[0,2]; imag: T[0,2]",
    ])
    .dtypes(&["f32", "f64"])];
