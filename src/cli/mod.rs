//! The command-line tools as library code: `aten-translate` and `aten-opt`
//! (tools/*/main.rs call these; so does the Python package's
//! `aten-translate` / `aten-opt` commands, through the extension module).

pub mod opt;
pub mod translate;
