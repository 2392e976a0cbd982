use crate::{Ctx, Rule};
use melior::ir::{r#type::RankedTensorType, Value};

pub const RULES: &[Rule] = &[Rule::custom("aten.sym_size.int", sym_size)];

/// A symbolic size is a 1-element int64 tensor: `Shape(x, start=d, end=d+1)`.
fn sym_size<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let dim = ctx.args.int("dim")?;
    let ty = RankedTensorType::new(&[1], ctx.b.i64_type(), None).into();
    let end = (dim != -1).then_some(dim + 1);
    Ok(vec![ctx.b.onnx().shape(x, end, Some(dim)).typed(ty)?])
}
