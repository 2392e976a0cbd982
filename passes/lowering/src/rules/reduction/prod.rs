use super::math_common::{elem, lift0};
use super::scan_common::inclusive_scan;
use crate::{builder, Ctx, Rule};
use melior::ir::{
    r#type::{IntegerType, RankedTensorType},
    Type, Value, ValueLike,
};

/// `ReduceProd` in the result dtype (bool and integer inputs give int64,
/// like torch); a 0-d input is the product of one element; an empty
/// reduction gives 1. Integer results are products by multiplication
/// ([`wrapping_prod`]): torch's integer products wrap around (modulo 2^n,
/// also with a narrow `dtype=`, which ONNX ReduceProd does not take) where
/// onnxruntime's ReduceProd saturates.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.prod.dim_int", |c| {
        let result = c.result_element(0)?;
        let x = c.tensor_as("self", compute_element(c, result))?;
        let rank = c.rank(x)?;
        let dim = c.dim(c.args.int("dim")?, rank)? as i64;
        if is_integer(result) {
            // A 0-d tensor is the product of its one element.
            let y = if rank == 0 { x } else { wrapping_prod(c, x, dim, c.args.bool("keepdim")?)? };
            return Ok(vec![c.b.cast_like_type(y, result)?]);
        }
        let (x, lifted) = lift0(c, x)?;
        let keepdim = c.args.bool("keepdim")? && !lifted;
        Ok(vec![c.reduce(crate::Reduction::Prod, x, Some(&[dim]), keepdim, c.result_type(0)?)?])
    })
    .samples(&[
        "self: T[3,4]; dim: 1",
        "self: T[3,4]; dim: 0; keepdim: true",
        "self: T[]; dim: 0",
        "self: T[0,3]; dim: 0",
        "self: bool[3,4]; dim: 1",
        "self: T[3,40]{-100..100}; dim: 1; dtype: dtype(i8)",
        "self: T[3,40]{0..200}; dim: 1; keepdim: true; dtype: dtype(u8)",
        "self: T[3,40]{-100..100}; dim: 1; dtype: dtype(i16)",
        "self: T[3,40]{-100..100}; dim: 1; dtype: dtype(i32)",
        "self: T[3,40]{-100..100}; dim: 1; dtype: dtype(i64)",
        "self: T[3,4]; dim: 1; dtype: dtype(bool)",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.prod.default", |c| {
        let result = c.result_element(0)?;
        let x = c.tensor_as("self", compute_element(c, result))?;
        if is_integer(result) {
            // All of it as one vector.
            let n = builder::dims(x.r#type())
                .ok_or("a product of a tensor of unknown rank")?
                .into_iter()
                .try_fold(1i64, |n, d| d.map(|d| n * d));
            let flat = c.b.onnx().reshape(x, c.b.const_i64s(&[-1])?, None).typed(ranked(&[n], elem(x)?))?;
            let y = wrapping_prod(c, flat, 0, false)?;
            return Ok(vec![c.b.cast_like_type(y, result)?]);
        }
        let (x, _) = lift0(c, x)?;
        Ok(vec![c.reduce(crate::Reduction::Prod, x, None, false, c.result_type(0)?)?])
    })
    .samples(&[
        "self: T[3,4]",
        "self: T[]",
        "self: T[0]",
        "self: bool[2,3]",
        "self: T[2,3]; dtype: dtype(f32)",
        "self: T[3,40]{-100..100}; dtype: dtype(i8)",
        "self: T[3,40]{0..200}; dtype: dtype(u8)",
        "self: T[3,40]{-100..100}; dtype: dtype(i16)",
        "self: T[3,40]{-100..100}; dtype: dtype(i32)",
        "self: T[3,40]{-100..100}; dtype: dtype(i64)",
        "self: T[3,4]; dtype: dtype(bool)",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];

/// An integer element type (not bool).
fn is_integer(element: Type<'_>) -> bool {
    IntegerType::try_from(element).is_ok_and(|t| t.width() > 1)
}

/// The type a product is computed in: int32 for an 8- or 16-bit integer
/// result (products modulo 2^8 or 2^16 are the same in int32, which every
/// onnxruntime op here has), the result's own type otherwise.
fn compute_element<'c>(c: &Ctx<'c, '_>, result: Type<'c>) -> Type<'c> {
    match IntegerType::try_from(result) {
        Ok(t) if t.width() == 8 || t.width() == 16 => IntegerType::new(c.b.context, 32).into(),
        _ => result,
    }
}

/// A ranked tensor type (`None`: a dynamic dim).
fn ranked<'c>(dims: &[Option<i64>], element: Type<'c>) -> Type<'c> {
    let dims: Vec<u64> = dims.iter().map(|d| d.unwrap_or(i64::MIN) as u64).collect();
    RankedTensorType::new(&dims, element, None).into()
}

/// The product along `axis` of an integer tensor `x` (rank >= 1) by `Mul`s,
/// which wrap around modulo 2^n like torch's integer products (onnxruntime
/// 1.32's integer ReduceProd saturates on overflow): a 1 is put in front of
/// the axis (the product of nothing is 1), the inclusive product scan
/// (scan_common, also along a dynamic dim) is taken, and its last element
/// kept.
pub(super) fn wrapping_prod<'c, 'a>(
    c: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    axis: i64,
    keepdim: bool,
) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    let element = elem(x)?;
    let mut dims = builder::dims(x.r#type()).ok_or("a product of a tensor of unknown rank")?;
    let rank = dims.len();
    let n = dims[axis as usize].map(|n| n + 1);
    dims[axis as usize] = n;
    let mut pads = vec![0i64; 2 * rank];
    pads[axis as usize] = 1;
    let one = b.const_scalar(element, 1.0)?;
    let padded = b.onnx().pad(x, b.const_i64s(&pads)?, Some(one), None, Some("constant")).typed(ranked(&dims, element))?;
    let scanned = inclusive_scan(c, &[(padded, one)], axis, n, |b, earlier, later| {
        Ok(vec![b.onnx().mul(later[0], earlier[0]).like(later[0])?])
    })?;
    let last = b.onnx().slice(scanned[0], b.const_i64s(&[-1])?, b.const_i64s(&[i64::MAX])?, Some(b.const_i64s(&[axis])?), None).like(x)?;
    if keepdim {
        Ok(last)
    } else {
        c.squeeze(last, &[axis])
    }
}
