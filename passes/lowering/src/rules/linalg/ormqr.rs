use super::householder_common as hh;
use crate::Rule;

/// LAPACK `ormqr`: `Q C`, `Q^T C` (`left`), `C Q`, `C Q^T` with
/// `Q = H_0 ... H_{k-1}` from the reflectors below the diagonal of `self`
/// (`[*, mn, >= k]`) and `input2` (tau, `[*, k]`), applied to `input3` (C) by
/// an ONNX Loop in float64 (householder_common.rs). The right-hand products
/// are the transposes of left-hand ones: `C Q = (Q^T C^T)^T`.
pub const RULES: &[Rule] = &[Rule::custom("aten.ormqr.default", |c| {
    let left = c.args.bool("left")?;
    let transpose = c.args.bool("transpose")?;
    let (mn, kk, batch) = hh::static_dims(c, "self", None)?;
    let (k, tau_rank) = hh::static_last(c, "input2")?;
    let (cr, cc, cbatch) = hh::static_dims(c, "input3", c.result_type(0).ok())?;
    if k > mn {
        return Err(format!("ormqr: input.shape[-2] ({mn}) must be >= tau.shape[-1] ({k})"));
    }
    if k > kk {
        return Err(format!("ormqr: input.shape[-1] ({kk}) must be >= tau.shape[-1] ({k})"));
    }
    if tau_rank != batch + 1 || cbatch != batch {
        return Err("ormqr: input, tau and other must have the same batch dims".into());
    }
    let want = if left { cr } else { cc };
    if want != mn {
        return Err(format!(
            "ormqr: other.shape[{}] ({want}) must equal input.shape[-2] ({mn})",
            if left { -2 } else { -1 }
        ));
    }
    let (v, _) = hh::as_f64(c, "self")?;
    let (tau, _) = hh::as_f64(c, "input2")?;
    let (x, _) = hh::as_f64(c, "input3")?;
    let rank = batch + 2;
    let y = if left {
        // Q C: H_{k-1} first (descending); Q^T C: H_0 first.
        hh::apply_left(c, v, tau, x, mn, k, !transpose, None)?
    } else {
        // C Q = (Q^T C^T)^T; C Q^T = (Q C^T)^T.
        let xt = hh::transpose(c, x, rank)?;
        let yt = hh::apply_left(c, v, tau, xt, mn, k, transpose, None)?;
        hh::transpose(c, yt, rank)?
    };
    Ok(vec![hh::finish(c, 0, y)?])
})
.samples(&[
    "self: T[4,4]; input2: T[4]; input3: T[4,3]",
    "self: T[4,4]; input2: T[4]; input3: T[4,3]; transpose: true",
    "self: T[4,4]; input2: T[4]; input3: T[3,4]; left: false",
    "self: T[4,4]; input2: T[4]; input3: T[3,4]; left: false; transpose: true",
    "self: T[5,2]; input2: T[2]; input3: T[5,2]",
    "self: T[2,5]; input2: T[2]; input3: T[5,2]; left: false; transpose: true",
    "self: T[2,4,3]; input2: T[2,3]; input3: T[2,4,2]; transpose: true",
    "self: T[3,0]; input2: T[0]; input3: T[3,2]",
    "self: T[0,3,3]; input2: T[0,3]; input3: T[0,3,3]",
])
.dtypes(&["f32", "f64"])];
