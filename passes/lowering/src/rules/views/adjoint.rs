use super::transpose_common::swap_last_two;
use crate::Rule;

/// `x.adjoint()`: `x.mH`, real tensors only.
pub const RULES: &[Rule] =
    &[Rule::custom("aten.adjoint.default", swap_last_two).samples(&["self: T[3,4]", "self: T[2,3,4]"])];
