use super::shapes_common::real_only;
use crate::{builder, Rule};
use melior::ir::ValueLike;

/// `torch.angle` of a real tensor: pi where x < 0, 0 elsewhere, NaN for NaN
/// (integers and bools promote to the default float type).
pub const RULES: &[Rule] = &[Rule::custom("aten.angle.default", |c| {
    let x = real_only(c.args.tensor("self")?, "angle")?;
    let b = &c.b;
    let element = c.result_element(0)?;
    let input = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let xf = b.cast_like_type(x, element)?;
    let zero = b.const_scalar(element, 0.0)?;
    let pi = b.const_scalar(element, std::f64::consts::PI)?;
    let bool_type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let negative = b.onnx().less(xf, zero).typed(b.unranked(bool_type))?;
    let angle = b.onnx().where_(negative, pi, zero).like(xf)?;
    if !builder::is_float(input) {
        return Ok(vec![c.b.onnx().identity(angle).typed(c.result_type(0)?)?]);
    }
    let nan = b.onnx().is_na_n(xf).typed(b.unranked(bool_type))?;
    Ok(vec![c.b.onnx().where_(nan, xf, angle).typed(c.result_type(0)?)?])
})
.complex(super::complex_common::angle)
.complex_samples(&["self: C[2,3]", "self: C[]", "self: C[0,2]"])
.samples(&["self: T[2,3]", "self: T[]", "self: T[0,2]", "self: T[5]{pos}"])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
