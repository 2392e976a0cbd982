use super::complex_common::conj;
use crate::Rule;

/// `_conj` (the lazily conjugated view `z.conj()`): its values are the
/// conjugate (torch's kernel only takes complex tensors; a real one is
/// passed through).
pub const RULES: &[Rule] =
    &[Rule::custom("aten._conj.default", |c| Ok(vec![c.b.onnx().identity(c.args.tensor("self")?).typed(c.result_type(0)?)?]))
        .complex(conj)
        .samples(&[])
        .complex_samples(&["self: C[2,3]", "self: C[]"])];
