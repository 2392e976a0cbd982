//! `aten._int_mm`: the int8 x int8 -> int32 matrix product of torchao's
//! dynamic int8 quantization (`Int8DynamicActivationInt8WeightConfig`, after
//! `unwrap_tensor_subclass`) is ONNX `MatMulInteger`: exact, int32
//! accumulation as torch's (which wraps around on overflow only past
//! 2^31 / 128^2 = 131072 terms).
//!
//! The left operand goes in as uint8 `a + 128` with zero point 128 (the same
//! differences `a`): onnxruntime's int8 x int8 kernel is the slow one
//! (21.3 ms against 0.48 ms for 128x768 by 768x3072, 1 thread,
//! onnxruntime 1.32), and the int32 sums are the same modulo 2^32.

use super::integer_matmul_common::int8_as_uint8;
use crate::Rule;
use melior::ir::{r#type::IntegerType, Type};

pub const RULES: &[Rule] = &[Rule::custom("aten._int_mm.default", |c| {
    let (a, b) = (c.args.tensor("self")?, c.args.tensor("mat2")?);
    let u8_type: Type = IntegerType::unsigned(c.b.context, 8).into();
    let a_u8 = int8_as_uint8(c, a)?;
    let zero_point = c.b.const_scalar(u8_type, 128.0)?;
    Ok(vec![c.b.onnx().mat_mul_integer(a_u8, b, Some(zero_point), None).typed(c.result_type(0)?)?])
})
.samples(&["self: T[4,8]; mat2: T[8,3]", "self: T[0,8]; mat2: T[8,3]", "self: T[17,32]; mat2: T[32,9]"])
.dtypes(&["i8"])];
