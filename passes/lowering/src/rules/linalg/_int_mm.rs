//! `aten._int_mm`: the int8 x int8 -> int32 matrix product of torchao's
//! dynamic int8 quantization (`Int8DynamicActivationInt8WeightConfig`, after
//! `unwrap_tensor_subclass`) is ONNX `MatMulInteger`: exact, int32
//! accumulation as torch's (which wraps around on overflow only past
//! 2^31 / 128^2 = 131072 terms).

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten._int_mm.default", |c| {
    let (a, b) = (c.args.tensor("self")?, c.args.tensor("mat2")?);
    Ok(vec![c.b.onnx().mat_mul_integer(a, b, None, None).typed(c.result_type(0)?)?])
})
.samples(&["self: T[4,8]; mat2: T[8,3]", "self: T[0,8]; mat2: T[8,3]", "self: T[17,32]; mat2: T[32,9]"])
.dtypes(&["i8"])];
