//! `onnx-eqsat`: equality saturation over each onnx function body with the
//! rules of `optimizer/rules/`, then greedy extraction by the cost model
//! (see `optimizer/mod.rs`). Runs on `func.func`.
//!
//! The function gets a summary attribute, e.g.
//! `onnx.eqsat = {stop = "saturated", iterations = 3, ops_before = 12,
//! ops_after = 9, enodes = 20, eclasses = 15, applied = {"algebra/mul-by-one" = 1}}`
//! (`stop` says why saturation ended: `saturated`, `iteration limit`,
//! `node limit`, `time limit`, or `skipped: <why>` for a body the optimizer
//! does not model, which is left as it was).
//!
//! Options: `rules=<family or family/rule>,...` (default all),
//! `iterations=N`, `node-factor=N`, `time-limit-ms=N`,
//! `target=standard|onnxruntime` (default: the module's `onnx.target`
//! attribute, else `standard`; `onnxruntime` adds the `ort_*` rule families,
//! which produce onnxruntime's `com.microsoft` contrib ops),
//! `extract=greedy|ilp` (default greedy; `ilp`: exact extraction by integer
//! linear programming, `optimizer/extract_ilp.rs`, greedy's choice as warm
//! start and fallback), `ilp-time-limit-ms=N` (the solver's budget per body,
//! default 1000). With `extract=ilp` the summary also has `extract = "ilp"`,
//! `ilp_status` (`optimal`, `time limit` or `fallback: <why>`, per body:
//! nested ones first), `cost_greedy` and `cost_ilp` (DAG costs of greedy's
//! choice and of the one used, summed over the bodies).

use crate::{
    diag,
    ir::{self},
    onnx_ir,
    optimizer::{
        self, convert,
        extract_ilp::{self, Extractor, IlpReport},
        rules::Target,
        Limits,
    },
    Factory, PassId, PassInfo, PassOption, ProjectPass,
};
use melior::ir::{
    attribute::{DictionaryAttribute, IntegerAttribute, StringAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, BlockLike, Identifier, OperationRef, RegionLike,
};
use mlir_sys as sys;
use std::time::Duration;

static ID: PassId = PassId::new();

/// The function attribute holding the run's summary.
pub const SUMMARY_ATTR: &str = "onnx.eqsat";

/// Module attribute naming the runtime the optimized model targets
/// (`"standard"` or `"onnxruntime"`), read when the pass has no `target`
/// option.
pub const TARGET_ATTR: &str = "onnx.target";

pub const INFO: PassInfo = PassInfo {
    name: "onnx-eqsat",
    summary:
        "Equality saturation (egg) with the optimizer's rules, then greedy (or ILP: extract=ilp) extraction by cost",
    options: &[
        PassOption { name: "rules", help: "rule families or family/rule names, separated by ',' (default: all)" },
        PassOption { name: "iterations", help: "saturation rounds at most (default 32)" },
        PassOption { name: "node-factor", help: "e-nodes allowed per op of the body, plus 10000 (default 8)" },
        PassOption {
            name: "time-limit-ms",
            help: "wall-clock budget per body (default none: the output then depends on the input only)",
        },
        PassOption {
            name: "target",
            help:
                "standard (default) or onnxruntime (also com.microsoft contrib ops); default: the module's onnx.target",
        },
        PassOption { name: "extract", help: "greedy (default) or ilp (exact, by integer linear programming)" },
        PassOption { name: "ilp-time-limit-ms", help: "with extract=ilp: the solver's time per body (default 1000)" },
    ],
    create: |options| {
        let mut pass = Eqsat::default();
        let number = |key: &str| -> Result<Option<u64>, String> {
            options
                .get(key)
                .map(|v| {
                    v.parse::<u64>().map_err(|_| format!("onnx-eqsat: option '{key}' must be a number, got '{v}'"))
                })
                .transpose()
        };
        if let Some(rules) = options.get("rules") {
            pass.only = rules.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
            for name in &pass.only {
                let known = optimizer::rules::all_rules().any(|r| r.family == name || r.full_name() == *name);
                if !known {
                    return Err(format!("onnx-eqsat: no rule or rule family '{name}'"));
                }
            }
        }
        if let Some(n) = number("iterations")? {
            pass.limits.iterations = n as usize;
        }
        if let Some(n) = number("node-factor")? {
            pass.limits.node_factor = n as usize;
        }
        if let Some(n) = number("time-limit-ms")? {
            pass.limits.time = Some(Duration::from_millis(n));
        }
        if let Some(t) = options.get("target") {
            pass.target = Some(Target::parse(t).ok_or_else(|| {
                format!("onnx-eqsat: option 'target' must be 'standard' or 'onnxruntime', got '{t}'")
            })?);
        }
        if let Some(e) = options.get("extract") {
            pass.extract = Extractor::parse(e)
                .ok_or_else(|| format!("onnx-eqsat: option 'extract' must be 'greedy' or 'ilp', got '{e}'"))?;
        }
        if let Some(n) = number("ilp-time-limit-ms")? {
            pass.ilp_time_limit = Some(Duration::from_millis(n));
        }
        Ok(Box::new(Factory { pass, id: &ID, info: &INFO }))
    },
};

#[derive(Clone, Default)]
struct Eqsat {
    limits: Limits,
    only: Vec<String>,
    /// From the `target` option; `None`: the module's [`TARGET_ATTR`].
    target: Option<Target>,
    extract: Extractor,
    /// `None`: [`extract_ilp::DEFAULT_TIME_LIMIT`].
    ilp_time_limit: Option<Duration>,
}

/// The target named by the `onnx.target` attribute of `op` or an enclosing
/// op (an unknown name is an error).
fn target_of(op: OperationRef<'_, '_>) -> Result<Target, String> {
    let mut current = Some(op);
    while let Some(o) = current {
        if let Ok(attr) = o.attribute(TARGET_ATTR) {
            let name = ir::string_value(attr).unwrap_or_default();
            return Target::parse(&name)
                .ok_or_else(|| format!("`{TARGET_ATTR}` must be \"standard\" or \"onnxruntime\", got \"{name}\""));
        }
        current = o.parent_operation();
    }
    Ok(Target::Standard)
}

impl ProjectPass for Eqsat {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        if ir::op_name(op) != "func.func" {
            return Ok(());
        }
        let opset = onnx_ir::opset_of(op);
        let target = match self.target.map_or_else(|| target_of(op), Ok) {
            Ok(t) => t,
            Err(e) => {
                diag::error_at(op.location(), &format!("onnx-eqsat: {e}"));
                return Err(());
            }
        };
        let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else { return Ok(()) };
        let mut regions = Regions::default();
        let result = optimizer::dim_facts::with_facts(body, || {
            optimizer::with_egg_clock(|| self.optimize_block(body, opset, target, &mut regions))
        });
        let mut summary: Vec<(&str, Summary)> = Vec::new();
        let outcome = match result {
            Ok(outcome) => outcome,
            Err(e) => {
                diag::error_at(op.location(), &format!("onnx-eqsat: {e}"));
                return Err(());
            }
        };
        match outcome {
            BlockOutcome::Skipped(why) => summary.push(("stop", Summary::Str(format!("skipped: {why}")))),
            BlockOutcome::Done { outcome, ops_before, ops_after, ilp } => {
                regions.ilp.extend(ilp);
                summary.push(("stop", Summary::Str(outcome.stop.clone())));
                summary.push(("iterations", Summary::Int(outcome.iterations as i64)));
                summary.push(("ops_before", Summary::Int(ops_before as i64)));
                summary.push(("ops_after", Summary::Int(ops_after as i64)));
                summary.push(("enodes", Summary::Int(outcome.enodes as i64)));
                summary.push(("eclasses", Summary::Int(outcome.eclasses as i64)));
                regions.refused.extend(outcome.refused);
                let mut applied = regions.applied.clone();
                for (rule, n) in outcome.applied {
                    *applied.entry(rule).or_insert(0) += n;
                }
                summary.push(("applied", Summary::Counts(applied.into_iter().collect())));
            }
        }
        if regions.count > 0 {
            summary.push(("regions", Summary::Int(regions.count as i64)));
            summary.push(("region_stops", Summary::Str(regions.stops.join(", "))));
        }
        if !regions.refused.is_empty() {
            summary.push(("refused", Summary::Str(regions.refused.join("; "))));
        }
        if self.extract == Extractor::Ilp {
            let reports = &regions.ilp;
            let statuses: Vec<String> = reports.iter().map(|r| r.status.text()).collect();
            summary.push(("extract", Summary::Str("ilp".into())));
            summary.push(("ilp_status", Summary::Str(statuses.join(", "))));
            let total = |f: fn(&IlpReport) -> f64| reports.iter().map(f).filter(|c| c.is_finite()).sum::<f64>();
            summary.push(("cost_greedy", Summary::Int(total(|r| r.greedy_cost).round() as i64)));
            summary.push(("cost_ilp", Summary::Int(total(|r| r.cost).round() as i64)));
        }
        set_summary(op, &summary);
        Ok(())
    }
}

/// What happened to one block.
enum BlockOutcome {
    Skipped(String),
    Done { outcome: optimizer::Outcome, ops_before: usize, ops_after: usize, ilp: Option<IlpReport> },
}

/// What happened in the regions nested in a function body.
#[derive(Default)]
struct Regions {
    count: usize,
    /// Stop reason of each region, in order (deduplicated runs: `saturated x3`).
    stops: Vec<String>,
    applied: std::collections::BTreeMap<String, usize>,
    refused: Vec<String>,
    /// What ILP extraction did in each body (nested ones first).
    ilp: Vec<IlpReport>,
}

impl Eqsat {
    /// Optimizes the blocks of the regions nested in `block` (innermost
    /// first), then `block` itself.
    fn optimize_block(
        &self,
        block: melior::ir::BlockRef<'_, '_>,
        opset: u32,
        target: Target,
        regions: &mut Regions,
    ) -> Result<BlockOutcome, String> {
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            for region in op.regions() {
                let mut inner = region.first_block();
                while let Some(b) = inner {
                    inner = b.next_in_region();
                    let outcome = self.optimize_block(b, opset, target, regions)?;
                    regions.count += 1;
                    let stop = match outcome {
                        BlockOutcome::Skipped(why) => format!("skipped: {why}"),
                        BlockOutcome::Done { outcome, ilp, .. } => {
                            regions.ilp.extend(ilp);
                            regions.refused.extend(outcome.refused);
                            for (rule, n) in outcome.applied {
                                *regions.applied.entry(rule).or_insert(0) += n;
                            }
                            outcome.stop
                        }
                    };
                    regions.stops.push(stop);
                }
            }
        }
        if let Some(why) = convert::unsupported(block) {
            return Ok(BlockOutcome::Skipped(why));
        }
        let Some(mut graph) = convert::BlockGraph::from_block(block, opset) else {
            return Ok(BlockOutcome::Skipped("the block could not be converted".into()));
        };
        let ops_before = graph.op_count();
        let empty = optimizer::analysis::OnnxEGraph::new(optimizer::analysis::OnnxAnalysis::new(opset));
        let egraph = std::mem::replace(&mut graph.egraph, empty);
        let (egraph, outcome) = optimizer::saturate(egraph, ops_before, &self.limits, target, &self.only);
        if !outcome.conflicts.is_empty() {
            return Err(format!(
                "the rules merged values of different types (a rule bug): {}",
                outcome.conflicts.join("; ")
            ));
        }
        let (chosen, ilp) = match self.extract {
            Extractor::Greedy => (optimizer::extract(&egraph, &graph.roots), None),
            Extractor::Ilp => {
                let limit = self.ilp_time_limit.unwrap_or(extract_ilp::DEFAULT_TIME_LIMIT);
                let (chosen, report) = extract_ilp::extract_ilp(&egraph, &graph.roots, limit);
                (chosen, Some(report))
            }
        };
        let mut ops_after =
            graph.write_back(&egraph, &chosen).map_err(|e| format!("rebuilding a block failed: {e}"))?;
        if target == Target::OnnxRuntime {
            ops_after -= optimizer::skip_sum::share_skip_sums(block);
        }
        Ok(BlockOutcome::Done { outcome, ops_before, ops_after, ilp })
    }
}

enum Summary {
    Str(String),
    Int(i64),
    Counts(Vec<(String, usize)>),
}

fn set_summary(op: OperationRef<'_, '_>, entries: &[(&str, Summary)]) {
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let i64_type = IntegerType::new(context, 64).into();
    let int = |n: i64| -> Attribute { IntegerAttribute::new(i64_type, n).into() };
    let attrs: Vec<(Identifier, Attribute)> = entries
        .iter()
        .map(|(k, v)| {
            let value: Attribute = match v {
                Summary::Str(s) => StringAttribute::new(context, s).into(),
                Summary::Int(n) => int(*n),
                Summary::Counts(counts) => {
                    let items: Vec<(Identifier, Attribute)> =
                        counts.iter().map(|(name, n)| (Identifier::new(context, name), int(*n as i64))).collect();
                    DictionaryAttribute::new(context, &items).into()
                }
            };
            (Identifier::new(context, k), value)
        })
        .collect();
    let dict: Attribute = DictionaryAttribute::new(context, &attrs).into();
    unsafe {
        sys::mlirOperationSetAttributeByName(
            op.to_raw(),
            sys::MlirStringRef { data: SUMMARY_ATTR.as_ptr() as *const _, length: SUMMARY_ATTR.len() },
            melior::ir::attribute::AttributeLike::to_raw(&dict),
        )
    };
}
