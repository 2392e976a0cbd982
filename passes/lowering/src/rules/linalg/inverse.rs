use crate::Rule;

/// `torch.inverse`, the same as linalg_inv (see linalg_inv_ex.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.inverse.default", |c| {
    Ok(vec![super::linalg_inv_common::inverse(c, "self")?.0])
})
.samples(&["self: T[3,3]{dd}", "self: T[2,2,2]{dd}", "self: T[0,0]"])
.dtypes(&["f32", "f64"])];
