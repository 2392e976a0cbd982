use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::binary("aten.mul.Tensor", "Mul"), Rule::binary("aten.mul.Scalar", "Mul")];
