use std::io::Write;
use std::path::{Path, PathBuf};

/// A sibling temp path that keeps the extension (plotters picks the format from it).
pub(crate) fn temp_sibling(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp.{}", std::process::id(), ext(path)))
}

fn ext(path: &Path) -> String {
    path.extension().map(|e| e.to_string_lossy().to_string()).unwrap_or_else(|| "out".into())
}

/// Runs `produce` on a temp file next to `path`, then renames it over `path`; on error the
/// temp file is removed and `path` is left as it was.
pub(crate) fn replace_with(
    path: &Path,
    produce: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let tmp = temp_sibling(path);
    let result = produce(&tmp).and_then(|_| {
        std::fs::rename(&tmp, path)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes `bytes` to `path` atomically (temp file + rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    replace_with(path, |tmp| {
        let mut f = std::fs::File::create(tmp)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        f.write_all(bytes)?;
        f.sync_all()?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_write_leaves_old_file_and_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.csv");
        write_atomic(&p, b"old").unwrap();
        let r = replace_with(&p, |tmp| {
            std::fs::write(tmp, b"half")?;
            anyhow::bail!("boom")
        });
        assert!(r.is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
