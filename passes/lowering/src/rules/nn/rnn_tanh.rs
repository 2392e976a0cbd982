//! `aten.rnn_tanh.input`: one ONNX `RNN` per layer with `Tanh` activations; stacked layers are chained and a
//! bidirectional layer's output `[S, 2, B, H]` becomes `[S, B, 2H]` for the next (see rnn_common.rs). Dropout
//! between layers in training mode is refused.

use crate::rules::rnn_common::{lower_sequence, Kind};
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.rnn_tanh.input", |c| lower_sequence(c, Kind::RnnTanh))
    .samples(&[
        "input: T[5,2,3]; hx: T[1,2,4]; params: (T[4,3], T[4,4], T[4], T[4]); has_biases: true; \
         num_layers: 1; dropout: 0.0; train: false; bidirectional: false; batch_first: false",
        "input: T[2,5,3]; hx: T[4,2,4]; params: (T[4,3], T[4,4], T[4], T[4], T[4,3], T[4,4], T[4], T[4], \
         T[4,8], T[4,4], T[4], T[4], T[4,8], T[4,4], T[4], T[4]); has_biases: true; num_layers: 2; \
         dropout: 0.0; train: false; bidirectional: true; batch_first: true",
    ])
    .dtypes(&["f32"])];
