//! Outputs are one set. A command computes everything first, writes it into a staging
//! folder beside its target, fsyncs, then swaps the staging folder and the target in one
//! `rename` (Linux `renameat2(RENAME_EXCHANGE)`): whoever looks at the target, at any
//! instant, sees the complete previous set or the complete new one. Files of the old
//! folder that the new set does not produce (another table's CSV, `reports/fr/`...) are
//! carried over into the staging folder as hard links before the swap.
//!
//! A lock file beside the target (`.<name>.lock`, holding the writer's pid) keeps two runs
//! from writing one folder; the lock of a dead process is taken over. Staging (`.<name>.
//! staging-<pid>`) and swapped-out (`.<name>.old-<pid>`) folders are hidden beside the
//! target and removed by the next run that takes the lock.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::UserError;

use super::signals;

/// Test hooks (environment variables read only at publication): pause before the swap
/// (milliseconds), and fail the N-th file sync as a write error would.
const PAUSE_ENV: &str = "COSMOSIM_TEST_PAUSE_BEFORE_PUBLISH_MS";
const FAIL_ENV: &str = "COSMOSIM_TEST_FAIL_SYNC_AT";

/// An output set being prepared for `target`.
pub struct Staging {
    target: PathBuf,
    dir: PathBuf,
    lock: PathBuf,
    done: bool,
}

fn user(msg: String) -> anyhow::Error {
    UserError::new(msg).into()
}

/// `.<name>.<what>` beside `target`.
fn sibling(target: &Path, what: &str) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    target.with_file_name(format!(".{name}.{what}"))
}

fn process_alive(pid: i32) -> bool {
    if pid <= 0 {
        return false;
    }
    // kill(pid, 0) probes without sending anything; EPERM still means it exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Takes the lock file; a lock whose writer is dead is taken over.
fn take_lock(lock: &Path, target: &Path) -> anyhow::Result<()> {
    for _ in 0..3 {
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(lock)
        {
            Ok(mut f) => {
                let _ = writeln!(f, "{}", std::process::id());
                return Ok(());
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let pid = fs::read_to_string(lock)
                    .ok()
                    .and_then(|s| s.trim().parse::<i32>().ok())
                    .unwrap_or(0);
                if pid != 0 && pid as u32 != std::process::id() && process_alive(pid) {
                    return Err(user(crate::tr!(
                        "publish.locked_by",
                        target = target.display(),
                        pid = pid,
                        lock = lock.display()
                    )));
                }
                // The writer died (or left an unreadable lock): take it over.
                let _ = fs::remove_file(lock);
            }
            Err(e) => {
                return Err(user(crate::tr!(
                    "publish.cannot_write_to",
                    folder = lock.parent().unwrap_or(Path::new(".")).display(),
                    error = e
                )))
            }
        }
    }
    Err(user(crate::tr!(
        "publish.locked",
        target = target.display()
    )))
}

/// Leftovers of killed runs for this target: staging folders, and a swapped-out old set
/// when the swap was cut between its two renames (non-Linux fallback).
fn clean_leftovers(target: &Path) {
    let (Some(parent), Some(name)) = (target.parent(), target.file_name()) else {
        return;
    };
    let name = name.to_string_lossy();
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    let staging = format!(".{name}.staging-");
    let old = format!(".{name}.old-");
    for e in entries.flatten() {
        let n = e.file_name().to_string_lossy().to_string();
        if n.starts_with(&staging) {
            let _ = fs::remove_dir_all(e.path());
        } else if n.starts_with(&old) {
            if !target.exists() {
                let _ = fs::rename(e.path(), target);
            } else {
                let _ = fs::remove_dir_all(e.path());
            }
        }
    }
}

impl Staging {
    /// Checks that `target` can be written, takes its lock and creates the staging
    /// folder. Called before any computation, so a bad `--out` costs nothing.
    pub fn prepare(target: &Path) -> anyhow::Result<Staging> {
        let shown = target.display().to_string();
        if target.as_os_str().is_empty() {
            return Err(user(crate::tr!("publish.out_empty").to_string()));
        }
        let absolute = if target.is_absolute() {
            target.to_path_buf()
        } else {
            std::env::current_dir()
                .map_err(|e| user(crate::tr!("publish.no_current_folder", error = e)))?
                .join(target)
        };
        // `a/b/..` or `.` have no usable name: resolve them through the parent.
        let absolute = normalise(&absolute);
        let (Some(parent), Some(_)) = (absolute.parent(), absolute.file_name()) else {
            return Err(user(crate::tr!("publish.root", out = shown)));
        };
        if let Ok(m) = fs::symlink_metadata(&absolute) {
            if !m.is_dir() {
                return Err(user(crate::tr!("publish.out_is_file", out = shown)));
            }
        }
        if let Some(file) = first_file_ancestor(parent) {
            return Err(user(crate::tr!(
                "publish.ancestor_is_file",
                out = shown,
                file = file.display()
            )));
        }
        fs::create_dir_all(parent).map_err(|e| {
            user(crate::tr!(
                "publish.cannot_create",
                out = shown,
                folder = parent.display(),
                error = e
            ))
        })?;
        let lock = sibling(&absolute, "lock");
        take_lock(&lock, target)?;
        let mut staging = Staging {
            target: absolute.clone(),
            dir: sibling(&absolute, &format!("staging-{}", std::process::id())),
            lock,
            done: false,
        };
        clean_leftovers(&absolute);
        fs::create_dir(&staging.dir).map_err(|e| {
            user(crate::tr!(
                "publish.cannot_write_in",
                out = shown,
                folder = parent.display(),
                error = e
            ))
        })?;
        signals::remove_on_signal(&staging.dir, &staging.lock);
        // A folder that exists but cannot be replaced (read-only parent) fails here, not
        // after the work.
        if let Err(e) = probe_writable(parent) {
            staging.abandon();
            return Err(user(crate::tr!(
                "publish.cannot_write_in",
                out = shown,
                folder = parent.display(),
                error = e
            )));
        }
        Ok(staging)
    }

    /// Where the command writes its outputs (same relative layout as the target).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder the set will be published as.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Publishes the staged set as the target, all at once.
    pub fn publish(mut self) -> anyhow::Result<()> {
        signals::check()?;
        if let Ok(m) = fs::metadata(&self.target) {
            if m.is_dir() {
                carry_over(&self.target, &self.dir)?;
            }
        }
        sync_tree(&self.dir, &mut 0)?;
        if let Some(ms) = std::env::var(PAUSE_ENV).ok().and_then(|v| v.parse().ok()) {
            std::thread::sleep(std::time::Duration::from_millis(ms));
        }
        // A signal's clean-up and the swap never interleave.
        let _guard = signals::publication_lock();
        signals::check()?;
        swap(&self.dir, &self.target)?;
        if let Some(parent) = self.target.parent() {
            let _ = sync_dir(parent);
        }
        // The old set now sits at the staging path.
        let _ = fs::remove_dir_all(&self.dir);
        self.done = true;
        self.release();
        Ok(())
    }

    fn release(&mut self) {
        signals::forget(&self.dir);
        let _ = fs::remove_file(&self.lock);
    }

    fn abandon(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
        self.release();
        self.done = true;
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.done {
            self.abandon();
        }
    }
}

fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn first_file_ancestor(p: &Path) -> Option<PathBuf> {
    p.ancestors()
        .find(|a| fs::metadata(a).map(|m| !m.is_dir()).unwrap_or(false))
        .map(Path::to_path_buf)
}

fn probe_writable(parent: &Path) -> std::io::Result<()> {
    let probe = parent.join(format!(".cosmosim-probe-{}", std::process::id()));
    fs::write(&probe, b"")?;
    fs::remove_file(&probe)
}

/// Hard-links (or copies) into `staging` every entry of `old` the new set lacks.
fn carry_over(old: &Path, staging: &Path) -> anyhow::Result<()> {
    for e in fs::read_dir(old)? {
        let e = e?;
        let name = e.file_name();
        let n = name.to_string_lossy();
        // Another target's lock or staging nested in this folder is not output.
        if n.starts_with('.')
            && (n.ends_with(".lock") || n.contains(".staging-") || n.contains(".old-"))
        {
            continue;
        }
        let from = e.path();
        let to = staging.join(&name);
        let ft = e.file_type()?;
        if ft.is_dir() {
            if !to.exists() {
                fs::create_dir(&to)?;
            }
            if to.is_dir() {
                carry_over(&from, &to)?;
            }
        } else if fs::symlink_metadata(&to).is_err() {
            if fs::hard_link(&from, &to).is_err() {
                fs::copy(&from, &to).map_err(|err| {
                    anyhow::anyhow!(crate::tr!(
                        "publish.cannot_keep",
                        file = from.display(),
                        error = err
                    ))
                })?;
            }
        }
    }
    Ok(())
}

fn sync_dir(d: &Path) -> std::io::Result<()> {
    fs::File::open(d)?.sync_all()
}

/// fsyncs every file and folder of the staged set.
fn sync_tree(d: &Path, count: &mut u64) -> anyhow::Result<()> {
    let fail_at: Option<u64> = std::env::var(FAIL_ENV).ok().and_then(|v| v.parse().ok());
    for e in fs::read_dir(d)? {
        let e = e?;
        let p = e.path();
        if e.file_type()?.is_dir() {
            sync_tree(&p, count)?;
        } else {
            *count += 1;
            if fail_at == Some(*count) {
                anyhow::bail!("cannot write {}: simulated write failure", p.display());
            }
            fs::OpenOptions::new()
                .read(true)
                .open(&p)
                .and_then(|f| f.sync_all())
                .map_err(|err| {
                    anyhow::anyhow!(crate::tr!(
                        "publish.cannot_write",
                        file = p.display(),
                        error = err
                    ))
                })?;
        }
    }
    sync_dir(d).map_err(|err| {
        anyhow::anyhow!(crate::tr!(
            "publish.cannot_write",
            file = d.display(),
            error = err
        ))
    })?;
    Ok(())
}

/// Exchanges `staging` and `target` atomically (a plain rename when there is no target).
fn swap(staging: &Path, target: &Path) -> anyhow::Result<()> {
    let err = |e: std::io::Error| {
        anyhow::anyhow!(crate::tr!(
            "publish.cannot_publish",
            target = target.display(),
            error = e
        ))
    };
    if fs::symlink_metadata(target).is_err() {
        return fs::rename(staging, target).map_err(err);
    }
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let a = CString::new(staging.as_os_str().as_bytes())?;
        let b = CString::new(target.as_os_str().as_bytes())?;
        let r = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                a.as_ptr(),
                libc::AT_FDCWD,
                b.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if !matches!(e.raw_os_error(), Some(libc::EINVAL) | Some(libc::ENOSYS)) {
            return Err(err(e));
        }
    }
    // No atomic exchange on this file system: two renames; a kill between them leaves the
    // old set at `.<name>.old-<pid>`, which the next run puts back.
    let old = sibling(target, &format!("old-{}", std::process::id()));
    fs::rename(target, &old).map_err(err)?;
    if let Err(e) = fs::rename(staging, target) {
        let _ = fs::rename(&old, target);
        return Err(err(e));
    }
    fs::rename(&old, staging).map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn publish_replaces_the_set_and_keeps_other_files() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("out");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("a.csv"), "old a").unwrap();
        fs::write(target.join("other.csv"), "kept").unwrap();
        let s = Staging::prepare(&target).unwrap();
        fs::write(s.dir().join("a.csv"), "new a").unwrap();
        s.publish().unwrap();
        assert_eq!(fs::read_to_string(target.join("a.csv")).unwrap(), "new a");
        assert_eq!(
            fs::read_to_string(target.join("other.csv")).unwrap(),
            "kept"
        );
        // Nothing hidden is left beside the target.
        assert_eq!(files(root.path()), vec!["out"]);
    }

    #[test]
    fn dropped_staging_leaves_the_old_set_and_no_trace() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("out");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("a.csv"), "old").unwrap();
        {
            let s = Staging::prepare(&target).unwrap();
            fs::write(s.dir().join("a.csv"), "half").unwrap();
        }
        assert_eq!(fs::read_to_string(target.join("a.csv")).unwrap(), "old");
        assert_eq!(files(root.path()), vec!["out"]);
    }

    #[test]
    fn a_live_lock_refuses_and_a_dead_one_is_taken_over() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("out");
        let lock = root.path().join(".out.lock");
        // pid 1 always exists.
        fs::write(&lock, "1\n").unwrap();
        let e = Staging::prepare(&target).err().unwrap().to_string();
        assert!(e.contains("is being written by pid 1"), "{e}");
        fs::write(&lock, "999999999\n").unwrap();
        let s = Staging::prepare(&target).unwrap();
        s.publish().unwrap();
        assert!(!lock.exists());
    }

    #[test]
    fn bad_out_folders_are_refused_before_work() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("f");
        fs::write(&file, "x").unwrap();
        let e = Staging::prepare(&file).err().unwrap().to_string();
        assert!(e.contains("is a file"), "{e}");
        let e = Staging::prepare(&file.join("sub"))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("is a file, so no folder"), "{e}");
    }

    #[test]
    fn leftovers_of_a_killed_run_are_cleaned() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("out");
        fs::create_dir(&target).unwrap();
        fs::create_dir(root.path().join(".out.staging-42")).unwrap();
        let s = Staging::prepare(&target).unwrap();
        s.publish().unwrap();
        assert_eq!(files(root.path()), vec!["out"]);
    }
}
