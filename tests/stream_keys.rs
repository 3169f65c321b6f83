//! Issue 23, stream keys: a scenario's random streams come from its kind and its values,
//! never from its words or layout. For every shipped scenario, renaming its title and
//! question, writing its keys in another order, or running it with `--lang fr` leaves
//! every CSV byte-identical; changing a value that defines the experiment moves them.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

const TRIALS: &str = "3000";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios")
}

/// Every `.toml` under `dir`, relative to it, sorted.
fn tomls(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let name = rel.join(p.file_name().unwrap());
        if p.is_dir() {
            tomls(&p, &name, out);
        } else if p.extension().is_some_and(|e| e == "toml") {
            out.push(name);
        }
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let target = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &target);
        } else {
            std::fs::copy(&p, &target).unwrap();
        }
    }
}

/// Every `.csv` under `dir`, by path relative to it.
fn csvs(dir: &Path, rel: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = rel.join(p.file_name().unwrap());
        if p.is_dir() {
            csvs(&p, &name, out);
        } else if p.extension().is_some_and(|e| e == "csv") {
            out.push((name, std::fs::read(&p).unwrap()));
        }
    }
}

fn run(file: &Path, out: &Path, lang: &str) -> Vec<(PathBuf, Vec<u8>)> {
    Command::cargo_bin("cosmosim")
        .unwrap()
        .args(["-q", "--lang", lang, "run"])
        .arg(file)
        .args(["--trials", TRIALS, "--seed", "7", "--out"])
        .arg(out)
        .assert()
        .success();
    let mut v = Vec::new();
    csvs(out, Path::new(""), &mut v);
    v.sort();
    assert!(!v.is_empty(), "{}: no CSV", file.display());
    v
}

/// The file with another title and question, its keys written in sorted order (the
/// shipped files put `system`, `kind` and `title` first, so every file moves).
fn renamed_and_reordered(text: &str) -> String {
    let mut t: toml::Table = toml::from_str(text).unwrap();
    t.insert(
        "title".into(),
        toml::Value::String("Renamed by a designer".into()),
    );
    t.insert(
        "question".into(),
        toml::Value::String("A question asked in other words?".into()),
    );
    let out = toml::to_string(&t).unwrap();
    assert_ne!(out.trim(), text.trim());
    out
}

#[test]
fn words_layout_and_language_never_move_a_number_in_any_shipped_scenario() {
    let tmp = tempfile::tempdir().unwrap();
    let (book, edited) = (tmp.path().join("book"), tmp.path().join("edited"));
    copy_tree(&root(), &book);
    copy_tree(&root(), &edited);
    let mut files = Vec::new();
    tomls(&root(), Path::new(""), &mut files);
    assert!(files.len() >= 20, "{files:?}");
    for f in &files {
        let text = std::fs::read_to_string(book.join(f)).unwrap();
        std::fs::write(edited.join(f), renamed_and_reordered(&text)).unwrap();
    }
    for (i, f) in files.iter().enumerate() {
        let out = tmp.path().join(format!("out{i}"));
        let a = run(&book.join(f), &out.join("en"), "en");
        let b = run(&edited.join(f), &out.join("edited"), "en");
        let c = run(&book.join(f), &out.join("fr"), "fr");
        let names = |v: &[(PathBuf, Vec<u8>)]| v.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
        assert_eq!(names(&a), names(&b), "{}", f.display());
        assert_eq!(names(&a), names(&c), "{}", f.display());
        for ((name, x), ((_, y), (_, z))) in a.iter().zip(b.iter().zip(&c)) {
            assert!(
                x == y,
                "{}: {} moved with the title",
                f.display(),
                name.display()
            );
            assert!(
                x == z,
                "{}: {} moved with --lang fr",
                f.display(),
                name.display()
            );
        }
    }
}

#[test]
fn a_value_of_the_experiment_moves_the_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    let duel = std::fs::read_to_string(root().join("cosmos/duel.toml")).unwrap();
    let hp = duel.replacen("hp = 150", "hp = 151", 1);
    assert_ne!(hp, duel);
    let (a, b) = (tmp.path().join("a.toml"), tmp.path().join("b.toml"));
    std::fs::write(&a, &duel).unwrap();
    std::fs::write(&b, &hp).unwrap();
    let x = run(&a, &tmp.path().join("x"), "en");
    let y = run(&b, &tmp.path().join("y"), "en");
    let sides = |v: &[(PathBuf, Vec<u8>)]| {
        v.iter()
            .find(|(n, _)| n.ends_with("combat-sides.csv"))
            .unwrap()
            .1
            .clone()
    };
    assert_ne!(sides(&x), sides(&y), "another HP draws other fights");
}
