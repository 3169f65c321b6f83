//! docs/parameters.md (issue 16): every parameter's example command reads the parameter.
//! Run as written (a scenario at a small trial count, same seed), the example value must
//! change at least one CSV against the same command at the book's values; an example that
//! points at a file or table the parameter never reaches would show a designer nothing.
//! And the book's value written out (`--option key=<default>`) gives the same bytes as
//! no value, for every parameter, on the output it moves.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use cosmosim::rules::page::{example_command, example_value, is_parameter};
use cosmosim::rules::registry;

fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every CSV under `dir`, by relative path.
fn csvs(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "csv") {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

/// Runs an example command (`cosmosim ...`) with extra options into `out`.
fn run(command: &str, options: &[String], out: &Path) -> Result<(), String> {
    let words: Vec<&str> = command.split_whitespace().skip(1).collect();
    let mut c = Command::new(env!("CARGO_BIN_EXE_cosmosim"));
    c.current_dir(project()).args(&words);
    if words.first() == Some(&"run") {
        c.args(["--trials", "3000"]);
    }
    for o in options {
        c.args(["--option", o]);
    }
    c.args(["--quiet", "--out"]).arg(out);
    let o = c.output().unwrap();
    if o.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&o.stderr).into_owned())
    }
}

#[test]
fn every_example_command_reads_its_parameter() {
    let d = tempfile::tempdir().unwrap();
    let mut book: BTreeMap<&str, BTreeMap<PathBuf, Vec<u8>>> = BTreeMap::new();
    let mut silent = Vec::new();
    for (i, o) in registry().filter(|o| is_parameter(o)).enumerate() {
        let command = example_command(o);
        if !book.contains_key(command) {
            let out = d.path().join(format!("book-{}", book.len()));
            run(command, &[], &out).unwrap_or_else(|e| panic!("{command}: {e}"));
            book.insert(command, csvs(&out));
        }
        let at_book = d.path().join(format!("b{i}"));
        let opt = format!("{}={}", o.key, o.default);
        match run(command, std::slice::from_ref(&opt), &at_book) {
            Err(e) => silent.push(format!("{command} --option {opt}: refused: {e}")),
            Ok(()) if csvs(&at_book) != book[command] => silent.push(format!(
                "{command} --option {opt}: the book's value moved the CSVs"
            )),
            Ok(()) => {}
        }
        let out = d.path().join(format!("p{i}"));
        let opt = format!("{}={}", o.key, example_value(o));
        if let Err(e) = run(command, std::slice::from_ref(&opt), &out) {
            silent.push(format!("{command} --option {opt}: refused: {e}"));
        } else if csvs(&out) == book[command] {
            silent.push(format!("{command} --option {opt}"));
        }
    }
    assert!(
        silent.is_empty(),
        "examples refused, whose CSVs do not move, or moved at the book's value:\n{}",
        silent.join("\n")
    );
}
