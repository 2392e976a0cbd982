//! Pairwise p-norm distances shared by cdist / _cdist_forward and pdist / _pdist_forward. Not a rule file.

use super::nn_common::p_norm;
use crate::{builder, Ctx};
use melior::ir::{Value, ValueLike};

/// `[*, P, M]` x `[*, R, M]` -> `[*, P, R]`: the p-norm of every row
/// difference (computed directly; torch's matmul shortcut for large p=2
/// inputs is the same value up to rounding).
pub(super) fn cdist<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x1 = c.args.tensor("x1")?;
    let x2 = c.args.tensor("x2")?;
    let p = c.args.float("p")?;
    if p < 0.0 {
        return Err("cdist with p < 0".into());
    }
    let d = c.b.onnx().sub(c.unsqueeze(x1, &[-2])?, c.unsqueeze(x2, &[-3])?).like(x1)?;
    let n = p_norm(c, d, -1, false, p)?;
    Ok(vec![c.b.onnx().identity(n).typed(c.result_type(0)?)?])
}

/// The distances of rows i < j of `[N, M]`, row-major: the full [N, N]
/// distance matrix flattened, gathered at the constant indices i * N + j.
pub(super) fn pdist<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let p = c.args.float("p")?;
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    if dims.len() != 2 {
        return Err("pdist needs a 2-D input".into());
    }
    let n = dims[0].ok_or("pdist needs a static row count")?;
    let d = c.b.onnx().sub(c.unsqueeze(x, &[1])?, c.unsqueeze(x, &[0])?).like(x)?;
    let full = p_norm(c, d, -1, false, p)?;
    let flat = c.b.onnx().reshape(full, c.b.const_i64s(&[-1])?, None).like(x)?;
    let idx: Vec<i64> = (0..n).flat_map(|i| (i + 1..n).map(move |j| i * n + j)).collect();
    let idx = c.b.const_i64s(&idx)?;
    Ok(vec![c.b.onnx().gather(flat, idx, Some(0)).typed(c.result_type(0)?)?])
}
