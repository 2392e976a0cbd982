use super::diagonal_common::diag_embed;
use crate::{builder, Rule};
use melior::ir::{r#type::RankedTensorType, ValueLike};

/// `torch.diagflat(x, offset)`: the flattened input on diagonal `offset` of
/// a square matrix (size numel + |offset|).
pub const RULES: &[Rule] = &[Rule::custom("aten.diagflat.default", |c| {
    let x = c.args.tensor("self")?;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let dims = builder::dims(x.r#type()).ok_or("diagflat of an input of unknown rank")?;
    let flat = match dims.iter().copied().collect::<Option<Vec<i64>>>() {
        Some(sizes) => {
            let numel: i64 = sizes.iter().product();
            let flat_type = RankedTensorType::new(&[numel as u64], element, None).into();
            c.b.onnx().reshape(x, c.b.const_i64s(&[numel])?, None).typed(flat_type)?
        }
        // Dynamic sizes: flattened to [-1] (allowzero 0: -1 resolves an
        // empty input to 0 elements), the diagonal's length read at run time.
        None => {
            let flat_type = RankedTensorType::new(&[i64::MIN as u64], element, None).into();
            c.b.onnx().reshape(x, c.b.const_i64s(&[-1])?, None).typed(flat_type)?
        }
    };
    Ok(vec![diag_embed(c, flat, c.args.int("offset")?, 0, 1)?])
})
.samples(&[
    "self: T[3]",
    "self: T[2,2]; offset: 1",
    "self: T[]; offset: -2",
    "self: T[0]",
    "self: T[0]; offset: 2",
    "self: T[2,3]; offset: -1",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];
