//! `torch.nuclear_norm`: the sum of the singular values over the last two
//! dims (`.default`) or `dim` (`.dim`), by Jacobi singular values
//! (linalg_jacobi_common.rs).
use super::linalg_jacobi_common::{real_float, sv_norm, SvNorm};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.nuclear_norm.default", |c| nuclear(c, None))
        .samples(&["self: T[3,4]", "self: T[5,3]; keepdim: true", "self: T[0,3]"])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.nuclear_norm.dim", |c| nuclear(c, Some(c.args.ints("dim")?)))
        .samples(&["self: T[3,4]; dim: [1,0]", "self: T[2,3,4]; dim: [0,2]; keepdim: true"])
        .dtypes(&["f32", "f64"]),
];

fn nuclear<'c, 'a>(c: &Ctx<'c, 'a>, dim: Option<Vec<i64>>) -> Result<Vec<Value<'c, 'a>>, String> {
    real_float(c, "self")?;
    let x = c.args.tensor("self")?;
    let range = c.args.operand_range("self")?.ok_or("self is not a tensor")?;
    let ty = c.aten_operand_types.get(range.start).copied().unwrap_or(x.r#type());
    let dims = builder::dims(ty).or_else(|| builder::dims(x.r#type())).ok_or("self has an unknown rank")?;
    let rank = dims.len();
    if rank < 2 {
        return Err(format!("nuclear_norm needs a tensor of rank >= 2, got rank {rank}"));
    }
    if dim.is_none() && rank != 2 {
        return Err(format!("nuclear_norm without dim needs a 2-D tensor, got rank {rank} (torch raises)"));
    }
    let dim = dim.unwrap_or_else(|| vec![-2, -1]);
    if dim.len() != 2 {
        return Err(format!("nuclear_norm needs two dims, got {dim:?}"));
    }
    let (d0, d1) = (c.dim(dim[0], rank)?, c.dim(dim[1], rank)?);
    if d0 == d1 {
        return Err(format!("the two dims of nuclear_norm must differ, got {dim:?}"));
    }
    let keepdim = c.args.bool("keepdim")?;
    Ok(vec![sv_norm(c, x, &dims, SvNorm::Nuclear, d0, d1, keepdim, c.result_type(0)?)?])
}
