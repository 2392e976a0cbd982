use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

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

/// A dtype conversion (device, layout and memory format do not exist in
/// ONNX): a Cast to the result's element type, or nothing.
pub(super) fn convert<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let target = ctx.result_element(0)?;
    if builder::element_type(x.r#type()) == Some(target) {
        return Ok(vec![x]);
    }
    Ok(vec![ctx.b.cast(x, target)?])
}
