use super::prod_common::beta_alpha;
use crate::Rule;

/// `beta * self + alpha * sum_b(batch1[b] @ batch2[b])`; `beta == 0`
/// ignores self.
pub const RULES: &[Rule] = &[Rule::custom("aten.addbmm.default", |c| {
    super::prod_common::refuse_half(c, "addbmm")?;
    let el = super::prod_common::compute_type(c, c.result_element(0)?);
    let p = c.b.onnx().mat_mul(c.tensor_as("batch1", el)?, c.tensor_as("batch2", el)?).typed(c.b.unranked(el))?;
    let s = c.reduce(crate::Reduction::Sum, p, Some(&[0]), false, c.b.unranked(el))?;
    beta_alpha(c, s)
})
.samples(&[
    "self: T[3,5]; batch1: T[2,3,4]; batch2: T[2,4,5]",
    "self: T[5]; batch1: T[2,3,4]; batch2: T[2,4,5]; beta: 0.5; alpha: 2",
    "self: T[3,5]; batch1: T[2,3,4]; batch2: T[2,4,5]; beta: 0",
    "self: T[3,5]; batch1: T[0,3,4]; batch2: T[0,4,5]",
])
.dtypes(&["f32", "f64"])];
