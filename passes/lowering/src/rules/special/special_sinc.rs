use super::elementwise_common::sinc;
use crate::Rule;

/// `torch.special.sinc` (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.special_sinc.default", sinc).samples(&["self: T[2,3]", "self: T[]"]).dtypes(&["f32", "i64"])];
