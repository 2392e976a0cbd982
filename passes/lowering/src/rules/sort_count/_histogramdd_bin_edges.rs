use super::histogramdd_common::{bin_counts, count_edges, points};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// The edges torch.histogramdd computes from bin counts (core ATen splits
/// `histogramdd.default` / `int_bins` into this and
/// `_histogramdd_from_bin_cts`): one 1-D tensor of `bins[i] + 1` edges per
/// dim (see `histogramdd::count_edges`). `weight` and `density` do not
/// change them.
pub const RULES: &[Rule] = &[Rule::custom("aten._histogramdd_bin_edges.default", bin_edges)
    .samples(&[
        "self: T[20,2]; bins: [3, 4]",
        "self: T[4,5,3]; bins: [2, 1, 5]",
        "self: T[30,2]; bins: [4, 5]; range: [-1.0, 1.0, 0.5, 0.5]",
        "self: T[12,2]; bins: [3, 5]; weight: T[12]{pos}; density: true",
        "self: T[0,2]; bins: [2, 3]",
        "self: T[1,2]; bins: [2, 2]",
    ])
    .dtypes(&["f32", "f64"])];

fn bin_edges<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let p = points(ctx)?;
    let counts = bin_counts(ctx, p.d)?;
    let edges = count_edges(ctx, &p, &counts)?;
    let results = melior::ir::operation::OperationLike::result_count(&ctx.args.op);
    if results != edges.len() {
        return Err(format!("_histogramdd_bin_edges has {results} results for {} dims", edges.len()));
    }
    edges.iter().enumerate().map(|(i, e)| ctx.b.onnx().identity(*e).typed(ctx.result_type(i)?)).collect()
}
