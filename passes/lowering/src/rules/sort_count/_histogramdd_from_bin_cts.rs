use super::histogramdd_common::{bin_counts, count_edges, histogram_of, points};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// The histogram of torch.histogramdd with bin counts (core ATen splits
/// `histogramdd.default` / `int_bins` into `_histogramdd_bin_edges` and
/// this): the edges of `histogramdd::count_edges`, the counts (or weights,
/// or density) of `histogramdd::histogram_of`.
pub const RULES: &[Rule] = &[Rule::custom("aten._histogramdd_from_bin_cts.default", from_bin_cts)
    .samples(&[
        "self: T[20,2]; bins: [3, 4]",
        "self: T[5,5]; bins: [1, 1, 1, 1, 1]",
        "self: T[4,5,3]; bins: [2, 3, 4]; weight: T[4,5]{pos}",
        "self: T[30,2]; bins: [4, 5]; range: [-1.0, 1.0, 0.0, 2.0]",
        "self: T[30,2]; bins: [4, 2]; range: [0.5, 0.5, -1.0, 1.0]; density: true",
        "self: T[12,2]; bins: [3, 5]; weight: T[12]{pos}; density: true",
        "self: T[0,2]; bins: [2, 3]",
        "self: T[0,2]; bins: [2, 3]; density: true",
        "self: T[6,1]; bins: [4]",
    ])
    .dtypes(&["f32", "f64"])];

fn from_bin_cts<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let p = points(ctx)?;
    let counts = bin_counts(ctx, p.d)?;
    let edges = count_edges(ctx, &p, &counts)?;
    let hist = histogram_of(ctx, &p, &edges)?;
    Ok(vec![ctx.b.onnx().identity(hist).typed(ctx.result_type(0)?)?])
}
