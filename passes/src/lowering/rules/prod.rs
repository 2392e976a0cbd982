use super::math_common::lift0;
use crate::lowering::Rule;

/// `ReduceProd` in the result dtype (bool and integer inputs give int64,
/// like torch); a 0-d input is the product of one element; an empty
/// reduction gives 1.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.prod.dim_int", |c| {
        let x = c.tensor_as("self", c.result_element(0)?)?;
        let rank = c.rank(x)?;
        let dim = c.dim(c.args.int("dim")?, rank)? as i64;
        let (x, lifted) = lift0(c, x)?;
        let keepdim = c.args.bool("keepdim")? && !lifted;
        Ok(vec![c.reduce("ReduceProd", x, Some(&[dim]), keepdim, c.result_type(0)?)?])
    })
    .samples(&[
        "self: T[3,4]; dim: 1",
        "self: T[3,4]; dim: 0; keepdim: true",
        "self: T[]; dim: 0",
        "self: T[0,3]; dim: 0",
        "self: bool[3,4]; dim: 1",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.prod.default", |c| {
        let x = c.tensor_as("self", c.result_element(0)?)?;
        let (x, _) = lift0(c, x)?;
        Ok(vec![c.reduce("ReduceProd", x, None, false, c.result_type(0)?)?])
    })
    .samples(&["self: T[3,4]", "self: T[]", "self: T[0]", "self: bool[2,3]", "self: T[2,3]; dtype: dtype(f32)"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];
