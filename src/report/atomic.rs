use crate::lang::Lang;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A sibling temp path that keeps the extension (plotters picks the format from it).
pub(crate) fn temp_sibling(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp.{}", std::process::id(), ext(path)))
}

fn ext(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_string())
        .unwrap_or_else(|| "out".into())
}

/// An output that cannot be written (disk full, no permission, a read-only folder): the
/// file named and the system's reason in words, never a debug dump of the error value.
/// Exit 2 like bad input, since the run did not fail on its own: `expect` keeps exit 1
/// for a failed expectation, which a full disk must not look like.
pub fn write_error(path: &Path, e: anyhow::Error, lang: Lang) -> anyhow::Error {
    if e.chain().any(|c| c.is::<crate::error::UserError>()) {
        return e;
    }
    let reason = e.root_cause().to_string();
    crate::error::UserError::new(tr!(
        lang,
        "safety.work.cannot_write",
        file = path.display(),
        error = reason
    ))
    .into()
}

/// Runs `produce` on a temp file next to `path`, then renames it over `path`; on error the
/// temp file is removed and `path` is left as it was.
pub(crate) fn replace_with(
    path: &Path,
    produce: impl FnOnce(&Path) -> anyhow::Result<()>,
    lang: Lang,
) -> anyhow::Result<()> {
    let tmp = temp_sibling(path);
    let result = produce(&tmp).and_then(|_| Ok(std::fs::rename(&tmp, path)?));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(|e| write_error(path, e, lang))
}

/// Writes `bytes` to `path` atomically (temp file + rename).
pub fn write_atomic(path: &Path, bytes: &[u8], lang: Lang) -> anyhow::Result<()> {
    replace_with(
        path,
        |tmp| {
            let mut f = std::fs::File::create(tmp)?;
            f.write_all(bytes)?;
            f.sync_all()?;
            Ok(())
        },
        lang,
    )
}

/// `create_dir_all` with [`write_error`]'s message.
pub fn create_dir(dir: &Path, lang: Lang) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| write_error(dir, e.into(), lang))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_write_leaves_old_file_and_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.csv");
        write_atomic(&p, b"old", Lang::En).unwrap();
        let r = replace_with(
            &p,
            |tmp| {
                std::fs::write(tmp, b"half")?;
                anyhow::bail!("boom")
            },
            Lang::En,
        );
        assert!(r.is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // The error names the file, and is the user's to fix (exit 2).
        let e = r.unwrap_err();
        assert!(format!("{e:#}").contains("a.csv"), "{e:#}");
        assert!(e.chain().any(|c| c.is::<crate::error::UserError>()));
    }

    /// A full device: the file named, the reason in words, no `Os { code: .. }` dump.
    #[test]
    fn a_full_disk_names_the_file() {
        if !Path::new("/dev/full").exists() {
            eprintln!("skipped: no /dev/full on this system");
            return;
        }
        let e = replace_with(
            Path::new("/tmp/out.csv"),
            |_| {
                let mut f = std::fs::OpenOptions::new().write(true).open("/dev/full")?;
                f.write_all(&[0u8; 65536])?;
                f.sync_all()?;
                Ok(())
            },
            Lang::En,
        )
        .unwrap_err();
        let m = format!("{e:#}");
        assert!(
            m.contains("/tmp/out.csv") && m.contains("No space left"),
            "{m}"
        );
        assert!(!m.contains("Os {") && !m.contains("kind:"), "{m}");
    }
}
