use crate::Rule;

/// `torch.true_divide` = div (integers promoted to the float result).
pub const RULES: &[Rule] = &[
    Rule::binary("aten.true_divide.Tensor", "Div").dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::binary("aten.true_divide.Scalar", "Div").dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];
