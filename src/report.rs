//! The export report (`aten-translate --to-onnx ... --report FILE` and
//! `--stats`): what the conversion did and what it produced.
//!
//! - per pass: wall time, ops before/after, ops added/removed by op name;
//! - per lowering rule: aten ops lowered, the ONNX nodes (by op type) the
//!   rule emitted and those left in the final graph (from the provenance
//!   `convert-aten-to-onnx` records in locations), decomposed ops;
//! - per optimizer (`onnx-eqsat`) rule: applications, with the e-graph's
//!   size, iterations and stop reason of each run (from the `onnx.eqsat`
//!   summary the pass leaves on each function);
//! - the ONNX graph: node counts per op type with estimated FLOPs and bytes
//!   moved, as polynomials in the symbolic dims when shapes are dynamic;
//! - options, opset, timings, ops without a lowering, and the error when
//!   the conversion failed (the report is written either way);
//! - with `--verify`: per-output errors and the bisection's first
//!   diverging op.
//!
//! The JSON schema is versioned ([`SCHEMA_VERSION`]) and documented in
//! docs/report.md; an `.xlsx` file gets one sheet per table.

use crate::{
    diagnostics::{render, DiagnosticCollector},
    pipeline::{Element, Pipeline},
    Error,
};
use aten2onnx_passes::{
    ir::{self, SourcePosition},
    lowering::builder::{dims as type_dims, element_type},
    onnx_ir,
};
use melior::{
    ir::{operation::OperationLike, r#type::TypeLike, Module, OperationRef, Type, ValueLike},
    Context,
};
use serde::Serialize;
use std::{
    collections::BTreeMap,
    fmt,
    time::{Duration, Instant},
};

/// Version of the report's JSON layout: the major number changes when a
/// field is removed or changes meaning, the minor number when one is added.
pub const SCHEMA_VERSION: &str = "1.2";

#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// Always `"aten2onnx.report"`.
    pub schema: String,
    pub schema_version: String,
    pub tool: String,
    pub tool_version: String,
    pub input: String,
    pub output: Option<String>,
    pub options: ReportOptions,
    /// `"ok"` or `"error"`.
    pub status: String,
    pub error: Option<String>,
    pub timings_ms: Timings,
    pub passes: Vec<PassRecord>,
    pub lowering: Vec<RuleRecord>,
    /// Aten ops without a lowering at the target opset, with counts.
    pub unsupported: Vec<OpCount>,
    /// Aten targets each lowered to more than one ONNX node, `Constant`s
    /// not counted (see [`RuleRecord::onnx_ops_lowered`]).
    pub decomposed: Vec<Decomposed>,
    pub onnx: Option<OnnxStats>,
    /// Statistics of the equality-saturation optimizer, when it ran.
    pub optimizer: Option<OptimizerStats>,
    /// `--verify`'s per-output comparison, when it ran.
    pub verify: Option<VerifyStats>,
    /// ONNX nodes right after the lowering pass, by aten target then op
    /// type (for [`lowering_records`]).
    #[serde(skip)]
    pub lowered_by_aten: BTreeMap<String, BTreeMap<String, usize>>,
    /// Aten ops by target right before `convert-aten-to-onnx` (after
    /// `aten-decompose`), for [`lowering_records`].
    #[serde(skip)]
    pub aten_before_lowering: Option<BTreeMap<String, usize>>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct ReportOptions {
    pub opset: u32,
    /// `--opset` as given (None: the default, or the module's own).
    pub opset_requested: Option<u32>,
    pub external_data: String,
    pub debug_info: bool,
    pub pipeline: String,
    /// `--verify` was given.
    pub verify: bool,
    /// `--inputs` of `--verify` (None: random inputs of the sample shapes).
    pub verify_inputs: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Timings {
    pub load: f64,
    pub passes: f64,
    pub write: f64,
    pub total: f64,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct PassRecord {
    /// The pass as a pipeline element, e.g. `func.func(onnx-cse)`.
    pub pass: String,
    pub wall_ms: f64,
    pub ops_before: usize,
    pub ops_after: usize,
    pub added: usize,
    pub removed: usize,
    /// Per op name: (after - before), only names whose count changed.
    pub delta_by_op: BTreeMap<String, i64>,
    /// Rewrite rules the pass applied, with counts (`onnx-eqsat`: e-graph
    /// rule applications; empty for other passes).
    pub rewrites: BTreeMap<String, usize>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct RuleRecord {
    pub aten_op: String,
    /// The rule's file (`passes/lowering/src/rules/<family>/<op>.rs`); None for the
    /// ops `convert-aten-to-onnx` lowers itself (built-in lowerings).
    pub rule: Option<String>,
    /// Aten ops of this target in the program (all removed by the lowering).
    pub count: usize,
    /// ONNX nodes the rule emitted (right after `convert-aten-to-onnx`).
    pub onnx_nodes_lowered: usize,
    /// Those nodes by op type.
    pub onnx_ops_lowered: BTreeMap<String, usize>,
    /// ONNX nodes they became in the final graph (after folding and CSE).
    pub onnx_nodes: usize,
}

/// An aten target decomposed: by `aten-decompose` into simpler aten ops,
/// or by its lowering rule into more than one ONNX node (`Constant`s not
/// counted) per op.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Decomposed {
    pub op: String,
    /// Ops of this target decomposed.
    pub count: usize,
    /// `"aten-decompose"` or `"lowering"`.
    pub by: String,
    /// What all `count` ops became: aten ops (`aten-decompose`) or ONNX op
    /// types (`lowering`), with counts.
    pub into: BTreeMap<String, usize>,
    /// The sum of `into`.
    pub nodes: usize,
}

/// The `onnx-eqsat` runs of the pipeline.
#[derive(Clone, Debug, Default, Serialize)]
pub struct OptimizerStats {
    /// One per function body optimized (per run of the pass).
    pub runs: Vec<EqsatRun>,
    /// Applications per rule (`family/rule`), summed over the runs, most
    /// applied first.
    pub rules: Vec<RuleApplications>,
    pub applied_total: usize,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct EqsatRun {
    pub function: String,
    /// `saturated`, `iteration limit`, `node limit`, `time limit`, or
    /// `skipped: <why>`.
    pub stop: String,
    pub iterations: usize,
    pub ops_before: usize,
    pub ops_after: usize,
    /// Size of the e-graph when saturation stopped.
    pub enodes: usize,
    pub eclasses: usize,
    /// Nested bodies (If/Loop/Scan) optimized first, and how each stopped.
    pub regions: usize,
    pub region_stops: String,
    /// Unions of values of different types the rules asked for (rule bugs,
    /// not performed).
    pub refused: String,
    pub applied: BTreeMap<String, usize>,
    /// The extraction: `greedy` (default) or `ilp` (`--extract ilp`).
    pub extract: String,
    /// With `ilp`: how the solver ended, per body (nested ones first):
    /// `optimal`, `time limit` or `fallback: <why>`; empty for greedy.
    pub ilp_status: String,
    /// With `ilp`: the DAG cost (cost.rs units) of greedy's choice and of
    /// the choice used, summed over the bodies (`None` for greedy).
    pub cost_greedy: Option<i64>,
    pub cost_ilp: Option<i64>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct RuleApplications {
    pub rule: String,
    pub applied: usize,
}

/// `--verify`'s comparison (filled by `verify::verify_reporting`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct VerifyStats {
    /// Every output within tolerance.
    pub ok: bool,
    /// Tolerance for float32 outputs: |diff| <= atol + rtol * |expected|.
    pub atol: f64,
    pub rtol: f64,
    pub outputs: Vec<VerifyOutput>,
    /// Whether the bisection ran (only when an output differs).
    pub bisected: bool,
    /// The first diverging op the bisection found (None when it found none
    /// or did not run).
    pub divergence: Option<VerifyDivergence>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct VerifyOutput {
    pub name: String,
    /// None (JSON null) when not finite, e.g. the shapes differ.
    pub max_abs: Option<f64>,
    pub max_rel: Option<f64>,
    pub ok: bool,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct VerifyDivergence {
    pub node: String,
    pub aten_op: String,
    pub rule: String,
    /// `file:line` of the Python source, when recorded.
    pub source: String,
    pub max_abs: Option<f64>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct OpCount {
    pub op: String,
    pub count: usize,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct OnnxStats {
    /// All nodes, those of subgraphs (If/Loop/Scan bodies) included: the
    /// sum of `op_types[].count`.
    pub nodes: usize,
    /// Nodes of the main graph only (`graph.node` of the written model).
    pub graph_nodes: usize,
    pub initializers: usize,
    pub initializer_bytes: u64,
    pub op_types: Vec<OpTypeStats>,
    /// Estimated FLOPs of the whole graph (see [`flops`]).
    pub flops: String,
    /// Estimated bytes read and written by all nodes.
    pub bytes: String,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct OpTypeStats {
    pub op_type: String,
    pub count: usize,
    pub flops: String,
    pub bytes: String,
}

impl Report {
    pub fn new(tool: &str, input: &str) -> Report {
        Report {
            schema: "aten2onnx.report".into(),
            schema_version: SCHEMA_VERSION.into(),
            tool: tool.into(),
            tool_version: env!("CARGO_PKG_VERSION").into(),
            input: input.into(),
            status: "ok".into(),
            ..Default::default()
        }
    }

    pub fn fail(&mut self, error: &Error) {
        self.status = "error".into();
        self.error = Some(error.to_string());
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}")) + "\n"
    }

    /// Writes the report: `.xlsx` when the name ends so, JSON otherwise.
    pub fn write(&self, path: &str) -> Result<(), Error> {
        if path.to_ascii_lowercase().ends_with(".xlsx") {
            let bytes = self.to_xlsx().map_err(|e| Error::Usage(format!("cannot build the report {path}: {e}")))?;
            crate::write_output(path, &bytes)
        } else {
            crate::write_output(path, self.to_json().as_bytes())
        }
    }

    /// One sheet per table: summary, passes, lowering, op types.
    pub fn to_xlsx(&self) -> Result<Vec<u8>, rust_xlsxwriter::XlsxError> {
        use rust_xlsxwriter::{Format, Workbook};
        let mut book = Workbook::new();
        let bold = Format::new().set_bold();
        let summary = book.add_worksheet().set_name("summary")?;
        let mut rows: Vec<(String, String)> = vec![
            ("schema_version".into(), self.schema_version.clone()),
            ("tool".into(), format!("{} {}", self.tool, self.tool_version)),
            ("input".into(), self.input.clone()),
            ("output".into(), self.output.clone().unwrap_or_default()),
            ("status".into(), self.status.clone()),
            ("error".into(), self.error.clone().unwrap_or_default()),
            ("opset".into(), self.options.opset.to_string()),
            ("external data".into(), self.options.external_data.clone()),
            ("debug info".into(), self.options.debug_info.to_string()),
            ("verify".into(), self.options.verify.to_string()),
            ("pipeline".into(), self.options.pipeline.clone()),
            ("total ms".into(), format!("{:.3}", self.timings_ms.total)),
        ];
        if let Some(onnx) = &self.onnx {
            rows.push(("onnx nodes".into(), onnx.nodes.to_string()));
            rows.push(("onnx nodes in the main graph".into(), onnx.graph_nodes.to_string()));
            rows.push(("initializers".into(), onnx.initializers.to_string()));
            rows.push(("initializer bytes".into(), onnx.initializer_bytes.to_string()));
            rows.push(("flops".into(), onnx.flops.clone()));
            rows.push(("bytes".into(), onnx.bytes.clone()));
        }
        for (i, (k, v)) in rows.iter().enumerate() {
            summary.write_string_with_format(i as u32, 0, k, &bold)?;
            summary.write_string(i as u32, 1, v)?;
        }
        let passes = book.add_worksheet().set_name("passes")?;
        for (c, h) in ["pass", "wall ms", "ops before", "ops after", "added", "removed", "rewrites"].iter().enumerate()
        {
            passes.write_string_with_format(0, c as u16, *h, &bold)?;
        }
        for (r, p) in self.passes.iter().enumerate() {
            let r = r as u32 + 1;
            passes.write_string(r, 0, &p.pass)?;
            passes.write_number(r, 1, p.wall_ms)?;
            passes.write_number(r, 2, p.ops_before as f64)?;
            passes.write_number(r, 3, p.ops_after as f64)?;
            passes.write_number(r, 4, p.added as f64)?;
            passes.write_number(r, 5, p.removed as f64)?;
            passes.write_string(r, 6, counts_text(&p.rewrites))?;
        }
        let lowering = book.add_worksheet().set_name("lowering")?;
        for (c, h) in
            ["aten op", "count", "onnx nodes", "onnx nodes lowered", "onnx ops lowered", "rule"].iter().enumerate()
        {
            lowering.write_string_with_format(0, c as u16, *h, &bold)?;
        }
        for (r, l) in self.lowering.iter().enumerate() {
            let r = r as u32 + 1;
            lowering.write_string(r, 0, &l.aten_op)?;
            lowering.write_number(r, 1, l.count as f64)?;
            lowering.write_number(r, 2, l.onnx_nodes as f64)?;
            lowering.write_number(r, 3, l.onnx_nodes_lowered as f64)?;
            lowering.write_string(r, 4, counts_text(&l.onnx_ops_lowered))?;
            lowering.write_string(r, 5, l.rule.as_deref().unwrap_or("(built-in)"))?;
        }
        let optimizer = book.add_worksheet().set_name("optimizer")?;
        for (c, h) in ["function", "stop", "iterations", "ops before", "ops after", "enodes", "eclasses", "regions"]
            .iter()
            .enumerate()
        {
            optimizer.write_string_with_format(0, c as u16, *h, &bold)?;
        }
        let runs = self.optimizer.iter().flat_map(|o| o.runs.iter());
        let mut row = 1;
        for run in runs {
            optimizer.write_string(row, 0, &run.function)?;
            optimizer.write_string(row, 1, &run.stop)?;
            for (c, n) in [run.iterations, run.ops_before, run.ops_after, run.enodes, run.eclasses, run.regions]
                .into_iter()
                .enumerate()
            {
                optimizer.write_number(row, c as u16 + 2, n as f64)?;
            }
            row += 1;
        }
        row += 1;
        optimizer.write_string_with_format(row, 0, "rule", &bold)?;
        optimizer.write_string_with_format(row, 1, "applied", &bold)?;
        for rule in self.optimizer.iter().flat_map(|o| o.rules.iter()) {
            row += 1;
            optimizer.write_string(row, 0, &rule.rule)?;
            optimizer.write_number(row, 1, rule.applied as f64)?;
        }
        let ops = book.add_worksheet().set_name("onnx op types")?;
        for (c, h) in ["op type", "count", "flops", "bytes"].iter().enumerate() {
            ops.write_string_with_format(0, c as u16, *h, &bold)?;
        }
        for (r, o) in self.onnx.iter().flat_map(|o| o.op_types.iter()).enumerate() {
            let r = r as u32 + 1;
            ops.write_string(r, 0, &o.op_type)?;
            ops.write_number(r, 1, o.count as f64)?;
            ops.write_string(r, 2, &o.flops)?;
            ops.write_string(r, 3, &o.bytes)?;
        }
        let unsupported = book.add_worksheet().set_name("unsupported")?;
        unsupported.write_string_with_format(0, 0, "aten op", &bold)?;
        unsupported.write_string_with_format(0, 1, "count", &bold)?;
        for (r, u) in self.unsupported.iter().enumerate() {
            unsupported.write_string(r as u32 + 1, 0, &u.op)?;
            unsupported.write_number(r as u32 + 1, 1, u.count as f64)?;
        }
        let decomposed = book.add_worksheet().set_name("decomposed")?;
        for (c, h) in ["aten op", "count", "by", "nodes", "into"].iter().enumerate() {
            decomposed.write_string_with_format(0, c as u16, *h, &bold)?;
        }
        for (r, d) in self.decomposed.iter().enumerate() {
            let r = r as u32 + 1;
            decomposed.write_string(r, 0, &d.op)?;
            decomposed.write_number(r, 1, d.count as f64)?;
            decomposed.write_string(r, 2, &d.by)?;
            decomposed.write_number(r, 3, d.nodes as f64)?;
            decomposed.write_string(r, 4, counts_text(&d.into))?;
        }
        if let Some(v) = &self.verify {
            let sheet = book.add_worksheet().set_name("verify")?;
            for (c, h) in ["output", "max abs error", "max rel error", "ok"].iter().enumerate() {
                sheet.write_string_with_format(0, c as u16, *h, &bold)?;
            }
            let mut row = 0;
            for o in &v.outputs {
                row += 1;
                sheet.write_string(row, 0, &o.name)?;
                sheet.write_string(row, 1, float_text(o.max_abs))?;
                sheet.write_string(row, 2, float_text(o.max_rel))?;
                sheet.write_boolean(row, 3, o.ok)?;
            }
            row += 2;
            sheet.write_string_with_format(row, 0, "first divergence", &bold)?;
            match &v.divergence {
                Some(d) => {
                    sheet.write_string(
                        row,
                        1,
                        format!("{} ({}), rule {}, at {}", d.node, d.aten_op, d.rule, d.source),
                    )?;
                    sheet.write_string(row, 2, float_text(d.max_abs))?;
                }
                None if v.bisected => {
                    sheet.write_string(row, 1, "none found")?;
                }
                None => {
                    sheet.write_string(row, 1, "(not bisected: every output within tolerance)")?;
                }
            }
        }
        book.save_to_buffer()
    }

    /// The `--stats` table for a terminal.
    pub fn render_table(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "aten2onnx {}: {} ({}), total {:.1} ms (load {:.1}, passes {:.1}, write {:.1})\n",
            self.tool_version,
            self.input,
            self.status,
            self.timings_ms.total,
            self.timings_ms.load,
            self.timings_ms.passes,
            self.timings_ms.write
        ));
        out.push_str(&format!(
            "\n{:<44} {:>10} {:>8} {:>8} {:>8} {:>8}\n",
            "pass", "ms", "before", "after", "added", "removed"
        ));
        for p in &self.passes {
            out.push_str(&format!(
                "{:<44} {:>10.2} {:>8} {:>8} {:>8} {:>8}\n",
                p.pass, p.wall_ms, p.ops_before, p.ops_after, p.added, p.removed
            ));
        }
        if let Some(o) = &self.optimizer {
            for run in &o.runs {
                out.push_str(&format!(
                    "\nonnx-eqsat @{}: {}, {} iterations, {} e-nodes, {} e-classes, ops {} -> {}, {} rule applications\n",
                    run.function,
                    run.stop,
                    run.iterations,
                    run.enodes,
                    run.eclasses,
                    run.ops_before,
                    run.ops_after,
                    run.applied.values().sum::<usize>()
                ));
                if run.extract == "ilp" {
                    out.push_str(&format!(
                        "  extraction ilp: {}, cost {} (greedy {})\n",
                        run.ilp_status,
                        run.cost_ilp.unwrap_or_default(),
                        run.cost_greedy.unwrap_or_default()
                    ));
                }
            }
            for r in &o.rules {
                out.push_str(&format!("  {:<50} {:>6}\n", r.rule, r.applied));
            }
        }
        if !self.decomposed.is_empty() {
            out.push_str("\ndecomposed (aten op x count -> nodes, by):\n");
            for d in &self.decomposed {
                out.push_str(&format!("  {} x{} -> {} ({}), {}\n", d.op, d.count, d.nodes, counts_text(&d.into), d.by));
            }
        }
        if let Some(onnx) = &self.onnx {
            out.push_str(&format!(
                "\nONNX: {} nodes ({} in the main graph), {} initializers ({} bytes), ~{} FLOPs, ~{} bytes moved\n",
                onnx.nodes, onnx.graph_nodes, onnx.initializers, onnx.initializer_bytes, onnx.flops, onnx.bytes
            ));
            out.push_str(&format!("{:<28} {:>6}  {:<30} {}\n", "op type", "count", "flops", "bytes"));
            for o in &onnx.op_types {
                out.push_str(&format!("{:<28} {:>6}  {:<30} {}\n", o.op_type, o.count, o.flops, o.bytes));
            }
        }
        if !self.unsupported.is_empty() {
            out.push_str("\nwithout a lowering:\n");
            for u in &self.unsupported {
                out.push_str(&format!("  {} x{}\n", u.op, u.count));
            }
        }
        if let Some(v) = &self.verify {
            out.push_str(&format!("\nverify ({}):\n", if v.ok { "ok" } else { "MISMATCH" }));
            for o in &v.outputs {
                out.push_str(&format!(
                    "  {:<30} max abs {:<12} max rel {:<12} {}\n",
                    o.name,
                    float_text(o.max_abs),
                    float_text(o.max_rel),
                    if o.ok { "ok" } else { "MISMATCH" }
                ));
            }
            if let Some(d) = &v.divergence {
                out.push_str(&format!(
                    "  first divergence: node '{}' ({}), rule {}, at {}: max abs {}\n",
                    d.node,
                    d.aten_op,
                    d.rule,
                    d.source,
                    float_text(d.max_abs)
                ));
            } else if v.bisected {
                out.push_str("  first divergence: none found\n");
            }
        }
        if let Some(e) = &self.error {
            out.push_str(&format!("\nerror: {e}\n"));
        }
        out
    }
}

/// `Op:2, Mul:1` (by name).
fn counts_text(counts: &BTreeMap<String, usize>) -> String {
    counts.iter().map(|(k, n)| format!("{k}:{n}")).collect::<Vec<_>>().join(", ")
}

/// A float for tables; `inf` when not finite (JSON null).
fn float_text(x: Option<f64>) -> String {
    x.map_or_else(|| "inf".to_string(), |x| format!("{x:.3e}"))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Op counts by op name under `root` (the module and functions themselves,
/// and their terminators, not counted).
pub fn op_counts(root: OperationRef<'_, '_>) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    ir::walk(root, &mut |op| {
        let name = ir::op_name(op);
        if !matches!(name.as_str(), "builtin.module" | "func.func" | "func.return") {
            *counts.entry(name).or_insert(0) += 1;
        }
    });
    counts
}

/// Each pass of `pipeline` as its own one-pass pipeline (nested passes keep
/// their anchor), so that each can be timed and its effect counted.
pub fn split_pipeline(pipeline: &Pipeline) -> Vec<(String, Pipeline)> {
    fn text(e: &Element) -> String {
        match e {
            Element::Pass { name, options } if options.is_empty() => name.clone(),
            Element::Pass { name, options } => format!("{name}{{{options}}}"),
            Element::Nested { anchor, elements } => {
                format!("{anchor}({})", elements.iter().map(text).collect::<Vec<_>>().join(", "))
            }
        }
    }
    let mut out = Vec::new();
    for element in &pipeline.elements {
        match element {
            Element::Nested { anchor, elements } => {
                for inner in elements {
                    let e = Element::Nested { anchor: anchor.clone(), elements: vec![inner.clone()] };
                    out.push((text(&e), Pipeline { anchor: pipeline.anchor.clone(), elements: vec![e] }));
                }
            }
            pass => out.push((text(pass), Pipeline { anchor: pipeline.anchor.clone(), elements: vec![pass.clone()] })),
        }
    }
    out
}

/// Runs `pipeline` pass by pass with the registry verifiers after each,
/// recording each pass in `report`; stops at the first failure.
pub fn run_pipeline(
    context: &Context,
    module: &mut Module,
    path: &str,
    pipeline: &str,
    report: &mut Report,
) -> Result<(), Error> {
    let collector = DiagnosticCollector::attach(context);
    let parsed = Pipeline::parse(pipeline)?;
    for (name, single) in split_pipeline(&parsed) {
        // The registry verifiers run after the pass, outside its wall time.
        let manager = single.build(context, false)?;
        let pass_name = single_pass_name(&single).map(str::to_string);
        if pass_name.as_deref() == Some("convert-aten-to-onnx") {
            // What the lowering sees: after aten-decompose, ops without a
            // rule are those it cannot lower.
            let (counts, unsupported) = aten_inventory(module, report.options.opset);
            report.aten_before_lowering = Some(counts);
            report.unsupported = unsupported;
        }
        let nodes_before = if pass_name.as_deref() == Some("aten-decompose") { aten_nodes(module) } else { Vec::new() };
        let before = op_counts(module.as_operation());
        let start = Instant::now();
        let ran = manager.run(module).is_ok();
        let wall = ms(start.elapsed());
        let ok = ran && aten2onnx_passes::verify_dialects(module.as_operation()).is_ok();
        let after = op_counts(module.as_operation());
        let mut record = pass_record(&name, wall, &before, &after);
        if ok && pass_name.as_deref() == Some("aten-decompose") {
            report.decomposed.extend(aten_decompositions(&nodes_before, &before, &after, module));
        }
        if ok && pass_name.as_deref() == Some("convert-aten-to-onnx") {
            report.lowered_by_aten = onnx_ops_by_aten(module);
        }
        if ok && pass_name.as_deref() == Some("onnx-eqsat") {
            let runs = eqsat_runs(module);
            for run in &runs {
                for (rule, n) in &run.applied {
                    *record.rewrites.entry(rule.clone()).or_insert(0) += n;
                }
            }
            report.optimizer.get_or_insert_with(OptimizerStats::default).add_runs(runs);
        }
        report.passes.push(record);
        if !ok {
            return Err(Error::PassFailed { path: path.to_string(), diagnostics: render(&collector.take()) });
        }
    }
    Ok(())
}

/// The name of the one pass of a pipeline made by [`split_pipeline`].
fn single_pass_name(pipeline: &Pipeline) -> Option<&str> {
    let mut element = pipeline.elements.first()?;
    loop {
        match element {
            Element::Pass { name, .. } => return Some(name),
            Element::Nested { elements, .. } => element = elements.first()?,
        }
    }
}

/// Registered aten ops of `module`: (node name, op name).
fn aten_nodes(module: &Module) -> Vec<(String, String)> {
    let mut nodes = Vec::new();
    ir::walk(module.as_operation(), &mut |op| {
        let name = ir::op_name(op);
        if matches!(aten2onnx_passes::aten_ir::classify(&name), Ok(aten2onnx_passes::aten_ir::AtenOp::Registered(_))) {
            if let Some(node) = SourcePosition::of(op.location()).node {
                nodes.push((node, name));
            }
        }
    });
    nodes
}

/// What `aten-decompose` did: the registered aten ops whose count dropped,
/// and the aten ops built for them (named after the node they replace:
/// `<node>/decomposed`, nested rounds `<node>/decomposed/decomposed`, the
/// op giving the result `<node>` itself).
fn aten_decompositions(
    nodes_before: &[(String, String)],
    before: &BTreeMap<String, usize>,
    after: &BTreeMap<String, usize>,
    module: &Module,
) -> Vec<Decomposed> {
    let op_of: BTreeMap<&str, &str> = nodes_before.iter().map(|(n, o)| (n.as_str(), o.as_str())).collect();
    let mut into: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for (node, op) in aten_nodes(module) {
        let mut original = node.as_str();
        while let Some(stripped) = original.strip_suffix("/decomposed") {
            original = stripped;
        }
        // (The op giving the result keeps the node's own name.)
        if let Some(source) = op_of.get(original).filter(|source| **source != op) {
            *into.entry(source.to_string()).or_default().entry(op).or_insert(0) += 1;
        }
    }
    let registered = |name: &str| {
        matches!(aten2onnx_passes::aten_ir::classify(name), Ok(aten2onnx_passes::aten_ir::AtenOp::Registered(_)))
    };
    before
        .iter()
        .filter(|(op, _)| registered(op))
        .filter_map(|(op, &n)| {
            let dropped = n.saturating_sub(*after.get(op).unwrap_or(&0));
            (dropped > 0).then(|| {
                let into = into.remove(op).unwrap_or_default();
                Decomposed {
                    op: op.clone(),
                    count: dropped,
                    by: "aten-decompose".into(),
                    nodes: into.values().sum(),
                    into,
                }
            })
        })
        .collect()
}

/// ONNX nodes of `module` by the aten target their provenance names, then
/// by op type (`domain.Type` outside the default domain).
fn onnx_ops_by_aten(module: &Module) -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut from: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    ir::walk(module.as_operation(), &mut |op| {
        let name = ir::op_name(op);
        if name == onnx_ir::NONE_OP || name == onnx_ir::YIELD_OP {
            return;
        }
        if let Some((domain, op_type)) = onnx_ir::split_name(&name) {
            if let Some(aten_op) = SourcePosition::of(op.location()).aten_op {
                let key = if domain.is_empty() { op_type.to_string() } else { format!("{domain}.{op_type}") };
                *from.entry(aten_op).or_default().entry(key).or_insert(0) += 1;
            }
        }
    });
    from
}

/// The `onnx.eqsat` summaries `onnx-eqsat` left on the functions of `module`.
pub fn eqsat_runs(module: &Module) -> Vec<EqsatRun> {
    use melior::ir::attribute::{DictionaryAttribute, IntegerAttribute};
    let mut runs = Vec::new();
    ir::walk(module.as_operation(), &mut |op| {
        if ir::op_name(op) != "func.func" {
            return;
        }
        let Some(summary) = op
            .attribute(aten2onnx_passes::onnx_eqsat::SUMMARY_ATTR)
            .ok()
            .and_then(|a| DictionaryAttribute::try_from(a).ok())
        else {
            return;
        };
        let int = |key: &str| {
            summary
                .element_by_name(key)
                .and_then(|a| IntegerAttribute::try_from(a).ok())
                .map(|i| i.value().max(0) as usize)
                .unwrap_or(0)
        };
        let text = |key: &str| summary.element_by_name(key).and_then(ir::string_value).unwrap_or_default();
        let mut applied = BTreeMap::new();
        if let Some(dict) = summary.element_by_name("applied").and_then(|a| DictionaryAttribute::try_from(a).ok()) {
            for i in 0..dict.len() {
                if let Ok((name, value)) = dict.element(i) {
                    let n = IntegerAttribute::try_from(value).map(|v| v.value().max(0) as usize).unwrap_or(0);
                    applied.insert(ir::identifier_text(name), n);
                }
            }
        }
        runs.push(EqsatRun {
            function: op.attribute("sym_name").ok().and_then(ir::string_value).unwrap_or_default(),
            stop: text("stop"),
            iterations: int("iterations"),
            ops_before: int("ops_before"),
            ops_after: int("ops_after"),
            enodes: int("enodes"),
            eclasses: int("eclasses"),
            regions: int("regions"),
            region_stops: text("region_stops"),
            refused: text("refused"),
            applied,
            extract: Some(text("extract")).filter(|e| !e.is_empty()).unwrap_or_else(|| "greedy".into()),
            ilp_status: text("ilp_status"),
            cost_greedy: summary
                .element_by_name("cost_greedy")
                .and_then(|a| IntegerAttribute::try_from(a).ok())
                .map(|i| i.value()),
            cost_ilp: summary
                .element_by_name("cost_ilp")
                .and_then(|a| IntegerAttribute::try_from(a).ok())
                .map(|i| i.value()),
        });
    });
    runs
}

impl OptimizerStats {
    fn add_runs(&mut self, runs: Vec<EqsatRun>) {
        let mut totals: BTreeMap<String, usize> = self.rules.iter().map(|r| (r.rule.clone(), r.applied)).collect();
        for run in &runs {
            for (rule, n) in &run.applied {
                *totals.entry(rule.clone()).or_insert(0) += n;
            }
        }
        self.runs.extend(runs);
        self.applied_total = totals.values().sum();
        self.rules = totals.into_iter().map(|(rule, applied)| RuleApplications { rule, applied }).collect();
        self.rules.sort_by(|a, b| b.applied.cmp(&a.applied).then(a.rule.cmp(&b.rule)));
    }
}

fn pass_record(
    name: &str,
    wall_ms: f64,
    before: &BTreeMap<String, usize>,
    after: &BTreeMap<String, usize>,
) -> PassRecord {
    let mut delta_by_op = BTreeMap::new();
    let (mut added, mut removed) = (0, 0);
    for op in before.keys().chain(after.keys()) {
        let d = *after.get(op).unwrap_or(&0) as i64 - *before.get(op).unwrap_or(&0) as i64;
        if d != 0 && !delta_by_op.contains_key(op) {
            delta_by_op.insert(op.clone(), d);
            if d > 0 {
                added += d as usize;
            } else {
                removed += (-d) as usize;
            }
        }
    }
    PassRecord {
        pass: name.to_string(),
        wall_ms,
        ops_before: before.values().sum(),
        ops_after: after.values().sum(),
        added,
        removed,
        delta_by_op,
        rewrites: BTreeMap::new(),
    }
}

/// Aten ops (by target) of a module before lowering, and those without a
/// rule at `opset`.
pub fn aten_inventory(module: &Module, opset: u32) -> (BTreeMap<String, usize>, Vec<OpCount>) {
    let mut counts = BTreeMap::new();
    for (name, n) in op_counts(module.as_operation()) {
        if matches!(aten2onnx_passes::aten_ir::classify(&name), Ok(aten2onnx_passes::aten_ir::AtenOp::Registered(_))) {
            counts.insert(name, n);
        }
    }
    let unsupported = counts
        .iter()
        .filter(|(name, _)| !aten2onnx_passes::lowering::rule(name).is_some_and(|r| r.supports(opset)))
        .map(|(op, &count)| OpCount { op: op.clone(), count })
        .collect();
    (counts, unsupported)
}

/// Per aten target: its count, the ONNX nodes its lowering emitted
/// (`lowered_by_aten`, from [`run_pipeline`]) and how many ONNX nodes of
/// the final module came from it (their location names the aten op); and
/// the targets decomposed into more than one node per op.
pub fn lowering_records(
    aten: &BTreeMap<String, usize>,
    lowered_by_aten: &BTreeMap<String, BTreeMap<String, usize>>,
    lowered: &Module,
) -> (Vec<RuleRecord>, Vec<Decomposed>) {
    let from: BTreeMap<String, usize> =
        onnx_ops_by_aten(lowered).into_iter().map(|(aten_op, by_type)| (aten_op, by_type.values().sum())).collect();
    let mut records = Vec::new();
    let mut decomposed = Vec::new();
    for (op, &count) in aten {
        let onnx_ops_lowered = lowered_by_aten.get(op).cloned().unwrap_or_default();
        let onnx_nodes_lowered = onnx_ops_lowered.values().sum();
        // (Constants a rule adds for attributes-as-inputs, e.g. axes, do
        // not make a decomposition.)
        let computing: usize = onnx_ops_lowered.iter().filter(|(t, _)| *t != "Constant").map(|(_, n)| n).sum();
        if computing > count {
            decomposed.push(Decomposed {
                op: op.clone(),
                count,
                by: "lowering".into(),
                into: onnx_ops_lowered.clone(),
                nodes: onnx_nodes_lowered,
            });
        }
        records.push(RuleRecord {
            aten_op: op.clone(),
            rule: aten2onnx_passes::lowering::rule_file(op),
            count,
            onnx_nodes_lowered,
            onnx_ops_lowered,
            onnx_nodes: *from.get(op).unwrap_or(&0),
        });
    }
    (records, decomposed)
}

/// A main-graph `onnx.Constant` with only a `value` attribute that is not
/// returned: the writer makes it an initializer
/// (`export::constants_to_initializers`).
fn written_as_initializer(op: melior::ir::OperationRef<'_, '_>) -> bool {
    use melior::ir::{operation::OperationLike, ValueLike};
    if ir::op_name(op) != "onnx.Constant"
        || op.attribute_count() != 1
        || op.attribute("value").is_err()
        || !op.parent_operation().is_some_and(|p| ir::op_name(p) == "func.func")
    {
        return false;
    }
    let Some(result) = ir::result_at(op, 0) else { return false };
    let mut use_ = unsafe { mlir_sys::mlirValueGetFirstUse(result.to_raw()) };
    while !use_.ptr.is_null() {
        let owner = unsafe { melior::ir::OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(use_)) };
        if ir::op_name(owner) == "func.return" {
            return false;
        }
        use_ = unsafe { mlir_sys::mlirOpOperandGetNextUse(use_) };
    }
    true
}

/// Node counts, FLOPs and bytes of an onnx-dialect module.
pub fn onnx_stats(module: &Module) -> OnnxStats {
    let mut by_type: BTreeMap<String, (usize, Poly, Poly)> = BTreeMap::new();
    let mut stats = OnnxStats::default();
    ir::walk(module.as_operation(), &mut |op| {
        let name = ir::op_name(op);
        if onnx_ir::is_weight_op(&name) {
            // A weight transform is an initializer the writer computes (its
            // sources, when used only by transforms, are not written: the
            // counts here are an upper bound).
            stats.initializers += 1;
            if let Some(result) = ir::result_at(op, 0) {
                if let Some(b) = tensor_bytes(result.r#type()).constant() {
                    stats.initializer_bytes += b.max(0) as u64;
                }
            }
            return;
        }
        // (The terminator of a subgraph region is no ONNX node.)
        if name == onnx_ir::NONE_OP || name == onnx_ir::YIELD_OP {
            return;
        }
        if written_as_initializer(op) {
            stats.initializers += 1;
            if let Some(b) = ir::result_at(op, 0).and_then(|r| tensor_bytes(r.r#type()).constant()) {
                stats.initializer_bytes += b.max(0) as u64;
            }
            return;
        }
        let Some((domain, op_type)) = onnx_ir::split_name(&name) else { return };
        let key = if domain.is_empty() { op_type.to_string() } else { format!("{domain}.{op_type}") };
        if op.parent_operation().is_some_and(|p| ir::op_name(p) == "func.func") {
            stats.graph_nodes += 1;
        }
        let entry = by_type.entry(key).or_insert_with(|| (0, Poly::default(), Poly::default()));
        entry.0 += 1;
        entry.1.add(&flops(op_type, op));
        entry.2.add(&node_bytes(op));
    });
    let (mut total_flops, mut total_bytes) = (Poly::default(), Poly::default());
    for (op_type, (count, f, b)) in by_type {
        stats.nodes += count;
        total_flops.add(&f);
        total_bytes.add(&b);
        stats.op_types.push(OpTypeStats { op_type, count, flops: f.to_string(), bytes: b.to_string() });
    }
    stats.op_types.sort_by(|a, b| b.count.cmp(&a.count).then(a.op_type.cmp(&b.op_type)));
    stats.flops = total_flops.to_string();
    stats.bytes = total_bytes.to_string();
    stats
}

/// A polynomial with integer coefficients over symbolic dims: each term is a
/// sorted list of factors (symbol texts such as `s77`, `?` for an unknown
/// dim) and its coefficient.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Poly(BTreeMap<Vec<String>, i128>);

impl Poly {
    pub fn constant_of(c: i128) -> Poly {
        let mut p = Poly::default();
        if c != 0 {
            p.0.insert(Vec::new(), c);
        }
        p
    }

    pub fn add(&mut self, other: &Poly) {
        for (term, c) in &other.0 {
            let e = self.0.entry(term.clone()).or_insert(0);
            *e = e.saturating_add(*c);
            if *e == 0 {
                self.0.remove(term);
            }
        }
    }

    pub fn mul(&self, other: &Poly) -> Poly {
        let mut out = Poly::default();
        for (t1, c1) in &self.0 {
            for (t2, c2) in &other.0 {
                let mut term: Vec<String> = t1.iter().chain(t2.iter()).cloned().collect();
                term.sort();
                out.add(&Poly(BTreeMap::from([(term, c1.saturating_mul(*c2))])));
            }
        }
        out
    }

    pub fn scale(&self, k: i128) -> Poly {
        self.mul(&Poly::constant_of(k))
    }

    fn symbol(s: &str) -> Poly {
        Poly(BTreeMap::from([(vec![s.to_string()], 1)]))
    }

    /// The value when it has no symbols.
    pub fn constant(&self) -> Option<i128> {
        match self.0.len() {
            0 => Some(0),
            1 => self.0.get(&Vec::new()).copied(),
            _ => None,
        }
    }
}

impl fmt::Display for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return write!(f, "0");
        }
        // Highest degree first.
        let mut terms: Vec<_> = self.0.iter().collect();
        terms.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
        for (i, (term, c)) in terms.into_iter().enumerate() {
            if i > 0 {
                write!(f, " + ")?;
            }
            let factors: Vec<String> = term
                .iter()
                .map(|s| if s.contains(['+', '-', '*', '/', ' ']) { format!("({s})") } else { s.clone() })
                .collect();
            match (factors.is_empty(), *c) {
                (true, c) => write!(f, "{c}")?,
                (false, 1) => write!(f, "{}", factors.join("*"))?,
                (false, c) => write!(f, "{c}*{}", factors.join("*"))?,
            }
        }
        Ok(())
    }
}

/// Element count of a tensor type as a polynomial (dynamic dims by the
/// symbols of the type's encoding, `?` when unknown).
fn numel(ty: Type<'_>) -> Poly {
    let Some(dims) = type_dims(ty) else { return Poly::symbol("?") };
    let mut symbols = symbols_of(ty).into_iter();
    let mut p = Poly::constant_of(1);
    for d in dims {
        p = match d {
            Some(n) => p.scale(n as i128),
            None => {
                let symbol = symbols.next().flatten().filter(|s| !s.is_empty()).unwrap_or_else(|| "?".into());
                p.mul(&Poly::symbol(&symbol))
            }
        };
    }
    p
}

fn symbols_of(ty: Type<'_>) -> Vec<Option<String>> {
    unsafe {
        let encoding = mlir_sys::mlirRankedTensorTypeGetEncoding(ty.to_raw());
        if encoding.ptr.is_null() || !mlir_sys::mlirAttributeIsAArray(encoding) {
            return Vec::new();
        }
        (0..mlir_sys::mlirArrayAttrGetNumElements(encoding))
            .map(|i| ir::string_value(melior::ir::Attribute::from_raw(mlir_sys::mlirArrayAttrGetElement(encoding, i))))
            .collect()
    }
}

fn element_bytes(ty: Type<'_>) -> i128 {
    let Some(e) = element_type(ty) else { return 0 };
    unsafe {
        let raw = e.to_raw();
        if mlir_sys::mlirTypeIsAInteger(raw) {
            (mlir_sys::mlirIntegerTypeGetWidth(raw) as i128 + 7) / 8
        } else if mlir_sys::mlirTypeIsAF64(raw) {
            8
        } else if mlir_sys::mlirTypeIsAF16(raw) || mlir_sys::mlirTypeIsABF16(raw) {
            2
        } else if mlir_sys::mlirTypeIsAComplex(raw) {
            8
        } else {
            4
        }
    }
}

fn tensor_bytes(ty: Type<'_>) -> Poly {
    if element_type(ty).is_none() {
        return Poly::default();
    }
    numel(ty).scale(element_bytes(ty))
}

/// Bytes a node reads and writes: all tensor operands and results.
fn node_bytes(op: OperationRef<'_, '_>) -> Poly {
    let mut p = Poly::default();
    for v in op.operands() {
        p.add(&tensor_bytes(v.r#type()));
    }
    for r in op.results() {
        p.add(&tensor_bytes(r.r#type()));
    }
    p
}

/// Estimated floating-point operations of one node: multiply-adds count 2
/// (MatMul, Gemm, Conv, ConvTranspose, Einsum-free contractions), data
/// movement and shape ops 0, everything else one per output element (per
/// input element for reductions and normalizations, five per element for
/// Softmax/LayerNormalization-style ops).
pub fn flops(op_type: &str, op: OperationRef<'_, '_>) -> Poly {
    let operand = |i: usize| ir::operand_at(op, i).map(|v| v.r#type());
    let result = ir::result_at(op, 0).map(|r| r.r#type());
    let out = result.map(numel).unwrap_or_default();
    match op_type {
        "MatMul" | "MatMulInteger" | "Gemm" => {
            // K: the last dim of A (the first when Gemm transposes A).
            let Some(a) = operand(0) else { return out };
            let dims = type_dims(a).unwrap_or_default();
            let trans_a = op_type == "Gemm"
                && op
                    .attribute("transA")
                    .ok()
                    .and_then(aten2onnx_passes::lowering::args::number)
                    .is_some_and(|n| n.as_f64() != 0.0);
            let k_index = if trans_a { dims.len().saturating_sub(2) } else { dims.len().saturating_sub(1) };
            let k = match dims.get(k_index) {
                Some(Some(k)) => Poly::constant_of(*k as i128),
                Some(None) => {
                    let dynamic_before = dims[..k_index].iter().filter(|d| d.is_none()).count();
                    Poly::symbol(&symbols_of(a).get(dynamic_before).cloned().flatten().unwrap_or_else(|| "?".into()))
                }
                None => Poly::constant_of(1),
            };
            out.mul(&k).scale(2)
        }
        "Conv" | "ConvInteger" | "QLinearConv" => {
            let Some(w) = operand(1) else { return out };
            let per_output: i128 =
                type_dims(w).unwrap_or_default().iter().skip(1).map(|d| d.unwrap_or(1) as i128).product();
            out.scale(2 * per_output)
        }
        "ConvTranspose" => {
            let (Some(x), Some(w)) = (operand(0), operand(1)) else { return out };
            let per_input: i128 =
                type_dims(w).unwrap_or_default().iter().skip(1).map(|d| d.unwrap_or(1) as i128).product();
            numel(x).scale(2 * per_input)
        }
        "Reshape" | "Transpose" | "Squeeze" | "Unsqueeze" | "Flatten" | "Identity" | "Shape" | "Size" | "Constant"
        | "ConstantOfShape" | "Gather" | "GatherElements" | "GatherND" | "Concat" | "Split" | "Slice" | "Expand"
        | "Tile" | "Cast" | "CastLike" | "Pad" | "ScatterElements" | "ScatterND" | "Range" | "NonZero"
        | "DepthToSpace" | "SpaceToDepth" => Poly::default(),
        t if t.starts_with("Reduce") || t.starts_with("Arg") || t.starts_with("Cum") => {
            operand(0).map(numel).unwrap_or_default()
        }
        "Softmax"
        | "LogSoftmax"
        | "LayerNormalization"
        | "RMSNormalization"
        | "GroupNormalization"
        | "InstanceNormalization"
        | "BatchNormalization" => operand(0).map(numel).unwrap_or_default().scale(5),
        _ => out,
    }
}

/// What [`convert_with_report`] returns besides the report.
pub type Converted = crate::export::ExportReport;

/// Times a stage and adds its duration to `slot`.
pub fn timed<T>(slot: &mut f64, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let value = f();
    *slot += ms(start.elapsed());
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polynomials_print_by_degree() {
        let mut p = Poly::symbol("s0").mul(&Poly::symbol("s1")).scale(128);
        p.add(&Poly::symbol("s0").scale(4));
        p.add(&Poly::constant_of(7));
        assert_eq!(p.to_string(), "128*s0*s1 + 4*s0 + 7");
        assert_eq!(Poly::symbol("2*s0").to_string(), "(2*s0)");
        assert_eq!(Poly::default().to_string(), "0");
        assert_eq!(Poly::constant_of(12).constant(), Some(12));
        assert_eq!(p.constant(), None);
    }

    #[test]
    fn pipeline_splits_into_single_passes() {
        let p = Pipeline::parse("builtin.module(a, b{x=1}, func.func(c, d))").unwrap();
        let names: Vec<String> = split_pipeline(&p).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["a", "b{x=1}", "func.func(c)", "func.func(d)"]);
    }
}
