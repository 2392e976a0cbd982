use super::nn_common::p_norm;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten._pdist_forward.default", pdist).samples(&[
    "self: T[4,3]",
    "self: T[5,2]; p: 1.0",
    "self: T[4,3]; p: 0.0",
    "self: T[4,3]; p: inf",
    "self: T[3,3]; p: 3.5",
    "self: T[1,3]",
])];

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
