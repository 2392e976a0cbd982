use super::window_common::{lower, Window};
use crate::Rule;

/// `torch.blackman_window`: a constant (window_common.rs).
pub const RULES: &[Rule] = &[
    Rule::custom("aten.blackman_window.default", |c| lower(c, Window::Blackman)).samples(&["window_length: 8", "window_length: 1", "window_length: 0", "window_length: 7; dtype: dtype(f64)", "window_length: 5; dtype: dtype(f16)"]),
    Rule::custom("aten.blackman_window.periodic", |c| lower(c, Window::Blackman)).samples(&["window_length: 8; periodic: false", "window_length: 8; periodic: true", "window_length: 1; periodic: false", "window_length: 2; periodic: false", "window_length: 0; periodic: true", "window_length: 6; periodic: false; dtype: dtype(f64)"]),
];
