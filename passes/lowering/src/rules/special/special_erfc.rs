use super::erfc_common::erfc;
use crate::Rule;

/// `torch.special.erfc` (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.special_erfc.default", erfc).samples(&["self: T[2,3]", "self: T[]"]).dtypes(&["f32", "i64"])];
