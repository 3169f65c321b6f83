//! Per-combatant answers (every combatant, whatever its policy): `combat-combatants.csv`
//! and the `## Every combatant` table of `summary.md` — P(down) with its interval, damage
//! dealt and taken (mean and quantiles), HP at end, actions, first actor share, FP/FM at
//! end, Revive and backlash per combat, advantage/disadvantage faces (C-LD-5, C-LD-6).

use polars::prelude::*;

use super::acc::{CombatAcc, FighterAcc};
use super::headline::{pct, rate_text, track_mean};
use super::sim::CombatSim;
use crate::lang::Lang;
use crate::report::interval_columns;
use crate::stats::Proportion;

const QS: [f64; 3] = [0.1, 0.5, 0.9];

/// The `combat-combatants` table.
pub fn frame(sim: &CombatSim, acc: &CombatAcc) -> PolarsResult<DataFrame> {
    let m = &sim.model;
    let n = acc.combats;
    let nf = n.max(1) as f64;
    let fs: Vec<(usize, &FighterAcc)> = acc.fighters.iter().enumerate().collect();
    let col_f = |name: &str, f: &dyn Fn(usize, &FighterAcc) -> f64| {
        Column::new(
            name.into(),
            fs.iter().map(|(i, a)| f(*i, a)).collect::<Vec<f64>>(),
        )
    };
    let col_u = |name: &str, f: &dyn Fn(usize, &FighterAcc) -> u64| {
        Column::new(
            name.into(),
            fs.iter().map(|(i, a)| f(*i, a)).collect::<Vec<u64>>(),
        )
    };
    let mut cols = vec![
        Column::new(
            "combatant".into(),
            m.fighters
                .iter()
                .map(|f| f.name.clone())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "side".into(),
            m.fighters
                .iter()
                .map(|f| m.sides[f.side].clone())
                .collect::<Vec<_>>(),
        ),
        Column::new("combats".into(), vec![n; fs.len()]),
        col_u("down", &|_, a| a.down),
    ];
    cols.extend(interval_columns("p_down", &fs, |(_, a)| {
        Proportion::new(a.down, n)
    }));
    cols.extend([
        col_f("first_actor_share", &|_, a| a.first_actor as f64 / nf),
        col_f("actions_per_combat", &|_, a| a.actions as f64 / nf),
    ]);
    for (what, k) in [("dealt", 0usize), ("taken", 1), ("hp_end", 2)] {
        let hist = |a: &FighterAcc| match k {
            0 => a.dealt,
            1 => a.taken,
            _ => a.hp_end,
        };
        let width = |i: usize| sim.widths[i][k].get();
        cols.push(col_f(&format!("{what}_mean"), &|_, a| {
            hist(a).sum as f64 / nf
        }));
        for q in QS {
            cols.push(col_u(
                &format!("{what}_p{}", (q * 100.0) as u32),
                &|i, a| hist(a).quantile(q, width(i)),
            ));
        }
    }
    cols.push(col_f("fp_end_mean", &|_, a| track_mean(&a.fp_end, n)));
    cols.push(col_f("fm_end_mean", &|_, a| track_mean(&a.fm_end, n)));
    cols.push(col_f("revive_per_combat", &|_, a| {
        a.posture[1].revive as f64 / nf
    }));
    cols.push(col_f("backlash_per_combat", &|_, a| {
        (a.posture[0].backlash + a.posture[1].backlash) as f64 / nf
    }));
    for face in 0..6 {
        cols.push(col_u(&format!("advantage_{}", face + 1), &|_, a| {
            a.adv_faces[face]
        }));
    }
    for face in 0..6 {
        cols.push(col_u(&format!("disadvantage_{}", face + 1), &|_, a| {
            a.disadv_faces[face]
        }));
    }
    // Periodic effects (house rule, `periodic.rs`): columns only when a file has some, so
    // other scenarios keep their files byte for byte.
    if sim.any_periodic {
        cols.push(col_f("periodic_healed_per_combat", &|_, a| {
            a.periodic.healed as f64 / nf
        }));
        cols.push(col_f("periodic_dealt_per_combat", &|_, a| {
            a.periodic.dealt as f64 / nf
        }));
        cols.push(col_f("periodic_taken_per_combat", &|_, a| {
            a.periodic.taken as f64 / nf
        }));
        cols.push(col_f("periodic_ticks_per_combat", &|_, a| {
            a.periodic.ticks as f64 / nf
        }));
    }
    DataFrame::new_infer_height(cols)
}

/// The key figure line: who goes down most often.
pub fn answer(sim: &CombatSim, acc: &CombatAcc, lang: Lang) -> String {
    let (i, a) = acc
        .fighters
        .iter()
        .enumerate()
        .max_by_key(|(i, a)| (a.down, std::cmp::Reverse(*i)))
        .expect("at least two combatants");
    tr!(
        lang,
        "combat.combatants.down_most",
        name = crate::report::md_text(&sim.model.fighters[i].name),
        side = crate::report::md_text(&sim.model.sides[sim.model.fighters[i].side]),
        rate = rate_text(a.down, acc.combats, lang)
    )
}

/// The `## Every combatant` section of `summary.md`.
pub fn section(sim: &CombatSim, acc: &CombatAcc, lang: Lang) -> String {
    let n = acc.combats;
    let nf = n.max(1) as f64;
    let mut s = String::from(tr!(lang, "combat.combatants.section"));
    for (i, (f, a)) in sim.model.fighters.iter().zip(&acc.fighters).enumerate() {
        let [wd, wt, wh] = sim.widths[i].map(super::acc::Width::get);
        let q = |h: &super::acc::Hist, w: u64| {
            QS.iter()
                .map(|&q| h.quantile(q, w).to_string())
                .collect::<Vec<_>>()
                .join(" / ")
        };
        s += &format!(
            "| {} | {} | {} | {} ({}) | {} ({}) | {} | {} | {} | {} / {} | {} | {} |\n",
            crate::report::md_text(&f.name),
            crate::report::md_text(&sim.model.sides[f.side]),
            rate_text(a.down, n, lang),
            lang.num(a.dealt.sum as f64 / nf, 1),
            q(&a.dealt, wd),
            lang.num(a.taken.sum as f64 / nf, 1),
            q(&a.taken, wt),
            q(&a.hp_end, wh),
            lang.num(a.actions as f64 / nf, 2),
            pct(a.first_actor as f64 / nf, lang),
            lang.signed(track_mean(&a.fp_end, n), 2),
            lang.signed(track_mean(&a.fm_end, n), 2),
            lang.num(a.posture[1].revive as f64 / nf, 3),
            lang.num(
                (a.posture[0].backlash + a.posture[1].backlash) as f64 / nf,
                3
            ),
        );
    }
    let faces = |v: &[u64; 6]| {
        v.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" / ")
    };
    let mut lines = Vec::new();
    for (f, a) in sim.model.fighters.iter().zip(&acc.fighters) {
        if a.adv_faces.iter().sum::<u64>() + a.disadv_faces.iter().sum::<u64>() > 0 {
            lines.push(tr!(
                lang,
                "combat.combatants.faces_line",
                name = crate::report::md_text(&f.name),
                advantage = faces(&a.adv_faces),
                disadvantage = faces(&a.disadv_faces)
            ));
        }
    }
    if !lines.is_empty() {
        s += tr!(lang, "combat.combatants.faces_intro");
        s += &lines.join("\n");
        s += "\n";
    }
    if sim.any_periodic {
        s += tr!(lang, "combat.combatants.periodic_intro");
        for (f, a) in sim.model.fighters.iter().zip(&acc.fighters) {
            let p = &a.periodic;
            if p.ticks + p.taken + p.dealt == 0 {
                continue;
            }
            s += &tr!(
                lang,
                "combat.combatants.periodic_line",
                name = crate::report::md_text(&f.name),
                healed = lang.num(p.healed as f64 / nf, 2),
                dealt = lang.num(p.dealt as f64 / nf, 2),
                taken = lang.num(p.taken as f64 / nf, 2),
                ticks = lang.num(p.ticks as f64 / nf, 2)
            );
            s += "\n";
        }
    }
    s
}
