use super::conversion_common::resize_to;
use crate::{IntArg, Rule};

/// `resize` (what aten-remove-inplace makes of `resize_`): the tensor's
/// elements in (contiguous) storage order, kept up to the new number of
/// elements and laid out in the new shape. Torch leaves the elements past
/// the old number uninitialized when the tensor grows; the lowering gives
/// zeros there. Only the default (contiguous) memory format: another one
/// lays the storage out differently.
pub const RULES: &[Rule] = &[Rule::custom("aten.resize.default", |c| {
    let size: Vec<i64> = c
        .args
        .sym_ints("size")?
        .into_iter()
        .map(|s| match s {
            IntArg::Static(v) if v >= 0 => Ok(v),
            IntArg::Static(v) => Err(format!("Trying to create tensor with negative dimension {v}")),
            IntArg::Dynamic(_) => Err("resize to a dynamic size is not supported".to_string()),
        })
        .collect::<Result<_, _>>()?;
    Ok(vec![resize_to(c, &size)?])
})
.samples(&[
    "self: T[5,5,5]; size: [25, 5]",
    "self: T[]; size: [1, 1, 1]",
    "self: T[2,6]; size: [5]",
    "self: T[3,4]; size: [0]",
    "self: T[1]; size: []",
])
.dtypes(&["f32", "i64", "bool"])];
