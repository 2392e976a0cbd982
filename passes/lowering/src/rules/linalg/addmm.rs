use crate::Rule;

/// `beta * self + alpha * (mat1 @ mat2)` is `Gemm`.
pub const RULES: &[Rule] = &[Rule::custom("aten.addmm.default", |c| {
    let (a, b, bias) = (c.args.tensor("mat1")?, c.args.tensor("mat2")?, c.args.tensor("self")?);
    let element = c.result_element(0)?;
    if c.args.is_dynamic("alpha")? || c.args.is_dynamic("beta")? {
        // Factors computed in the graph (`t.item()`): no Gemm attribute.
        let prod = c.b.onnx().mat_mul(a, b).like(a)?;
        return super::prod_common::beta_alpha(c, prod);
    }
    if !crate::builder::is_float(element) {
        // onnxruntime has no integer Gemm: MatMul, then the integer scalings.
        let (alpha, beta) = (c.args.number("alpha")?.as_f64(), c.args.number("beta")?.as_f64());
        let mut prod = c.b.onnx().mat_mul(a, b).like(a)?;
        if alpha != 1.0 {
            let k = c.b.const_scalar(element, alpha)?;
            prod = c.b.onnx().mul(prod, k).like(a)?;
        }
        if beta == 0.0 {
            // torch ignores `self` when beta is 0 (only its shape broadcasts).
            let zero = c.b.const_scalar(element, 0.0)?;
            let shaped = c.b.onnx().mul(bias, zero).like(a)?;
            return Ok(vec![c.b.onnx().add(prod, shaped).typed(c.result_type(0)?)?]);
        }
        let mut bias = bias;
        if beta != 1.0 {
            let k = c.b.const_scalar(element, beta)?;
            bias = c.b.onnx().mul(bias, k).like(a)?;
        }
        return Ok(vec![c.b.onnx().add(prod, bias).typed(c.result_type(0)?)?]);
    }
    let alpha = c.args.number("alpha")?.as_f64() as f32;
    let beta = c.args.number("beta")?.as_f64() as f32;
    // Dynamically quantized (PT2E, a Linear in core ATen): the product on the integers.
    if (alpha, beta) == (1.0, 1.0) {
        if let Some(y) = super::integer_matmul_common::dynamic_integer_matmul(c, a, b, c.result_type(0)?)? {
            return Ok(vec![c.b.onnx().add(y, bias).typed(c.result_type(0)?)?]);
        }
    }
    Ok(vec![c.b.onnx().gemm(a, b, Some(bias), Some(alpha), Some(beta), None, None).typed(c.result_type(0)?)?])
})
.samples(&["self: T[4]; mat1: T[3,2]; mat2: T[2,4]", "self: T[3,4]; mat1: T[3,2]; mat2: T[2,4]; beta: 0.5; alpha: 2"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32"])];
