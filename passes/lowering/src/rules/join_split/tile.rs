use crate::{Ctx, IntArg, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.tile.default", tile)
    .samples(&[
        "self: T[2,3]; dims: [2,1]",
        "self: T[2,3]; dims: [2]",
        "self: T[3]; dims: [2,2]",
        "self: T[]; dims: [3]",
        "self: T[2,3]; dims: []",
        "self: T[2,3]; dims: [0,2]",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64"])];

/// ONNX `Tile` after torch's alignment: fewer `dims` than the rank are
/// padded with leading 1s; more unsqueeze `self` in front.
fn tile<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let mut x = ctx.args.tensor("self")?;
    let mut dims = ctx.args.sym_ints("dims")?;
    let rank = ctx.rank(x)?;
    if dims.len() < rank {
        let mut padded = vec![IntArg::Static(1); rank - dims.len()];
        padded.extend(dims);
        dims = padded;
    } else if dims.len() > rank {
        let axes: Vec<i64> = (0..(dims.len() - rank) as i64).collect();
        x = ctx.unsqueeze(x, &axes)?;
    }
    if dims.is_empty() {
        return Ok(vec![x]);
    }
    let repeats = ctx.int_list_tensor(&dims)?;
    Ok(vec![ctx.b.onnx().tile(x, repeats).typed(ctx.result_type(0)?)?])
}
