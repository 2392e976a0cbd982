//! The ONNX writer: a module in the onnx dialect -> an ONNX model file.
//!
//! ```no_run
//! # fn f(module: &melior::ir::Module) -> Result<(), aten2onnx::Error> {
//! use aten2onnx::export::{ExportOptions, write_model};
//! let report = write_model(module, std::path::Path::new("model.onnx"), &ExportOptions::default())?;
//! println!("{} nodes, {} initializers ({} bytes)", report.nodes, report.initializers, report.initializer_bytes);
//! # Ok(()) }
//! ```
//!
//! - **Graph**: the module's `func.func @forward`. Inputs are its arguments,
//!   named by their `aten.name`; outputs are the returned values, named by
//!   their `aten.name`, or for mutations (`aten.kind` = `buffer_mutation`,
//!   `user_input_mutation`, `parameter_mutation`) by `aten.target`. Names
//!   are unique across the graph's values: graph inputs claim theirs first,
//!   then outputs, then initializers (their FQN), then intermediates (named
//!   after the op location's node name, else the op type), each taking
//!   `name_1`, `name_2`, ... on a collision. An output whose value is a graph
//!   input, an initializer or another output gets an `Identity`.
//! - **Nodes**: every `onnx.*` op in order (`onnx.ms.X` in domain
//!   com.microsoft, ...); `onnx.none` operands are empty input names;
//!   attributes per [`attrs`]; `onnx.initializer` ops become initializers,
//!   and so do the main graph's `onnx.Constant` ops with a `value` tensor
//!   (unless returned): a node fewer each, as other exporters write them.
//! - **Types**: inputs and outputs in full, ranked intermediates as
//!   `value_info`; dynamic dims as `dim_param` with readable names ([`dims`]).
//! - **Initializers** are streamed from the memory-mapped `.pt2` named by the
//!   module attribute `aten.archive` (a relative path is resolved against the
//!   working directory), never copied as a whole ([`stream`]); a strided
//!   (e.g. transposed) parameter is gathered in row-major order on the way.
//!   Pages of the archive are released once written ([`pages`]), so peak
//!   RSS does not grow with the model.
//! - **Weight transforms** (`onnx.weight_transform`: transpose, reshape,
//!   cast, concat, Conv+BatchNormalization fold) are initializers computed
//!   from their sources while they are streamed, a chunk at a time
//!   ([`transform`]); a source only transforms use is not written.
//! - **External data**: above protobuf's 2 GiB limit (or always, on
//!   request) the bytes go to `<model file name>.data` beside the model,
//!   at 64-byte (4096-byte for tensors of 1 MiB or more) aligned offsets.
//! - The output (and the data file) are written to temporary files renamed
//!   into place: an error never leaves a partial file.

mod attrs;
pub mod dims;
mod dtypes;
mod graph;
mod pages;
pub mod rtn;
mod stream;
mod transform;
mod weights;

use crate::{output::OutputFile, Error};
pub use graph::complex_view_note;
use melior::ir::operation::OperationLike;
use melior::ir::Module;
use onnx_protobuf::{GraphProto, ModelProto, OperatorSetIdProto, TensorProto};
use std::{
    io::{BufWriter, Write},
    path::{Path, PathBuf},
};
use stream::{Placement, Plan, Tensor};

/// Where initializer bytes go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExternalData {
    /// Inside the model, unless the model would exceed protobuf's 2 GiB
    /// message limit; then in `<model>.data`.
    #[default]
    Auto,
    /// Always in `<model>.data`.
    Always,
    /// Always inside the model; a model over 2 GiB is an error.
    Never,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    pub external_data: ExternalData,
    /// `ModelProto.producer_name` (default `aten2onnx`).
    pub producer_name: String,
    /// `ModelProto.producer_version` (default this crate's version).
    pub producer_version: String,
    /// Keep where each node came from (`NodeProto.doc_string` and
    /// `metadata_props`) and the source archive (`ModelProto.doc_string`);
    /// `--strip-debug-info` turns it off.
    pub debug_info: bool,
    /// `dim_param` names chosen by the caller, by symbol (`s77` ->
    /// `batch`); other symbols are named as [`dims`] describes.
    pub dim_names: std::collections::BTreeMap<String, String>,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            external_data: ExternalData::Auto,
            producer_name: "aten2onnx".to_string(),
            producer_version: env!("CARGO_PKG_VERSION").to_string(),
            debug_info: true,
            dim_names: Default::default(),
        }
    }
}

/// What [`write_model`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportReport {
    /// Graph nodes (including inserted `Identity` nodes).
    pub nodes: usize,
    pub initializers: usize,
    /// Total bytes of initializer data.
    pub initializer_bytes: u64,
    /// The external data file, when one was written.
    pub external_data_file: Option<PathBuf>,
    /// Graph inputs and outputs that hold a complex tensor as its real view
    /// (ONNX name, torch dtype): callers tell the user.
    pub complex_views: Vec<(String, String)>,
    /// Weights `onnx-quantize-weights` quantized (`--quantize-weights`).
    pub quantized_weights: i64,
}

/// The largest protobuf message (2 GiB - 1).
const PROTOBUF_LIMIT: u64 = i32::MAX as u64;

/// The ONNX IR version that goes with an `ai.onnx` opset (onnx's
/// `helper.VERSION_TABLE`: the first release with that opset).
pub fn ir_version_for_opset(opset: u32) -> i64 {
    match opset {
        0..=8 => 3,
        9 => 4,
        10 => 5,
        11 => 6,
        12..=14 => 7,
        15..=18 => 8,
        19 | 20 => 9,
        21 | 22 => 10,
        23 => 11,
        24 => 12,
        25..=27 => 13,
        _ => 14,
    }
}

/// The opset version imported for a non-default domain.
fn domain_version(domain: &str, ir_version: i64) -> i64 {
    match domain {
        // ai.onnx.ml 3 came with IR 8, 4 with IR 9, 5 with IR 10
        "ai.onnx.ml" => match ir_version {
            ..=8 => 3,
            9 => 4,
            _ => 5,
        },
        _ => 1,
    }
}

/// Writes `module` (onnx dialect) as an ONNX model to `output`.
pub fn write_model(module: &Module<'_>, output: &Path, options: &ExportOptions) -> Result<ExportReport, Error> {
    let fail = |message: String| Error::Export { path: output.to_path_buf(), message };
    // Problems of the module (the input), not of the output path.
    let source = aten2onnx_passes::ir::SourcePosition::of(module.as_operation().location())
        .file
        .filter(|f| !f.is_empty())
        .unwrap_or_else(|| "<module>".to_string());
    let bad_input = |message: String| Error::Import { path: source.clone(), message };
    let graph = graph::build(module, &options.dim_names).map_err(bad_input)?;

    let from_archive = graph.initializers.iter().flat_map(|i| i.leaves()).filter(|i| i.source.is_none()).count();
    let archive = match from_archive == 0 {
        true => None,
        false => {
            let path = graph.archive.as_deref().ok_or_else(|| {
                bad_input(format!(
                    "the module has {} onnx.initializer op(s) but no `aten.archive` attribute naming the .pt2 that holds them",
                    from_archive
                ))
            })?;
            // Only its tensors: the program was imported before (no JSON to parse again).
            Some(aten2onnx_pt2::Tensors::open(path)?)
        }
    };
    let pages = match &archive {
        Some(archive) => Some(
            pages::Pages::open(archive.path())
                .map_err(|source| Error::Io { path: archive.path().to_path_buf(), source })?,
        ),
        None => None,
    };
    // Initializers of an imported ONNX model: byte ranges of its files.
    // (Weight transforms read stored tensors that may not be written themselves.)
    let leaves: Vec<graph::Initializer> = graph.initializers.iter().flat_map(|i| i.leaves()).cloned().collect();
    let files = weights::SourceFiles::open(&leaves).map_err(bad_input)?;
    let mut tensors = Vec::with_capacity(graph.initializers.len());
    let mut initializer_bytes = 0u64;
    // A stored tensor (of the archive or of a file) as row-major data.
    let stored = |init: &graph::Initializer| -> Result<stream::Data<'_>, String> {
        if init.source.is_some() {
            return files.resolve(init);
        }
        let archive = archive.as_ref().expect("opened above");
        let data = weights::resolve(archive, init)?;
        Ok(match &pages {
            Some(pages) => pages.rebase(archive.bytes(), data.clone()).unwrap_or(data),
            None => data,
        })
    };
    for init in &graph.initializers {
        if init.transform.is_some() {
            // An onnx.weight_transform: computed while it is written.
            let data = transform::resolve(init, &stored).map_err(bad_input)?;
            initializer_bytes += data.len();
            let header = TensorProto {
                name: init.name.clone(),
                dims: init.dims.clone(),
                data_type: init.data_type,
                ..Default::default()
            };
            tensors.push(Tensor { header, data });
            continue;
        }
        if init.source.is_some() {
            let data = files.resolve(init).map_err(bad_input)?;
            initializer_bytes += data.len();
            let header = TensorProto {
                name: init.name.clone(),
                dims: init.dims.clone(),
                data_type: init.data_type,
                ..Default::default()
            };
            tensors.push(Tensor { header, data });
            continue;
        }
        let archive = archive.as_ref().expect("opened above");
        let data = weights::resolve(archive, init).map_err(bad_input)?;
        let data = match &pages {
            Some(pages) => pages.rebase(archive.bytes(), data.clone()).unwrap_or(data),
            None => data,
        };
        initializer_bytes += data.len();
        let header = TensorProto {
            name: init.name.clone(),
            dims: init.dims.clone(),
            data_type: init.data_type,
            ..Default::default()
        };
        tensors.push(Tensor { header, data });
    }

    // An imported ONNX model keeps its IR version (when newer) and the
    // versions of its other domains (module attributes `onnx.ir_version`,
    // `onnx.opset_import`).
    let module_op = module.as_operation();
    let imported_ir = module_op
        .attribute("onnx.ir_version")
        .ok()
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
        .map(|i| i.value());
    let ir_version = ir_version_for_opset(graph.opset).max(imported_ir.unwrap_or(0));
    dtypes::check(&graph.proto, ir_version, graph.opset).map_err(&bad_input)?;
    let headers = GraphProto { initializer: tensors.iter().map(|t| t.header.clone()).collect(), ..Default::default() };
    dtypes::check(&headers, ir_version, graph.opset).map_err(&bad_input)?;
    let imported_version = |domain: &str| -> Option<i64> {
        let dict = module_op.attribute("onnx.opset_import").ok()?;
        let dict = melior::ir::attribute::DictionaryAttribute::try_from(dict).ok()?;
        let value = dict.element_by_name(domain)?;
        melior::ir::attribute::IntegerAttribute::try_from(value).ok().map(|i| i.value())
    };
    let mut opset_import =
        vec![OperatorSetIdProto { domain: String::new(), version: graph.opset as i64, ..Default::default() }];
    for domain in &graph.domains {
        opset_import.push(OperatorSetIdProto {
            domain: domain.clone(),
            version: imported_version(domain).unwrap_or_else(|| domain_version(domain, ir_version)),
            ..Default::default()
        });
    }
    let complex_views = graph.complex_views.clone();
    let mut quantized_weights = 0;
    aten2onnx_passes::ir::walk(module.as_operation(), &mut |op| {
        quantized_weights +=
            aten2onnx_passes::ir::int_attribute(op, aten2onnx_passes::onnx_quantize_weights::SUMMARY_ATTR).unwrap_or(0);
    });
    let mut proto = graph.proto;
    let mut doc_string = String::new();
    if options.debug_info {
        // NodeProto.metadata_props exists from IR version 10 on.
        if ir_version < 10 {
            proto.node.iter_mut().for_each(|n| n.metadata_props.clear());
        }
        let source = graph.archive.as_deref().and_then(|a| Path::new(a).file_name()).and_then(|n| n.to_str());
        if let Some(source) = source {
            doc_string = format!("converted from {source} by {} {}", options.producer_name, options.producer_version);
        }
    } else {
        for node in &mut proto.node {
            node.doc_string.clear();
            node.metadata_props.clear();
        }
    }
    for constant in constants_to_initializers(&mut proto) {
        initializer_bytes += constant.raw_data.len() as u64;
        tensors.push(Tensor { header: constant, data: stream::Data::Contiguous(&[]) });
    }
    let nodes = proto.node.len();
    let initializers = tensors.len();
    let model = ModelProto {
        ir_version,
        opset_import,
        producer_name: options.producer_name.clone(),
        producer_version: options.producer_version.clone(),
        doc_string,
        graph: Some(proto).into(),
        ..Default::default()
    };

    let file_name =
        output.file_name().and_then(|n| n.to_str()).ok_or_else(|| fail("the output path has no file name".into()))?;
    let location = format!("{file_name}.data");
    let inline = Plan::new(&model, tensors.clone(), Placement::Inline, "");
    let plan = match placement(options.external_data, inline.model_size()).map_err(fail)? {
        Placement::Inline => inline,
        Placement::External => Plan::new(&model, tensors, Placement::External, &location),
    };
    // With `Always` the data file is written even when empty, so that it
    // exists whenever the option says so.
    let external = (plan.external_size() > 0 || options.external_data == ExternalData::Always)
        .then(|| output.with_file_name(&location));

    crate::progress::bytes_total(format!("writing {}", output.display()), plan.model_size() + plan.external_size());
    let mut release = |data: &stream::Data<'_>| {
        crate::progress::bytes_written(data.len());
        if let Some(pages) = &pages {
            pages.release(data);
        }
        files.release(data);
    };
    write_files(output, &plan, external.as_deref(), &mut release)?;
    Ok(ExportReport {
        nodes,
        initializers,
        initializer_bytes,
        external_data_file: external,
        complex_views,
        quantized_weights,
    })
}

/// The main graph's `Constant` nodes (a `value` tensor; not graph outputs)
/// as initializers named after their outputs, removed from `graph`: a node
/// fewer each, and runtimes treat both alike. The tensor keeps the node's
/// doc_string (where it came from). Subgraphs keep their Constant nodes.
fn constants_to_initializers(graph: &mut GraphProto) -> Vec<TensorProto> {
    let outputs: std::collections::HashSet<String> = graph.output.iter().map(|o| o.name.clone()).collect();
    let mut tensors = Vec::new();
    graph.node.retain(|node| {
        let plain = node.op_type == "Constant"
            && node.domain.is_empty()
            && node.output.len() == 1
            && !outputs.contains(&node.output[0])
            && node.attribute.len() == 1
            && node.attribute[0].name == "value";
        match node.attribute.first().and_then(|a| a.t.as_ref()).filter(|_| plain) {
            Some(t) => {
                let mut t = t.clone();
                t.name = node.output[0].clone();
                t.doc_string = node.doc_string.clone();
                tensors.push(t);
                false
            }
            None => true,
        }
    });
    tensors
}

/// Where the initializers go, given the size of the model with them inline.
fn placement(mode: ExternalData, inline_size: u64) -> Result<Placement, String> {
    match mode {
        ExternalData::Always => Ok(Placement::External),
        ExternalData::Auto if inline_size > PROTOBUF_LIMIT => Ok(Placement::External),
        ExternalData::Never if inline_size > PROTOBUF_LIMIT => Err(format!(
            "the model would be {inline_size} bytes, over protobuf's 2 GiB limit; write its initializers as external data"
        )),
        _ => Ok(Placement::Inline),
    }
}

/// Writes the data file (if any) and the model to temporary files in their
/// directory, then renames them into place; removes the temporaries on error
/// (also when a panic unwinds: [`OutputFile`] cleans up when dropped).
fn write_files<'a>(
    output: &Path,
    plan: &Plan<'a>,
    external: Option<&Path>,
    release: &mut dyn FnMut(&stream::Data<'a>),
) -> Result<(), Error> {
    let write = |path: &Path, f: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>| -> Result<OutputFile, Error> {
        let mut file = OutputFile::create(path)?;
        let result = {
            let mut out = BufWriter::with_capacity(1 << 20, file.file());
            f(&mut out).and_then(|_| out.flush())
        };
        result.map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
        Ok(file)
    };
    let data = match external {
        Some(path) => Some(write(path, &mut |out| plan.write_external(out, release))?),
        None => None,
    };
    let model = write(output, &mut |out| plan.write_model(out, release))?;
    // Both are complete: move them into place, the data file first.
    let data_path = data.as_ref().map(|d| d.path().to_path_buf());
    if let Some(data) = data {
        data.commit()?;
    }
    model.commit().inspect_err(|_| {
        if let Some(path) = &data_path {
            let _ = std::fs::remove_file(path);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnx_protobuf::GraphProto;
    use stream::Data;

    /// A tensor over 2 GiB (a stride-0 view of 4 bytes: no memory needed)
    /// moves the model to external data in Auto mode.
    #[test]
    fn external_data_above_two_gib() {
        static STORAGE: [u8; 4] = [0; 4];
        let storage: &'static [u8] = &STORAGE;
        let huge = Data::Strided { storage, element_size: 4, sizes: vec![600_000_000], strides: vec![0], offset: 0 };
        let small = Data::Contiguous(storage);
        let model = ModelProto { ir_version: 11, graph: Some(GraphProto::default()).into(), ..Default::default() };
        let tensor =
            |data: Data<'static>| Tensor { header: TensorProto { name: "w".into(), ..Default::default() }, data };
        let big_size = Plan::new(&model, vec![tensor(huge.clone())], Placement::Inline, "").model_size();
        assert!(big_size > PROTOBUF_LIMIT);
        let small_size = Plan::new(&model, vec![tensor(small)], Placement::Inline, "").model_size();
        assert_eq!(placement(ExternalData::Auto, big_size), Ok(Placement::External));
        assert_eq!(placement(ExternalData::Auto, small_size), Ok(Placement::Inline));
        assert_eq!(placement(ExternalData::Always, small_size), Ok(Placement::External));
        assert_eq!(placement(ExternalData::Never, small_size), Ok(Placement::Inline));
        assert!(placement(ExternalData::Never, big_size).unwrap_err().contains("2 GiB"));
        let external = Plan::new(&model, vec![tensor(huge)], Placement::External, "m.onnx.data");
        assert!(external.model_size() < 1024);
        assert_eq!(external.external_size(), 2_400_000_000);
    }

    #[test]
    fn ir_versions() {
        use super::ir_version_for_opset as ir;
        assert_eq!([ir(17), ir(18), ir(19), ir(20), ir(21), ir(22), ir(23), ir(24)], [8, 8, 9, 9, 10, 10, 11, 12]);
        assert_eq!([ir(25), ir(26), ir(27), ir(28)], [13, 13, 13, 14]);
        assert_eq!([ir(13), ir(11), ir(9)], [7, 6, 4]);
    }
}
