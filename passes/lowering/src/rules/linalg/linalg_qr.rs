use super::householder_common as hh;
use crate::Rule;

/// `(Q, R)` by Householder reflections in LAPACK's conventions (`geqrf` +
/// `orgqr`, see householder_common.rs): mode "reduced" (Q `[*, m, k]`, R
/// `[*, k, n]`, k = min(m, n)), "complete" (Q `[*, m, m]`, R `[*, m, n]`),
/// "r" (R only, Q an empty tensor as torch returns).
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_qr.default", |c| {
    let mode = c.args.string("mode")?;
    let (complete, want_q) = match mode.as_str() {
        "reduced" => (false, true),
        "complete" => (true, true),
        "r" => (false, false),
        other => return Err(format!("qr received unrecognized mode '{other}' (expected reduced, complete or r)")),
    };
    let (q, r) = hh::qr(c, "A", complete, want_q)?;
    let q = match q {
        Some(q) => q,
        None => c.b.constant(c.result_type(0)?, &[])?,
    };
    Ok(vec![q, r])
})
.samples(&[
    "A: T[4,3]",
    "A: T[3,5]",
    "A: T[2,4,4]",
    "A: T[4,3]; mode: \"complete\"",
    "A: T[3,5]; mode: \"complete\"",
    "A: T[4,3]; mode: \"r\"",
    "A: T[1,1]",
    "A: T[0,3]",
    "A: T[3,0]; mode: \"complete\"",
    "A: T[0,3,2]",
    "A: T[2,1,5,2]",
])
.dtypes(&["f32", "f64"])];
