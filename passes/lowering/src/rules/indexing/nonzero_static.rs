use crate::{builder, Rule};
use melior::ir::ValueLike;

/// `torch.nonzero_static(x, size=, fill_value=)`: the `[n, rank]` rows of
/// `nonzero`, cut to `size` rows or padded with rows of `fill_value`.
pub const RULES: &[Rule] = &[Rule::custom("aten.nonzero_static.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)? as i64;
    let size = c.args.sym_int("size")?;
    if let crate::IntArg::Static(s) = size {
        if s < 0 {
            return Err(format!("nonzero_static: size must be non-negative, got {s}"));
        }
    }
    let size = c.int_tensor(size)?;
    let fill = b.const_i64_scalar(c.args.int("fill_value")?)?;
    let i64s = b.unranked(b.i64_type());
    let pad_shape = b.onnx().concat(&[size, b.const_i64s(&[rank])?], 0).typed(i64s)?;
    let pad = b.onnx().expand(fill, pad_shape).typed(i64s)?;
    if rank == 0 {
        return Ok(vec![c.b.onnx().identity(pad).typed(c.result_type(0)?)?]);
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let bool_type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let truth = if builder::is_bool(element) {
        x
    } else {
        let eq = b.onnx().equal(x, b.const_scalar(element, 0.0)?).typed(b.unranked(bool_type))?;
        b.onnx().not(eq).typed(b.unranked(bool_type))?
    };
    let nz = b.onnx().non_zero(truth).typed(i64s)?;
    let rows = b.onnx().transpose(nz, Some(&[1, 0])).typed(i64s)?;
    let all = b.onnx().concat(&[rows, pad], 0).typed(i64s)?;
    let (start, axes) = (b.const_i64s(&[0])?, b.const_i64s(&[0])?);
    Ok(vec![c.b.onnx().slice(all, start, size, Some(axes), None).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[3,4]{0..2}; size: 4",
    "self: T[3,4]{0..2}; size: 12",
    "self: T[3,4]{0..2}; size: 20; fill_value: 7",
    "self: T[5]{0..2}; size: 0",
    "self: T[2,0]; size: 2",
    "self: T[]; size: 3",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
