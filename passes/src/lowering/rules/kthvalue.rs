use super::tensor_common::sort;
use crate::lowering::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.kthvalue.default", kthvalue)
    .samples(&[
        "self: T[3,5]; k: 2",
        "self: T[3,5]; k: 3; dim: 0; keepdim: true",
        "self: T[6]; k: 6",
        "self: T[6]; k: 1",
        "self: T[2,3,4]; k: 2; dim: 1",
        "self: T[]; k: 1",
    ])
    .dtypes(&["f32", "f64"])];

/// The `k`-th smallest along `dim` (1-based): element `k-1` of the stable
/// ascending sort (NaN largest, like torch).
fn kthvalue<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    let k = match ctx.args.sym_int("k")? {
        crate::lowering::IntArg::Static(k) => k,
        _ => return Err("kthvalue with a symbolic k is not supported".into()),
    };
    if rank == 0 {
        if k != 1 {
            return Err(format!("kthvalue: k={k} is out of range for a 0-d tensor"));
        }
        return Ok(vec![x, ctx.b.const_i64_scalar(0)?]);
    }
    let (values, indices) = sort(ctx, x, dim, false)?;
    pick(ctx, values, indices, dim, k - 1, ctx.args.bool("keepdim")?)
}

/// Element `at` of `values` / `indices` along `dim`, keeping the dim or not.
pub fn pick<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    values: Value<'c, 'a>,
    indices: Value<'c, 'a>,
    dim: usize,
    at: i64,
    keepdim: bool,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let idx = if keepdim { b.const_i64s(&[at])? } else { b.const_i64_scalar(at)? };
    let attrs = [("axis", crate::lowering::Attr::Int(dim as i64))];
    Ok(vec![
        ctx.b.op("Gather", &[values, idx], &attrs, ctx.result_type(0)?)?,
        ctx.b.op("Gather", &[indices, idx], &attrs, ctx.result_type(1)?)?,
    ])
}
