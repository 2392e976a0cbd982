use crate::Rule;

/// `torch._check(...)` on a symbolic value (torch.export adds them around
/// data-dependent sizes, e.g. `u0 >= 0` after `nonzero`). They hold for every
/// input the capture accepted; ONNX has no assertion op, so the check is
/// dropped (the values it tests are still computed where used).
pub const RULES: &[Rule] = &[Rule::custom("aten._assert_scalar.default", |_| Ok(vec![]))];
