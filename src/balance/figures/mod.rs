//! Figures: any numeric CSV column of any output, named `<output>.<column>` (or the column
//! alone when there is one output), one row picked by its key columns. `figures` lists
//! them; `expect`, `tune` and the other commands read them through the same lookup.
//!
//! Outputs carry no schema of their own, so the roles of columns are read from the frame
//! and the names the tables use consistently: the key columns are the shortest run of
//! leading columns that tells the rows apart; a Monte Carlo figure `x` has its 95% interval
//! in `x_lo`/`x_hi` (or, for `p_x`, `x_lo`/`x_hi`; for `x_mc`, `x_lo`/`x_hi`).
//!
//! `columns.rs`: cells, key columns, column roles and meanings; `lookup.rs`: a figure
//! found by name (with the closest names when it is not), its `where` row and value.

mod columns;
mod lookup;

use crate::lang::Lang;

use crate::report::Output;

pub use columns::*;
pub use lookup::*;

/// The listing `cosmosim figures` prints for a set of outputs.
pub fn describe(outputs: &[Output], lang: Lang) -> String {
    let mut s = String::new();
    let single = outputs.len() == 1;
    for o in outputs {
        let keys = key_columns(&o.frame);
        s += &format!("{} — {}\n", o.name, o.title);
        if !o.question.is_empty() {
            s += &format!("  {}\n", o.question);
        }
        s += &tr!(
            lang,
            "figures.method",
            method = o.provenance.method,
            rows = o.frame.height(),
            keys = if keys.is_empty() {
                tr!(lang, "figures.no_keys").to_string()
            } else {
                keys.join(", ")
            }
        );
        s.push('\n');
        if o.frame.height() > 0 && !keys.is_empty() {
            let ex: Vec<(String, Cell)> = keys
                .iter()
                .map(|k| (k.clone(), cell(&o.frame, k, 0)))
                .collect();
            s += &tr!(
                lang,
                "figures.example",
                example = format!("{{ {} }}", where_text(&ex))
            );
            s.push('\n');
        }
        s += tr!(lang, "figures.columns");
        s.push('\n');
        for (name, role) in roles(o) {
            let figure = if single {
                name.clone()
            } else {
                format!("{}.{name}", o.name)
            };
            let how = match &role {
                Role::Key => tr!(lang, "figures.role_key").to_string(),
                Role::Exact => tr!(lang, "figures.role_exact").to_string(),
                Role::Estimate { lo, hi } => {
                    tr!(lang, "figures.role_estimate", lo, hi)
                }
                Role::Bound => tr!(lang, "figures.role_bound").to_string(),
                Role::Unsupported => tr!(lang, "figures.role_unsupported").to_string(),
                Role::Text => tr!(lang, "figures.role_text").to_string(),
            };
            s += &format!("    {figure:<44} {how:<40} {}\n", meaning(&name, lang));
        }
        // The headline aliases, so they can be discovered (audit of 2026-12-07 afternoon).
        let aliases = aliases(o);
        if !aliases.is_empty() {
            s += tr!(lang, "figures.aliases");
            s.push('\n');
            for (names, figure, outcome) in aliases {
                let at = where_text(&[("outcome".to_string(), Cell::Text(outcome))]);
                s += &format!("    {:<44} {figure} where {{ {at} }}\n", names.join(", "));
            }
        }
        s += "\n";
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Provenance;
    use polars::prelude::*;

    fn output(mc: bool) -> Output {
        let mut frame = df!(
            "threshold" => [50i64, 50, 60, 60],
            "karma" => [0i64, 5, 0, 5],
            "p_success" => [0.39, 0.4, 0.49, 0.5],
        )
        .unwrap();
        let prov = if mc {
            frame
                .with_column(Column::new("success_lo".into(), [0.38, 0.39, 0.48, 0.49]))
                .unwrap();
            frame
                .with_column(Column::new("success_hi".into(), [0.40, 0.41, 0.50, 0.51]))
                .unwrap();
            Provenance::monte_carlo("t", "cosmos", Default::default(), 1, 1000)
        } else {
            Provenance::exact("t", "cosmos", Default::default())
        };
        Output {
            name: "t".into(),
            title: "T".into(),
            question: "q".into(),
            frame,
            figures: vec![],
            key_figures: vec![],
            provenance: prov,
        }
    }

    #[test]
    fn keys_are_the_shortest_unique_prefix() {
        assert_eq!(key_columns(&output(false).frame), ["threshold", "karma"]);
    }

    #[test]
    fn lookup_and_row_selection() {
        let outs = vec![output(true)];
        let f = find(&outs, "p_success", Lang::En).unwrap();
        assert!(matches!(f.role, Role::Estimate { .. }));
        let row = select_row(
            f.output,
            &[
                ("threshold".into(), Cell::Int(60)),
                ("karma".into(), Cell::Float(5.0)),
            ],
            Lang::En,
        )
        .unwrap();
        let v = value_at(&f, row, Lang::En).unwrap();
        assert_eq!(v.value, 0.5);
        assert_eq!(v.interval95, Some((0.49, 0.51)));
        assert_eq!(v.trials, Some(1000));
        let e = find(&outs, "t.p_sucess", Lang::En).err().unwrap();
        assert!(
            e.contains("`p_success`") && e.contains("`success_lo`"),
            "{e}"
        );
        let e = find(&outs, "x.p_success", Lang::En).err().unwrap();
        assert!(e.contains("`t`"), "{e}");
        let e = select_row(f.output, &[("threshold".into(), Cell::Int(60))], Lang::En).unwrap_err();
        assert!(e.contains("2 rows") && e.contains("`karma`"), "{e}");
        let e = select_row(f.output, &[("thresh".into(), Cell::Int(60))], Lang::En).unwrap_err();
        assert!(e.contains("`threshold`"), "{e}");
    }

    #[test]
    fn roles_and_meanings() {
        let r = roles(&output(false));
        assert_eq!(r[2].1, Role::Exact);
        let r = roles(&output(true));
        assert_eq!(r[3].1, Role::Bound);
        assert_eq!(
            meaning("p_crit_success", Lang::En),
            "probability: crit success"
        );
        assert!(meaning("success_lo", Lang::En).starts_with("lower end"));
        assert_eq!(meaning("p95", Lang::En), "95th percentile");
        assert_eq!(
            meaning("p_sprint_success", Lang::En),
            "probability: the sprint succeeds (any success: plain, crit or super)"
        );
        assert!(meaning("p_sprint_crit", Lang::Fr).contains("super-critique non comptée"));
        assert!(describe(&[output(true)], Lang::En).contains("key columns: threshold, karma"));
    }
}
