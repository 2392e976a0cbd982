use crate::Rule;
use super::erfc_common::{erfc};

pub const RULES: &[Rule] = &[Rule::custom("aten.erfc.default", erfc)
    .samples(&["self: T[2,3]", "self: T[4,5]{pos}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
