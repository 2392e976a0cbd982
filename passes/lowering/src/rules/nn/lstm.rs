use crate::rules::rnn_common::{lower_sequence, Kind};
use crate::Rule;

/// Layer 0 of a 4-unit LSTM over 3 features: (w_ih, w_hh, b_ih, b_hh).
pub const RULES: &[Rule] = &[Rule::custom("aten.lstm.input", |c| lower_sequence(c, Kind::Lstm))
    .samples(&[
        "input: T[5,2,3]; hx: (T[1,2,4], T[1,2,4]); params: (T[16,3], T[16,4], T[16], T[16]); has_biases: true; \
         num_layers: 1; dropout: 0.0; train: false; bidirectional: false; batch_first: false",
        "input: T[2,5,3]; hx: (T[4,2,4], T[4,2,4]); params: (T[16,3], T[16,4], T[16], T[16], T[16,3], T[16,4], \
         T[16], T[16], T[16,8], T[16,4], T[16], T[16], T[16,8], T[16,4], T[16], T[16]); has_biases: true; \
         num_layers: 2; dropout: 0.0; train: false; bidirectional: true; batch_first: true",
        "input: T[4,1,3]; hx: (T[2,1,4], T[2,1,4]); params: (T[16,3], T[16,4], T[16,4], T[16,4]); \
         has_biases: false; num_layers: 2; dropout: 0.5; train: false; bidirectional: false; batch_first: false",
    ])
    .dtypes(&["f32"])
    .refuses(&[(
        "input: T[5,2,3]; hx: (T[2,2,4], T[2,2,4]); params: (T[16,3], T[16,4], T[16,4], T[16,4]); has_biases: false; \
         num_layers: 2; dropout: 0.5; train: true; bidirectional: false; batch_first: false",
        "dropout between layers in training mode",
    )])];
