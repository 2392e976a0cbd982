use super::batch_norm_common::batch_norm_stats;
use crate::Rule;

/// Train-mode batch norm (what `_batch_norm_with_update` becomes in
/// aten-remove-inplace and in `run_decompositions()`): the normalized
/// output, batch mean / rstd, the (empty, uint8) cuDNN reserve, and the
/// updated running statistics.
pub const RULES: &[Rule] = &[Rule::custom("aten._batch_norm_with_update_functional.default", |c| {
    let mut r = batch_norm_stats(c, true)?;
    if r.len() != 5 {
        return Err("batch norm with update needs running statistics".into());
    }
    let reserve = c.b.constant(c.result_type(3)?, &[])?;
    r.insert(3, reserve);
    Ok(r)
})
.samples(&[
    "input: T[2,3,4,4]; weight: T[3]; bias: T[3]; running_mean: T[3]; running_var: T[3]{pos}; momentum: 0.1; eps: 0.00001; returns: [0,1,2,4,5]",
    "input: T[5,5,5]; weight: T[5]; bias: T[5]; running_mean: T[5]; running_var: T[5]{pos}; momentum: 0.5; eps: 0.6; returns: [0,1,2,4,5]",
    "input: T[3,1]; weight: none; bias: none; running_mean: T[1]; running_var: T[1]{pos}; momentum: -1.2; eps: 0.00001; returns: [0,1,2,4,5]",
])];
