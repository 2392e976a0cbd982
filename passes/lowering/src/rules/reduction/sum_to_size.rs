use crate::{builder, Rule};
use melior::ir::ValueLike;

/// `x.sum_to_size(size)`: the leading dims beyond `size` are summed away,
/// and dims where `size` is 1 are summed keeping the dim (a dim already 1
/// sums to itself); then reshaped to `size`.
pub const RULES: &[Rule] = &[Rule::custom("aten.sum_to_size.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let size = c.args.sym_ints("size")?;
    if size.len() > rank {
        return Err(format!("sum_to_size: size has {} dims, more than the input's {rank}", size.len()));
    }
    let lead = rank - size.len();
    let dims = builder::dims(x.r#type()).ok_or("operand has an unknown rank")?;
    let mut axes: Vec<i64> = (0..lead as i64).collect();
    for (j, s) in size.iter().enumerate() {
        if matches!(s, crate::IntArg::Static(1)) && dims[lead + j] != Some(1) {
            axes.push((lead + j) as i64);
        }
    }
    let element = c.result_element(0)?;
    let xe = c.b.cast_like_type(x, element)?;
    let summed = if axes.is_empty() { xe } else { c.reduce(crate::Reduction::Sum, xe, Some(&axes), true, c.b.unranked(element))? };
    let shape = c.int_list_tensor(&size)?;
    Ok(vec![c.b.onnx().reshape(summed, shape, Some(1)).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[2,3]; size: [3]",
    "self: T[2,3]; size: [1,3]",
    "self: T[2,3,4]; size: [3,1]",
    "self: T[2,3]; size: [2,3]",
    "self: T[2,3]; size: []",
    "self: T[]; size: []",
    "self: T[1,3]; size: [1,1]",
    "self: T[0,3]; size: [1,3]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
