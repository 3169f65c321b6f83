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

use crate::lang::Lang;
use std::fs;
use std::io::Write;
#[cfg(unix)]
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::user;

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

/// `.<name>.<what>` beside `target`.
fn sibling(target: &Path, what: &str) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    target.with_file_name(format!(".{name}.{what}"))
}

#[cfg(unix)]
fn process_alive(pid: i32) -> bool {
    if pid <= 0 {
        return false;
    }
    // kill(pid, 0) probes without sending anything; EPERM still means it exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(windows)]
fn process_alive(pid: i32) -> bool {
    use windows_sys::Win32::Foundation::{
        CloseHandle, GetLastError, ERROR_ACCESS_DENIED, STILL_ACTIVE,
    };
    use windows_sys::Win32::System::Threading::{
        GetExitCodeProcess, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION,
    };
    if pid <= 0 {
        return false;
    }
    // SAFETY: a handle opened here is closed here; the exit code is written to a local.
    unsafe {
        let h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid as u32);
        if h.is_null() {
            // Another user's process exists but cannot be opened.
            return GetLastError() == ERROR_ACCESS_DENIED;
        }
        let mut code = 0u32;
        let ok = GetExitCodeProcess(h, &mut code);
        CloseHandle(h);
        ok != 0 && code == STILL_ACTIVE as u32
    }
}

/// Start time of process `pid` in clock ticks since boot (`/proc/<pid>/stat` field 22).
fn start_time(pid: i32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Field 2 (the command name) may hold spaces and parentheses: count after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

fn boot_id() -> Option<String> {
    fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .ok()
        .map(|s| s.trim().to_string())
}

/// What a lock file says: the writer's pid, and where known its start time and boot.
struct LockOwner {
    pid: i32,
    start: Option<u64>,
    boot: Option<String>,
}

impl LockOwner {
    fn me() -> LockOwner {
        let pid = std::process::id() as i32;
        LockOwner {
            pid,
            start: start_time(pid),
            boot: boot_id(),
        }
    }

    fn read(lock: &Path) -> Option<LockOwner> {
        let text = crate::input::read_text(lock, 4096).ok()?;
        let mut it = text.split_whitespace();
        Some(LockOwner {
            pid: it.next()?.parse().ok()?,
            start: it.next().and_then(|s| s.parse().ok()),
            boot: it.next().map(str::to_string),
        })
    }

    fn line(&self) -> String {
        match (&self.start, &self.boot) {
            (Some(s), Some(b)) => format!("{} {s} {b}\n", self.pid),
            (Some(s), None) => format!("{} {s}\n", self.pid),
            _ => format!("{}\n", self.pid),
        }
    }

    /// Whether the writer still runs: its pid is alive and, when the lock recorded them,
    /// it is the same process (same boot, same start time), not a later one given the
    /// recycled pid.
    fn alive(&self) -> bool {
        if !process_alive(self.pid) {
            return false;
        }
        if let (Some(b), Some(now)) = (&self.boot, boot_id()) {
            if *b != now {
                return false;
            }
        }
        match (self.start, start_time(self.pid)) {
            (Some(then), Some(now)) => then == now,
            _ => true,
        }
    }
}

/// Takes the lock file; a lock whose writer is dead (or whose pid was reused) is taken over.
fn take_lock(lock: &Path, target: &Path, lang: Lang) -> anyhow::Result<()> {
    for _ in 0..3 {
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(lock)
        {
            Ok(mut f) => {
                let _ = f.write_all(LockOwner::me().line().as_bytes());
                return Ok(());
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                if let Some(owner) = LockOwner::read(lock) {
                    if owner.pid as u32 != std::process::id() && owner.alive() {
                        return Err(user(tr!(
                            lang,
                            "publish.locked_by",
                            target = target.display(),
                            pid = owner.pid,
                            lock = lock.display()
                        )));
                    }
                }
                // The writer died (or left an unreadable lock): take it over.
                let _ = fs::remove_file(lock);
            }
            Err(e) => {
                return Err(user(tr!(
                    lang,
                    "publish.cannot_write_to",
                    folder = lock.parent().unwrap_or(Path::new(".")).display(),
                    error = e
                )))
            }
        }
    }
    Err(user(tr!(lang, "publish.locked", target = target.display())))
}

/// A live lock of another run whose folder contains `target` or lies inside it: the two
/// publications would undo each other (the outer one carries over, then swaps back, the
/// inner folder as it was before the inner run published). `(folder, pid, lock)`.
fn nested_live_lock(target: &Path) -> Option<(PathBuf, i32, PathBuf)> {
    let live = |lock: &Path| {
        LockOwner::read(lock)
            .filter(|o| o.pid as u32 != std::process::id() && o.alive())
            .map(|o| o.pid)
    };
    for a in target.ancestors().skip(1) {
        if a.file_name().is_none() {
            break;
        }
        let lock = sibling(a, "lock");
        if let Some(pid) = live(&lock) {
            return Some((a.to_path_buf(), pid, lock));
        }
    }
    // Locks inside the target (bounded walk: an output folder, not a file system).
    let mut stack = vec![target.to_path_buf()];
    let mut seen = 0usize;
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            seen += 1;
            if seen > 200_000 {
                return None;
            }
            let n = e.file_name().to_string_lossy().to_string();
            let Ok(t) = e.file_type() else { continue };
            if t.is_dir() {
                if !(n.starts_with('.') && (n.contains(".staging-") || n.contains(".old-"))) {
                    stack.push(e.path());
                }
            } else if n.starts_with('.') && n.ends_with(".lock") && n.len() > ".lock".len() + 1 {
                if let Some(pid) = live(&e.path()) {
                    let folder = d.join(&n[1..n.len() - ".lock".len()]);
                    return Some((folder, pid, e.path()));
                }
            }
        }
    }
    None
}

fn refuse_nested(target: &Path, lang: Lang) -> anyhow::Result<()> {
    match nested_live_lock(target) {
        Some((folder, pid, lock)) => Err(user(tr!(
            lang,
            "safety.publish.nested_locked",
            out = target.display(),
            other = folder.display(),
            pid,
            lock = lock.display()
        ))),
        None => Ok(()),
    }
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

/// Hard-links (or copies) into `staging` every entry of `old` the new set lacks; what it
/// adds (top-most paths) goes to `carried`. Special files and symlinks are linked, never
/// opened.
fn carry_over(
    old: &Path,
    staging: &Path,
    carried: &mut Vec<PathBuf>,
    lang: Lang,
) -> anyhow::Result<()> {
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
            if fs::symlink_metadata(&to).is_err() {
                fs::create_dir(&to)?;
                carried.push(to.clone());
                carry_over(&from, &to, &mut Vec::new(), lang)?;
            } else if fs::symlink_metadata(&to).is_ok_and(|m| m.is_dir()) {
                carry_over(&from, &to, carried, lang)?;
            }
        } else if fs::symlink_metadata(&to).is_err() {
            let cannot_keep = |err: std::io::Error| {
                anyhow::anyhow!(tr!(
                    lang,
                    "publish.cannot_keep",
                    file = from.display(),
                    error = err
                ))
            };
            if let Err(link_err) = fs::hard_link(&from, &to) {
                if ft.is_file() {
                    fs::copy(&from, &to).map_err(cannot_keep)?;
                } else if ft.is_symlink() {
                    copy_symlink(&from, &to).map_err(cannot_keep)?;
                } else {
                    // A FIFO or socket cannot be copied without opening it.
                    return Err(cannot_keep(link_err));
                }
            }
            carried.push(to);
        }
    }
    Ok(())
}

#[cfg(unix)]
fn copy_symlink(from: &Path, to: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(fs::read_link(from)?, to)
}

#[cfg(windows)]
fn copy_symlink(from: &Path, to: &Path) -> std::io::Result<()> {
    let target = fs::read_link(from)?;
    if fs::metadata(from).is_ok_and(|m| m.is_dir()) {
        std::os::windows::fs::symlink_dir(target, to)
    } else {
        std::os::windows::fs::symlink_file(target, to)
    }
}

/// One folder of the old tree as last seen: a set published inside it since changes its
/// inode, modification or change time.
#[derive(PartialEq, Eq, Debug)]
struct DirState {
    path: PathBuf,
    ino: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl DirState {
    #[cfg(unix)]
    fn of(path: PathBuf, m: &fs::Metadata) -> DirState {
        DirState {
            path,
            ino: m.ino(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        }
    }

    /// Windows: no inode or change time in std's stable API; the modification and
    /// creation times stand in for them.
    #[cfg(not(unix))]
    fn of(path: PathBuf, m: &fs::Metadata) -> DirState {
        let nanos = |t: std::io::Result<std::time::SystemTime>| {
            t.ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or((0, 0), |d| (d.as_secs() as i64, d.subsec_nanos() as i64))
        };
        DirState {
            path,
            ino: 0,
            mtime: nanos(m.modified()),
            ctime: nanos(m.created()),
        }
    }
}

/// Every folder of the tree at `root` (symlinks not followed), in a stable order.
fn tree_state(root: &Path) -> Vec<DirState> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(m) = fs::symlink_metadata(&d) else {
            continue;
        };
        if !m.is_dir() {
            continue;
        }
        out.push(DirState::of(d.clone(), &m));
        if let Ok(entries) = fs::read_dir(&d) {
            for e in entries.flatten() {
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    stack.push(e.path());
                }
            }
        }
        if out.len() > 100_000 {
            break;
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// Windows: files take the folder's inherited ACLs; there is no owner or mode to carry.
#[cfg(not(unix))]
fn adopt_folder(_staging: &Path, _target: &Path) -> anyhow::Result<()> {
    Ok(())
}

#[cfg(not(unix))]
fn keep_owners(_staging: &Path, _old: &Path, _old_meta: &fs::Metadata) -> anyhow::Result<()> {
    Ok(())
}

/// The staging folder takes the target's owner, group and mode as soon as it exists: a
/// folder whose owner this process cannot give back is refused before any work, and files
/// created in it inherit a setgid group.
#[cfg(unix)]
fn adopt_folder(staging: &Path, target: &Path, lang: Lang) -> anyhow::Result<()> {
    let Ok(m) = fs::symlink_metadata(target) else {
        return Ok(());
    };
    if !m.is_dir() {
        return Ok(());
    }
    // Owner-writable while the set is written; the exact mode is set before the swap.
    set_owner_mode(staging, &m, m.mode() | 0o700).map_err(|e| {
        user(tr!(
            lang,
            "safety.publish.cannot_keep_owner",
            out = target.display(),
            uid = m.uid(),
            gid = m.gid(),
            mode = format!("{:o}", m.mode() & 0o7777),
            error = e
        ))
    })
}

#[cfg(unix)]
fn set_owner_mode(p: &Path, want: &fs::Metadata, mode: u32) -> std::io::Result<()> {
    let now = fs::symlink_metadata(p)?;
    if now.uid() != want.uid() || now.gid() != want.gid() {
        std::os::unix::fs::lchown(p, Some(want.uid()), Some(want.gid()))?;
    }
    if !now.file_type().is_symlink() {
        // chown clears setuid/setgid bits: the mode is set after it.
        fs::set_permissions(p, fs::Permissions::from_mode(mode & 0o7777))?;
    }
    Ok(())
}

/// Gives every entry of the staged set the owner, group and mode it must keep: the old
/// entry's when the set replaces one (the target folder itself included), else the owner
/// and group of its folder. Carried-over links are the old inodes and are left alone.
#[cfg(unix)]
fn keep_owners(
    staging: &Path,
    old: &Path,
    old_meta: &fs::Metadata,
    lang: Lang,
) -> anyhow::Result<()> {
    fn walk(new: &Path, old: &Path, folder: &fs::Metadata, lang: Lang) -> anyhow::Result<()> {
        for e in fs::read_dir(new)? {
            let e = e?;
            let p = e.path();
            let before = fs::symlink_metadata(old.join(e.file_name())).ok();
            let now = fs::symlink_metadata(&p)?;
            if before
                .as_ref()
                .is_some_and(|b| b.dev() == now.dev() && b.ino() == now.ino())
            {
                continue;
            }
            // The entry it replaces, else its folder (whose owner it then is).
            let (want, mode) = match &before {
                Some(b) if b.file_type() == now.file_type() => (b.clone(), b.mode()),
                _ => (folder.clone(), now.mode()),
            };
            if now.is_dir() {
                walk(&p, &old.join(e.file_name()), &want, lang)?;
            }
            apply(&p, &want, mode, lang)?;
        }
        Ok(())
    }
    fn apply(p: &Path, want: &fs::Metadata, mode: u32, lang: Lang) -> anyhow::Result<()> {
        set_owner_mode(p, want, mode).map_err(|e| {
            user(tr!(
                lang,
                "safety.publish.cannot_keep_entry",
                file = p.display(),
                uid = want.uid(),
                gid = want.gid(),
                error = e
            ))
        })
    }
    walk(staging, old, old_meta, lang)?;
    apply(staging, old_meta, old_meta.mode(), lang)
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
