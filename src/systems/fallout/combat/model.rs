//! The validated 2d20 combat model: weapons with qualities, combatants on two sides in
//! turn order, each side's AP policy. Every error names file:line:col, the key and the
//! allowed values; `check` and `run` both go through [`load`].

use crate::error::UserError;
use crate::lang::Lang;
use crate::scenario::{int_at, int_in, ScenarioFile};
use crate::systems::fallout::ap::Buy;
use crate::systems::fallout::{
    book_faces, p_pass_by_bonus, DieSpec, BONUS_MAX, CD_MAX, EXTRA_CD_MAX, TAG_RANK_MAX, TN_MAX,
    TN_MIN,
};

use super::raw::{RawCombat, RawPolicy};

/// Most combatants in a fight (after `count`).
pub const COMBATANTS_MAX: usize = 16;
/// Most rounds before a fight stops undecided.
pub const ROUNDS_MAX: u32 = 50;
/// Most trials of one run.
pub const TRIALS_MAX: u64 = 50_000_000;
/// Most hit points of a combatant.
pub const HP_MAX: i64 = 200;
/// Most damage resistance.
pub const DR_MAX: i64 = 30;
/// Highest effective attack difficulty (base plus injuries) the model tabulates.
pub const EFFECTIVE_DIFFICULTY_MAX: usize = 10;

/// The two sides: the players (group AP pool) and the MJ's NPCs (MJ pool).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Players = 0,
    Mj = 1,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Players => "players",
            Side::Mj => "mj",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeaponKind {
    Melee,
    Thrown,
    Ranged,
}

/// A weapon: combat dice, attack difficulty and the qualities that read Effects.
#[derive(Clone, Debug, PartialEq)]
pub struct Weapon {
    pub name: String,
    pub cd: u8,
    pub kind: WeaponKind,
    pub difficulty: u8,
    /// +1 damage per Effect.
    pub vicious: bool,
    /// Damage resistance ignored per Effect.
    pub piercing: u8,
    /// An Effect makes the target lose its next turn.
    pub stun: bool,
}

/// Whom a side's attackers aim at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The first standing enemy in file order (focus fire).
    First,
    /// The standing enemy with the fewest hit points left.
    Weakest,
}

/// How one side spends its pool.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SidePolicy {
    pub buy: Buy,
    pub max_bonus: u8,
    pub give_mj_ap: bool,
    pub damage_ap: u8,
    pub keep: u32,
    pub target: Target,
    /// A second major action (attack) for 2 AP at +1 difficulty (F-AP; issue 25).
    pub second_major: bool,
    /// A second minor action for 1 AP (F-AP "Entreprendre une action mineure
    /// supplémentaire (1 PA)"; at most 2 minor actions a round; issue 25).
    pub extra_minor: bool,
}

impl SidePolicy {
    pub fn describe(&self) -> String {
        let buy = match self.buy {
            Buy::Never => "never buys d20".to_string(),
            Buy::Always => format!("always buys {} d20", self.max_bonus),
            Buy::Below(x) => format!("buys d20 (at most {}) while P(hit) < {x}", self.max_bonus),
        };
        let target = match self.target {
            Target::First => "focuses the first standing enemy",
            Target::Weakest => "aims at the weakest enemy",
        };
        format!(
            "{buy}{}; up to {} extra CD per hit keeping {} AP; {target}{}",
            if self.give_mj_ap {
                " (giving the MJ AP when short)"
            } else {
                ""
            },
            self.damage_ap,
            self.keep,
            if self.second_major {
                "; a second attack for 2 AP at +1 difficulty"
            } else {
                ""
            }
        ) + if self.extra_minor {
            "; a second minor action (aim) for 1 AP"
        } else {
            ""
        }
    }

    /// The policy in the reader's language, for summaries (`describe` stays English: it is
    /// a provenance parameter value).
    pub fn describe_text(&self, lang: Lang) -> String {
        let buy = match self.buy {
            Buy::Never => tr!(lang, "fallout.combat_model.never_buys").to_string(),
            Buy::Always => tr!(lang, "fallout.combat_model.always_buys", n = self.max_bonus),
            Buy::Below(x) => tr!(
                lang,
                "fallout.combat_model.buys_below",
                n = self.max_bonus,
                x = crate::systems::fallout::plain_num(lang, x)
            ),
        };
        let target = match self.target {
            Target::First => tr!(lang, "fallout.combat_model.target_first"),
            Target::Weakest => tr!(lang, "fallout.combat_model.target_weakest"),
        };
        tr!(
            lang,
            "fallout.combat_model.policy",
            buy,
            giving = if self.give_mj_ap {
                tr!(lang, "fallout.combat_model.giving_mj")
            } else {
                ""
            },
            damage = self.damage_ap,
            keep = self.keep,
            target
        ) + if self.second_major {
            tr!(lang, "audit25.second_major")
        } else {
            ""
        } + if self.extra_minor {
            tr!(lang, "audit25b.extra_minor")
        } else {
            ""
        }
    }
}

/// One combatant, in turn order.
#[derive(Clone, Debug, PartialEq)]
pub struct Combatant {
    pub name: String,
    pub side: Side,
    pub spec: DieSpec,
    pub hp: u32,
    pub dr: u32,
    pub initiative: i64,
    pub weapon: usize,
    /// Exact P(hit) by effective difficulty 0..=10 and bonus d20 0..3 (the policy reads it).
    pub p_hit: [[f64; 4]; EFFECTIVE_DIFFICULTY_MAX + 1],
    /// Luck points for each fight (Miss Fortune, F-LUCK; issue 25).
    pub luck: u8,
    /// The ally (index in `combatants`) it helps instead of attacking (F-HELP; issue 25).
    pub helps: Option<usize>,
    /// Its minor action each turn is to aim (combatant key `minor = "aim"`; issue 25).
    pub aims: bool,
    /// Miss Fortune rerolls blank combat dice too (combatant key `luck_cd`; F-LUCK).
    pub luck_cd: bool,
}

/// A validated 2d20 combat.
#[derive(Clone, Debug, PartialEq)]
pub struct CombatModel {
    pub title: String,
    pub question: String,
    pub max_rounds: u32,
    pub injury_at: u32,
    pub injury_difficulty: u8,
    pub injuries_down: u8,
    pub group_ap: u32,
    pub mj_ap: u32,
    /// Indexed by `Side as usize`.
    pub policies: [SidePolicy; 2],
    pub weapons: Vec<Weapon>,
    /// In turn order: initiative descending, players first on ties, then file order.
    pub combatants: Vec<Combatant>,
}

fn policy(file: &ScenarioFile, p: &RawPolicy, side: &str) -> Result<SidePolicy, UserError> {
    let lang = file.lang;
    let key = |k: &str| format!("policy.{side}.{k}");
    let buy = crate::systems::fallout::buy_at(
        file,
        &["policy", side],
        p.buy.as_deref().unwrap_or("never"),
        p.below,
    )?;
    if side == "mj" && p.give_mj_ap.is_some() {
        return Err(file.error_at(
            &["policy", side, "give_mj_ap"],
            &key("give_mj_ap"),
            tr!(lang, "fallout.combat_model.give_mj_only_players"),
            tr!(lang, "fallout.combat_model.give_mj_allowed"),
        ));
    }
    let max_bonus = int_at(
        file,
        &["policy", side, "max_bonus"],
        p.max_bonus.unwrap_or(BONUS_MAX as i64),
        0,
        BONUS_MAX as i64,
    )? as u8;
    let damage_ap = int_at(
        file,
        &["policy", side, "damage_ap"],
        p.damage_ap.unwrap_or(0),
        0,
        EXTRA_CD_MAX as i64,
    )? as u8;
    let keep = int_at(
        file,
        &["policy", side, "keep"],
        p.keep.unwrap_or(0),
        0,
        1000,
    )? as u32;
    let target = match p.target.as_deref().unwrap_or("first") {
        "first" => Target::First,
        "weakest" => Target::Weakest,
        other => {
            return Err(file.error_at(
                &["policy", side, "target"],
                &key("target"),
                &tr!(lang, "fallout.combat_model.unknown_target", value = other),
                "\"first\", \"weakest\"",
            ))
        }
    };
    Ok(SidePolicy {
        buy,
        max_bonus,
        give_mj_ap: p.give_mj_ap.unwrap_or(false),
        damage_ap,
        keep,
        target,
        second_major: p.second_major.unwrap_or(false),
        extra_minor: p.extra_minor.unwrap_or(false),
    })
}

/// Reads and validates a combat file (the one function `check` and `run` share).
pub fn load(file: &ScenarioFile) -> Result<(RawCombat, CombatModel), UserError> {
    let lang = file.lang;
    let raw: RawCombat = file.parse_raw()?;
    let (s, pools) = (&raw.combat, &raw.pools);
    // An optional key under `[section]`: its default when absent, then its range.
    let opt = |section: &str, key: &str, v: Option<i64>, default: i64, lo: i64, hi: i64| {
        int_at(file, &[section, key], v.unwrap_or(default), lo, hi)
    };
    let max_rounds = opt(
        "combat",
        "max_rounds",
        s.max_rounds,
        10,
        1,
        ROUNDS_MAX as i64,
    )? as u32;
    let injury_at = opt("combat", "injury_at", s.injury_at, 5, 0, 100)? as u32;
    let injury_difficulty = opt("combat", "injury_difficulty", s.injury_difficulty, 1, 0, 2)? as u8;
    let injuries_down = opt("combat", "injuries_down", s.injuries_down, 0, 0, 10)? as u8;
    let group_ap = opt("pools", "group_ap", pools.group_ap, 0, 0, 30)? as u32;
    // The cap in force is a parameter: the file's [rules] here, `--option` again in `run`.
    crate::systems::fallout::check_start_pool(
        file,
        &["pools", "group_ap"],
        group_ap,
        crate::systems::fallout::pool_max(&file.rule_options(&raw.rules)?),
    )?;
    let mj_ap = opt("pools", "mj_ap", pools.mj_ap, 0, 0, 1000)? as u32;
    let policies = [
        policy(file, &raw.policy.players, "players")?,
        policy(file, &raw.policy.mj, "mj")?,
    ];

    if raw.weapons.is_empty() || raw.weapons.len() > COMBATANTS_MAX {
        return Err(file.error_at(
            &["weapons"],
            "weapons",
            &tr!(
                lang,
                "fallout.combat_model.weapons_count",
                n = raw.weapons.len()
            ),
            &tr!(
                lang,
                "fallout.combat_model.weapons_allowed",
                max = COMBATANTS_MAX
            ),
        ));
    }
    let mut weapons = Vec::new();
    for (name, w) in &raw.weapons {
        let at = |k: &str| format!("weapons.{name}.{k}");
        let cd = int_at(
            file,
            &["weapons", name, "damage"],
            w.damage,
            1,
            (CD_MAX - EXTRA_CD_MAX) as i64,
        )? as u8;
        let kind = match w.kind.as_str() {
            "melee" => WeaponKind::Melee,
            "thrown" => WeaponKind::Thrown,
            "ranged" => WeaponKind::Ranged,
            other => {
                return Err(file.error_at(
                    &["weapons", name, "type"],
                    &at("type"),
                    &tr!(
                        lang,
                        "fallout.combat_model.unknown_weapon_type",
                        value = other
                    ),
                    "\"melee\", \"thrown\", \"ranged\"",
                ))
            }
        };
        let difficulty = int_at(
            file,
            &["weapons", name, "difficulty"],
            w.difficulty.unwrap_or(2),
            0,
            5,
        )? as u8;
        let piercing = int_at(
            file,
            &["weapons", name, "qualities", "piercing"],
            w.qualities.piercing.unwrap_or(0),
            0,
            DR_MAX,
        )? as u8;
        weapons.push(Weapon {
            name: name.clone(),
            cd,
            kind,
            difficulty,
            vicious: w.qualities.vicious.unwrap_or(false),
            piercing,
            stun: w.qualities.stun.unwrap_or(false),
        });
    }

    let mut combatants = Vec::new();
    for (i, c) in raw.combatant.iter().enumerate() {
        let idx = i.to_string();
        let path = |k: &'static str| -> Vec<&str> { vec!["combatant", idx.as_str(), k] };
        let shown = |k: &str| format!("combatant[{i}].{k}");
        let int = |k: &'static str, v: i64, lo: i64, hi: i64| {
            int_in(file, &path(k), &shown(k), v, lo, hi)
        };
        let side = match c.side.as_str() {
            "players" => Side::Players,
            "mj" => Side::Mj,
            other => {
                return Err(file.error_at(
                    &path("side"),
                    &shown("side"),
                    &tr!(lang, "fallout.combat_model.unknown_side", value = other),
                    tr!(lang, "fallout.combat_model.side_allowed"),
                ))
            }
        };
        let tn = int("tn", c.tn, TN_MIN as i64, TN_MAX as i64)? as u8;
        let tag_rank = int(
            "tag_rank",
            c.tag_rank.unwrap_or(0),
            0,
            TAG_RANK_MAX.min(tn) as i64,
        )? as u8;
        let complication = int("complication", c.complication.unwrap_or(1), 1, 5)? as u8;
        let hp = int("hp", c.hp, 1, HP_MAX)? as u32;
        let dr = int("dr", c.dr.unwrap_or(0), 0, DR_MAX)? as u32;
        let initiative = int("initiative", c.initiative.unwrap_or(0), 0, 100)?;
        let count = int("count", c.count.unwrap_or(1), 1, COMBATANTS_MAX as i64)?;
        let luck = int("luck", c.luck.unwrap_or(0), 0, 20)? as u8;
        let aims = match c.minor.as_deref().unwrap_or("none") {
            "none" => false,
            "aim" => true,
            other => {
                return Err(file.error_at(
                    &path("minor"),
                    &shown("minor"),
                    &tr!(lang, "audit25b.unknown_minor", value = other),
                    "\"none\", \"aim\"",
                ))
            }
        };
        let luck_cd = c.luck_cd.unwrap_or(false);
        if luck_cd && luck == 0 {
            return Err(file.error_at(
                &path("luck_cd"),
                &shown("luck_cd"),
                tr!(lang, "audit25b.luck_cd_without_luck"),
                tr!(lang, "audit25b.luck_cd_allowed"),
            ));
        }
        let Some(weapon) = weapons.iter().position(|w| w.name == c.weapon) else {
            let names: Vec<String> = weapons.iter().map(|w| format!("\"{}\"", w.name)).collect();
            return Err(file.error_at(
                &path("weapon"),
                &shown("weapon"),
                &tr!(
                    lang,
                    "fallout.combat_model.unknown_weapon",
                    value = c.weapon
                ),
                &names.join(", "),
            ));
        };
        let spec = DieSpec::new(lang, tn, tag_rank, complication).map_err(|e| {
            file.error_at(
                &["combatant", &idx],
                &format!("combatant[{i}]"),
                &e.0,
                tr!(lang, "fallout.model.see_ranges"),
            )
        })?;
        let p_hit = std::array::from_fn(|d| p_pass_by_bonus(&spec, d as u8));
        for n in 0..count {
            if combatants.len() == COMBATANTS_MAX {
                return Err(file.error_at(
                    &path("count"),
                    &shown("count"),
                    &tr!(lang, "fallout.combat_model.too_many", max = COMBATANTS_MAX),
                    &tr!(
                        lang,
                        "fallout.combat_model.too_many_allowed",
                        max = COMBATANTS_MAX
                    ),
                ));
            }
            let name = if count > 1 {
                format!("{} {}", c.name, n + 1)
            } else {
                c.name.clone()
            };
            // One name per combatant, after `count`'s numbering: the trace, the
            // combatants table and `help` name them (audit of 2026-12-08).
            if combatants.iter().any(|x: &Combatant| x.name == name) {
                let names: Vec<String> = combatants
                    .iter()
                    .map(|x| format!("\"{}\"", x.name))
                    .collect();
                return Err(file.error_at(
                    &path("name"),
                    &shown("name"),
                    &tr!(lang, "fallout.combat_model.name_twice", name = name),
                    &tr!(
                        lang,
                        "fallout.combat_model.name_twice_allowed",
                        names = names.join(", ")
                    ),
                ));
            }
            combatants.push(Combatant {
                name,
                side,
                spec,
                hp,
                dr,
                initiative,
                weapon,
                p_hit,
                luck,
                helps: None,
                aims,
                luck_cd,
            });
        }
    }
    for side in [Side::Players, Side::Mj] {
        if !combatants.iter().any(|c| c.side == side) {
            return Err(file.error_at(
                &["combatant"],
                "combatant",
                &tr!(lang, "fallout.combat_model.no_side", side = side.name()),
                tr!(lang, "fallout.combat_model.no_side_allowed"),
            ));
        }
    }
    // Turn order: initiative descending, players before the MJ's NPCs on ties (the 2d20
    // habit), then file order (a stable sort keeps it).
    combatants.sort_by_key(|c| (-c.initiative, c.side as u8));
    super::help_keys::resolve(file, &raw, &mut combatants)?;
    let model = CombatModel {
        title: crate::scenario::Text::pick(raw.title.clone(), lang)
            .unwrap_or_else(|| tr!(lang, "fallout.combat_model.default_title").into()),
        question: crate::scenario::Text::pick(raw.question.clone(), lang)
            .unwrap_or_else(|| tr!(lang, "fallout.combat_model.default_question").into()),
        max_rounds,
        injury_at,
        injury_difficulty,
        injuries_down,
        group_ap,
        mj_ap,
        policies,
        weapons,
        combatants,
    };
    Ok((raw, model))
}

impl CombatModel {
    /// The model under crit face `crit` and Normale complication face `complication_from` (parameters
    /// `fallout_crit_face`, `fallout_complication_from`, F-TEST), resolved
    /// once per run: every attacker's reading and its exact P(hit) table, so the policy
    /// and the report's exact column follow the rule in force. The book's 1 and 20 leave the
    /// model as loaded.
    pub fn with_faces(mut self, crit: u8, complication_from: u8) -> CombatModel {
        if book_faces(crit, complication_from) {
            return self;
        }
        for c in &mut self.combatants {
            c.spec = c.spec.with_faces(crit, complication_from);
            c.p_hit = std::array::from_fn(|d| p_pass_by_bonus(&c.spec, d as u8));
        }
        self
    }
}
