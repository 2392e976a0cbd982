use super::window_common::{lower, Window};
use crate::Rule;

/// `torch.hamming_window` (alpha 0.54, beta 0.46 unless given): a constant
/// (window_common.rs).
pub const RULES: &[Rule] = &[
    Rule::custom("aten.hamming_window.default", |c| lower(c, Window::Hamming { alpha: 0.54, beta: 0.46 }))
        .samples(&["window_length: 8", "window_length: 1", "window_length: 0", "window_length: 7; dtype: dtype(f64)", "window_length: 5; dtype: dtype(f16)"]),
    Rule::custom("aten.hamming_window.periodic", |c| lower(c, Window::Hamming { alpha: 0.54, beta: 0.46 }))
        .samples(&["window_length: 8; periodic: false", "window_length: 8; periodic: true", "window_length: 1; periodic: false", "window_length: 2; periodic: false", "window_length: 0; periodic: true", "window_length: 6; periodic: false; dtype: dtype(f64)"]),
    Rule::custom("aten.hamming_window.periodic_alpha", |c| {
        lower(c, Window::Hamming { alpha: c.args.float("alpha")?, beta: 0.46 })
    })
    .samples(&["window_length: 8; periodic: true; alpha: 0.6", "window_length: 5; periodic: false; alpha: 0.5", "window_length: 1; periodic: false; alpha: 0.3"]),
    Rule::custom("aten.hamming_window.periodic_alpha_beta", |c| {
        lower(c, Window::Hamming { alpha: c.args.float("alpha")?, beta: c.args.float("beta")? })
    })
    .samples(&["window_length: 8; periodic: true; alpha: 0.6; beta: 0.3", "window_length: 6; periodic: false; alpha: 0.5; beta: 0.5; dtype: dtype(f64)"]),
];
