use super::layout_meta::{int_value, strides, value};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// `x.stride(dim)`: the stride the capture recorded for `self` (importer
/// attribute `aten.self_strides`, see layout_meta.rs): a constant when
/// static, built from the runtime sizes when it is a product of sizes of
/// `self` (`4*s1`), refused otherwise and when nothing was recorded.
pub const RULES: &[Rule] = &[Rule::custom("aten.sym_stride.int", sym_stride)];

fn sym_stride<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let strides = strides(ctx)?;
    let dim = ctx.args.int("dim")?;
    if strides.is_empty() {
        return Err(format!("stride({dim}) of a 0-d tensor (torch: the tensor has no dimensions)"));
    }
    let d = ctx.dim(dim, strides.len())?;
    let v = value(ctx, &strides[d], &format!("stride({dim})"))?;
    Ok(vec![int_value(ctx, v)?])
}
