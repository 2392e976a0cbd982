use super::batch_norm_common::batch_norm_stats;
use crate::Rule;

/// Core ATen's train-mode BatchNorm (`run_decompositions()` of a module in
/// training mode): normalized output, batch mean / rstd, and the updated
/// running statistics as results 3 and 4.
pub const RULES: &[Rule] = &[Rule::custom("aten._native_batch_norm_legit_functional.default", |c| {
    let training = c.args.bool("training")?;
    batch_norm_stats(c, training)
})
.samples(&[
    "input: T[2,3,4,4]; weight: T[3]; bias: T[3]; running_mean: T[3]; running_var: T[3]{pos}; training: true; momentum: 0.1; eps: 0.00001",
    "input: T[4,3]; weight: none; bias: none; running_mean: T[3]; running_var: T[3]{pos}; training: true; momentum: 0.3; eps: 0.001",
    "input: T[2,3,5]; weight: T[3]; bias: T[3]; running_mean: T[3]; running_var: T[3]{pos}; training: false; momentum: 0.1; eps: 0.00001; returns: [0,3,4]",
])];
