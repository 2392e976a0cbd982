use super::householder_common as hh;
use crate::Rule;

/// `torch.qr`: `linalg_qr` with mode "reduced" (`some=True`) or "complete"
/// (`some=False`), see linalg_qr.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten.qr.default", |c| {
    let some = c.args.bool("some")?;
    let (q, r) = hh::qr(c, "self", !some, true)?;
    Ok(vec![q.ok_or("rule bug: no Q")?, r])
})
.samples(&["self: T[4,3]", "self: T[3,5]; some: false", "self: T[5,2]; some: false", "self: T[2,3,3]", "self: T[0,2]"])
.dtypes(&["f32", "f64"])];
