//! `one_hot(self, num_classes)`: `self.unsqueeze(-1) == arange(num_classes)`
//! as int64 (torch/_refs's formulation). `num_classes = -1` takes the class
//! count from the data (`max + 1`), a data-dependent shape: refused.

use super::{Arg, Decomposition as D, Dx};
use crate::builder;
use melior::ir::{
    r#type::{IntegerType, RankedTensorType},
    Type, Value,
};

/// `ty` (a ranked tensor type) with its last dim set to `size`, same
/// element type and encoding.
fn with_last_dim<'c>(ty: Type<'c>, size: i64) -> Result<Type<'c>, String> {
    let ranked = RankedTensorType::try_from(ty).map_err(|_| "the result is not a ranked tensor")?;
    let dims = builder::dims(ty).ok_or("the result is not a ranked tensor")?;
    // MLIR's dynamic size (ShapedType::kDynamic) for unknown dims.
    let mut dims: Vec<u64> = dims.iter().map(|d| d.map_or(i64::MIN as u64, |d| d as u64)).collect();
    *dims.last_mut().ok_or("the result is 0-d")? = size as u64;
    let element = builder::element_type(ty).ok_or("the result is not a tensor")?;
    Ok(RankedTensorType::new(&dims, element, ranked.encoding()).into())
}

fn one_hot<'c, 'a>(d: &Dx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let classes = d.args.int("num_classes")?;
    if classes < 0 {
        return Err("num_classes=-1 takes the class count from the data (a data-dependent shape); pass num_classes".into());
    }
    let r = d.result_type(0)?;
    let i64_type: Type = IntegerType::new(d.context, 64).into();
    let unsqueezed = d.call("aten.unsqueeze.default", &[("self", d.same("self")?), ("dim", Arg::Int(-1))], with_last_dim(r, 1)?)?;
    let arange = d.call(
        "aten.arange.default",
        &[("end", Arg::Int(classes)), ("dtype", Arg::Dtype(i64_type))],
        RankedTensorType::new(&[classes as u64], i64_type, None).into(),
    )?;
    let eq = d.call("aten.eq.Tensor", &[("self", Arg::T(unsqueezed)), ("other", Arg::T(arange))], d.bool_like(r)?)?;
    Ok(vec![d.call("aten._to_copy.default", &[("self", Arg::T(eq)), ("dtype", Arg::Dtype(i64_type))], r)?])
}

pub const DECOMPOSITIONS: &[D] = &[D::new("aten.one_hot.default", "(self.unsqueeze(-1) == arange(num_classes)).long()", one_hot)
    .samples(&["self: i64[2,3]{0..5}; num_classes: 5", "self: i64[]{0..3}; num_classes: 3", "self: i64[0]{0..3}; num_classes: 3"])
    .dtypes(&["i64"])];
