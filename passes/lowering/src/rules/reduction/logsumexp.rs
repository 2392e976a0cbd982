use super::math_common::{isinf, lift0};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.logsumexp.default", logsumexp).samples(&[
    "self: T[2,3]; dim: [1]",
    "self: T[2,3,4]; dim: [0,2]; keepdim: true",
    "self: T[2,3]; dim: [-1]; keepdim: true",
    "self: T[]; dim: [0]",
    "self: i64[2,3]; dim: [1]",
]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];

/// `m + log(sum(exp(x - m)))` with `m` the max over the dims, replaced by 0
/// where it is infinite (a row of -inf gives -inf, a +inf gives +inf; NaN
/// propagates through `exp`). Integer inputs are promoted to the float
/// result; empty `dim` reduces every dim (torch).
pub(super) fn logsumexp<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let rank = c.rank(x)?;
    let dims = c.args.ints("dim")?;
    let keepdim = c.args.bool("keepdim")?;
    let mut axes = Vec::new();
    for d in dims {
        axes.push(c.dim(d, rank)? as i64);
    }
    let (x, lifted) = lift0(c, x)?;
    let axes: Option<Vec<i64>> = if lifted || axes.is_empty() { None } else { Some(axes) };
    let keepdim = keepdim && !lifted;
    let b = &c.b;
    let unranked = b.unranked(super::math_common::elem(x)?);
    let m = c.reduce(crate::Reduction::Max, x, axes.as_deref(), true, unranked)?;
    let inf = isinf(c, m, true, true)?;
    let zero = b.const_like(x, 0.0)?;
    let m = b.onnx().where_(inf, zero, m).like(x)?;
    let shifted = b.onnx().sub(x, m).like(x)?;
    let e = b.onnx().exp(shifted).like(x)?;
    let s = c.reduce(crate::Reduction::Sum, e, axes.as_deref(), keepdim, unranked)?;
    let l = b.onnx().log(s).like(x)?;
    let m = if keepdim {
        m
    } else {
        match &axes {
            Some(a) => c.squeeze(m, a)?,
            None => {
                let shape = b.const_i64s(&[])?;
                b.onnx().reshape(m, shape, None).like(x)?
            }
        }
    };
    Ok(vec![c.b.onnx().add(l, m).typed(c.result_type(0)?)?])
}
