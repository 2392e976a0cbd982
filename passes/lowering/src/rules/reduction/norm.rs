use super::vector_norm_common::vector_norm;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.norm.Scalar", |c| norm(c, false)).samples(&["self: T[3,4]", "self: T[3,4]; p: 1", "self: T[]"]),
    Rule::custom("aten.norm.ScalarOpt_dim", |c| norm(c, true)).samples(&[
        "self: T[3,4]; p: 2; dim: [1]",
        "self: T[3,4]; p: none; dim: [0]; keepdim: true",
        "self: T[2,3,4]; p: 3; dim: [1,2]",
        "self: T[3,4]; p: inf; dim: [1]",
    ]),
    Rule::custom("aten.norm.ScalarOpt_dim_dtype", |c| norm(c, true))
        .samples(&["self: T[3,4]; p: 2; dim: [1]; keepdim: false; dtype: dtype(f64)"]),
    Rule::custom("aten.norm.ScalarOpt_dtype", |c| norm(c, false)).samples(&["self: T[3,4]; p: 1; dtype: dtype(f64)"]),
];

/// `torch.norm` with a numeric `p` (default 2): the vector norm over `dim`
/// (all dims without one), in the result dtype.
fn norm<'c, 'a>(ctx: &Ctx<'c, 'a>, with_dim: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    let p = if ctx.args.is_none("p")? { 2.0 } else { ctx.args.number("p")?.as_f64() };
    let (dims, keepdim) = if with_dim { (ctx.args.ints("dim")?, ctx.args.bool("keepdim")?) } else { (Vec::new(), false) };
    Ok(vec![vector_norm(ctx, x, p, &dims, keepdim, ctx.result_type(0)?)?])
}
