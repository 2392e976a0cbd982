use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.movedim.int", |c| {
        let (s, d) = (c.args.int("source")?, c.args.int("destination")?);
        movedim(c, &[s], &[d])
    })
    .samples(&["self: T[2,3,4]; source: 0; destination: 2", "self: T[2,3,4]; source: -1; destination: 0", "self: T[]; source: 0; destination: -1"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64"]),
    Rule::custom("aten.movedim.intlist", |c| movedim(c, &c.args.ints("source")?, &c.args.ints("destination")?))
        .samples(&[
            "self: T[2,3,4,5]; source: [0,1]; destination: [3,2]",
            "self: T[2,3,4]; source: [-1]; destination: [0]",
            "self: T[2,3]; source: []; destination: []",
        ])
        .dtypes(&["f32", "i64", "bool", "i32", "f64"])
        .refuses(&[("self: T[2,3,4]; source: [0,0]; destination: [1,2]", "repeated")]),
];

/// torch.movedim: each source dim goes to its destination; the other dims
/// keep their order in the remaining places. A `Transpose`.
pub fn movedim<'c, 'a>(ctx: &Ctx<'c, 'a>, source: &[i64], destination: &[i64]) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    if source.len() != destination.len() {
        return Err("movedim: source and destination must have the same number of dims".into());
    }
    let src: Vec<usize> = source.iter().map(|&d| ctx.dim(d, rank)).collect::<Result<_, _>>()?;
    let dst: Vec<usize> = destination.iter().map(|&d| ctx.dim(d, rank)).collect::<Result<_, _>>()?;
    for list in [&src, &dst] {
        let mut sorted = list.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() != list.len() {
            return Err("movedim: repeated dim in source or destination".into());
        }
    }
    if rank == 0 {
        return Ok(vec![x]);
    }
    let mut perm: Vec<Option<i64>> = vec![None; rank];
    for (s, d) in src.iter().zip(&dst) {
        perm[*d] = Some(*s as i64);
    }
    let mut rest = (0..rank as i64).filter(|d| !src.contains(&(*d as usize)));
    let perm: Vec<i64> = perm.into_iter().map(|p| p.unwrap_or_else(|| rest.next().unwrap_or(0))).collect();
    if perm.iter().enumerate().all(|(i, &p)| i as i64 == p) {
        return Ok(vec![x]);
    }
    Ok(vec![ctx.b.onnx().transpose(x, Some(&perm)).typed(ctx.result_type(0)?)?])
}
