//! `aten.lstm_cell`: a one-step ONNX `LSTM` on `[B, In]` with states `(h, c)` of `[B, H]`, the weights
//! reordered from torch's (i, f, g, o) gates to ONNX's (i, o, f, c) (see rnn_common.rs).

use crate::rules::rnn_common::{lower_cell, Kind};
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.lstm_cell.default", |c| lower_cell(c, Kind::Lstm))
    .samples(&[
        "input: T[2,3]; hx: (T[2,4], T[2,4]); w_ih: T[16,3]; w_hh: T[16,4]; b_ih: T[16]; b_hh: T[16]",
        "input: T[3,3]; hx: (T[3,4], T[3,4]); w_ih: T[16,3]; w_hh: T[16,4]",
        "input: T[2,3]; hx: (T[2,4], T[2,4]); w_ih: T[16,3]; w_hh: T[16,4]; b_ih: T[16]",
    ])
    .dtypes(&["f32"])];
