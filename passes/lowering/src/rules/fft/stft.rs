use super::fft_complex_common::stft;
use crate::Rule;

/// `stft` (the input already padded: `torch.stft(center=True)` pads it in
/// Python first): frames gathered by a constant index matrix, windowed, ONNX
/// DFT in float64; see fft_complex_common.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten.stft.default", stft)
    .complex(stft)
    .opsets(20, 28)
    .samples(&[
        "self: T[100]; n_fft: 10; return_complex: true",
        "self: T[2,64]; n_fft: 16; hop_length: 5; window: T[16]; return_complex: true",
        "self: T[2,64]; n_fft: 16; hop_length: 3; win_length: 9; window: T[9]; normalized: true; onesided: false; \
         return_complex: true",
        "self: T[40]; n_fft: 8; win_length: 6; return_complex: false",
    ])
    .dtypes(&["f32", "f64"])
    .complex_samples(&["self: C[2,50]; n_fft: 8; hop_length: 4; window: T[8]; return_complex: true"])];
