use super::prod_common::beta_alpha;
use crate::{builder, Rule};

/// `beta * self + alpha * outer(vec1, vec2)`; `beta == 0` ignores self; bool
/// tensors use and / or.
pub const RULES: &[Rule] = &[Rule::custom("aten.addr.default", |c| {
    super::prod_common::refuse_half(c, "addr")?;
    let el = super::prod_common::compute_type(c, c.result_element(0)?);
    let v1 = c.unsqueeze(c.tensor_as("vec1", el)?, &[1])?;
    let v2 = c.tensor_as("vec2", el)?;
    let p = if builder::is_bool(el) { c.b.onnx().and(v1, v2) } else { c.b.onnx().mul(v1, v2) };
    let p = p.typed(c.b.unranked(el))?;
    beta_alpha(c, p)
})
.samples(&[
    "self: T[3,4]; vec1: T[3]; vec2: T[4]",
    "self: T[4]; vec1: T[3]; vec2: T[4]; beta: 2; alpha: 3",
    "self: T[]; vec1: T[3]; vec2: T[4]; beta: 0",
    "self: T[0,4]; vec1: T[0]; vec2: T[4]",
])
.dtypes(&["f32", "f64", "i64"])];
