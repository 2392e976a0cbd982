//! Error type of the crate. Every variant carries the archive path, and its
//! message starts with it.

use std::path::PathBuf;

use crate::schema::SchemaVersion;

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong while reading a `.pt2` archive.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be opened, stat'ed or mapped.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// The file is not a ZIP archive at all (no end-of-central-directory record).
    #[error("{}: not a ZIP archive: {reason}", path.display())]
    NotAZip { path: PathBuf, reason: String },

    /// The ZIP structure is damaged (truncated file, offsets out of bounds, ...).
    #[error("{}: corrupt ZIP archive: {reason}", path.display())]
    CorruptZip { path: PathBuf, reason: String },

    /// An entry is compressed (or encrypted); only STORED entries can be mapped.
    #[error(
        "{}: entry `{entry}` uses compression method {method} ({}); only stored \
         (uncompressed, method 0) entries are supported",
        path.display(),
        crate::zip::method_name(*method)
    )]
    UnsupportedCompression { path: PathBuf, entry: String, method: u16 },

    /// The archive is a ZIP file but not a torch.export `.pt2` archive (or uses a
    /// variant of the format this reader does not handle).
    #[error("{}: not a torch.export .pt2 archive: {reason}", path.display())]
    NotPt2 { path: PathBuf, reason: String },

    /// A required archive entry is missing.
    #[error("{}: missing archive entry `{entry}`", path.display())]
    MissingEntry { path: PathBuf, entry: String },

    /// A JSON entry failed to parse (syntax error, wrong type, unknown union tag...).
    #[error("{}: {entry}:{line}:{column}: {message}", path.display())]
    Json {
        path: PathBuf,
        /// Full name of the archive entry (e.g. `mlp/models/model.json`).
        entry: String,
        line: usize,
        column: usize,
        message: String,
    },

    /// `schema_version.major` of `models/<name>.json` is not the one this reader supports.
    #[error(
        "{}: {entry}: unsupported export schema version {found} (this reader supports {supported}.x)",
        path.display()
    )]
    UnsupportedSchemaVersion { path: PathBuf, entry: String, found: SchemaVersion, supported: i64 },

    /// `weight(name)` / `constant(name)` for a name that is not in the payload config.
    #[error("{}: no {kind} named `{name}` in the archive", path.display())]
    UnknownTensor {
        path: PathBuf,
        /// `"weight"` or `"constant"`.
        kind: &'static str,
        name: String,
    },

    /// The payload was serialized with pickle (tensor subclass, custom object...).
    #[error(
        "{}: {kind} `{name}` (entry `{entry}`) is pickled; pickled payloads are not supported",
        path.display()
    )]
    PickledPayload { path: PathBuf, kind: &'static str, name: String, entry: String },

    /// The tensor metadata of a payload is unusable (symbolic size, unknown dtype,
    /// view reaching outside its storage...).
    #[error("{}: {kind} `{name}`: {reason}", path.display())]
    InvalidTensor { path: PathBuf, kind: &'static str, name: String, reason: String },
}

impl Error {
    /// The archive the error is about.
    pub fn path(&self) -> &std::path::Path {
        match self {
            Error::Io { path, .. }
            | Error::NotAZip { path, .. }
            | Error::CorruptZip { path, .. }
            | Error::UnsupportedCompression { path, .. }
            | Error::NotPt2 { path, .. }
            | Error::MissingEntry { path, .. }
            | Error::Json { path, .. }
            | Error::UnsupportedSchemaVersion { path, .. }
            | Error::UnknownTensor { path, .. }
            | Error::PickledPayload { path, .. }
            | Error::InvalidTensor { path, .. } => path,
        }
    }
}
