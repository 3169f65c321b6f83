//! Item 4: no confident answer built on noise (tune and optimise refuse a figure without
//! interval, non-finite targets).

use super::*;

/// `combat-sides.mean_rounds` has no interval: tune and optimise refuse it as expect does,
/// naming it and the figures that can be decided, before writing anything.
#[test]
fn tune_and_optimise_refuse_a_monte_carlo_figure_without_interval() {
    let d = tempfile::tempdir().unwrap();
    let f = duel(d.path(), 1000);
    let f = f.to_str().unwrap();
    let tune = [
        "tune",
        f,
        "--vary",
        "aldric.hp=100..200",
        "--figure",
        "combat-sides.mean_rounds",
        "--where",
        "outcome=offensive",
        "--target",
        "5",
        "--first-trials",
        "1000",
        "--out",
        "t",
    ];
    let optimise = [
        "optimise",
        f,
        "--vary",
        "aldric.hp=140,150,151",
        "--minimise",
        "combat-sides.mean_rounds",
        "--where",
        "outcome=offensive",
        "--first-trials",
        "1000",
        "--out",
        "o",
    ];
    for args in [&tune[..], &optimise[..]] {
        let (code, err) = run_in(d.path(), args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains("`combat-sides.mean_rounds`") && err.contains("without an interval"),
            "{err}"
        );
        // The figures that can be decided are offered.
        assert!(err.contains("share"), "{err}");
    }
    assert!(!d.path().join("t").exists() && !d.path().join("o").exists());
    // The same refusal in French.
    let (code, err) = run_in(d.path(), &[&tune[..], &["--lang", "fr"]].concat());
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("sans intervalle"), "{err}");
}

/// NaN and the infinities are no target: exit 2 naming the flag, as for --within and
/// --tolerance.
#[test]
fn non_finite_targets_are_refused_naming_the_flag() {
    let d = tempfile::tempdir().unwrap();
    let base = [
        "tune",
        "table",
        "cosmos-test",
        "--vary",
        "thresholds=20..85",
        "--figure",
        "p_success",
        "--param",
        "karma=0",
        "--out",
        "t",
    ];
    for (flag, value) in [
        ("--target", "NaN"),
        ("--target", "inf"),
        ("--target", "-inf"),
        ("--within", "NaN"),
        ("--tolerance", "inf"),
    ] {
        let mut args = base.to_vec();
        if flag != "--target" {
            args.extend(["--target", "0.3"]);
        }
        args.extend([flag, value]);
        let (code, err) = run_in(d.path(), &args);
        assert_eq!(code, Some(2), "{flag} {value}: {err}");
        assert!(err.contains(flag) && err.contains("finite"), "{err}");
    }
    assert!(!d.path().join("t").exists());
    // A negative target is a number like any other (no `=` needed).
    let mut args = base.to_vec();
    args.extend(["--target", "-0.5", "--quiet"]);
    let (code, err) = run_in(d.path(), &args);
    assert_eq!(code, Some(0), "{err}");
}
