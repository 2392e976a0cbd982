use super::scalar_common::scalar_value;
use crate::Rule;

/// `.item()` in the TRAINING IR (core ATen calls it `_local_scalar_dense`).
pub const RULES: &[Rule] = &[Rule::custom("aten.item.default", scalar_value)];
