use super::complex_common::identity;
use crate::Rule;

/// `view_as_real`: the complex operand's ONNX value is already its real
/// view (lowering/complex.rs).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.view_as_real.default", |_| Err("view_as_real needs a complex tensor".into()))
        .complex(identity)
        .samples(&[])
        .complex_samples(&["self: C[2,3]", "self: C[]", "self: C[0,2]"])];
