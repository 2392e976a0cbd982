//! Zero-copy reader for `torch.export` `.pt2` archives (export schema 8.x).
//!
//! ```no_run
//! let archive = aten2onnx_pt2::Archive::open("model.pt2")?;
//! let program = archive.program();
//! for node in &program.graph().nodes {
//!     println!("{}", node.target);
//! }
//! for name in archive.weight_names() {
//!     let w = archive.weight(name)?;
//!     println!("{name}: {} {:?} ({} bytes)", w.dtype, w.sizes, w.nbytes());
//! }
//! # Ok::<(), aten2onnx_pt2::Error>(())
//! ```
//!
//! The file is memory-mapped; its ZIP central directory is parsed directly
//! (ZIP64 aware). Only STORED entries are readable, which is what
//! `torch.export.save` writes (64-byte aligned). `models/<name>.json` and the
//! payload configs are parsed at [`Archive::open`]; weight bytes are never
//! copied: [`TensorData::storage`] borrows from the map.
//!
//! Archive layout (`<root>` is the first entry's top directory, normally the
//! file's base name):
//!
//! ```text
//! <root>/archive_format                           "pt2"
//! <root>/byteorder                                "little"
//! <root>/models/model.json                        the ExportedProgram (schema.py)
//! <root>/data/weights/model_weights_config.json   name -> PayloadMeta
//! <root>/data/weights/weight_N                    raw storage bytes
//! <root>/data/constants/model_constants_config.json
//! <root>/data/constants/tensor_N
//! <root>/data/sample_inputs/model.pt              pickle (ignored)
//! ```

mod de;
mod error;
pub mod schema;
mod tensor;
mod zip;

use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

pub use error::{Error, Result};
pub use schema::*;
pub use tensor::TensorData;
pub use zip::{entries as zip_entries, Entry};

/// The export schema major version this reader understands.
pub const SUPPORTED_SCHEMA_MAJOR: i64 = 8;

enum Backing {
    Mmap(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Backing {
    fn bytes(&self) -> &[u8] {
        match self {
            Backing::Mmap(m) => m,
            Backing::Owned(v) => v,
        }
    }
}

/// Which payload directory a tensor comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PayloadKind {
    Weight,
    Constant,
}

impl PayloadKind {
    fn noun(self) -> &'static str {
        match self {
            PayloadKind::Weight => "weight",
            PayloadKind::Constant => "constant",
        }
    }
    fn dir(self) -> &'static str {
        match self {
            PayloadKind::Weight => "data/weights/",
            PayloadKind::Constant => "data/constants/",
        }
    }
}

#[derive(Default)]
struct Payloads {
    items: Vec<(String, PayloadMeta)>,
    index: HashMap<String, usize>,
}

impl Payloads {
    fn new(items: Vec<(String, PayloadMeta)>) -> Self {
        let index = items.iter().enumerate().map(|(i, (name, _))| (name.clone(), i)).collect();
        Payloads { items, index }
    }
    fn get(&self, name: &str) -> Option<&PayloadMeta> {
        self.index.get(name).map(|&i| &self.items[i].1)
    }
}

/// The ZIP-level view: mapped bytes, directory, root prefix.
struct Container {
    path: PathBuf,
    backing: Backing,
    entries: Vec<Entry>,
    by_name: HashMap<String, usize>,
    root: String,
}

/// An open `.pt2` archive.
pub struct Archive {
    tensors: Tensors,
    model_name: String,
    program: ExportedProgram,
}

/// The stored tensors of a `.pt2` archive, opened without parsing its
/// program (`models/<name>.json`, megabytes of JSON for a large model):
/// what a writer streaming the weights of an already imported program needs.
pub struct Tensors {
    zip: Container,
    weights: Payloads,
    constants: Payloads,
}

impl fmt::Debug for Archive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Archive")
            .field("path", &self.tensors.zip.path)
            .field("root", &self.tensors.zip.root)
            .field("model_name", &self.model_name)
            .field("entries", &self.tensors.zip.entries.len())
            .field("weights", &self.tensors.weights.items.len())
            .field("constants", &self.tensors.constants.items.len())
            .finish_non_exhaustive()
    }
}

/// Memory-maps the file at `path` (an empty file is an empty buffer).
fn map_file(path: &Path) -> Result<Backing> {
    let io_err = |source| Error::Io { path: path.to_path_buf(), source };
    let file = File::open(path).map_err(io_err)?;
    let len = file.metadata().map_err(io_err)?.len();
    Ok(if len == 0 {
        Backing::Owned(Vec::new())
    } else {
        // SAFETY: the map is read-only; as with any mmap, the file must not be
        // truncated or modified by another process while the archive is open.
        Backing::Mmap(unsafe { memmap2::Mmap::map(&file) }.map_err(io_err)?)
    })
}

impl Tensors {
    /// Memory-maps the archive at `path` and parses its ZIP directory and
    /// payload configs, with the checks of [`Archive::open`] except those
    /// of the program, which is not read.
    pub fn open(path: impl AsRef<Path>) -> Result<Tensors> {
        let path = path.as_ref().to_path_buf();
        let backing = map_file(&path)?;
        let (zip, model_name) = Container::open(path, backing)?;
        Tensors::with_payloads(zip, &model_name)
    }

    fn with_payloads(zip: Container, model_name: &str) -> Result<Tensors> {
        let weights = zip.parse_payloads(PayloadKind::Weight, model_name)?;
        let constants = zip.parse_payloads(PayloadKind::Constant, model_name)?;
        Ok(Tensors { zip, weights, constants })
    }

    /// The path given to [`Tensors::open`].
    pub fn path(&self) -> &Path {
        &self.zip.path
    }

    /// The whole mapped file.
    pub fn bytes(&self) -> &[u8] {
        self.zip.backing.bytes()
    }

    /// A weight (parameter or persistent buffer) by state-dict name.
    pub fn weight(&self, name: &str) -> Result<TensorData<'_>> {
        self.tensor(PayloadKind::Weight, name)
    }

    /// A constant (tensor constant or non-persistent buffer) by name.
    pub fn constant(&self, name: &str) -> Result<TensorData<'_>> {
        self.tensor(PayloadKind::Constant, name)
    }

    fn tensor(&self, kind: PayloadKind, name: &str) -> Result<TensorData<'_>> {
        let payloads = match kind {
            PayloadKind::Weight => &self.weights,
            PayloadKind::Constant => &self.constants,
        };
        let meta = payloads.get(name).ok_or_else(|| Error::UnknownTensor {
            path: self.zip.path.clone(),
            kind: kind.noun(),
            name: name.to_string(),
        })?;
        let entry = format!("{}{}", kind.dir(), meta.path_name);
        if meta.use_pickle {
            return Err(Error::PickledPayload {
                path: self.zip.path.clone(),
                kind: kind.noun(),
                name: name.to_string(),
                entry: self.zip.full_name(&entry),
            });
        }
        let invalid = |reason: String| Error::InvalidTensor {
            path: self.zip.path.clone(),
            kind: kind.noun(),
            name: name.to_string(),
            reason,
        };
        let tm = meta.tensor_meta.as_ref().ok_or_else(|| invalid("payload has no tensor metadata".into()))?;
        if tm.layout != Layout::Strided {
            return Err(invalid(format!("layout {:?} is not supported (only strided tensors are)", tm.layout)));
        }
        let sizes = tm.static_sizes().ok_or_else(|| invalid("symbolic size in a stored tensor".into()))?;
        let strides = tm.static_strides().ok_or_else(|| invalid("symbolic stride in a stored tensor".into()))?;
        let storage_offset =
            tm.storage_offset.as_int().ok_or_else(|| invalid("symbolic storage offset in a stored tensor".into()))?;
        let storage = self.zip.entry(&entry)?;
        tensor::check_view(tm.dtype, &sizes, &strides, storage_offset, storage.len())
            .map_err(|reason| invalid(format!("entry `{}`: {reason}", self.zip.full_name(&entry))))?;
        Ok(TensorData {
            dtype: tm.dtype,
            sizes,
            strides,
            storage_offset,
            storage,
            is_param: meta.is_param,
            requires_grad: tm.requires_grad,
        })
    }
}

impl Archive {
    /// Memory-maps and opens the archive at `path`: parses the ZIP directory,
    /// checks `archive_format`/`byteorder`, parses `models/<name>.json` (checking
    /// the schema major version) and the weight/constant configs.
    pub fn open(path: impl AsRef<Path>) -> Result<Archive> {
        let path = path.as_ref().to_path_buf();
        let backing = map_file(&path)?;
        Self::from_backing(path, backing)
    }

    /// Opens an archive held in memory; `path` is only used in messages.
    pub fn from_bytes(path: impl Into<PathBuf>, bytes: Vec<u8>) -> Result<Archive> {
        Self::from_backing(path.into(), Backing::Owned(bytes))
    }

    fn from_backing(path: PathBuf, backing: Backing) -> Result<Archive> {
        let (zip, model_name) = Container::open(path, backing)?;
        let program = zip.parse_program(&format!("models/{model_name}.json"))?;
        let tensors = Tensors::with_payloads(zip, &model_name)?;
        Ok(Archive { tensors, model_name, program })
    }

    /// The archive's stored tensors.
    pub fn tensors(&self) -> &Tensors {
        &self.tensors
    }

    /// The path given to [`Archive::open`].
    pub fn path(&self) -> &Path {
        self.tensors.path()
    }

    /// The top-level directory of every entry (normally the file's base name).
    pub fn root(&self) -> &str {
        &self.tensors.zip.root
    }

    /// The model's name (`model` for `torch.export.save`): the program is
    /// `models/<name>.json`.
    pub fn model_name(&self) -> &str {
        &self.model_name
    }

    /// The exported program (parsed once at open).
    pub fn program(&self) -> &ExportedProgram {
        &self.program
    }

    /// All archive members, in central-directory order.
    pub fn entries(&self) -> &[Entry] {
        &self.tensors.zip.entries
    }

    /// The whole mapped file.
    pub fn bytes(&self) -> &[u8] {
        self.tensors.bytes()
    }

    /// The bytes of the entry `<root>/<name>` (zero-copy).
    pub fn entry(&self, name: &str) -> Result<&[u8]> {
        self.tensors.zip.entry(name)
    }

    /// Weight names (state-dict FQNs such as `fc1.weight`), in the file's order.
    /// Includes persistent buffers.
    pub fn weight_names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.tensors.weights.items.iter().map(|(n, _)| n.as_str())
    }

    /// Constant names (lifted tensor constants, non-persistent buffers,
    /// custom objects), in the file's order.
    pub fn constant_names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.tensors.constants.items.iter().map(|(n, _)| n.as_str())
    }

    /// The raw payload metadata of a weight.
    pub fn weight_meta(&self, name: &str) -> Option<&PayloadMeta> {
        self.tensors.weights.get(name)
    }

    /// The raw payload metadata of a constant.
    pub fn constant_meta(&self, name: &str) -> Option<&PayloadMeta> {
        self.tensors.constants.get(name)
    }

    /// A weight (parameter or persistent buffer) by state-dict name.
    pub fn weight(&self, name: &str) -> Result<TensorData<'_>> {
        self.tensors.weight(name)
    }

    /// A constant (tensor constant or non-persistent buffer) by name.
    pub fn constant(&self, name: &str) -> Result<TensorData<'_>> {
        self.tensors.constant(name)
    }
}

impl Container {
    /// Parses the ZIP directory, checks `archive_format`/`byteorder` and
    /// finds the program's name.
    fn open(path: PathBuf, backing: Backing) -> Result<(Container, String)> {
        let entries = zip::read_entries(backing.bytes()).map_err(|e| match e {
            zip::ZipError::NotAZip(reason) => Error::NotAZip { path: path.clone(), reason },
            zip::ZipError::Corrupt(reason) => Error::CorruptZip { path: path.clone(), reason },
        })?;
        let not_pt2 = |reason: String| Error::NotPt2 { path: path.clone(), reason };
        let first = entries.first().ok_or_else(|| not_pt2("the archive has no entries".into()))?;
        let root = match first.name.split_once('/') {
            Some((root, _)) if !root.is_empty() => root.to_string(),
            _ => return Err(not_pt2(format!("first entry `{}` is not inside a top-level directory", first.name))),
        };
        let by_name = entries.iter().enumerate().map(|(i, e)| (e.name.clone(), i)).collect();
        let zip = Container { path, backing, entries, by_name, root };

        if let Some(format) = zip.try_entry("archive_format")? {
            let format = String::from_utf8_lossy(format);
            if format.trim() != "pt2" {
                return Err(zip.not_pt2(format!(
                    "`{}/archive_format` is `{}`, expected `pt2`",
                    zip.root,
                    format.trim()
                )));
            }
        }
        if let Some(order) = zip.try_entry("byteorder")? {
            let order = String::from_utf8_lossy(order);
            if order.trim() != "little" {
                return Err(zip.not_pt2(format!(
                    "byte order `{}` is not supported (only little-endian archives are)",
                    order.trim()
                )));
            }
        }

        let model_name = zip.find_model_name()?;
        Ok((zip, model_name))
    }

    fn full_name(&self, name: &str) -> String {
        format!("{}/{}", self.root, name)
    }

    fn not_pt2(&self, reason: String) -> Error {
        Error::NotPt2 { path: self.path.clone(), reason }
    }

    fn entry(&self, name: &str) -> Result<&[u8]> {
        self.try_entry(name)?
            .ok_or_else(|| Error::MissingEntry { path: self.path.clone(), entry: self.full_name(name) })
    }

    /// `<root>/<name>`'s bytes, `None` if absent, an error if it is compressed.
    fn try_entry(&self, name: &str) -> Result<Option<&[u8]>> {
        let full = self.full_name(name);
        let Some(&i) = self.by_name.get(&full) else {
            return Ok(None);
        };
        let e = &self.entries[i];
        if e.method != 0 {
            return Err(Error::UnsupportedCompression { path: self.path.clone(), entry: full, method: e.method });
        }
        // Bounds were checked when the directory was read.
        let start = e.data_offset as usize;
        Ok(Some(&self.backing.bytes()[start..start + e.size as usize]))
    }

    fn find_model_name(&self) -> Result<String> {
        let prefix = format!("{}/models/", self.root);
        let models: Vec<&str> = self
            .entries
            .iter()
            .filter_map(|e| e.name.strip_prefix(&prefix)?.strip_suffix(".json"))
            .filter(|n| !n.is_empty() && !n.contains('/'))
            .collect();
        if models.contains(&"model") {
            return Ok("model".into());
        }
        match models.as_slice() {
            [only] => Ok(only.to_string()),
            [] => Err(Error::MissingEntry { path: self.path.clone(), entry: format!("{prefix}model.json") }),
            many => Err(self.not_pt2(format!(
                "the archive holds several programs ({}) and none is named `model`",
                many.join(", ")
            ))),
        }
    }

    fn json_error(&self, entry: &str, e: serde_json::Error) -> Error {
        let mut message = e.to_string();
        // serde_json appends " at line L column C"; we report those separately.
        if let Some(pos) = message.rfind(" at line ") {
            message.truncate(pos);
        }
        Error::Json {
            path: self.path.clone(),
            entry: self.full_name(entry),
            line: e.line(),
            column: e.column(),
            message,
        }
    }

    fn parse_program(&self, entry: &str) -> Result<ExportedProgram> {
        let bytes = self.entry(entry)?;
        let version_error = |found: SchemaVersion| Error::UnsupportedSchemaVersion {
            path: self.path.clone(),
            entry: self.full_name(entry),
            found,
            supported: SUPPORTED_SCHEMA_MAJOR,
        };
        match serde_json::from_slice::<ExportedProgram>(bytes) {
            Ok(program) if program.schema_version.major == SUPPORTED_SCHEMA_MAJOR => Ok(program),
            Ok(program) => Err(version_error(program.schema_version)),
            Err(e) => {
                // A different major version may well not match our types: report the
                // version rather than the resulting type error.
                if let Ok(probe) = serde_json::from_slice::<schema::VersionProbe>(bytes) {
                    if probe.schema_version.major != SUPPORTED_SCHEMA_MAJOR {
                        return Err(version_error(probe.schema_version));
                    }
                }
                let mut error = self.json_error(entry, e);
                if let (Error::Json { message, .. }, Some(context)) = (&mut error, locate_program_error(bytes)) {
                    *message = context;
                }
                Err(error)
            }
        }
    }

    fn parse_payloads(&self, kind: PayloadKind, model_name: &str) -> Result<Payloads> {
        let name = match kind {
            PayloadKind::Weight => format!("data/weights/{}_weights_config.json", model_name),
            PayloadKind::Constant => {
                format!("data/constants/{}_constants_config.json", model_name)
            }
        };
        let Some(bytes) = self.try_entry(&name)? else {
            let legacy = format!("{}{}.pt", kind.dir(), model_name);
            if self.by_name.contains_key(&self.full_name(&legacy)) {
                return Err(self.not_pt2(format!(
                    "{}s are stored in the legacy pickled format (`{}`) of torch <= 2.8, which is not supported: \
                     re-export the program with torch 2.9 or newer (torch.export.save)",
                    kind.noun(),
                    self.full_name(&legacy)
                )));
            }
            return Ok(Payloads::default());
        };
        let config: schema::PayloadConfig = serde_json::from_slice(bytes).map_err(|e| self.json_error(&name, e))?;
        Ok(Payloads::new(config.config))
    }
}

/// For a program that is valid JSON but does not match the schema: which
/// part is wrong, e.g. `node 'linear' (graph.nodes[2]), input #0 ('input'):
/// missing field `arg``. Each part is deserialized on its own to find the
/// first that fails. `None` if the JSON does not parse or no part fails alone.
fn locate_program_error(bytes: &[u8]) -> Option<String> {
    use serde::de::DeserializeOwned;
    use serde_json::Value;
    fn check<T: DeserializeOwned>(value: &Value) -> Result<(), String> {
        serde_json::from_value::<T>(value.clone()).map(|_| ()).map_err(|e| e.to_string())
    }
    fn index<'v>(value: &'v Value, key: &str) -> Option<&'v Value> {
        value.as_object()?.get(key)
    }
    fn list<'v>(value: Option<&'v Value>) -> &'v [Value] {
        value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
    }
    let root: Value = serde_json::from_slice(bytes).ok()?;
    let Some(module) = index(&root, "graph_module") else {
        return Some("missing field `graph_module` at the top level".into());
    };
    let Some(graph) = index(module, "graph") else { return Some("missing field `graph` in graph_module".into()) };
    for (i, node) in list(index(graph, "nodes")).iter().enumerate() {
        let name = index(node, "name").and_then(Value::as_str).unwrap_or("<unnamed>");
        let at = format!("node '{name}' (graph.nodes[{i}])");
        match index(node, "target") {
            Some(Value::String(_)) => {}
            Some(other) => return Some(format!("{at}: field `target` must be a string, got {other}")),
            None => return Some(format!("{at}: missing field `target`")),
        }
        for (j, input) in list(index(node, "inputs")).iter().enumerate() {
            let arg = index(input, "name").and_then(Value::as_str).unwrap_or("?");
            if let Err(e) = check::<schema::NamedArgument>(input) {
                return Some(format!("{at}, input #{j} ('{arg}'): {e}"));
            }
        }
        for (j, output) in list(index(node, "outputs")).iter().enumerate() {
            if let Err(e) = check::<schema::Argument>(output) {
                return Some(format!("{at}, output #{j}: {e}"));
            }
        }
        if let Err(e) = check::<schema::Node>(node) {
            return Some(format!("{at}: {e}"));
        }
    }
    for field in ["inputs", "outputs"] {
        for (i, value) in list(index(graph, field)).iter().enumerate() {
            if let Err(e) = check::<schema::Argument>(value) {
                return Some(format!("graph.{field}[{i}]: {e}"));
            }
        }
    }
    if let Some(values) = index(graph, "tensor_values").and_then(Value::as_object) {
        for (name, meta) in values {
            if let Err(e) = check::<schema::TensorMeta>(meta) {
                return Some(format!("tensor_values['{name}']: {e}"));
            }
        }
    }
    if let Some(signature) = index(module, "signature") {
        for (i, spec) in list(index(signature, "input_specs")).iter().enumerate() {
            if let Err(e) = check::<schema::InputSpec>(spec) {
                return Some(format!("signature.input_specs[{i}]: {e}"));
            }
        }
        for (i, spec) in list(index(signature, "output_specs")).iter().enumerate() {
            if let Err(e) = check::<schema::OutputSpec>(spec) {
                return Some(format!("signature.output_specs[{i}]: {e}"));
            }
        }
    }
    if let Err(e) = check::<schema::Graph>(graph) {
        return Some(format!("graph_module.graph: {e}"));
    }
    if let Err(e) = check::<schema::GraphModule>(module) {
        return Some(format!("graph_module: {e}"));
    }
    None
}
