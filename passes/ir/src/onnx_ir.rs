//! Conventions of the `onnx` dialect in MLIR (see docs/dialects.md).
//!
//! An ONNX node is one op named `onnx.<OpType>` for the default domain
//! (`ai.onnx`), or `onnx.<domain prefix>.<OpType>` for others (`onnx.ml.*`
//! = ai.onnx.ml, `onnx.preview.*`, `onnx.preview.training.*`,
//! `onnx.ms.*` = com.microsoft). Inputs are operands in schema order; a
//! missing optional input in the middle is a `none` value from `onnx.none`.
//! ONNX attributes are MLIR attributes of the same name (INT `i64`, FLOAT
//! `f32`, STRING string, INTS `array<i64>`, FLOATS `array<f32>`, STRINGS an
//! array of strings, TENSOR dense elements). The opset is the module
//! attribute `onnx.opset` (default [`DEFAULT_OPSET`]).

use melior::ir::{attribute::AttributeLike, operation::OperationLike, r#type::TypeLike, OperationRef, Type};
use mlir_sys as sys;

pub const DIALECT_PREFIX: &str = "onnx.";
/// `%n = "onnx.none"() : () -> none`: a missing optional input.
pub const NONE_OP: &str = "onnx.none";
/// `%w = "onnx.initializer"() {name = "fc.weight"}`: a weight whose bytes
/// stay in the archive named by the module's `aten.archive`; the writer
/// streams it into the model (or external data).
pub const INITIALIZER_OP: &str = "onnx.initializer";
/// `%t = "onnx.weight_transform"(%w) {kind = "transpose", perm = array<i64: 1, 0>}`:
/// an initializer computed from other initializers (or weight transforms)
/// while the writer streams it out, never materialized in the IR. Kinds
/// (operands; attributes), the result type being the transformed tensor's:
/// - `transpose` (x; `perm`), `reshape` (x), `cast` (x; element type from
///   the result type: only exact widenings and float-to-float casts),
/// - `concat` (x1, x2, ...; `axis`),
/// - `slice` (x; `axis`, `start`): elements `start .. start + n` of `axis`,
///   `n` being the result's size there (a strided view, no copy),
/// - `conv_bn_weight` (W, scale, var; `epsilon`): `W[m,...] * scale[m] / sqrt(var[m] + epsilon)`,
/// - `conv_bn_bias` (scale, B, mean, var[, b]; `epsilon`):
///   `(b[m] - mean[m]) * scale[m] / sqrt(var[m] + epsilon) + B[m]` (b = 0 when absent),
/// - `narrow` (x; `to`, the result's ONNX data type): an integer weight as a narrower integer type, every value
///   checked to fit by the writer (PT2E zero points, int64 in torch, int8
///   for ONNX's QDQ ops),
/// - `rtn_data`, `rtn_scales`, `rtn_zero_points` (w `[N, K]`; `layout` =
///   "matmulnbits" | "qdq", `bits`, `block_size`, `symmetric`): block-wise
///   round-to-nearest weight quantization, onnxruntime's quantizer's numbers
///   (src/export/rtn.rs; written by `onnx-quantize-weights`).
///
/// A source used only by weight transforms is not written (see
/// src/export/transform.rs and passes/optimizer/src/rules/weights.rs).
pub const WEIGHT_TRANSFORM_OP: &str = "onnx.weight_transform";
/// The kinds of [`WEIGHT_TRANSFORM_OP`].
pub const WEIGHT_TRANSFORM_KINDS: &[&str] = &[
    "transpose",
    "reshape",
    "cast",
    "concat",
    "slice",
    "conv_bn_weight",
    "conv_bn_bias",
    "rtn_data",
    "rtn_scales",
    "rtn_zero_points",
    "narrow",
];

/// True when `value` is the `onnx.none` placeholder of a missing optional input.
pub fn is_none_value(value: melior::ir::Value<'_, '_>) -> bool {
    crate::ir::defining_op(value).is_some_and(|op| crate::ir::op_name(op) == NONE_OP)
}

/// True for ops whose value is an initializer (read from the archive, or
/// computed from initializers by the writer).
pub fn is_weight_op(name: &str) -> bool {
    name == INITIALIZER_OP || name == WEIGHT_TRANSFORM_OP
}
/// True when `value` is the result of a weight op (an initializer or a
/// weight transform).
pub fn is_weight_value(value: melior::ir::Value<'_, '_>) -> bool {
    crate::ir::defining_op(value).is_some_and(|op| is_weight_op(&crate::ir::op_name(op)))
}
/// `"onnx.yield"(%a, %b) : (...) -> ()`: the terminator of a region of an
/// onnx op with subgraphs; its operands are the subgraph's outputs.
pub const YIELD_OP: &str = "onnx.yield";
/// Module attribute with the opset the module targets.
pub const OPSET_ATTR: &str = "onnx.opset";
pub const DEFAULT_OPSET: u32 = 23;

/// The graph attributes of an op with subgraphs, in region order: region `i`
/// of the op is the GraphProto attribute `names[i]` (see docs/dialects.md).
pub fn region_attributes(op_type: &str) -> Option<&'static [&'static str]> {
    Some(match op_type {
        "If" => &["then_branch", "else_branch"],
        "Loop" | "Scan" | "SequenceMap" => &["body"],
        _ => return None,
    })
}

/// (MLIR name prefix after `onnx.`, ONNX domain), longest prefix first.
const DOMAINS: &[(&str, &str)] = &[
    ("preview.training.", "ai.onnx.preview.training"),
    ("preview.", "ai.onnx.preview"),
    ("ml.", "ai.onnx.ml"),
    ("ms.", "com.microsoft"),
];

/// Splits `onnx.ml.TreeEnsemble` into (`ai.onnx.ml`, `TreeEnsemble`); the
/// default domain is returned as "".
pub fn split_name(name: &str) -> Option<(&'static str, &str)> {
    let rest = name.strip_prefix(DIALECT_PREFIX)?;
    for (prefix, domain) in DOMAINS {
        if let Some(op) = rest.strip_prefix(prefix) {
            return Some((domain, op));
        }
    }
    Some(("", rest))
}

/// The MLIR op name of an ONNX (domain, op type).
pub fn op_name(domain: &str, op_type: &str) -> String {
    let domain = if domain == "ai.onnx" { "" } else { domain };
    match DOMAINS.iter().find(|(_, d)| *d == domain) {
        Some((prefix, _)) => format!("{DIALECT_PREFIX}{prefix}{op_type}"),
        None => format!("{DIALECT_PREFIX}{op_type}"),
    }
}

/// The opset of the module enclosing `op` (or [`DEFAULT_OPSET`]).
pub fn opset_of(op: OperationRef<'_, '_>) -> u32 {
    let mut current = Some(op);
    while let Some(o) = current {
        if let Ok(attr) = o.attribute(OPSET_ATTR) {
            if unsafe { sys::mlirAttributeIsAInteger(attr.to_raw()) } {
                return unsafe { sys::mlirIntegerAttrGetValueInt(attr.to_raw()) } as u32;
            }
        }
        current = o.parent_operation();
    }
    DEFAULT_OPSET
}

/// The ONNX type string (`tensor(float)`) of an MLIR tensor type, if it has one.
pub fn onnx_type_string(ty: Type<'_>) -> Option<String> {
    onnx_tensor_element(ty).map(|name| format!("tensor({name})"))
}

/// The element type of an MLIR tensor type as ONNX names it (`float` of
/// `tensor(float)`), if it has one: [`onnx_type_string`] without the text.
pub fn onnx_tensor_element(ty: Type<'_>) -> Option<&'static str> {
    let raw = ty.to_raw();
    unsafe {
        if !sys::mlirTypeIsATensor(raw) {
            return None;
        }
        element_type_name(sys::mlirShapedTypeGetElementType(raw))
    }
}

/// ONNX's name of an MLIR element type (`f32` -> `float`).
fn element_type_name(elem: sys::MlirType) -> Option<&'static str> {
    unsafe {
        Some(if sys::mlirTypeIsAF32(elem) {
            "float"
        } else if sys::mlirTypeIsAF64(elem) {
            "double"
        } else if sys::mlirTypeIsAF16(elem) {
            "float16"
        } else if sys::mlirTypeIsABF16(elem) {
            "bfloat16"
        } else if sys::mlirTypeIsAInteger(elem) {
            let width = sys::mlirIntegerTypeGetWidth(elem);
            let unsigned = sys::mlirIntegerTypeIsUnsigned(elem);
            match (width, unsigned) {
                (1, _) => "bool",
                (8, false) => "int8",
                (8, true) => "uint8",
                (16, false) => "int16",
                (16, true) => "uint16",
                (32, false) => "int32",
                (32, true) => "uint32",
                (64, false) => "int64",
                (64, true) => "uint64",
                (4, false) => "int4",
                (4, true) => "uint4",
                _ => return None,
            }
        } else if sys::mlirTypeIsAComplex(elem) {
            let inner = sys::mlirComplexTypeGetElementType(elem);
            if sys::mlirTypeIsAF32(inner) {
                "complex64"
            } else if sys::mlirTypeIsAF64(inner) {
                "complex128"
            } else {
                return None;
            }
        } else if sys::mlirTypeIsAFloat8E4M3FN(elem) {
            "float8e4m3fn"
        } else if sys::mlirTypeIsAFloat8E5M2(elem) {
            "float8e5m2"
        } else if is_string_type(elem) {
            "string"
        } else {
            return None;
        })
    }
}

/// `!onnx.string`: the element type of ONNX string tensors (imported ONNX
/// models, docs/from-onnx.md).
pub const STRING_TYPE: &str = "!onnx.string";

fn is_string_type(elem: sys::MlirType) -> bool {
    let text = |s: sys::MlirStringRef| {
        if s.length == 0 || s.data.is_null() {
            return &[][..];
        }
        unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) }
    };
    unsafe {
        sys::mlirTypeIsAOpaque(elem)
            && text(sys::mlirOpaqueTypeGetDialectNamespace(elem)) == b"onnx"
            && text(sys::mlirOpaqueTypeGetData(elem)) == b"string"
    }
}

/// The ONNX `TensorProto.DataType` number of an MLIR element type.
pub fn data_type_code(elem: Type<'_>) -> Option<i64> {
    let name = element_type_name(elem.to_raw())?;
    Some(match name {
        "float" => 1,
        "uint8" => 2,
        "int8" => 3,
        "uint16" => 4,
        "int16" => 5,
        "int32" => 6,
        "int64" => 7,
        "string" => 8,
        "bool" => 9,
        "float16" => 10,
        "double" => 11,
        "uint32" => 12,
        "uint64" => 13,
        "complex64" => 14,
        "complex128" => 15,
        "bfloat16" => 16,
        "float8e4m3fn" => 17,
        "float8e5m2" => 19,
        "uint4" => 21,
        "int4" => 22,
        _ => return None,
    })
}
