use super::complex_common::part;
use crate::Rule;

/// `imag` of a complex tensor: the second component of the real view
/// (torch refuses real tensors).
pub const RULES: &[Rule] = &[Rule::custom("aten.imag.default", |_| {
    Err("imag is not implemented for real tensors (torch refuses it too)".into())
})
.complex(|c| part(c, 1))
.samples(&[])
.complex_samples(&["self: C[2,3]", "self: C[]", "self: C[0]"])];
