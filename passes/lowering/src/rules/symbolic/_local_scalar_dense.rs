use super::scalar_common::scalar_value;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten._local_scalar_dense.default", scalar_value)];
