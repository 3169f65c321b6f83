//! Outputs are one set. A command computes everything first, writes it into a staging
//! folder beside its target, fsyncs, then swaps the staging folder and the target in one
//! `rename` (Linux `renameat2(RENAME_EXCHANGE)`): whoever looks at the target, at any
//! instant, sees the complete previous set or the complete new one. Files of the old
//! folder that the new set does not produce (another table's CSV, `reports/fr/`...) are
//! carried over into the staging folder as hard links before the swap.
//!
//! What a swap does to the folder (docs/trust.md, "Publishing"): the target becomes a new
//! directory (new inode) holding the new set. Its mode (setgid bit included), owner and
//! group are the old folder's; so are those of every sub-folder and every file the new set
//! replaces; carried-over entries are the same inodes (hard links), so they keep
//! everything; new files take the owner and group of their folder. A tool that cannot give
//! an entry its owner back (not root, folder owned by someone else) refuses before any
//! work. A shell sitting in the old folder is left in the previous set, which is removed:
//! `cd "$PWD"` enters the new one. Swapping the folder's contents one by one would keep
//! the inode but let a kill leave a mix of both sets, which this module exists to prevent.
//!
//! Special files (FIFOs, sockets, devices) and symlinks in the old folder are carried
//! over as links and never opened (an fsync would block on a FIFO). A set published
//! inside the target by another run after the carry-over was taken is detected before the
//! swap and carried again (never rolled back); a live lock inside the target, or around
//! it, refuses the publication: two runs would otherwise undo each other.
//!
//! A lock file beside the target (`.<name>.lock`, holding the writer's pid, its start
//! time and the boot id) keeps two runs from writing one folder; the lock of a dead
//! process — or of a pid now reused by another process — is taken over. Staging (`.<name>.
//! staging-<pid>`) and swapped-out (`.<name>.old-<pid>`) folders are hidden beside the
//! target and removed by the next run that takes the lock.

mod lock;
mod tree;

use crate::lang::Lang;
use std::fs;
use std::path::{Path, PathBuf};

use super::user;

use super::signals;
use lock::{clean_leftovers, refuse_nested, sibling, take_lock};
use tree::{adopt_folder, carry_over, keep_owners, tree_state, DirState};

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

impl Staging {
    /// Checks that `target` can be written, takes its lock and creates the staging
    /// folder. Called before any computation, so a bad `--out` costs nothing.
    pub fn prepare(target: &Path, lang: Lang) -> anyhow::Result<Staging> {
        let shown = target.display().to_string();
        if target.as_os_str().is_empty() {
            return Err(user(tr!(lang, "publish.out_empty")));
        }
        let absolute = if target.is_absolute() {
            target.to_path_buf()
        } else {
            std::env::current_dir()
                .map_err(|e| user(tr!(lang, "publish.no_current_folder", error = e)))?
                .join(target)
        };
        // `a/b/..` or `.` have no usable name: resolve them through the parent.
        let absolute = normalise(&absolute);
        let (Some(parent), Some(_)) = (absolute.parent(), absolute.file_name()) else {
            return Err(user(tr!(lang, "publish.root", out = shown)));
        };
        if let Ok(m) = fs::symlink_metadata(&absolute) {
            if !m.is_dir() {
                return Err(user(tr!(lang, "publish.out_is_file", out = shown)));
            }
        }
        if let Some(file) = first_file_ancestor(parent) {
            return Err(user(tr!(
                lang,
                "publish.ancestor_is_file",
                out = shown,
                file = file.display()
            )));
        }
        fs::create_dir_all(parent).map_err(|e| {
            user(tr!(
                lang,
                "publish.cannot_create",
                out = shown,
                folder = parent.display(),
                error = e
            ))
        })?;
        let lock = sibling(&absolute, "lock");
        take_lock(&lock, target, lang)?;
        let mut staging = Staging {
            target: absolute.clone(),
            dir: sibling(&absolute, &format!("staging-{}", std::process::id())),
            lock,
            done: false,
        };
        clean_leftovers(&absolute);
        let cannot_write_in = |e: std::io::Error| {
            user(tr!(
                lang,
                "publish.cannot_write_in",
                out = shown,
                folder = parent.display(),
                error = e
            ))
        };
        fs::create_dir(&staging.dir).map_err(cannot_write_in)?;
        signals::remove_on_signal(&staging.dir, &staging.lock);
        if let Err(e) =
            refuse_nested(&absolute, lang).and_then(|_| adopt_folder(&staging.dir, &absolute, lang))
        {
            staging.abandon();
            return Err(e);
        }
        // A folder that exists but cannot be replaced (read-only parent) fails here, not
        // after the work.
        if let Err(e) = probe_writable(parent) {
            staging.abandon();
            return Err(cannot_write_in(e));
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
    pub fn publish(self, lang: Lang) -> anyhow::Result<()> {
        signals::check()?;
        let mut carried = Vec::new();
        let seen = self.carry(&mut carried, lang)?;
        if let Some(ms) = std::env::var(PAUSE_ENV).ok().and_then(|v| v.parse().ok()) {
            std::thread::sleep(std::time::Duration::from_millis(ms));
        }
        self.finish(carried, seen, lang)
    }

    /// The swap, once the old tree is known unchanged since `seen` (else carried again).
    fn finish(
        mut self,
        mut carried: Vec<PathBuf>,
        mut seen: Vec<DirState>,
        lang: Lang,
    ) -> anyhow::Result<()> {
        // Another run may have published inside the target since the carry-over was taken
        // (`report --out R` while a run writes `R/mine`): swapping now would roll its set
        // back. Carry the newer set instead, a few times at most.
        let mut tries = 0;
        loop {
            refuse_nested(&self.target, lang)?;
            if tree_state(&self.target) == seen {
                break;
            }
            tries += 1;
            if tries > 5 {
                return Err(user(tr!(
                    lang,
                    "safety.publish.busy",
                    out = self.target.display()
                )));
            }
            for p in carried.drain(..).rev() {
                let _ = match fs::symlink_metadata(&p) {
                    Ok(m) if m.is_dir() => fs::remove_dir_all(&p),
                    _ => fs::remove_file(&p),
                };
            }
            seen = self.carry(&mut carried, lang)?;
        }
        // A signal's clean-up and the swap never interleave.
        let _guard = signals::publication_lock();
        signals::check()?;
        swap(&self.dir, &self.target, lang)?;
        if let Some(parent) = self.target.parent() {
            let _ = sync_dir(parent);
        }
        // The old set now sits at the staging path.
        let _ = fs::remove_dir_all(&self.dir);
        self.done = true;
        self.release();
        Ok(())
    }

    /// Carries the old set's other entries over, gives every entry the owner and mode it
    /// must keep, and fsyncs the staged set. Returns the state of the old tree as it was
    /// before the copy (see [`tree_state`]); `carried` receives what was carried.
    fn carry(&self, carried: &mut Vec<PathBuf>, lang: Lang) -> anyhow::Result<Vec<DirState>> {
        let seen = tree_state(&self.target);
        if let Ok(m) = fs::symlink_metadata(&self.target) {
            if m.is_dir() {
                carry_over(&self.target, &self.dir, carried, lang)?;
                keep_owners(&self.dir, &self.target, &m, lang)?;
            }
        }
        sync_tree(&self.dir, &mut 0, lang)?;
        Ok(seen)
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

fn sync_dir(d: &Path) -> std::io::Result<()> {
    fs::File::open(d)?.sync_all()
}

/// fsyncs every file and folder of the staged set.
fn sync_tree(d: &Path, count: &mut u64, lang: Lang) -> anyhow::Result<()> {
    let fail_at: Option<u64> = std::env::var(FAIL_ENV).ok().and_then(|v| v.parse().ok());
    let cannot_write = |file: &Path, error: std::io::Error| {
        anyhow::anyhow!(tr!(
            lang,
            "publish.cannot_write",
            file = file.display(),
            error
        ))
    };
    for e in fs::read_dir(d)? {
        let e = e?;
        let p = e.path();
        let t = e.file_type()?;
        if t.is_dir() {
            sync_tree(&p, count, lang)?;
        } else if !t.is_file() {
            // A FIFO would block the open, a socket refuse it; a symlink's target is not
            // ours. They were linked, not written: nothing to sync.
            continue;
        } else {
            *count += 1;
            if fail_at == Some(*count) {
                anyhow::bail!("cannot write {}: simulated write failure", p.display());
            }
            fs::OpenOptions::new()
                .read(true)
                .open(&p)
                .and_then(|f| f.sync_all())
                .map_err(|err| cannot_write(&p, err))?;
        }
    }
    sync_dir(d).map_err(|err| cannot_write(d, err))
}

/// Exchanges `staging` and `target` atomically (a plain rename when there is no target).
fn swap(staging: &Path, target: &Path, lang: Lang) -> anyhow::Result<()> {
    let err = |e: std::io::Error| {
        anyhow::anyhow!(tr!(
            lang,
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
    use super::lock::{start_time, LockOwner};
    use super::*;

    fn read(p: impl AsRef<Path>) -> String {
        fs::read_to_string(p).unwrap()
    }

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
        let s = Staging::prepare(&target, Lang::En).unwrap();
        fs::write(s.dir().join("a.csv"), "new a").unwrap();
        s.publish(Lang::En).unwrap();
        assert_eq!(read(target.join("a.csv")), "new a");
        assert_eq!(read(target.join("other.csv")), "kept");
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
            let s = Staging::prepare(&target, Lang::En).unwrap();
            fs::write(s.dir().join("a.csv"), "half").unwrap();
        }
        assert_eq!(read(target.join("a.csv")), "old");
        assert_eq!(files(root.path()), vec!["out"]);
    }

    #[test]
    fn a_live_lock_refuses_and_a_dead_one_is_taken_over() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("out");
        let lock = root.path().join(".out.lock");
        // pid 1 always exists.
        fs::write(&lock, "1\n").unwrap();
        let e = Staging::prepare(&target, Lang::En)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("is being written by pid 1"), "{e}");
        fs::write(&lock, "999999999\n").unwrap();
        let s = Staging::prepare(&target, Lang::En).unwrap();
        s.publish(Lang::En).unwrap();
        assert!(!lock.exists());
    }

    #[test]
    fn bad_out_folders_are_refused_before_work() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("f");
        fs::write(&file, "x").unwrap();
        let e = Staging::prepare(&file, Lang::En).err().unwrap().to_string();
        assert!(e.contains("is a file"), "{e}");
        let e = Staging::prepare(&file.join("sub"), Lang::En)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("is a file, so no folder"), "{e}");
    }

    #[test]
    fn a_set_published_inside_the_target_after_the_copy_is_carried_not_rolled_back() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("out");
        fs::create_dir_all(target.join("mine")).unwrap();
        fs::write(target.join("mine/a.csv"), "old mine").unwrap();
        let s = Staging::prepare(&target, Lang::En).unwrap();
        fs::write(s.dir().join("top.csv"), "new top").unwrap();
        let mut carried = Vec::new();
        let seen = s.carry(&mut carried, Lang::En).unwrap();
        assert_eq!(
            fs::read_to_string(s.dir().join("mine/a.csv")).unwrap(),
            "old mine"
        );
        // Another run publishes out/mine now, as its own swap would.
        fs::create_dir(target.join(".mine.staging-1")).unwrap();
        fs::write(target.join(".mine.staging-1/a.csv"), "new mine").unwrap();
        fs::rename(target.join("mine"), target.join(".mine.old-1")).unwrap();
        fs::rename(target.join(".mine.staging-1"), target.join("mine")).unwrap();
        fs::remove_dir_all(target.join(".mine.old-1")).unwrap();
        s.finish(carried, seen, Lang::En).unwrap();
        assert_eq!(read(target.join("mine/a.csv")), "new mine");
        assert_eq!(read(target.join("top.csv")), "new top");
        assert_eq!(files(root.path()), vec!["out"]);
    }

    #[test]
    fn a_lock_whose_pid_now_belongs_to_another_process_is_stale() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("out");
        let lock = root.path().join(".out.lock");
        let me = LockOwner::me();
        let start = me.start.expect("/proc/self/stat");
        // pid 1 lives, but not since the time this lock says.
        let pid1 = start_time(1).unwrap();
        fs::write(&lock, format!("1 {}\n", pid1 + 1)).unwrap();
        Staging::prepare(&target, Lang::En)
            .unwrap()
            .publish(Lang::En)
            .unwrap();
        assert!(!lock.exists());
        // The same pid and start time: the writer still runs.
        fs::write(&lock, format!("1 {pid1}\n")).unwrap();
        let e = Staging::prepare(&target, Lang::En)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("is being written by pid 1"), "{e}");
        // Another boot: stale whatever the pid.
        fs::write(&lock, "1 1 another-boot\n").unwrap();
        Staging::prepare(&target, Lang::En)
            .unwrap()
            .publish(Lang::En)
            .unwrap();
        // Our own lock line records pid, start time and boot.
        assert!(me.line().starts_with(&format!("{} {start} ", me.pid)));
    }

    #[test]
    fn leftovers_of_a_killed_run_are_cleaned() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("out");
        fs::create_dir(&target).unwrap();
        fs::create_dir(root.path().join(".out.staging-42")).unwrap();
        let s = Staging::prepare(&target, Lang::En).unwrap();
        s.publish(Lang::En).unwrap();
        assert_eq!(files(root.path()), vec!["out"]);
    }
}
