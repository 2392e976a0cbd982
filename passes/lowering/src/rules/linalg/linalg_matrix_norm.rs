//! `aten.linalg_matrix_norm` (numeric `ord`, `.str_ord`): the matrix norm over the two `dim`s. `fro` is a vector
//! 2-norm, ±1 / ±inf the max / min column / row sum of `|x|` (NaN-propagating; 0 over an empty dim, as torch's
//! amax), ±2 and `nuc` from Jacobi singular values (linalg_jacobi_common.rs, static matrix sizes).

use super::matrix_norm_common::{matrix_norm, MatrixOrd};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.linalg_matrix_norm.default", |c| {
        let ord = c.args.number("ord")?.as_f64();
        matrix_norm_arg(c, MatrixOrd::Number(ord))
    })
    .samples(&[
        "self: T[3,4]; ord: 1",
        "self: T[3,4]; ord: -1",
        "self: T[2,3,4]; ord: inf",
        "self: T[3,4]; ord: -inf; keepdim: true",
        "self: T[2,3,4]; ord: 1; dim: [0,2]",
        "self: T[2,3,4]; ord: inf; dim: [2,0]; keepdim: true",
        "self: T[3,4]; ord: 2",
        "self: T[2,3,4]; ord: -2",
        "self: T[2,3,4]; ord: 2; dim: [2,0]; keepdim: true",
        "self: T[4,2,3]; ord: -2; dim: [0,1]",
        "self: T[0,0]; ord: 1",
        "self: T[5,0]; ord: 1; keepdim: true",
        "self: T[0,5]; ord: inf",
        "self: T[0,5]; ord: -1",
        "self: T[2,0,3]; ord: 2",
        "self: T[0,0]; ord: 2",
    ])
    .dtypes(&["f32", "f64"]),
    Rule::custom("aten.linalg_matrix_norm.str_ord", |c| {
        let ord = c.args.string("ord")?;
        matrix_norm_arg(c, MatrixOrd::Str(ord))
    })
    .samples(&[
        "self: T[3,4]",
        "self: T[2,3,4]; ord: \"fro\"; dim: [0,1]; keepdim: true",
        "self: T[3,4]; ord: \"nuc\"",
        "self: T[2,5,4]; ord: \"nuc\"; dim: [2,1]; keepdim: true",
        "self: T[2,0,4]; ord: \"nuc\"",
    ])
    .dtypes(&["f32", "f64"]),
];

fn matrix_norm_arg<'c, 'a>(ctx: &Ctx<'c, 'a>, ord: MatrixOrd) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    let dims = ctx.args.ints("dim")?;
    let keepdim = ctx.args.bool("keepdim")?;
    Ok(vec![matrix_norm(ctx, x, &ord, &dims, keepdim, ctx.result_type(0)?)?])
}
