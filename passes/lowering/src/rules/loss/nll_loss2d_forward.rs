use super::nll_common::nll_rule;
use crate::Rule;

/// `(output, total_weight)`; total_weight is the sum of the kept weights
/// (torch leaves it 0 for reduction='none').
pub const RULES: &[Rule] = &[Rule::custom("aten.nll_loss2d_forward.default", |c| {
    let (out, total) = nll_rule(c)?;
    let total = if c.args.int("reduction")? == 0 { c.b.const_like(out, 0.0)? } else { total };
    Ok(vec![out, c.b.onnx().identity(total).typed(c.result_type(1)?)?])
})
.samples(&[
    "self: T[2,3,4,2]; target: i64[2,4,2]{0..3}; weight: none; reduction: 1; ignore_index: -100",
    "self: T[2,3,4,2]; target: i64[2,4,2]{-1..3}; weight: T[3]{pos}; reduction: 0; ignore_index: -1",
    "self: T[2,3,4,2]; target: i64[2,4,2]{0..3}; weight: T[3]{pos}; reduction: 2; ignore_index: 2",
])];
