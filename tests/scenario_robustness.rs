//! Bad scenario files never panic: every number of every shipped scenario, replaced in
//! turn by -1, 0 and a huge value, is either accepted (and then runs) or rejected with a
//! located message — never a crash — and `check` agrees with `run` on each. Runs
//! in-process, with few trials.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use cosmosim::commands::{check, run_scenario, shipped_scenarios};
use cosmosim::error::UserError;
use cosmosim::systems::RunOverrides;

fn numbers(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut in_comment = false;
    while i < b.len() {
        match b[i] {
            b'#' => in_comment = true,
            b'\n' => in_comment = false,
            c if c.is_ascii_digit()
                && !in_comment
                && (i == 0 || matches!(b[i - 1], b' ' | b'=' | b'[' | b',')) =>
            {
                let start = i;
                while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                    i += 1;
                }
                out.push((start, i));
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[test]
fn mutated_scenarios_are_accepted_or_rejected_but_never_crash() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let dir = tempfile::tempdir().unwrap();
    let overrides = RunOverrides {
        trials: Some(64),
        quiet: true,
        threads: 1,
        ..Default::default()
    };
    let (mut accepted, mut rejected) = (0, 0);
    for file in shipped_scenarios(&root) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (start, end) in numbers(&text) {
            for replacement in ["-1", "0", "4294967297"] {
                let mutated = format!("{}{replacement}{}", &text[..start], &text[end..]);
                let path: PathBuf = dir.path().join(file.file_name().unwrap());
                std::fs::write(&path, &mutated).unwrap();
                // check and run share one validation: they must agree on every file.
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    let checked = check(&path, true, cosmosim::lang::Lang::En);
                    let ran = run_scenario(&path, &overrides, cosmosim::lang::Lang::En).map(|_| ());
                    match (checked, ran) {
                        (Ok(()), Ok(())) => Ok(()),
                        (Err(c), Err(r)) => {
                            assert_eq!(c.to_string(), r.to_string(), "check and run disagree");
                            Err(r)
                        }
                        (Ok(()), Err(r)) => panic!("check accepted, run refused: {r:#}"),
                        (Err(c), Ok(())) => panic!("check refused, run accepted: {c:#}"),
                    }
                }));
                let line = text[..start].matches('\n').count() + 1;
                let what = format!(
                    "{} line {line}: {} -> {replacement}",
                    file.display(),
                    &text[start..end]
                );
                match outcome {
                    Err(_) => panic!("panicked on {what}"),
                    Ok(Ok(())) => accepted += 1,
                    Ok(Err(e)) => {
                        assert!(
                            e.chain().any(|c| c.is::<UserError>()),
                            "{what}: not a user error: {e:#}"
                        );
                        let msg = e.to_string();
                        assert!(
                            msg.contains(".toml:"),
                            "{what}: message does not name file and line: {msg}"
                        );
                        rejected += 1;
                    }
                }
            }
        }
    }
    eprintln!("accepted {accepted}, rejected {rejected}");
    assert!(
        accepted > 0 && rejected > 0,
        "accepted {accepted}, rejected {rejected}"
    );
}
