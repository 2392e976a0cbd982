//! `aten._local_scalar_dense` (`.item()`): the one-element tensor reshaped to `[1]`, the convention for a
//! symbolic scalar, and cast to the result's type (int64 for SymInt, f64 for SymFloat, i1 for SymBool).

use super::scalar_common::scalar_value;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten._local_scalar_dense.default", scalar_value)];
