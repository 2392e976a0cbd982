use super::nn_common::p_norm;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten._cdist_forward.default", cdist).samples(&[
    "x1: T[3,4]; x2: T[5,4]; p: 2.0; compute_mode: none",
    "x1: T[2,3,4]; x2: T[2,5,4]; p: 1.0; compute_mode: none",
    "x1: T[3,4]; x2: T[2,4]; p: 0.0; compute_mode: none",
    "x1: T[3,4]; x2: T[2,4]; p: 3.0; compute_mode: none",
    "x1: T[2,1,3,4]; x2: T[3,2,4]; p: inf; compute_mode: none",
    "x1: T[0,4]; x2: T[2,4]; p: 2.0; compute_mode: none",
])];

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
