use crate::Rule;

/// The inverse, see linalg_inv_ex.rs (torch raises on a singular matrix; the
/// ONNX graph gives inf/NaN there).
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_inv.default", |c| {
    Ok(vec![super::linalg_inv_common::inverse(c, "A")?.0])
})
.samples(&["A: T[3,3]{dd}", "A: T[2,4,4]{dd}", "A: T[0,0]", "A: T[5,5]"])
.dtypes(&["f32", "f64"])];
