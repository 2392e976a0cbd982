use super::householder_common as hh;
use crate::Rule;

/// `(a, tau)`: LAPACK `geqrf`'s compact QR (R on and above the diagonal,
/// the Householder reflectors below it, their scalars in `tau`
/// `[*, min(m, n)]`), an ONNX Loop over the reflectors in float64 (see
/// householder_common.rs for the conventions).
pub const RULES: &[Rule] = &[Rule::custom("aten.geqrf.default", |c| {
    let (m, n, _) = hh::static_dims(c, "self", c.result_type(0).ok())?;
    let (a, _) = hh::as_f64(c, "self")?;
    let (packed, tau) = hh::geqrf(c, a, m, n)?;
    Ok(vec![hh::finish(c, 0, packed)?, hh::finish(c, 1, tau)?])
})
.samples(&[
    "self: T[4,3]",
    "self: T[3,5]",
    "self: T[2,4,4]",
    "self: T[1,1]",
    "self: T[0,3]",
    "self: T[3,0]",
    "self: T[0,2,2]",
    "self: T[1,2,5,2]",
])
.dtypes(&["f32", "f64"])];
