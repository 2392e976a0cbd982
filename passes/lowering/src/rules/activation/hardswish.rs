//! `aten.hardswish`: ONNX `HardSwish`, `x * max(0, min(1, x / 6 + 0.5))`, which is torch's `x * relu6(x + 3) / 6`.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.hardswish.default", "HardSwish").dtypes(&["f32", "f16", "bf16", "f64"])];
