//! The one way in for every file the tool reads: scenario files and the combat files they
//! link, expectations, variants, published tables, shard parts and `compare`'s CSVs.
//!
//! Any of them may come from someone else (a pull request, a colleague's shard, a folder
//! on a shared drive), so none is trusted to be small, to be a file, or to stay inside the
//! project. [`read_file`] refuses anything that is not a regular file *before* opening it
//! (a FIFO would block the open, `/dev/zero` would never end), refuses a file past its size
//! cap from its metadata, and still reads at most `cap + 1` bytes so a file growing
//! meanwhile stays bounded. [`confine`] resolves a path one file names inside another and
//! refuses it when it leaves the allowed folders, symlinks included (the check is made on
//! the canonical path). A refusal never quotes the refused file's content.

use crate::lang::Lang;
use std::fs;
use std::io::Read;
#[cfg(unix)]
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Every file below `dir` that `keep` accepts, sorted. `enter` says which entries are
/// folders to walk into, so the caller decides on symlinks and hidden entries; a folder
/// that cannot be read is passed over.
pub fn files_below(
    dir: &Path,
    enter: impl Fn(&fs::DirEntry) -> bool,
    keep: impl Fn(&Path) -> bool,
) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            if enter(&e) {
                stack.push(e.path());
            } else if keep(&e.path()) {
                found.push(e.path());
            }
        }
    }
    found.sort();
    found
}

/// Scenario, combat, expectations and variants files (TOML written by hand): 4 MiB.
pub const MAX_TEXT_BYTES: u64 = 4 << 20;
/// A shard part's manifest.json: 1 MiB.
pub const MAX_MANIFEST_BYTES: u64 = 1 << 20;
/// CSV tables read back (`compare`, an expectation's `table_file`) and their
/// `.meta.json`: 256 MiB.
pub const MAX_TABLE_BYTES: u64 = 256 << 20;
/// A shard part's accumulators.bin: 1 GiB (also the most its decoding may allocate).
pub const MAX_PART_BYTES: u64 = 1 << 30;

/// Why a file was not read. Its text names no content of the file.
#[derive(Debug)]
pub enum Refused {
    /// The file could not be opened or read (missing, no permission...).
    Io(std::io::Error),
    /// Not a regular file: a folder, FIFO, socket or device.
    NotRegular(Kind),
    /// More bytes than the cap (`grew`: it passed the cap while being read).
    TooBig { size: u64, cap: u64, grew: bool },
    /// The path resolves outside every allowed folder.
    Outside { root: PathBuf },
    /// Not UTF-8 text.
    NotUtf8,
}

impl Refused {
    /// Why the file was refused, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            // The system's own wording is English only: the two a designer meets are
            // worded in the language, any other stays as the system writes it.
            Refused::Io(e) => match e.kind() {
                std::io::ErrorKind::NotFound => tr!(lang, "safety.files.io_not_found").into(),
                std::io::ErrorKind::PermissionDenied => tr!(lang, "safety.files.io_denied").into(),
                _ => e.to_string(),
            },
            Refused::NotRegular(kind) => {
                tr!(lang, "safety.files.not_regular", kind = kind.shown(lang))
            }
            Refused::TooBig {
                cap, grew: true, ..
            } => {
                tr!(lang, "safety.files.grew", cap)
            }
            Refused::TooBig { size, cap, .. } => {
                tr!(lang, "safety.files.too_big", size, cap)
            }
            Refused::Outside { root } => {
                tr!(lang, "safety.files.outside", root = root.display())
            }
            Refused::NotUtf8 => tr!(lang, "safety.files.not_utf8").to_string(),
        }
    }
}

/// In English; [`Refused::text`] words it in the run's language.
impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for Refused {}

impl Refused {
    /// Whether the file simply does not exist (some inputs are optional).
    pub fn is_missing(&self) -> bool {
        matches!(self, Refused::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

/// What a path is when it is not a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Folder,
    Fifo,
    Socket,
    Device,
    Other,
}

impl Kind {
    pub fn of(ft: &fs::FileType) -> Option<Kind> {
        if ft.is_file() {
            None
        } else if ft.is_dir() {
            Some(Kind::Folder)
        } else {
            Some(Kind::special(ft))
        }
    }

    #[cfg(unix)]
    fn special(ft: &fs::FileType) -> Kind {
        if ft.is_fifo() {
            Kind::Fifo
        } else if ft.is_socket() {
            Kind::Socket
        } else if ft.is_char_device() || ft.is_block_device() {
            Kind::Device
        } else {
            Kind::Other
        }
    }

    /// Windows has no FIFOs or device files in the file system: a link or other entry.
    #[cfg(not(unix))]
    fn special(_: &fs::FileType) -> Kind {
        Kind::Other
    }

    pub fn shown(self, lang: Lang) -> &'static str {
        match self {
            Kind::Folder => tr!(lang, "safety.files.kind_folder"),
            Kind::Fifo => tr!(lang, "safety.files.kind_fifo"),
            Kind::Socket => tr!(lang, "safety.files.kind_socket"),
            Kind::Device => tr!(lang, "safety.files.kind_device"),
            Kind::Other => tr!(lang, "safety.files.kind_other"),
        }
    }
}

fn check_meta(meta: &fs::Metadata, cap: u64) -> Result<(), Refused> {
    if let Some(kind) = Kind::of(&meta.file_type()) {
        return Err(Refused::NotRegular(kind));
    }
    if meta.len() > cap {
        return Err(Refused::TooBig {
            size: meta.len(),
            cap,
            grew: false,
        });
    }
    Ok(())
}

/// The bytes of the regular file at `path` (symlinks followed), at most `cap` of them.
pub fn read_file(path: &Path, cap: u64) -> Result<Vec<u8>, Refused> {
    // Metadata first: a FIFO or a device is never opened.
    check_meta(&fs::metadata(path).map_err(Refused::Io)?, cap)?;
    // O_NONBLOCK: should the path be swapped for a FIFO after the check, the open does not
    // wait for a writer; the second check below then refuses it.
    let mut open = fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    open.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    let f = open.open(path).map_err(Refused::Io)?;
    let meta = f.metadata().map_err(Refused::Io)?;
    check_meta(&meta, cap)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    f.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(Refused::Io)?;
    if bytes.len() as u64 > cap {
        return Err(Refused::TooBig {
            size: bytes.len() as u64,
            cap,
            grew: true,
        });
    }
    Ok(bytes)
}

/// [`read_file`] as UTF-8 text.
pub fn read_text(path: &Path, cap: u64) -> Result<String, Refused> {
    String::from_utf8(read_file(path, cap)?).map_err(|_| Refused::NotUtf8)
}

/// The canonical form of `path` if it lies under one of `roots` (each canonicalised too);
/// otherwise [`Refused::Outside`] naming the first root. A missing file is an I/O error.
pub fn confine(path: &Path, roots: &[&Path]) -> Result<PathBuf, Refused> {
    let real = fs::canonicalize(path).map_err(Refused::Io)?;
    for root in roots {
        if let Ok(r) = fs::canonicalize(root) {
            if real.starts_with(&r) {
                return Ok(real);
            }
        }
    }
    let root = roots
        .first()
        .map(|r| fs::canonicalize(r).unwrap_or_else(|_| r.to_path_buf()))
        .unwrap_or_default();
    Err(Refused::Outside { root })
}

/// The folder of the file at `file` (`.` for a bare name).
pub fn folder_of(file: &Path) -> &Path {
    match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A path named inside `file` (`given`, relative to `file`'s folder or absolute),
/// resolved and confined to that folder.
pub fn beside(file: &Path, given: &str) -> Result<PathBuf, Refused> {
    let folder = folder_of(file);
    confine(&folder.join(given), &[folder])
}

#[cfg(test)]
mod tests {
    use super::*;

    // FIFOs, /dev/zero and symlinks as a user makes them are Unix's.
    #[cfg(unix)]
    #[test]
    fn regular_files_are_read_and_special_ones_refused_without_opening() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.toml");
        fs::write(&p, "x = 1\n").unwrap();
        assert_eq!(read_text(&p, 100).unwrap(), "x = 1\n");
        assert!(matches!(
            read_file(&p, 3),
            Err(Refused::TooBig { size: 6, .. })
        ));
        assert!(matches!(
            read_file(Path::new("/dev/zero"), 100),
            Err(Refused::NotRegular(Kind::Device))
        ));
        assert!(matches!(
            read_file(d.path(), 100),
            Err(Refused::NotRegular(Kind::Folder))
        ));
        let fifo = d.path().join("f");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(matches!(
            read_file(&fifo, 100),
            Err(Refused::NotRegular(Kind::Fifo))
        ));
        assert!(read_file(&d.path().join("missing"), 100)
            .unwrap_err()
            .is_missing());
        fs::write(&p, [0xff, 0xfe]).unwrap();
        assert!(matches!(read_text(&p, 100), Err(Refused::NotUtf8)));
    }

    #[cfg(unix)]
    #[test]
    fn paths_named_in_a_file_stay_in_its_folder_symlinks_included() {
        let d = tempfile::tempdir().unwrap();
        let proj = d.path().join("proj");
        fs::create_dir_all(proj.join("sub")).unwrap();
        fs::write(d.path().join("secret.toml"), "s").unwrap();
        fs::write(proj.join("sub/ok.toml"), "o").unwrap();
        let file = proj.join("main.toml");
        assert!(beside(&file, "sub/ok.toml").is_ok());
        assert!(beside(&file, "sub/../sub/ok.toml").is_ok());
        for bad in ["../secret.toml", "/etc/passwd"] {
            assert!(
                matches!(beside(&file, bad), Err(Refused::Outside { .. })),
                "{bad}"
            );
        }
        std::os::unix::fs::symlink(d.path().join("secret.toml"), proj.join("link.toml")).unwrap();
        assert!(matches!(
            beside(&file, "link.toml"),
            Err(Refused::Outside { .. })
        ));
        assert!(beside(&file, "missing.toml").unwrap_err().is_missing());
    }
}
