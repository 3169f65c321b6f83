//! The lock beside a target (`.<name>.lock`: pid, start time, boot id) that keeps two runs
//! from writing one folder, and the leftovers of killed runs it lets the next run clean.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::commands::user;
use crate::lang::Lang;

/// `.<name>.<what>` beside `target`.
pub(super) fn sibling(target: &Path, what: &str) -> PathBuf {
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
pub(super) fn start_time(pid: i32) -> Option<u64> {
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
pub(super) struct LockOwner {
    pub(super) pid: i32,
    pub(super) start: Option<u64>,
    pub(super) boot: Option<String>,
}

impl LockOwner {
    pub(super) fn me() -> LockOwner {
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

    pub(super) fn line(&self) -> String {
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
pub(super) fn take_lock(lock: &Path, target: &Path, lang: Lang) -> anyhow::Result<()> {
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

pub(super) fn refuse_nested(target: &Path, lang: Lang) -> anyhow::Result<()> {
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
pub(super) fn clean_leftovers(target: &Path) {
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
