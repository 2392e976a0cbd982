use crate::Rule;

/// `Asin`; integer and bool inputs are promoted to the float result type
/// (out-of-domain values give NaN like torch).
pub const RULES: &[Rule] = &[Rule::unary("aten.asin.default", "Asin").dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
