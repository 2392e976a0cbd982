use super::complex_common::view_as_complex;
use crate::Rule;

/// `view_as_complex` of a real `[..., 2]` tensor: its real view is the tensor
/// itself (lowering/complex.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.view_as_complex.default", view_as_complex)
    .complex(view_as_complex)
    .samples(&["self: T[3,2]", "self: T[2,4,2]", "self: T[2]"])
    .dtypes(&["f32", "f64"])];
