//! Pieces shared by the matrix-product rules (dot, mv, addmv, addr,
//! baddbmm, addbmm, ...). Not a rule file.

use super::math_common::bool_type;
use crate::{builder, Ctx};
use melior::ir::{r#type::TypeLike, Value, ValueLike};

/// `v * factor` (no op when the factor is 1), `factor` in `v`'s element type.
pub fn scaled<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>, factor: f64) -> Result<Value<'c, 'a>, String> {
    if factor == 1.0 {
        return Ok(v);
    }
    let k = ctx.b.const_like(v, factor)?;
    ctx.b.onnx().mul(v, k).like(v)
}

/// `beta * self + alpha * product` of the `add*` ops (addmv, addr, baddbmm,
/// addbmm), torch's way: with `beta == 0` `self` is ignored (even NaN or
/// inf entries), and bool tensors are `(beta and self) or (alpha and product)`.
pub fn beta_alpha<'c, 'a>(ctx: &Ctx<'c, 'a>, product: Value<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = compute_type(ctx, ctx.result_element(0)?);
    let product = ctx.b.cast_like_type(product, element)?;
    if ctx.args.is_dynamic("alpha")? || ctx.args.is_dynamic("beta")? {
        // Factors that arrive as tensors (`t.item()`): `alpha * product +
        // (beta == 0 ? 0 : beta * self)`, torch's rule for a zero beta
        // decided at run time.
        if builder::is_bool(element) {
            return Err("bool tensors with an alpha or beta computed in the graph are not supported".into());
        }
        let p = super::common::scaled_by_argument(ctx, product, "alpha", element)?;
        let s = ctx.tensor_as("self", element)?;
        let scaled = super::common::scaled_by_argument(ctx, s, "beta", element)?;
        let kept = if ctx.args.is_dynamic("beta")? {
            let beta = ctx.tensor_as("beta", element)?;
            let zero = ctx.b.const_like(beta, 0.0)?;
            let bool_t = ctx.b.unranked(bool_type(ctx));
            let is_zero = ctx.b.onnx().equal(beta, zero).typed(bool_t)?;
            ctx.b.onnx().where_(is_zero, zero, scaled).like(scaled)?
        } else if ctx.args.number("beta")?.as_f64() == 0.0 {
            return Ok(vec![finish(ctx, p)?]);
        } else {
            scaled
        };
        return Ok(vec![finish(ctx, ctx.b.onnx().add(kept, p).like(p)?)?]);
    }
    let alpha = ctx.args.number("alpha")?.as_f64();
    let beta = ctx.args.number("beta")?.as_f64();
    if builder::is_bool(element) {
        let falses = ctx.b.const_scalar(element, 0.0)?;
        let p = if alpha != 0.0 { product } else { ctx.b.onnx().and(product, falses).like(product)? };
        if beta == 0.0 {
            return Ok(vec![finish(ctx, p)?]);
        }
        let s = ctx.tensor_as("self", element)?;
        return Ok(vec![finish(ctx, ctx.b.onnx().or(s, p).like(p)?)?]);
    }
    let p = scaled(ctx, product, alpha)?;
    if beta == 0.0 {
        // self only broadcasts to the product's shape: the result is the product.
        return Ok(vec![finish(ctx, p)?]);
    }
    let s = scaled(ctx, ctx.tensor_as("self", element)?, beta)?;
    Ok(vec![finish(ctx, ctx.b.onnx().add(s, p).like(p)?)?])
}

/// `Shape(x)[from..to]` (1-D int64).
pub use super::common::shape_slice as shape_part;

/// The product of `Shape(x)[from..to]` as a 1-element int64 vector (1 for an
/// empty range).
pub fn shape_prod<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, '_>, from: i64, to: Option<i64>) -> Result<Value<'c, 'a>, String> {
    if to == Some(from) {
        return ctx.b.const_i64s(&[1]);
    }
    let s = shape_part(ctx, x, from, to)?;
    ctx.reduce(crate::Reduction::Prod, s, Some(&[0]), true, ctx.b.unranked(ctx.b.i64_type()))
}

/// `Concat` of 1-D int64 vectors.
pub use super::tensor_common::concat as concat_i64;

/// `Reshape(x, shape)` typed like `x` (unknown shape). `allowzero`: the
/// shapes here are computed sizes, a 0 is an empty dim, not "copy the input's".
pub fn reshape<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, shape: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    ctx.b.onnx().reshape(x, shape, Some(1)).like(x)
}

/// `Transpose(x, perm)`.
pub fn transpose<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, perm: &[i64]) -> Result<Value<'c, 'a>, String> {
    ctx.b.onnx().transpose(x, Some(&perm.to_vec())).like(x)
}

/// The `n x n` identity (`n` = the last dim of `x`) broadcast to `x`'s shape,
/// in `x`'s element type.
pub fn eye_like_batch<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let i64_t = b.unranked(b.i64_type());
    let n = shape_part(ctx, x, -1, None)?;
    let n = ctx.squeeze(n, &[0])?;
    let zero = b.const_i64_scalar(0)?;
    let one = b.const_i64_scalar(1)?;
    let r = b.onnx().range(zero, n, one, None).typed(i64_t)?;
    let rows = ctx.unsqueeze(r, &[1])?;
    let eq = b.onnx().equal(rows, r).typed(b.unranked(bool_type(ctx)))?;
    let eye = b.cast_like(eq, x)?;
    let shape = b.onnx().shape(x, None, None).typed(i64_t)?;
    b.onnx().expand(eye, shape).like(x)
}

/// The element type of a value, as an error-checked call.
pub fn element<'c>(v: Value<'c, '_>) -> Result<melior::ir::Type<'c>, String> {
    builder::element_type(v.r#type()).ok_or_else(|| "operand is not a tensor".to_string())
}

/// torch's vector `p`-norm of float `d` over `axes` (`None`: all), NaN-aware
/// (onnxruntime's ReduceMax / ReduceMin skip NaN, torch propagates it):
/// p = 0 counts non-zeros, +-inf is the max / min |d|, 1 sums |d|, 2 is
/// `sqrt(sum(d*d))`, others `sum(|d|^p)^(1/p)`.
pub fn vector_norm<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    d: Value<'c, 'a>,
    axes: Option<&[i64]>,
    keepdim: bool,
    p: f64,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let ty = b.unranked(element(d)?);
    let abs = b.onnx().abs(d).like(d)?;
    if p.is_infinite() {
        let op = if p > 0.0 { crate::Reduction::Max } else { crate::Reduction::Min };
        let m = ctx.reduce(op, abs, axes, keepdim, ty)?;
        let nan = b.onnx().is_na_n(d).typed(b.unranked(bool_type(ctx)))?;
        let f32_t = b.f32_type();
        let any = ctx.reduce(crate::Reduction::Max, b.cast(nan, f32_t)?, axes, keepdim, b.unranked(f32_t))?;
        let any = b.cast(any, bool_type(ctx))?;
        return b.onnx().where_(any, b.const_like(d, f64::NAN)?, m).typed(ty);
    }
    if p == 0.0 {
        let zero = b.onnx().equal(d, b.const_like(d, 0.0)?).typed(b.unranked(bool_type(ctx)))?;
        let nz = b.onnx().not(zero).typed(b.unranked(bool_type(ctx)))?;
        return ctx.reduce(crate::Reduction::Sum, b.cast_like(nz, d)?, axes, keepdim, ty);
    }
    if p == 1.0 {
        return ctx.reduce(crate::Reduction::Sum, abs, axes, keepdim, ty);
    }
    if p == 2.0 {
        let sq = b.onnx().mul(d, d).like(d)?;
        let s = ctx.reduce(crate::Reduction::Sum, sq, axes, keepdim, ty)?;
        return b.onnx().sqrt(s).like(d);
    }
    let pw = b.onnx().pow(abs, b.const_like(d, p)?).like(d)?;
    let s = ctx.reduce(crate::Reduction::Sum, pw, axes, keepdim, ty)?;
    b.onnx().pow(s, b.const_like(d, 1.0 / p)?).like(d)
}

/// Reshapes per-sample loss values to the op's result shape when the loss is
/// not reduced and that shape is static, else to `fallback`.
pub fn per_sample_shape<'c, 'a>(ctx: &Ctx<'c, 'a>, s: Value<'c, 'a>, fallback: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let dims = if ctx.args.int("reduction")? == 0 { builder::dims(ctx.result_type(0)?) } else { None };
    let shape = match dims.and_then(|d| d.into_iter().collect::<Option<Vec<i64>>>()) {
        Some(d) => ctx.b.const_i64s(&d)?,
        None => fallback,
    };
    ctx.b.onnx().reshape(s, shape, None).like(s)
}

/// The element type products are computed in for result element `el`:
/// float32 for half types (onnxruntime's half MatMul / ReduceSum round each
/// step; torch accumulates in float), int64 for integers narrower than 32
/// bits (ONNX MatMul has no int8 / int16 / uint8; modular arithmetic makes
/// the final narrowing cast wrap exactly like torch's integer overflow).
pub fn compute_type<'c>(ctx: &Ctx<'c, '_>, el: melior::ir::Type<'c>) -> melior::ir::Type<'c> {
    let f32_t = ctx.b.f32_type();
    let f64_t = melior::ir::Type::float64(ctx.b.context);
    if builder::is_float(el) {
        return if el == f32_t || el == f64_t { el } else { f32_t };
    }
    if builder::is_bool(el) {
        return el;
    }
    let wide = unsafe {
        mlir_sys::mlirTypeIsAInteger(el.to_raw()) && mlir_sys::mlirIntegerTypeGetWidth(el.to_raw()) >= 32
            && !mlir_sys::mlirIntegerTypeIsUnsigned(el.to_raw())
    };
    if wide {
        el
    } else {
        ctx.b.i64_type()
    }
}

/// The op's result from a value computed in another element type (a cast
/// back to the result's type) or in the result's type (an Identity).
pub fn finish<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let el = ctx.result_element(0)?;
    if element(v)? == el {
        return ctx.b.onnx().identity(v).typed(ctx.result_type(0)?);
    }
    let code = crate::onnx_ir::data_type_code(el).ok_or_else(|| format!("no ONNX data type for {el}"))?;
    ctx.b.onnx().cast(v, None, None, code).typed(ctx.result_type(0)?)
}

/// Half-precision results of ops whose torch CPU kernel rounds intermediate
/// sums to half (addbmm, addr, bilinear): not reproduced, refused rather
/// than off by several half ulps.
pub fn refuse_half(ctx: &Ctx<'_, '_>, op: &str) -> Result<(), String> {
    let el = ctx.result_element(0)?;
    if builder::is_float(el) && el != ctx.b.f32_type() && el != melior::ir::Type::float64(ctx.b.context) {
        return Err(format!("{op} in half precision: torch rounds its intermediate results to half, which is not reproduced"));
    }
    Ok(())
}
