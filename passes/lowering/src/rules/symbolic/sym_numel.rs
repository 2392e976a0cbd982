use crate::{Ctx, Rule};
use melior::ir::{r#type::RankedTensorType, Value};

/// `x.numel()` on a tensor with symbolic sizes: the product of the sizes, a
/// 1-element int64 tensor (a constant when every size is static; 1 for a 0-d
/// tensor, 0 for an empty one).
pub const RULES: &[Rule] = &[Rule::custom("aten.sym_numel.default", sym_numel)];

fn sym_numel<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let ty = ctx.aten_operand_types.first().copied().ok_or("no 'self' operand")?;
    let dims = crate::builder::dims(ty).ok_or("'self' is not a ranked tensor")?;
    if let Some(sizes) = dims.iter().copied().collect::<Option<Vec<i64>>>() {
        let n = sizes.iter().try_fold(1i64, |a, &s| a.checked_mul(s)).ok_or("numel overflows int64")?;
        return Ok(vec![ctx.b.const_i64s(&[n])?]);
    }
    let x = ctx.args.tensor("self")?;
    let shape = ctx.b.shape(x)?;
    let out = RankedTensorType::new(&[1], ctx.b.i64_type(), None).into();
    Ok(vec![ctx.b.onnx().reduce_prod(shape, None, None, Some(1), None).typed(out)?])
}
