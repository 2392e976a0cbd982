use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::binary("aten.mul.Tensor", "Mul").dtypes(&["f32", "i64"]),
    Rule::binary("aten.mul.Scalar", "Mul").dtypes(&["f32", "i64"]),
];
