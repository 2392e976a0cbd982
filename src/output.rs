//! Writing output files safely.
//!
//! - An output that names an input (the same file, however it is spelled:
//!   `./in.pt2`, a symlink, a hard link) is refused before anything is
//!   written ([`check_not_input`]).
//! - A symlink given as the output writes through to its target; a device
//!   node, FIFO or other non-regular file (`/dev/null`, `/dev/stdout`) is
//!   written to directly, never replaced.
//! - A regular file (or a new path) is written to a temporary file in its
//!   directory and renamed into place by [`OutputFile::commit`]; dropping an
//!   uncommitted [`OutputFile`] (an error, a panic unwinding) removes the
//!   temporary file, so no partial output is ever left behind.

use crate::Error;
use std::{
    fs::File,
    io::Write,
    path::{Path, PathBuf},
};

/// True when `a` and `b` name the same existing file (same device and inode).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                x.dev() == y.dev() && x.ino() == y.ino()
            }
            #[cfg(not(unix))]
            {
                let _ = (x, y);
                matches!((a.canonicalize(), b.canonicalize()), (Ok(p), Ok(q)) if p == q)
            }
        }
        _ => false,
    }
}

/// Refuses an output path that is one of `inputs` (each with what it is,
/// e.g. "the input" or "the archive input.mlir refers to"), or a directory.
pub fn check_not_input(output: &Path, inputs: &[(&Path, &str)]) -> Result<(), Error> {
    for (input, what) in inputs {
        if same_file(output, input) {
            return Err(Error::Usage(format!(
                "{}: the output would overwrite {what} ({}); choose another output path",
                output.display(),
                input.display()
            )));
        }
    }
    if output.is_dir() {
        return Err(Error::Usage(format!("{}: the output path is a directory", output.display())));
    }
    Ok(())
}

/// The file a (possibly symbolic-link) output path finally names: symlinks
/// are followed, also dangling ones (the link's target is created).
fn resolve_links(path: &Path) -> PathBuf {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => match std::fs::read_link(&current) {
                Ok(target) => {
                    current = if target.is_absolute() {
                        target
                    } else {
                        current.parent().unwrap_or(Path::new(".")).join(target)
                    };
                }
                Err(_) => return current,
            },
            _ => return current,
        }
    }
    current
}

/// An output being written; see the module documentation.
pub struct OutputFile {
    /// Where the bytes end up (symlinks resolved).
    target: PathBuf,
    /// The path the user gave (for messages).
    shown: PathBuf,
    /// The temporary file, when writing a regular file.
    temp: Option<PathBuf>,
    file: Option<File>,
}

impl OutputFile {
    /// Opens `path` for writing (a temporary beside it, or the device itself).
    pub fn create(path: &Path) -> Result<OutputFile, Error> {
        let io = |source| Error::Io { path: path.to_path_buf(), source };
        let target = resolve_links(path);
        let special = std::fs::metadata(&target).map(|m| !m.is_file() && !m.is_dir()).unwrap_or(false);
        if target.is_dir() {
            return Err(Error::Usage(format!("{}: the output path is a directory", path.display())));
        }
        if special {
            let file = std::fs::OpenOptions::new().write(true).open(&target).map_err(io)?;
            return Ok(OutputFile { target, shown: path.to_path_buf(), temp: None, file: Some(file) });
        }
        let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = target.file_name().and_then(|n| n.to_str()).unwrap_or("out");
        let mut attempt = 0u32;
        loop {
            let temp = dir.join(format!(".{name}.partial-{}-{attempt}", std::process::id()));
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => {
                    return Ok(OutputFile { target, shown: path.to_path_buf(), temp: Some(temp), file: Some(file) })
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
                Err(e) => return Err(io(e)),
            }
        }
    }

    /// The open file to write to.
    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("output file open until commit")
    }

    /// The path the user gave.
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// Flushes and moves the file into place.
    pub fn commit(mut self) -> Result<(), Error> {
        let io = |source| Error::Io { path: self.shown.clone(), source };
        let file = self.file.take().expect("output file open until commit");
        if self.temp.is_some() {
            file.sync_all().map_err(io)?;
        }
        drop(file);
        if let Some(temp) = &self.temp {
            std::fs::rename(temp, &self.target).map_err(io)?;
            self.temp = None;
        }
        Ok(())
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        self.file.take();
        if let Some(temp) = self.temp.take() {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// Writes `bytes` to `path` ('-' is stdout) through an [`OutputFile`].
pub fn write_output(path: &str, bytes: &[u8]) -> Result<(), Error> {
    if path == "-" {
        let mut out = std::io::stdout().lock();
        return match out.write_all(bytes).and_then(|_| out.flush()) {
            // The reader closed the pipe (`aten-opt --list-rules | head`):
            // it has what it wanted, nothing failed here.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => other.map_err(|source| Error::Io { path: "<stdout>".into(), source }),
        };
    }
    let mut file = OutputFile::create(Path::new(path))?;
    file.file().write_all(bytes).map_err(|source| Error::Io { path: path.into(), source })?;
    file.commit()
}
