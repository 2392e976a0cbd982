use crate::Rule;

/// `torch.absolute` = abs.
pub const RULES: &[Rule] = &[Rule::unary("aten.absolute.default", "Abs").dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"])];
