//! `aten.to` (`.dtype`, `.dtype_layout`, `.device`) and `aten.type_as`: a `Cast` to the result's element type,
//! or nothing when `self` already has it; device and layout do not exist in ONNX. Complex conversions as in
//! `_to_copy` (`complex_common::to_copy`).

use super::conversion_common::convert;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.to.dtype", convert)
        .complex(super::complex_common::to_copy)
        .complex_samples(&[
            "self: C[2,3]; dtype: dtype(f32)",
            "self: T[2,3]; dtype: dtype(c64)",
            "self: C[2,3]; dtype: dtype(c128)",
        ])
        .samples(&[
            "self: T[2,3]; dtype: dtype(i64)",
            "self: i64[2,3]; dtype: dtype(f32)",
            "self: T[2,3]; dtype: dtype(bool)",
        ]),
    Rule::custom("aten.to.dtype_layout", convert)
        .complex(super::complex_common::to_copy)
        .samples(&["self: T[2,3]; dtype: dtype(f64)"]),
    Rule::custom("aten.to.device", convert)
        .complex(super::complex_common::to_copy)
        .samples(&["self: T[2,3]; device: \"cpu\"; dtype: dtype(i64)"]),
    Rule::custom("aten.type_as.default", convert)
        .complex(super::complex_common::to_copy)
        .samples(&["self: T[2,3]; other: i64[1]", "self: i64[2]; other: T[1]"]),
];
