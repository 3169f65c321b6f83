//! Scripted events (`[[events]]`, house rules for the GM's hand): at the start of a round,
//! before the turn order is drawn, a combatant group's karma moves (the GM's karma,
//! C-TEST-3), reinforcements join, or combatants leave the fight.
//!
//! A combatant out of the fight (not joined yet, or gone) is held as `down` with `absent`
//! set, so targets, turn order, auras and triggers skip it with no extra check in the hot
//! path; the few places where "down" and "absent" differ read `absent`: the winner (a side
//! whose reinforcements are on their way is not beaten), the ally-down trigger, and the
//! per-combatant answers (gone is not down; HP at end is the HP it left with).

use std::collections::BTreeMap;

use crate::error::UserError;
use crate::scenario::ScenarioFile;

use super::acc::END_COMBAT_END;
use super::fight::Fight;
use super::raw::RawEvent;
use super::state::NONE;
use super::watch::Step;

/// `FState::absent`: in the fight, not arrived yet, gone.
pub(super) const PRESENT: u8 = 0;
pub(super) const PENDING: u8 = 1;
pub(super) const GONE: u8 = 2;

/// Most scripted events in one scenario.
pub const EVENTS_MAX: usize = 100;

/// A scripted event: at the start of `round`, for the combatants of a group (first index,
/// count): karma + `karma` clamped to -10..10, or they join, or they leave.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Event {
    pub round: u32,
    pub first: usize,
    pub count: usize,
    pub karma: i8,
    pub join: bool,
    pub leave: bool,
}

/// `[[events]]`: round 1..max_rounds, a combatant name, and one of karma -20..20,
/// `join = true` (round 2.., once per group) or `leave = true` (once per group, after its
/// join).
pub fn validate(
    file: &ScenarioFile,
    raw: &[RawEvent],
    groups: &BTreeMap<String, (usize, usize)>,
    max_rounds: u32,
) -> Result<Vec<Event>, UserError> {
    let lang = file.lang;
    if raw.len() > EVENTS_MAX {
        return Err(file.error_at(
            &["events"],
            "events",
            &tr!(lang, "combat.check.n_events", n = raw.len()),
            &tr!(lang, "combat.check.at_most", n = EVENTS_MAX),
        ));
    }
    let mut out: Vec<Event> = Vec::new();
    for (i, e) in raw.iter().enumerate() {
        let idx = i.to_string();
        let err = |k: &str, msg: &str, allowed: &str| {
            file.error_at(
                &["events", &idx, k],
                &format!("events[{i}].{k}"),
                msg,
                allowed,
            )
        };
        if !(1..=max_rounds as i64).contains(&e.round) {
            return Err(err(
                "round",
                &tr!(lang, "combat.check.round_range", round = e.round),
                &format!("1..{max_rounds} (combat.max_rounds)"),
            ));
        }
        let Some(&(first, count)) = groups.get(&e.combatant) else {
            let names: Vec<String> = groups.keys().map(|k| format!("\"{k}\"")).collect();
            return Err(err(
                "combatant",
                &tr!(lang, "combat.check.undefined_combatant", name = e.combatant),
                &names.join(", "),
            ));
        };
        let (join, leave) = (e.join == Some(true), e.leave == Some(true));
        let what = tr!(lang, "combat.check.event_one_of");
        let set = e.karma.is_some() as u8 + join as u8 + leave as u8;
        if set != 1 {
            let (key, msg) = match (e.karma.is_some(), join, leave) {
                (_, _, true) if set > 1 => ("leave", tr!(lang, "combat.check.event_several")),
                (_, true, _) if set > 1 => ("join", tr!(lang, "combat.check.event_several")),
                _ if e.join == Some(false) => ("join", tr!(lang, "combat.check.join_false")),
                _ if e.leave == Some(false) => ("leave", tr!(lang, "combat.check.leave_false")),
                _ => ("round", tr!(lang, "combat.check.event_nothing")),
            };
            return Err(err(key, msg, what));
        }
        let karma = e.karma.unwrap_or(0);
        if !(-20..=20).contains(&karma) {
            return Err(err(
                "karma",
                &tr!(lang, "combat.check.out_of_range", value = karma),
                tr!(lang, "combat.check.event_karma_allowed"),
            ));
        }
        let same = |o: &&Event| o.first == first;
        if join {
            if e.round < 2 {
                return Err(err(
                    "round",
                    tr!(lang, "combat.check.join_round1"),
                    &tr!(lang, "combat.check.join_allowed", max = max_rounds),
                ));
            }
            if out.iter().filter(same).any(|o| o.join || o.leave) {
                return Err(err(
                    "join",
                    &tr!(lang, "combat.check.already_joins", name = e.combatant),
                    tr!(lang, "combat.check.one_join"),
                ));
            }
        }
        if leave {
            if out.iter().filter(same).any(|o| o.leave) {
                return Err(err(
                    "leave",
                    &tr!(lang, "combat.check.already_leaves", name = e.combatant),
                    tr!(lang, "combat.check.one_leave"),
                ));
            }
            if let Some(j) = out.iter().filter(same).find(|o| o.join) {
                if e.round <= j.round as i64 {
                    return Err(err(
                        "round",
                        &tr!(
                            lang,
                            "combat.check.leaves_before_join",
                            name = e.combatant,
                            leave = e.round,
                            join = j.round
                        ),
                        &tr!(
                            lang,
                            "combat.check.leave_allowed",
                            from = j.round + 1,
                            max = max_rounds
                        ),
                    ));
                }
            }
        }
        out.push(Event {
            round: e.round as u32,
            first,
            count,
            karma: karma as i8,
            join,
            leave,
        });
    }
    Ok(out)
}

impl<W: super::watch::Watch, P: super::plan::Plan> Fight<'_, '_, W, P> {
    /// Combat start: reinforcements wait out of the fight until their round.
    pub(super) fn events_start(&mut self) {
        for e in &self.sim.model.events {
            if e.join {
                for g in e.first..e.first + e.count {
                    self.fall(g, PENDING);
                }
            }
        }
    }

    /// Scripted events of this round. Karma is clamped to -10..10; in a posture the
    /// change goes to the karma the holder returns to (C-KARMA-2 keeps it locked). A
    /// joining combatant enters as it would start a combat (its `*_at_start` point
    /// triggers fire then); one that leaves ends its posture as a combat end would
    /// (C-LD-3; Apocalypse per `apocalypse_on`) and is out of the fight, not down.
    pub(super) fn scripted_events(&mut self) {
        for i in 0..self.sim.model.events.len() {
            let e = self.sim.model.events[i];
            if e.round != self.round {
                continue;
            }
            for g in e.first..e.first + e.count {
                if e.join {
                    if self.st[g].absent == PENDING {
                        self.note(|_| Step::Joins { who: g as u8 });
                        self.rise(g);
                        if self.sim.model.fatigue.on {
                            // Arriving exhausted on both tracks: unconscious (C-FAT-4).
                            self.tire(g, 0, 0);
                        }
                        self.try_points(g, super::posture::Moment::Start);
                    }
                    continue;
                }
                if e.leave {
                    if !self.st[g].down {
                        self.note(|_| Step::Leaves { who: g as u8 });
                        if self.st[g].posture != NONE {
                            self.end_posture(g, END_COMBAT_END);
                        }
                        self.fall(g, GONE);
                    }
                    continue;
                }
                // Karma stays within the bound in force (C-KARMA-1, `karma_bound`).
                let b = self.sim.rules.test.karma_bound as i32;
                self.note(|_| Step::KarmaEvent {
                    who: g as u8,
                    by: e.karma,
                });
                let s = &mut self.st[g];
                let k = if s.posture != NONE {
                    &mut s.saved_karma
                } else {
                    &mut s.karma
                };
                *k = (*k as i32 + e.karma as i32).clamp(-b, b) as i8;
            }
        }
    }
}
