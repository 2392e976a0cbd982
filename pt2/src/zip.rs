//! Minimal read-only ZIP / ZIP64 central-directory parser over a byte slice.
//!
//! Only what is needed to locate STORED entries inside a memory map: the
//! end-of-central-directory record (plus the ZIP64 locator / record), the
//! central directory file headers (plus the ZIP64 extended-information extra
//! field) and each entry's local file header (to find where its data starts).
//! Every read is bounds-checked; malformed input yields an error, never a panic.

/// One archive member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Full name inside the archive, e.g. `mlp/models/model.json`.
    pub name: String,
    /// ZIP compression method (0 = stored; only those can be read).
    pub method: u16,
    /// Offset of the entry's data from the start of the file
    /// (computed from the local file header). Only meaningful for stored entries.
    pub data_offset: u64,
    /// Size of the stored data in bytes (= uncompressed size for stored entries).
    pub size: u64,
    /// Offset of the local file header.
    pub header_offset: u64,
}

#[derive(Debug)]
pub(crate) enum ZipError {
    /// No end-of-central-directory record: not a ZIP file (or cut before its end).
    NotAZip(String),
    /// Structural damage.
    Corrupt(String),
}

type R<T> = Result<T, ZipError>;

fn corrupt<T>(msg: impl Into<String>) -> R<T> {
    Err(ZipError::Corrupt(msg.into()))
}

pub(crate) fn method_name(method: u16) -> &'static str {
    match method {
        0 => "stored",
        8 => "deflate",
        9 => "deflate64",
        12 => "bzip2",
        14 => "lzma",
        93 => "zstd",
        95 => "xz",
        99 => "AES-encrypted",
        _ => "unknown",
    }
}

const EOCD_SIG: u32 = 0x0605_4b50;
const ZIP64_LOCATOR_SIG: u32 = 0x0706_4b50;
const ZIP64_EOCD_SIG: u32 = 0x0606_4b50;
const CDFH_SIG: u32 = 0x0201_4b50;
const LFH_SIG: u32 = 0x0403_4b50;

const EOCD_LEN: usize = 22;
const ZIP64_LOCATOR_LEN: usize = 20;
const ZIP64_EOCD_LEN: usize = 56;
const CDFH_LEN: usize = 46;
const LFH_LEN: usize = 30;

/// Bounds-checked little-endian reader over a slice.
#[derive(Clone, Copy)]
struct Buf<'a> {
    data: &'a [u8],
}

impl<'a> Buf<'a> {
    fn slice(&self, off: u64, len: u64, what: &str) -> R<&'a [u8]> {
        let end = off.checked_add(len);
        match end {
            Some(end) if end <= self.data.len() as u64 => Ok(&self.data[off as usize..end as usize]),
            _ => corrupt(format!(
                "{what} at offset {off} (length {len}) extends past the end of the file ({} bytes)",
                self.data.len()
            )),
        }
    }
}

fn u16_at(b: &[u8], off: usize) -> u16 {
    u16::from_le_bytes([b[off], b[off + 1]])
}
fn u32_at(b: &[u8], off: usize) -> u32 {
    u32::from_le_bytes(b[off..off + 4].try_into().unwrap())
}
fn u64_at(b: &[u8], off: usize) -> u64 {
    u64::from_le_bytes(b[off..off + 8].try_into().unwrap())
}

struct CentralDirectory {
    entries: u64,
    offset: u64,
    size: u64,
}

/// Find the end-of-central-directory record (scanning back over a possible comment).
fn find_eocd(data: &[u8]) -> R<usize> {
    if data.len() < EOCD_LEN {
        return Err(ZipError::NotAZip(format!(
            "file is only {} bytes, too small for an end-of-central-directory record",
            data.len()
        )));
    }
    let last = data.len() - EOCD_LEN;
    let first = last.saturating_sub(u16::MAX as usize);
    for pos in (first..=last).rev() {
        if u32_at(data, pos) == EOCD_SIG {
            let comment_len = u16_at(data, pos + 20) as usize;
            // Accept only a record whose comment ends exactly at the end of the file
            // (guards against the signature bytes occurring inside data).
            if pos + EOCD_LEN + comment_len == data.len() {
                return Ok(pos);
            }
        }
    }
    if data.len() >= 4 && u32_at(data, 0) == LFH_SIG {
        // Starts like a ZIP archive but has no directory: cut short.
        return corrupt(
            "end-of-central-directory record not found; the file starts like a ZIP archive, \
             so it is probably truncated",
        );
    }
    Err(ZipError::NotAZip("end-of-central-directory record not found".to_string()))
}

fn read_central_directory_location(data: &[u8]) -> R<CentralDirectory> {
    let buf = Buf { data };
    let eocd = find_eocd(data)?;
    let rec = &data[eocd..eocd + EOCD_LEN];
    let disk = u16_at(rec, 4);
    let cd_disk = u16_at(rec, 6);
    let mut entries = u16_at(rec, 10) as u64;
    let mut size = u32_at(rec, 12) as u64;
    let mut offset = u32_at(rec, 16) as u64;

    // A ZIP64 locator sits immediately before the EOCD record, if present.
    let has_locator = eocd >= ZIP64_LOCATOR_LEN && u32_at(data, eocd - ZIP64_LOCATOR_LEN) == ZIP64_LOCATOR_SIG;
    if has_locator {
        let loc = &data[eocd - ZIP64_LOCATOR_LEN..eocd];
        let rec64_off = u64_at(loc, 8);
        let rec64 = buf.slice(rec64_off, ZIP64_EOCD_LEN as u64, "ZIP64 end-of-central-directory record")?;
        if u32_at(rec64, 0) != ZIP64_EOCD_SIG {
            return corrupt(format!("bad ZIP64 end-of-central-directory signature at offset {rec64_off}"));
        }
        let disk64 = u32_at(rec64, 16);
        let cd_disk64 = u32_at(rec64, 20);
        if disk64 != 0 || cd_disk64 != 0 {
            return corrupt("multi-disk (split) ZIP64 archives are not supported");
        }
        entries = u64_at(rec64, 32);
        size = u64_at(rec64, 40);
        offset = u64_at(rec64, 48);
    } else {
        if disk != 0 || cd_disk != 0 {
            return corrupt("multi-disk (split) ZIP archives are not supported");
        }
        if entries == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            return corrupt("ZIP64 end-of-central-directory locator missing");
        }
    }
    Ok(CentralDirectory { entries, offset, size })
}

/// Parse the central directory and every entry's local header.
pub(crate) fn read_entries(data: &[u8]) -> R<Vec<Entry>> {
    let buf = Buf { data };
    let cd = read_central_directory_location(data)?;
    let cd_bytes = buf.slice(cd.offset, cd.size, "central directory")?;
    if cd.entries > (cd.size / CDFH_LEN as u64) {
        return corrupt(format!("central directory claims {} entries but is only {} bytes long", cd.entries, cd.size));
    }
    let mut entries = Vec::with_capacity(cd.entries as usize);
    let mut pos = 0usize;
    for index in 0..cd.entries {
        let hdr = cd_bytes
            .get(pos..pos + CDFH_LEN)
            .ok_or_else(|| ZipError::Corrupt(format!("central directory header #{index} is truncated")))?;
        if u32_at(hdr, 0) != CDFH_SIG {
            return corrupt(format!(
                "bad central directory header signature for entry #{index} at offset {}",
                cd.offset + pos as u64
            ));
        }
        let flags = u16_at(hdr, 8);
        let method = u16_at(hdr, 10);
        let mut csize = u32_at(hdr, 20) as u64;
        let mut usize_ = u32_at(hdr, 24) as u64;
        let name_len = u16_at(hdr, 28) as usize;
        let extra_len = u16_at(hdr, 30) as usize;
        let comment_len = u16_at(hdr, 32) as usize;
        let mut header_offset = u32_at(hdr, 42) as u64;
        let var_start = pos + CDFH_LEN;
        let var_end = var_start + name_len + extra_len + comment_len;
        let var = cd_bytes
            .get(var_start..var_end)
            .ok_or_else(|| ZipError::Corrupt(format!("central directory header #{index} is truncated")))?;
        let name_bytes = &var[..name_len];
        let name = String::from_utf8_lossy(name_bytes).into_owned();
        let extra = &var[name_len..name_len + extra_len];

        // ZIP64 extended information: present fields appear in this fixed order,
        // each only if the corresponding 32-bit field is saturated.
        let needs64 = usize_ == 0xFFFF_FFFF || csize == 0xFFFF_FFFF || header_offset == 0xFFFF_FFFF;
        if needs64 {
            let field = find_extra(extra, 0x0001)
                .ok_or_else(|| ZipError::Corrupt(format!("entry `{name}`: ZIP64 extra field missing")))?;
            let mut at = 0usize;
            let mut next = |what: &str| -> R<u64> {
                let v = field
                    .get(at..at + 8)
                    .ok_or_else(|| ZipError::Corrupt(format!("entry `{name}`: ZIP64 extra field lacks the {what}")))?;
                at += 8;
                Ok(u64::from_le_bytes(v.try_into().unwrap()))
            };
            if usize_ == 0xFFFF_FFFF {
                usize_ = next("uncompressed size")?;
            }
            if csize == 0xFFFF_FFFF {
                csize = next("compressed size")?;
            }
            if header_offset == 0xFFFF_FFFF {
                header_offset = next("local header offset")?;
            }
        }

        // Local header: its name/extra lengths may differ from the central ones.
        let lfh = buf.slice(header_offset, LFH_LEN as u64, &format!("local header of `{name}`"))?;
        if u32_at(lfh, 0) != LFH_SIG {
            return corrupt(format!("entry `{name}`: bad local header signature at offset {header_offset}"));
        }
        let l_name_len = u16_at(lfh, 26) as u64;
        let l_extra_len = u16_at(lfh, 28) as u64;
        let l_name = buf.slice(header_offset + LFH_LEN as u64, l_name_len, &format!("local header of `{name}`"))?;
        if l_name != name_bytes {
            return corrupt(format!(
                "entry `{name}`: local header names a different file (`{}`)",
                String::from_utf8_lossy(l_name)
            ));
        }
        let data_offset = header_offset + LFH_LEN as u64 + l_name_len + l_extra_len;
        if flags & 0x0001 != 0 {
            // Encrypted: report as an unsupported "method" so the caller can name the entry.
            entries.push(Entry { name, method: 99, data_offset, size: csize, header_offset });
            pos = var_end;
            continue;
        }
        if method == 0 && csize != usize_ {
            return corrupt(format!("stored entry `{name}` has compressed size {csize} != uncompressed size {usize_}"));
        }
        buf.slice(data_offset, csize, &format!("data of entry `{name}`"))?;
        entries.push(Entry { name, method, data_offset, size: csize, header_offset });
        pos = var_end;
    }
    Ok(entries)
}

/// Find the payload of the extra-field block with the given header id.
fn find_extra(extra: &[u8], id: u16) -> Option<&[u8]> {
    let mut at = 0usize;
    while at + 4 <= extra.len() {
        let hid = u16_at(extra, at);
        let len = u16_at(extra, at + 2) as usize;
        let body = extra.get(at + 4..at + 4 + len)?;
        if hid == id {
            return Some(body);
        }
        at += 4 + len;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_tiny_inputs_are_not_zips() {
        for data in [&b""[..], b"PK", b"hello world, this is not a zip file at all"] {
            assert!(matches!(read_entries(data), Err(ZipError::NotAZip(_))));
        }
    }

    #[test]
    fn empty_archive_has_no_entries() {
        let mut eocd = vec![0u8; EOCD_LEN];
        eocd[..4].copy_from_slice(&EOCD_SIG.to_le_bytes());
        assert_eq!(read_entries(&eocd).unwrap(), vec![]);
    }

    #[test]
    fn huge_entry_count_is_rejected_without_allocating() {
        let mut eocd = vec![0u8; EOCD_LEN];
        eocd[..4].copy_from_slice(&EOCD_SIG.to_le_bytes());
        eocd[8..10].copy_from_slice(&0xFFFEu16.to_le_bytes());
        eocd[10..12].copy_from_slice(&0xFFFEu16.to_le_bytes());
        assert!(matches!(read_entries(&eocd), Err(ZipError::Corrupt(_))));
    }
}

/// The entries of any ZIP file held in memory (e.g. a NumPy `.npz`), with
/// an error message on damage.
pub fn entries(data: &[u8]) -> Result<Vec<Entry>, String> {
    read_entries(data).map_err(|e| match e {
        ZipError::NotAZip(m) => format!("not a ZIP archive: {m}"),
        ZipError::Corrupt(m) => format!("corrupt ZIP archive: {m}"),
    })
}
