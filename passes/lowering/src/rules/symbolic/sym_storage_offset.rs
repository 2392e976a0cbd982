use super::layout_meta::{int_value, storage_offset, value};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// `x.storage_offset()`: the offset the capture recorded for `self`
/// (importer attribute `aten.self_storage_offset`, see layout_meta.rs): a
/// constant when static, built from the runtime sizes when it is a product
/// of sizes of `self`, refused otherwise (the offset of a data-dependent
/// slice is an unbacked symbol defined by this very op; where torch only
/// checks it with `_assert_scalar`, the check and this op are dropped before
/// the lowering, see convert_aten_to_onnx.rs) and when nothing was recorded.
pub const RULES: &[Rule] = &[Rule::custom("aten.sym_storage_offset.default", sym_storage_offset)];

fn sym_storage_offset<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let offset = storage_offset(ctx)?;
    let v = value(ctx, &offset, "storage offset")?;
    Ok(vec![int_value(ctx, v)?])
}
