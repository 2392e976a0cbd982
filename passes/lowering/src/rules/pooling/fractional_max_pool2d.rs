use super::pooling_common::fractional_max_pool;
use crate::Rule;

/// `fractional_max_pool2d(self, kernel_size, output_size, random_samples)`:
/// deterministic given `random_samples` (`[N, C, 2]`, drawn by
/// `F.fractional_max_pool2d` with `torch.rand` before the op, so the
/// randomness is in the graph as `rand`). Window starts follow torch's
/// `generate_intervals` in the input's dtype: `alpha = (in - pool) / (out - 1)`,
/// `start[i] = int((i + u) * alpha) - int(u * alpha)`, the last start `in - pool`;
/// the sample of W is `u[..., 0]`, of H `u[..., 1]`. Each window's value and
/// flat `h * W + w` index are torch's: the first maximum in row-major window
/// order, or the last NaN when the window has one.
pub const RULES: &[Rule] = &[Rule::custom("aten.fractional_max_pool2d.default", |c| fractional_max_pool(c, 2))
    .samples(&[
        "self: T[1,2,7,7]; kernel_size: [2,2]; output_size: [3,3]; random_samples: T[1,2,2]{unit}",
        "self: T[2,3,9,8]; kernel_size: [3,2]; output_size: [4,5]; random_samples: T[3,3,2]{unit}",
        "self: T[3,6,5]; kernel_size: [2,3]; output_size: [1,3]; random_samples: T[1,3,2]{unit}",
        "self: T[1,1,5,5]; kernel_size: [1,1]; output_size: [5,5]; random_samples: T[1,1,2]{unit}",
        "self: T[0,2,6,6]; kernel_size: [2,2]; output_size: [3,3]; random_samples: T[0,2,2]{unit}",
    ])
    .dtypes(&["f32", "f64"])
    .refuses(&[(
        "self: T[1,2,5,5]; kernel_size: [2,2]; output_size: [5,5]; random_samples: T[1,2,2]{unit}",
        "too large",
    )])];
