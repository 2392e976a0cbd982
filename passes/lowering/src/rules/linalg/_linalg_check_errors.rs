use crate::Rule;

/// The error check torch.linalg ops run on their `info` result (raises for a
/// singular or non positive-definite input). In core ATen it comes wrapped in
/// `with_effects`, which the importer unwraps. ONNX has no way to raise, and
/// the check returns nothing, so it lowers to nothing: an input eager PyTorch
/// rejects gives the factorization's NaN/inf results instead.
pub const RULES: &[Rule] = &[Rule::custom("aten._linalg_check_errors.default", |_| Ok(vec![]))];
