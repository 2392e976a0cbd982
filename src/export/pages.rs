//! A second, private read-only map of the archive, so that the pages of
//! each initializer can be released once they are written.
//!
//! Reading 200 MB of weights through a memory map makes 200 MB of file pages
//! resident in the process (page cache, not copies, but counted in its RSS).
//! `MADV_DONTNEED` on a shared read-only file mapping drops them from the
//! process (a later access reads them again from the file), which keeps the
//! writer's peak RSS independent of the model size. The archive reader's
//! own map is not ours to advise, so the data is read through this map
//! instead: the same file, each tensor at the same offset.

use super::stream::Data;
use memmap2::Mmap;
#[cfg(unix)]
use memmap2::{Advice, UncheckedAdvice};
use std::{fs::File, path::Path};

pub struct Pages {
    map: Mmap,
}

impl Pages {
    pub fn open(path: &Path) -> std::io::Result<Pages> {
        let file = File::open(path)?;
        // SAFETY: read-only shared map; like the archive reader's, it
        // requires that the file is not modified while it is open.
        let map = unsafe { Mmap::map(&file)? };
        #[cfg(unix)]
        let _ = map.advise(Advice::Sequential);
        Ok(Pages { map })
    }

    /// The mapped bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// `data`, whose slices lie in `archive` (the reader's map of the same
    /// file), re-based onto this map. `None` if a slice lies outside
    /// `archive` or the file changed size.
    pub fn rebase<'m>(&'m self, archive: &[u8], data: Data<'_>) -> Option<Data<'m>> {
        if archive.len() != self.map.len() {
            return None;
        }
        let rebase = |slice: &[u8]| -> Option<&'m [u8]> {
            let offset = (slice.as_ptr() as usize).checked_sub(archive.as_ptr() as usize)?;
            self.map.get(offset..offset.checked_add(slice.len())?)
        };
        self.rebase_with(&rebase, data)
    }

    fn rebase_with<'m>(&'m self, rebase: &dyn Fn(&[u8]) -> Option<&'m [u8]>, data: Data<'_>) -> Option<Data<'m>> {
        Some(match data {
            Data::Contiguous(bytes) => Data::Contiguous(rebase(bytes)?),
            Data::Strided { storage, element_size, sizes, strides, offset } => {
                Data::Strided { storage: rebase(storage)?, element_size, sizes, strides, offset }
            }
            Data::Lazy(lazy) => {
                let super::transform::Lazy { op, data_type, dims, inputs } = *lazy;
                let inputs = inputs
                    .into_iter()
                    .map(|i| {
                        Some(super::transform::Input {
                            data: self.rebase_with(rebase, i.data)?,
                            data_type: i.data_type,
                            dims: i.dims,
                        })
                    })
                    .collect::<Option<Vec<_>>>()?;
                Data::Lazy(Box::new(super::transform::Lazy { op, data_type, dims, inputs }))
            }
        })
    }

    /// Drops the pages of `data` from the process (best effort).
    pub fn release(&self, data: &Data<'_>) {
        let slice = match data {
            Data::Contiguous(bytes) => *bytes,
            Data::Strided { storage, .. } => *storage,
            Data::Lazy(lazy) => {
                lazy.inputs.iter().for_each(|i| self.release(&i.data));
                return;
            }
        };
        let Some(offset) = (slice.as_ptr() as usize).checked_sub(self.map.as_ptr() as usize) else { return };
        if slice.is_empty() || offset + slice.len() > self.map.len() {
            return;
        }
        // SAFETY: a shared, read-only file mapping: after MADV_DONTNEED the
        // pages read back the file's unchanged contents on the next access,
        // so every outstanding borrow still sees the same bytes.
        #[cfg(unix)]
        let _ = unsafe { self.map.unchecked_advise_range(UncheckedAdvice::DontNeed, offset, slice.len()) };
    }
}
