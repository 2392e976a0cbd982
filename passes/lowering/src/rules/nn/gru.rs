//! `aten.gru.input`: one ONNX `GRU` per layer with `linear_before_reset = 1` (torch applies the reset gate after
//! the recurrent matmul and its bias), the weights reordered from torch's (r, z, n) gates to ONNX's (z, r, h).
//! Stacked layers are chained (see rnn_common.rs); dropout between layers in training mode is refused.

use crate::rules::rnn_common::{lower_sequence, Kind};
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.gru.input", |c| lower_sequence(c, Kind::Gru))
    .samples(&[
        "input: T[5,2,3]; hx: T[1,2,4]; params: (T[12,3], T[12,4], T[12], T[12]); has_biases: true; \
         num_layers: 1; dropout: 0.0; train: false; bidirectional: false; batch_first: false",
        "input: T[2,5,3]; hx: T[4,2,4]; params: (T[12,3], T[12,4], T[12], T[12], T[12,3], T[12,4], \
         T[12], T[12], T[12,8], T[12,4], T[12], T[12], T[12,8], T[12,4], T[12], T[12]); has_biases: true; \
         num_layers: 2; dropout: 0.0; train: false; bidirectional: true; batch_first: true",
        "input: T[4,1,3]; hx: T[1,1,4]; params: (T[12,3], T[12,4]); has_biases: false; num_layers: 1; \
         dropout: 0.0; train: false; bidirectional: false; batch_first: false",
    ])
    .dtypes(&["f32"])];
