use super::math_common::{bool_type, elem};
use super::searchsorted_common::{promote, promote_number};
use crate::{Ctx, Number, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.isin.Tensor_Tensor", isin)
        .samples(&[
            "elements: i64[3,4]{0..6}; test_elements: i64[4]{0..6}",
            "elements: i64[3,4]{0..6}; test_elements: i64[2,2]{0..6}; invert: true",
            "elements: T[5]; test_elements: T[3]",
            "elements: T[]; test_elements: T[3]",
            "elements: T[4]; test_elements: T[0]",
            "elements: T[0]; test_elements: T[2]; invert: true",
            "elements: i64[6]{0..4}; test_elements: i64[3]{0..4}; assume_unique: true",
            "elements: i64[6]{0..4}; test_elements: f32[3]",
        ])
        .dtypes(&["f32", "i64", "i32", "f64"]),
    Rule::custom("aten.isin.Tensor_Scalar", isin)
        .samples(&[
            "elements: i64[3,4]{0..3}; test_element: 1",
            "elements: i64[3,4]{0..3}; test_element: 2; invert: true",
            "elements: T[4]; test_element: 0.5",
        ])
        .dtypes(&["f32", "i64", "f64"]),
    Rule::custom("aten.isin.Scalar_Tensor", isin)
        .samples(&[
            "element: 1; test_elements: i64[5]{0..3}",
            "element: 2; test_elements: i64[2,3]{0..3}; invert: true",
            "element: 0.5; test_elements: T[3]",
        ])
        .dtypes(&["f32", "i64", "f64"]),
];

/// Whether each element equals one of `test_elements` (compared in the
/// promoted dtype with `==`: NaN is in nothing); `invert` negates.
fn isin<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let schema = ctx.args.schema;
    let e_name = if schema.arg("elements").is_some() { "elements" } else { "element" };
    let t_name = if schema.arg("test_elements").is_some() { "test_elements" } else { "test_element" };
    let e = ctx.args.tensor_or_number(e_name)?;
    let t = ctx.args.tensor_or_number(t_name)?;
    // Numbers are wrapped: they count only by category.
    let common = match (&e, &t) {
        (Ok(e), Ok(t)) => promote(elem(*e)?, elem(*t)?),
        (Ok(v), Err(n)) | (Err(n), Ok(v)) => promote_number(ctx, elem(*v)?, *n),
        (Err(_), Err(_)) => return Err("isin needs a tensor operand".into()),
    };
    let as_value = |v: Result<Value<'c, 'a>, Number>| -> Result<Value<'c, 'a>, String> {
        match v {
            Ok(v) => b.cast_like_type(v, common),
            Err(n) => b.const_scalar(common, n.as_f64()),
        }
    };
    let e = as_value(e)?;
    let t = as_value(t)?;
    let bools = b.unranked(bool_type(ctx));
    let flat = b.onnx().reshape(t, b.const_i64s(&[-1])?, None).typed(b.unranked(common))?;
    let e1 = ctx.unsqueeze(e, &[-1])?;
    let eq = b.onnx().equal(e1, flat).typed(bools)?;
    let eq = b.cast(eq, b.i64_type())?;
    let hits = ctx.reduce(crate::Reduction::Sum, eq, Some(&[-1]), false, b.unranked(b.i64_type()))?;
    let zero = b.const_i64_scalar(0)?;
    let y = if ctx.args.bool("invert")? { b.onnx().equal(hits, zero) } else { b.onnx().greater(hits, zero) };
    Ok(vec![y.typed(ctx.result_type(0)?)?])
}
