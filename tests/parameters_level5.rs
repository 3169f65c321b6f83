//! The level-5 grant bounding given Light/Dark counts (`level5_points`, C-LD-1, issue 16)
//! in `check` and `run`: one validation, from a file's `[rules]` and from `--option`.

mod common;

use common::params::{cosmosim, write};

/// A level-5 hero with 3 Light and 2 Dark points given (the book's 1 + 1 + 3).
fn level5(light: u8, dark: u8, rules: &str) -> String {
    format!(
        r#"system = "cosmos"
kind = "combat"

[combat]
max_rounds = 3

[attacks.tickle]
stat = "force"
damage = "0"

[combatants.hero]
side = "a"
level = 5
stats = {{ force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }}
hp = 100
light_points = {light}
dark_points = {dark}
attacks = ["tickle"]

[combatants.foe]
side = "b"
level = 3
stats = {{ force = 60, esprit = 40, charisme = 40, agilite = 40, precision = 50, chance = 50 }}
hp = 100
attacks = ["tickle"]
{rules}"#
    )
}

/// C-LD-1: given counts are checked against the grant in force, from the file's `[rules]`
/// in `check` and from `--option` too in `run` (one validation).
#[test]
fn level5_points_bound_the_given_counts() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let code = |args: &[&str]| {
        let mut a = args.to_vec();
        a.extend(["--quiet", "--trials", "100", "--out", "o"]);
        let a: Vec<&str> = if a[0] == "check" {
            a[..2].iter().chain(&["--quiet"]).copied().collect()
        } else {
            a
        };
        let o = cosmosim(t, &a);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    // 3 + 2 = 5 points at level 5: the book's 1 + 1 + 3.
    let book = write(t, "book.toml", &level5(3, 2, ""));
    assert_eq!(code(&["check", &book]).0, Some(0));
    // A grant of 2 allows 1 + 1 + 2 = 4 in all: the file's [rules] (check and run)...
    let two = write(
        t,
        "two.toml",
        &level5(3, 2, "\n[rules]\nlevel5_points = 2\n"),
    );
    for cmd in ["check", "run"] {
        let (c, e) = code(&[cmd, &two]);
        assert_eq!(c, Some(2), "{cmd}");
        assert!(e.contains("combatants.hero.light_points"), "{e}");
        assert!(e.contains("+ 2 split") && e.contains("<= 4"), "{e}");
    }
    // ... and `--option` in run.
    let (c, e) = code(&["run", &book, "--option", "level5_points=2"]);
    assert_eq!(c, Some(2));
    assert!(e.contains("combatants.hero.light_points"), "{e}");
    // A larger grant lets more through: 5 Light + 1 Dark needs a grant of 4.
    let five = write(t, "five.toml", &level5(5, 1, ""));
    let (c, e) = code(&["check", &five]);
    assert_eq!(c, Some(2), "{e}");
    assert!(e.contains("+ 3 split") && e.contains("<= 5"), "{e}");
    assert_eq!(
        code(&["run", &five, "--option", "level5_points=4"]).0,
        Some(0)
    );
    let four = write(
        t,
        "four.toml",
        &level5(5, 1, "\n[rules]\nlevel5_points = 4\n"),
    );
    assert_eq!(code(&["check", &four]).0, Some(0));
}
