//! Random ops on ONNX `RandomUniformLike` / `RandomNormalLike` /
//! `Bernoulli`: no seed attribute, so every run draws new values (torch's
//! generator state cannot be reproduced). Tested on shape, dtype, range and
//! moments (tests/integration/random.rs), not differentially.

use crate::lowering::{builder, Attr, Ctx};
use melior::ir::{Type, Value, ValueLike};

/// ONNX dtype code of a float element type (the random ops make floats only).
fn float_code(element: Type<'_>) -> Result<i64, String> {
    if !builder::is_float(element) {
        return Err(format!("random values of element type {element} are not supported (floating types only)"));
    }
    crate::onnx_ir::data_type_code(element).ok_or_else(|| format!("no ONNX type for {element}"))
}

/// Zeros of element `element` and shape `shape` (a 1-D int64 value), the
/// template of a `*Like` random op.
pub fn template<'c, 'a>(ctx: &Ctx<'c, 'a>, shape: Value<'c, 'a>, element: Type<'c>) -> Result<Value<'c, 'a>, String> {
    super::tensor_common::full(ctx, shape, element, 0.0)
}

/// Uniform values in `[low, high)` shaped like `like`, of float type `element`.
pub fn uniform_like<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    like: Value<'c, 'a>,
    element: Type<'c>,
    low: f64,
    high: f64,
) -> Result<Value<'c, 'a>, String> {
    let attrs = [
        ("dtype", Attr::Int(float_code(element)?)),
        ("low", Attr::Float(low as f32)),
        ("high", Attr::Float(high as f32)),
    ];
    ctx.b.op("RandomUniformLike", &[like], &attrs, ctx.b.unranked(element))
}

/// Normal values `N(mean, std^2)` shaped like `like`, of float type `element`.
pub fn normal_like<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    like: Value<'c, 'a>,
    element: Type<'c>,
    mean: f64,
    std: f64,
) -> Result<Value<'c, 'a>, String> {
    let attrs = [
        ("dtype", Attr::Int(float_code(element)?)),
        ("mean", Attr::Float(mean as f32)),
        ("scale", Attr::Float(std as f32)),
    ];
    ctx.b.op("RandomNormalLike", &[like], &attrs, ctx.b.unranked(element))
}

/// The element type of a value.
pub fn element_of<'c>(v: Value<'c, '_>) -> Result<Type<'c>, String> {
    builder::element_type(v.r#type()).ok_or_else(|| "not a tensor".to_string())
}
