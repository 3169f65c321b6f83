//! The campaign file: raw keys and their validation into a [`Campaign`] (C-KARMA-1..3;
//! Light/Dark points and the game master's grants from the book's "Light & Dark Points"
//! and "Karma" sections).

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::campaign::PostureKind;
use crate::systems::cosmos::growth::scenarios::Parsed;

use super::super::common::{bad, in_range, thresholds};
use super::raw::{Raw, RawGrant, RawPoints};

/// Caps (checked before any work; documented in docs/systems/cosmos-growth.md).
pub const MAX_TESTS: i64 = 100_000;
pub const MAX_GRANTS: usize = 256;
pub const MAX_POINTS: i64 = 20;

/// The validated campaign: the keys every campaign file has. Its `Debug` text keys the
/// random streams, so the newer keys live in [`Script`] and older files keep their bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct CampaignModel {
    pub tests: u32,
    pub start_karma: i8,
    pub checkpoint_every: u32,
    pub burn_in: u32,
    pub thresholds: Vec<(f64, u32)>,
    pub postures: Option<(u32, u32, PostureKind)>,
}

/// What the game master scripts: a Light/Dark budget and grants.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    pub tests_per_session: Option<u32>,
    /// Points at the start (Light, Dark); `None`: postures cost nothing (as before).
    pub points: Option<(u16, u16)>,
    /// Grants sorted by the 0-based test they come before.
    pub grants: Vec<Grant>,
}

impl Script {
    pub fn is_empty(&self) -> bool {
        self.points.is_none() && self.grants.is_empty()
    }

    /// The script as provenance reads it: `tests_per_session=40; points=1/1 (light/dark);
    /// before test 80: karma -3; ...` (the 0-based test a grant comes before).
    pub fn describe(&self, lang: crate::lang::Lang) -> String {
        let mut parts = Vec::new();
        if let Some(n) = self.tests_per_session {
            parts.push(format!("tests_per_session={n}"));
        }
        if let Some((l, d)) = self.points {
            parts.push(tr!(lang, "params.gm_points", light = l, dark = d));
        }
        for g in &self.grants {
            let mut what = Vec::new();
            if g.karma != 0 {
                what.push(format!("karma {:+}", g.karma));
            }
            if g.light != 0 {
                what.push(format!("light +{}", g.light));
            }
            if g.dark != 0 {
                what.push(format!("dark +{}", g.dark));
            }
            parts.push(tr!(
                lang,
                "params.gm_before",
                n = g.before,
                what = what.join(", ")
            ));
        }
        parts.join("; ")
    }

    /// Whether the game master ever moves karma.
    pub fn moves_karma(&self) -> bool {
        self.grants.iter().any(|g| g.karma != 0)
    }
}

/// One grant, before test number `before` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grant {
    pub before: u32,
    pub karma: i8,
    pub light: u16,
    pub dark: u16,
}

/// A validated campaign file.
#[derive(Clone, Debug, PartialEq)]
pub struct Campaign {
    pub model: CampaignModel,
    pub script: Script,
}

fn num(file: &ScenarioFile, path: &[&str], v: i64, lo: i64, hi: i64) -> Result<i64, UserError> {
    in_range(file, path, v, lo, hi, "")
}

/// Validates a campaign file.
pub fn model(file: &ScenarioFile) -> Result<Parsed<Campaign>, UserError> {
    let raw: Raw = file.parse_raw()?;
    let c = &raw.campaign;
    let tests = num(file, &["campaign", "tests"], c.tests, 1, MAX_TESTS)? as u32;
    let start_karma = num(file, &["campaign", "start_karma"], c.start_karma, -10, 10)? as i8;
    let checkpoint_every = num(
        file,
        &["campaign", "checkpoint_every"],
        c.checkpoint_every.unwrap_or((tests as i64 / 50).max(1)),
        1,
        tests as i64,
    )? as u32;
    let burn_in = num(
        file,
        &["campaign", "burn_in"],
        c.burn_in.unwrap_or(tests as i64 / 4),
        0,
        tests as i64 - 1,
    )? as u32;
    if c.thresholds.is_empty() {
        return Err(bad(
            file,
            &["campaign", "thresholds"],
            tr!(file.lang, "growth.campaign.no_thresholds"),
            tr!(file.lang, "growth.campaign.no_thresholds_allowed"),
        ));
    }
    let thresholds = thresholds(file, &["campaign", "thresholds"], &c.thresholds)?;
    let postures = match &c.postures {
        None => None,
        Some(p) => {
            let every = num(
                file,
                &["campaign", "postures", "every_tests"],
                p.every_tests,
                2,
                100_000,
            )? as u32;
            let length = num(
                file,
                &["campaign", "postures", "length_tests"],
                p.length_tests,
                1,
                every as i64 - 1,
            )? as u32;
            Some((every, length, p.kind))
        }
    };
    let script = script(file, &raw, tests, postures.is_some())?;
    Ok((
        Campaign {
            model: CampaignModel {
                tests,
                start_karma,
                checkpoint_every,
                burn_in,
                thresholds,
                postures,
            },
            script,
        },
        raw.rules,
        raw.run,
        crate::scenario::Text::pick(raw.title, file.lang),
        crate::scenario::Text::pick(raw.question, file.lang),
    ))
}

/// The 0-based test a session starts at, checked to fall within the campaign.
fn session_start(
    file: &ScenarioFile,
    path: &[&str],
    session: i64,
    per: Option<u32>,
    tests: u32,
) -> Result<u32, UserError> {
    let Some(per) = per else {
        return Err(bad(
            file,
            path,
            tr!(file.lang, "growth.campaign.session_needs"),
            tr!(file.lang, "growth.campaign.session_needs_allowed"),
        ));
    };
    let last = (tests - 1) / per + 1;
    Ok((num(file, path, session, 1, last as i64)? as u32 - 1) * per)
}

fn script(file: &ScenarioFile, raw: &Raw, tests: u32, postures: bool) -> Result<Script, UserError> {
    let c = &raw.campaign;
    let per = match c.tests_per_session {
        None => None,
        Some(v) => Some(num(file, &["campaign", "tests_per_session"], v, 1, tests as i64)? as u32),
    };
    let mut grants = Vec::new();
    let points = match &c.points {
        None => None,
        Some(p) => Some(points(file, p, per, tests, postures, &mut grants)?),
    };
    if c.gm_grants.len() > MAX_GRANTS {
        return Err(bad(
            file,
            &["campaign", "gm_grants"],
            tr!(file.lang, "growth.campaign.n_grants", n = c.gm_grants.len()),
            &tr!(file.lang, "growth.campaign.at_most", n = MAX_GRANTS),
        ));
    }
    for (i, g) in c.gm_grants.iter().enumerate() {
        grants.push(grant(file, i, g, per, tests, points.is_some())?);
    }
    // Stable: grants on the same test apply in file order.
    grants.sort_by_key(|g| g.before);
    Ok(Script {
        tests_per_session: per,
        points,
        grants,
    })
}

fn points(
    file: &ScenarioFile,
    p: &RawPoints,
    per: Option<u32>,
    tests: u32,
    postures: bool,
    grants: &mut Vec<Grant>,
) -> Result<(u16, u16), UserError> {
    if !postures {
        return Err(bad(
            file,
            &["campaign", "points"],
            tr!(file.lang, "growth.campaign.budget_unused"),
            tr!(file.lang, "growth.campaign.budget_unused_allowed"),
        ));
    }
    let light = num(
        file,
        &["campaign", "points", "light"],
        p.light,
        0,
        MAX_POINTS,
    )? as u16;
    let dark = num(file, &["campaign", "points", "dark"], p.dark, 0, MAX_POINTS)? as u16;
    match (p.level5_session, p.level5_dark) {
        (None, None) => {}
        (Some(s), d) => {
            let before = session_start(
                file,
                &["campaign", "points", "level5_session"],
                s,
                per,
                tests,
            )?;
            // "Au niveau 5 : [...] 3 points supplémentaires répartis par le MJ entre light
            // et dark": `level5_dark` of them Dark (default 2, as combat files).
            let d = num(
                file,
                &["campaign", "points", "level5_dark"],
                d.unwrap_or(2),
                0,
                3,
            )? as u16;
            grants.push(Grant {
                before,
                karma: 0,
                light: 3 - d,
                dark: d,
            });
        }
        (None, Some(_)) => {
            return Err(bad(
                file,
                &["campaign", "points", "level5_dark"],
                tr!(file.lang, "growth.campaign.level5_alone"),
                tr!(file.lang, "growth.campaign.level5_alone_allowed"),
            ))
        }
    }
    Ok((light, dark))
}

fn grant(
    file: &ScenarioFile,
    i: usize,
    g: &RawGrant,
    per: Option<u32>,
    tests: u32,
    budget: bool,
) -> Result<Grant, UserError> {
    let is = i.to_string();
    let at = |k: &'static str| ["campaign", "gm_grants", is.as_str(), k];
    let before = match (g.session, g.test) {
        (Some(s), None) => session_start(file, &at("session"), s, per, tests)?,
        (None, Some(t)) => num(file, &at("test"), t, 1, tests as i64)? as u32 - 1,
        _ => {
            return Err(bad(
                file,
                &at("session"),
                tr!(file.lang, "growth.campaign.grant_when"),
                tr!(file.lang, "growth.campaign.grant_when_allowed"),
            ))
        }
    };
    let karma = num(file, &at("karma"), g.karma, -20, 20)? as i8;
    let light = num(file, &at("light"), g.light, 0, MAX_POINTS)? as u16;
    let dark = num(file, &at("dark"), g.dark, 0, MAX_POINTS)? as u16;
    if (light > 0 || dark > 0) && !budget {
        return Err(bad(
            file,
            &at("light"),
            tr!(file.lang, "growth.campaign.points_no_budget"),
            tr!(file.lang, "growth.campaign.points_no_budget_allowed"),
        ));
    }
    if karma == 0 && light == 0 && dark == 0 {
        return Err(bad(
            file,
            &at("karma"),
            tr!(file.lang, "growth.campaign.grant_empty"),
            tr!(file.lang, "growth.campaign.grant_empty_allowed"),
        ));
    }
    Ok(Grant {
        before,
        karma,
        light,
        dark,
    })
}
