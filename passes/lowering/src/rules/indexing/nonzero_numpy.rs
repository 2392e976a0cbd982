use crate::{builder, Rule};
use melior::ir::ValueLike;

/// `torch.nonzero(x, as_tuple=True)` (`nonzero_numpy`): one 1-D index
/// tensor per dim (a 0-d input counts as 1-D): the rows of `NonZero`.
pub const RULES: &[Rule] = &[Rule::custom("aten.nonzero_numpy.default", |c| {
    let b = &c.b;
    let mut x = c.args.tensor("self")?;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let mut rank = c.rank(x)?;
    if rank == 0 {
        x = b.onnx().reshape(x, b.const_i64s(&[1])?, None).like(x)?;
        rank = 1;
    }
    let bool_type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let truth = if builder::is_bool(element) {
        x
    } else {
        let eq = b.onnx().equal(x, b.const_scalar(element, 0.0)?).typed(b.unranked(bool_type))?;
        b.onnx().not(eq).typed(b.unranked(bool_type))?
    };
    let nz = b.onnx().non_zero(truth).typed(b.unranked(b.i64_type()))?;
    (0..rank)
        .map(|i| {
            let at = b.const_i64_scalar(i as i64)?;
            b.onnx().gather(nz, at, Some(0)).typed(c.result_type(i)?)
        })
        .collect()
})
.samples(&["self: T[3,4]{0..2}", "self: T[5]{0..2}", "self: T[2,3,2]{0..2}", "self: T[2,0]", "self: T[]"])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
