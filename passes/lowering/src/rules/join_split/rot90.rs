use super::shapes_common::{reverse, swap};
use crate::Rule;

/// `torch.rot90(x, k, dims)`: k = 1 flips dims[1] then swaps the two dims,
/// k = 2 flips both, k = 3 flips dims[0] then swaps (k taken mod 4, as torch).
pub const RULES: &[Rule] = &[Rule::custom("aten.rot90.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dims = c.args.ints("dims")?;
    if dims.len() != 2 {
        return Err(format!("rot90 expects two dims, got {}", dims.len()));
    }
    if rank < 2 {
        return Err(format!("rot90 needs a tensor of rank >= 2, got {rank}"));
    }
    let (d0, d1) = (c.dim(dims[0], rank)?, c.dim(dims[1], rank)?);
    if d0 == d1 {
        return Err(format!("rot90: the two dims must differ, got {} and {}", dims[0], dims[1]));
    }
    let out = match c.args.int("k")?.rem_euclid(4) {
        1 => swap(c, reverse(c, x, &[d1 as i64])?, rank, d0, d1)?,
        2 => reverse(c, x, &[d0 as i64, d1 as i64])?,
        3 => swap(c, reverse(c, x, &[d0 as i64])?, rank, d0, d1)?,
        _ => return Ok(vec![c.b.onnx().identity(x).typed(c.result_type(0)?)?]),
    };
    Ok(vec![out])
})
.samples(&[
    "self: T[3,4]",
    "self: T[3,4]; k: 2",
    "self: T[3,4]; k: 3",
    "self: T[3,4]; k: -1",
    "self: T[3,4]; k: 4",
    "self: T[2,3,4]; k: 1; dims: [2,0]",
    "self: T[2,3,4]; k: 5; dims: [-1,-2]",
    "self: T[0,3]; k: 1",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
