//! Terminal output that never aborts a run: log lines go to stderr and are dropped when
//! stderr is closed; a command whose product is stdout fails with a message (exit 1) when
//! stdout cannot be written.

use crate::lang::Lang;
use std::io::Write;

/// A status line on stderr; a closed or full stderr is ignored.
pub fn say(msg: &str) {
    let _ = writeln!(std::io::stderr(), "{msg}");
}

/// A warning on stderr (stalemates, rule options foreign to the system, keys a file
/// sets for nothing): printed even under `--quiet`, which silences progress and file
/// lists, not what may make an answer wrong.
pub fn warn(text: &str, lang: Lang) {
    say(&tr!(lang, "page.warning", text));
}

/// Writes a command's product to stdout.
pub fn print_stdout(text: &str, lang: Lang) -> anyhow::Result<()> {
    if stdout_closed() {
        return Err(anyhow::anyhow!(tr!(
            lang,
            "publish.stdout",
            error = tr!(lang, "safety.work.stdout_closed")
        )));
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| anyhow::anyhow!(tr!(lang, "publish.stdout", error = e)))
}

/// Whether the command was started with stdout closed (`options >&-`). The Rust runtime
/// reopens a closed fd 1 on /dev/null, read-write, before `main`, so the product would
/// vanish with exit 0; a shell's `> /dev/null` opens it write-only, and is left alone.
#[cfg(unix)]
fn stdout_closed() -> bool {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: F_GETFL and fstat on fd 1 only read the descriptor's state.
    let flags = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFL) };
    if flags == -1 {
        return true;
    }
    if flags & libc::O_ACCMODE != libc::O_RDWR {
        return false;
    }
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(libc::STDOUT_FILENO, &mut st) } != 0 {
        return true;
    }
    std::fs::metadata("/dev/null")
        .map(|m| m.rdev() == st.st_rdev as u64 && (st.st_mode & libc::S_IFMT) == libc::S_IFCHR)
        .unwrap_or(false)
}

#[cfg(not(unix))]
fn stdout_closed() -> bool {
    false
}
