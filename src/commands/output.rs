//! Terminal output that never aborts a run: log lines go to stderr and are dropped when
//! stderr is closed; a command whose product is stdout fails with a message (exit 1) when
//! stdout cannot be written.

use std::io::Write;

/// A status line on stderr; a closed or full stderr is ignored.
pub fn say(msg: &str) {
    let _ = writeln!(std::io::stderr(), "{msg}");
}

/// Writes a command's product to stdout.
pub fn print_stdout(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| anyhow::anyhow!(crate::tr!("publish.stdout", error = e)))
}
