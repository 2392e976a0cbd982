//! `aten.native_batch_norm`: batch normalization over every dim but 1, written out, with torch's results
//! `(y, save_mean, save_rstd)`: batch statistics (biased variance) in training, the running ones in eval (then
//! `save_*` are empty). Training with running stats updates them in place: refused, aten-remove-inplace first
//! rewrites it to `_native_batch_norm_legit_functional`.

use crate::Rule;
use super::batch_norm_common::{batch_norm_stats};

pub const RULES: &[Rule] = &[Rule::custom("aten.native_batch_norm.default", |c| {
    let training = c.args.bool("training")?;
    let has_stats = c.args.opt_tensor("running_mean")?.is_some();
    if training && has_stats {
        // aten-remove-inplace turns this case into
        // `_native_batch_norm_legit_functional` (the update becomes results).
        return Err("native_batch_norm in training mode updates running_mean / running_var in place; run \
                    aten-remove-inplace first (it makes the update explicit)"
            .into());
    }
    let r = batch_norm_stats(c, training)?;
    Ok(r[..3].to_vec())
})
.samples(&[
    "input: T[2,3,4,4]; weight: T[3]; bias: T[3]; running_mean: none; running_var: none; training: true; momentum: 0.1; eps: 0.00001",
    "input: T[4,3]; weight: none; bias: none; running_mean: none; running_var: none; training: true; momentum: 0.1; eps: 0.001",
    "input: T[2,3,5]; weight: T[3]; bias: T[3]; running_mean: T[3]; running_var: T[3]{pos}; training: false; momentum: 0.1; eps: 0.00001; returns: [0]",
    // Training with running stats: through aten-remove-inplace (the update
    // becomes extra results).
    "input: T[2,3,5]; weight: T[3]; bias: T[3]; running_mean: T[3]; running_var: T[3]{pos}; training: true; momentum: 0.3; eps: 0.00001",
    "input: T[3,1]; weight: none; bias: none; running_mean: T[1]; running_var: T[1]{pos}; training: true; momentum: 0.5; eps: 0.6",
])];
