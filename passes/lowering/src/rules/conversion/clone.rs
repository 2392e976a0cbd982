use super::common::identity;
use crate::Rule;

/// Layout / autograd only: the value itself.
pub const RULES: &[Rule] = &[Rule::custom("aten.clone.default", identity)
    .complex(super::complex_common::identity)
    .complex_samples(&["self: C[2,3]", "self: C[]", "self: C[0,2]"])
    .samples(&["self: T[2,3]", "self: T[0]"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
