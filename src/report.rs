//! The export report (`aten-translate --to-onnx ... --report FILE` and
//! `--stats`): what the conversion did and what it produced.
//!
//! - per pass: wall time, ops before/after, ops added/removed by op name;
//! - per lowering rule: aten ops lowered and ONNX nodes they became (from
//!   the provenance `convert-aten-to-onnx` records in locations);
//! - the ONNX graph: node counts per op type with estimated FLOPs and bytes
//!   moved, as polynomials in the symbolic dims when shapes are dynamic;
//! - options, opset, timings, ops without a lowering, and the error when
//!   the conversion failed (the report is written either way).
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
pub const SCHEMA_VERSION: &str = "1.0";

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
    pub onnx: Option<OnnxStats>,
    /// Statistics of the equality-saturation optimizer, when it ran.
    pub optimizer: Option<serde_json::Value>,
    /// `--verify`'s per-output comparison, when it ran.
    pub verify: Option<serde_json::Value>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct ReportOptions {
    pub opset: u32,
    pub external_data: String,
    pub debug_info: bool,
    pub pipeline: String,
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
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct RuleRecord {
    pub aten_op: String,
    /// Aten ops of this target in the program.
    pub count: usize,
    /// ONNX nodes they became in the final graph (after folding and CSE).
    pub onnx_nodes: usize,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct OpCount {
    pub op: String,
    pub count: usize,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct OnnxStats {
    pub nodes: usize,
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
            ("pipeline".into(), self.options.pipeline.clone()),
            ("total ms".into(), format!("{:.3}", self.timings_ms.total)),
        ];
        if let Some(onnx) = &self.onnx {
            rows.push(("onnx nodes".into(), onnx.nodes.to_string()));
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
        for (c, h) in ["pass", "wall ms", "ops before", "ops after", "added", "removed"].iter().enumerate() {
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
        }
        let lowering = book.add_worksheet().set_name("lowering")?;
        for (c, h) in ["aten op", "count", "onnx nodes"].iter().enumerate() {
            lowering.write_string_with_format(0, c as u16, *h, &bold)?;
        }
        for (r, l) in self.lowering.iter().enumerate() {
            let r = r as u32 + 1;
            lowering.write_string(r, 0, &l.aten_op)?;
            lowering.write_number(r, 1, l.count as f64)?;
            lowering.write_number(r, 2, l.onnx_nodes as f64)?;
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
        out.push_str(&format!("\n{:<44} {:>10} {:>8} {:>8} {:>8} {:>8}\n", "pass", "ms", "before", "after", "added", "removed"));
        for p in &self.passes {
            out.push_str(&format!(
                "{:<44} {:>10.2} {:>8} {:>8} {:>8} {:>8}\n",
                p.pass, p.wall_ms, p.ops_before, p.ops_after, p.added, p.removed
            ));
        }
        if let Some(onnx) = &self.onnx {
            out.push_str(&format!(
                "\nONNX: {} nodes, {} initializers ({} bytes), ~{} FLOPs, ~{} bytes moved\n",
                onnx.nodes, onnx.initializers, onnx.initializer_bytes, onnx.flops, onnx.bytes
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
        if let Some(e) = &self.error {
            out.push_str(&format!("\nerror: {e}\n"));
        }
        out
    }
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
        let manager = single.build(context, true)?;
        let before = op_counts(module.as_operation());
        let start = Instant::now();
        let ok = manager.run(module).is_ok() && aten2onnx_passes::verify_dialects(module.as_operation()).is_ok();
        let wall = ms(start.elapsed());
        let after = op_counts(module.as_operation());
        report.passes.push(pass_record(&name, wall, &before, &after));
        if !ok {
            return Err(Error::PassFailed { path: path.to_string(), diagnostics: render(&collector.take()) });
        }
    }
    Ok(())
}

fn pass_record(name: &str, wall_ms: f64, before: &BTreeMap<String, usize>, after: &BTreeMap<String, usize>) -> PassRecord {
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

/// Per aten target: its count, and how many ONNX nodes of the lowered
/// module came from it (their location names the aten op).
pub fn lowering_records(aten: &BTreeMap<String, usize>, lowered: &Module) -> Vec<RuleRecord> {
    let mut from: BTreeMap<String, usize> = BTreeMap::new();
    ir::walk(lowered.as_operation(), &mut |op| {
        if onnx_ir::split_name(&ir::op_name(op)).is_some() {
            if let Some(aten_op) = SourcePosition::of(op.location()).aten_op {
                *from.entry(aten_op).or_insert(0) += 1;
            }
        }
    });
    aten.iter()
        .map(|(op, &count)| RuleRecord { aten_op: op.clone(), count, onnx_nodes: *from.get(op).unwrap_or(&0) })
        .collect()
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
            if let Ok(result) = op.result(0) {
                if let Some(b) = tensor_bytes(result.r#type()).constant() {
                    stats.initializer_bytes += b.max(0) as u64;
                }
            }
            return;
        }
        if name == onnx_ir::NONE_OP {
            return;
        }
        let Some((domain, op_type)) = onnx_ir::split_name(&name) else { return };
        let key = if domain.is_empty() { op_type.to_string() } else { format!("{domain}.{op_type}") };
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
            let factors: Vec<String> =
                term.iter().map(|s| if s.contains(['+', '-', '*', '/', ' ']) { format!("({s})") } else { s.clone() }).collect();
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
    let operand = |i: usize| op.operand(i).ok().map(|v| v.r#type());
    let result = op.result(0).ok().map(|r| r.r#type());
    let out = result.map(numel).unwrap_or_default();
    match op_type {
        "MatMul" | "MatMulInteger" | "Gemm" => {
            // K: the last dim of A (the first when Gemm transposes A).
            let Some(a) = operand(0) else { return out };
            let dims = type_dims(a).unwrap_or_default();
            let trans_a = op_type == "Gemm"
                && op.attribute("transA").ok().and_then(aten2onnx_passes::lowering::args::number).is_some_and(|n| n.as_f64() != 0.0);
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
            let per_input: i128 = type_dims(w).unwrap_or_default().iter().skip(1).map(|d| d.unwrap_or(1) as i128).product();
            numel(x).scale(2 * per_input)
        }
        "Reshape" | "Transpose" | "Squeeze" | "Unsqueeze" | "Flatten" | "Identity" | "Shape" | "Size" | "Constant"
        | "ConstantOfShape" | "Gather" | "GatherElements" | "GatherND" | "Concat" | "Split" | "Slice" | "Expand"
        | "Tile" | "Cast" | "CastLike" | "Pad" | "ScatterElements" | "ScatterND" | "Range" | "NonZero" | "DepthToSpace"
        | "SpaceToDepth" => Poly::default(),
        t if t.starts_with("Reduce") || t.starts_with("Arg") || t.starts_with("Cum") => {
            operand(0).map(numel).unwrap_or_default()
        }
        "Softmax" | "LogSoftmax" | "LayerNormalization" | "RMSNormalization" | "GroupNormalization"
        | "InstanceNormalization" | "BatchNormalization" => operand(0).map(numel).unwrap_or_default().scale(5),
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
