use super::matrix_norm_common::{matrix_norm, MatrixOrd};
use super::vector_norm_common::vector_norm;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.linalg_norm.default", |c| {
        let ord = if c.args.is_none("ord")? { None } else { Some(MatrixOrd::Number(c.args.number("ord")?.as_f64())) };
        linalg_norm(c, ord)
    })
    .samples(&[
        "self: T[3,4]",
        "self: T[5]; ord: 3",
        "self: T[3,4]; ord: 1",
        "self: T[3,4]; ord: inf; keepdim: true",
        "self: T[2,3,4]; ord: 1; dim: [2]",
        "self: T[2,3,4]; dim: [0,2]",
        "self: T[2,3,4]; ord: -inf; dim: [1,2]",
        "self: T[3,4]; ord: 2",
        "self: T[2,3,4]; ord: -2; dim: [2,1]; keepdim: true",
    ])
    .dtypes(&["f32", "f64"]),
    Rule::custom("aten.linalg_norm.ord_str", |c| linalg_norm(c, Some(MatrixOrd::Str(c.args.string("ord")?))))
        .samples(&[
            "self: T[3,4]; ord: \"fro\"",
            "self: T[2,3,4]; ord: \"fro\"; dim: [1,2]; keepdim: true",
            "self: T[3,4]; ord: \"nuc\"",
            "self: T[2,3,4]; ord: \"nuc\"; dim: [0,2]",
        ])
        .dtypes(&["f32", "f64"]),
];

/// `torch.linalg.norm`: a vector norm when `dim` is one dim (or None with
/// no `ord`, flattening), a matrix norm when `dim` is two dims (or None on a
/// 2-D input with an `ord`).
fn linalg_norm<'c, 'a>(ctx: &Ctx<'c, 'a>, ord: Option<MatrixOrd>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    let dims = if ctx.args.is_none("dim")? { None } else { Some(ctx.args.ints("dim")?) };
    let keepdim = ctx.args.bool("keepdim")?;
    let result = ctx.result_type(0)?;
    let rank = ctx.rank(x)?;
    let value = match (ord, dims) {
        (None, None) => vector_norm(ctx, x, 2.0, &[], keepdim, result)?,
        (None, Some(d)) if d.len() == 1 => vector_norm(ctx, x, 2.0, &d, keepdim, result)?,
        (None, Some(d)) => matrix_norm(ctx, x, &MatrixOrd::Str("fro".into()), &d, keepdim, result)?,
        (Some(MatrixOrd::Number(o)), None) if rank == 1 => vector_norm(ctx, x, o, &[0], keepdim, result)?,
        (Some(o), None) if rank == 2 => matrix_norm(ctx, x, &o, &[0, 1], keepdim, result)?,
        (Some(_), None) => {
            return Err(format!("linalg.norm with an ord and no dim needs a 1-D or 2-D input, got rank {rank}"))
        }
        (Some(MatrixOrd::Number(o)), Some(d)) if d.len() == 1 => vector_norm(ctx, x, o, &d, keepdim, result)?,
        (Some(MatrixOrd::Str(s)), Some(d)) if d.len() == 1 => {
            return Err(format!("linalg.norm: ord '{s}' is a matrix norm but one dim was given"))
        }
        (Some(o), Some(d)) => matrix_norm(ctx, x, &o, &d, keepdim, result)?,
    };
    Ok(vec![value])
}
