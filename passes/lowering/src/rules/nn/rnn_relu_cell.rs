//! `aten.rnn_relu_cell`: a one-step ONNX `RNN` with a `Relu` activation on `[B, In]` with state `[B, H]` (see
//! rnn_common.rs).

use crate::rules::rnn_common::{lower_cell, Kind};
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.rnn_relu_cell.default", |c| lower_cell(c, Kind::RnnRelu))
    .samples(&[
        "input: T[2,3]; hx: T[2,4]; w_ih: T[4,3]; w_hh: T[4,4]; b_ih: T[4]; b_hh: T[4]",
        "input: T[3,3]; hx: T[3,4]; w_ih: T[4,3]; w_hh: T[4,4]",
    ])
    .dtypes(&["f32"])];
