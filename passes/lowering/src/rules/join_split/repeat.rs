use crate::Rule;

/// `Tile`, after unsqueezing leading dims when `repeats` is longer than the rank.
pub const RULES: &[Rule] = &[Rule::custom("aten.repeat.default", |c| {
    let mut x = c.args.tensor("self")?;
    let repeats = c.args.sym_ints("repeats")?;
    let rank = c.rank(x)?;
    if repeats.len() > rank {
        let axes: Vec<i64> = (0..(repeats.len() - rank) as i64).collect();
        x = c.unsqueeze(x, &axes)?;
    }
    let repeats = c.int_list_tensor(&repeats)?;
    Ok(vec![c.b.onnx().tile(x, repeats).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]; repeats: [2,1]", "self: T[3]; repeats: [2,2]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
