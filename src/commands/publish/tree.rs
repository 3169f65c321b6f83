//! The old set seen from the new one: what is carried over into the staging folder, the
//! folder states that reveal a set published meanwhile, and the owners, groups and modes
//! every replaced entry keeps.

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

#[cfg(unix)]
use crate::commands::user;
use crate::lang::Lang;

/// Hard-links (or copies) into `staging` every entry of `old` the new set lacks; what it
/// adds (top-most paths) goes to `carried`. Special files and symlinks are linked, never
/// opened.
pub(super) fn carry_over(
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
pub(super) struct DirState {
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
pub(super) fn tree_state(root: &Path) -> Vec<DirState> {
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
pub(super) fn adopt_folder(_staging: &Path, _target: &Path, _lang: Lang) -> anyhow::Result<()> {
    Ok(())
}

#[cfg(not(unix))]
pub(super) fn keep_owners(
    _staging: &Path,
    _old: &Path,
    _old_meta: &fs::Metadata,
    _lang: Lang,
) -> anyhow::Result<()> {
    Ok(())
}

/// The staging folder takes the target's owner, group and mode as soon as it exists: a
/// folder whose owner this process cannot give back is refused before any work, and files
/// created in it inherit a setgid group.
#[cfg(unix)]
pub(super) fn adopt_folder(staging: &Path, target: &Path, lang: Lang) -> anyhow::Result<()> {
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
pub(super) fn keep_owners(
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
