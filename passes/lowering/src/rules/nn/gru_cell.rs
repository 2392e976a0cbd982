//! `aten.gru_cell`: a one-step ONNX `GRU` (`linear_before_reset = 1`) on `[B, In]` with state `[B, H]`, the
//! weights reordered from torch's (r, z, n) gates to ONNX's (z, r, h) (see rnn_common.rs).

use crate::rules::rnn_common::{lower_cell, Kind};
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.gru_cell.default", |c| lower_cell(c, Kind::Gru))
    .samples(&[
        "input: T[2,3]; hx: T[2,4]; w_ih: T[12,3]; w_hh: T[12,4]; b_ih: T[12]; b_hh: T[12]",
        "input: T[3,3]; hx: T[3,4]; w_ih: T[12,3]; w_hh: T[12,4]",
    ])
    .dtypes(&["f32"])];
