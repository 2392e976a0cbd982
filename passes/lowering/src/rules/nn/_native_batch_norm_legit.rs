use super::batch_norm_common::batch_norm_stats;
use crate::Rule;

/// `_native_batch_norm_legit.no_stats`: batch norm without running
/// statistics (training: batch statistics; eval without stats is refused
/// by torch too).
pub const RULES: &[Rule] = &[Rule::custom("aten._native_batch_norm_legit.no_stats", |c| {
    let training = c.args.bool("training")?;
    Ok(batch_norm_stats(c, training)?[..3].to_vec())
})
.samples(&[
    "input: T[2,3,4,4]; weight: T[3]; bias: T[3]; training: true; momentum: 0.1; eps: 0.00001",
    "input: T[4,3]; weight: none; bias: none; training: true; momentum: 0.1; eps: 0.001",
    "input: T[2,3,5]; weight: T[3]; bias: none; training: true; momentum: 0.1; eps: 0.00001",
])];
