//! The validated combat model: what the engine runs (indices instead of names).

use crate::systems::cosmos::growth::aura::Edition;

use super::element::Element;
use crate::dice::DiceExpr;

/// The six stats, in the rulebook's order.
pub const STAT_NAMES: [&str; 6] = [
    "force",
    "esprit",
    "charisme",
    "agilite",
    "precision",
    "chance",
];
pub const FORCE: usize = 0;
pub const ESPRIT: usize = 1;
pub const AGILITE: usize = 3;
pub const PRECISION: usize = 4;

/// Most combatants in one scenario (after `count` expansion).
pub const MAX_FIGHTERS: usize = 16;
/// Most actions per round of one combatant.
pub const MAX_ACTIONS: u8 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Offensive,
    Defensive,
}

/// Most attacks in one combatant's list (uses and cooldowns are tracked per entry).
pub const MAX_ATTACKS: usize = 8;

/// How many enemies one use of an attack hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targets {
    Count(u8),
    All,
}

impl Targets {
    /// The expected damage `e` of one hit times the enemies it hits with `standing()`
    /// standing (asked only for an attack with several targets): what `best` weighs.
    #[inline(always)]
    pub fn weigh(self, e: f64, standing: impl FnOnce() -> usize) -> f64 {
        match self {
            Targets::Count(1) => e,
            Targets::Count(k) => e * (k as usize).min(standing()) as f64,
            Targets::All => e * standing() as f64,
        }
    }
}

/// An attack as the engine uses it.
#[derive(Clone, Debug, PartialEq)]
pub struct Attack {
    pub name: String,
    /// The stat whose fatigue and inventory maluses the test takes (the first of `stats`).
    pub stat: usize,
    /// With several stats the test is on their mean (C-TEST-1); empty: `stat` alone.
    pub stats: Vec<usize>,
    pub dice: DiceExpr,
    pub elements: Vec<Element>,
    pub pm_cost: i32,
    pub hp_cost: i32,
    /// Percentage points on the attack test (C-TEST-1).
    pub modifier: i32,
    /// Fixed test threshold replacing the stat's value.
    pub threshold: Option<i32>,
    pub targets: Targets,
    /// Uses per combat (None: unlimited).
    pub uses: Option<u8>,
    /// Rounds after a use before the next (0: none).
    pub cooldown: u8,
    pub undodgeable: bool,
    pub unparryable: bool,
    /// The `damage` periodic effect it places on whom it wounds (`periodic.rs`).
    pub on_hit: Option<usize>,
}

impl Attack {
    /// Whether the attack test is a plain test of `stat` (no mean, threshold or modifier).
    pub fn plain_test(&self) -> bool {
        self.stats.is_empty() && self.threshold.is_none() && self.modifier == 0
    }

    /// Whether uses or a cooldown must be tracked.
    pub fn limited(&self) -> bool {
        self.uses.is_some() || self.cooldown > 0
    }

    /// What deciding whether the attack can be used, and paying for it, reads.
    pub fn costs(&self) -> AttackCosts {
        AttackCosts {
            pm: self.pm_cost,
            hp: self.hp_cost,
            uses: self.uses.map_or(u16::MAX, u16::from),
            cooldown: self.cooldown,
            limited: self.limited(),
            esprit: self.stat == ESPRIT,
        }
    }
}

/// The costs and limits of an attack, kept per combatant and list entry
/// (`CombatSim::costs`) so the turn loop reads 16 bytes instead of the whole [`Attack`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AttackCosts {
    pub pm: i32,
    pub hp: i32,
    /// Uses per combat, `u16::MAX` for unlimited (a use count is a saturating `u8`).
    pub uses: u16,
    pub cooldown: u8,
    pub limited: bool,
    /// An Esprit attack (C-FAT-4: none under mental exhaustion).
    pub esprit: bool,
}

/// Damage reduction of a combatant (a house rule): each hit, after every multiplier, loses
/// `percent` % (then floored) and then `flat` points, never below 0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Armour {
    pub flat: i32,
    pub percent: f64,
}

/// What a combatant brings into the combat besides full health (item "starting state").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Start {
    pub hp: i32,
    pub pm: i32,
    /// Fatigue tracks at combat start (C-FAT-1, -3..10).
    pub fp: i8,
    pub fm: i8,
}

/// Which defence a combatant tries (C-CMB-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefencePolicy {
    /// The higher of Agilité (dodge) and Force (parry) among those the attack allows.
    Best,
    Dodge,
    Parry,
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetPolicy {
    LowestHp,
    HighestHp,
    First,
    Random,
    /// The enemy on which the best attack does the most expected damage (elements).
    BestElement,
    /// A named enemy group (first fighter index, count) while one stands, then lowest HP.
    Named(usize, usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttackPolicy {
    /// Highest expected damage on the target (dice mean x element coefficient).
    Best,
    /// First affordable attack in the list.
    First,
}

/// When a Light or Dark point is spent (C-LD-2 triggers); any true trigger fires.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointTriggers {
    pub at_start: bool,
    pub on_turn_start: bool,
    /// Own HP fraction strictly below this.
    pub below_hp: Option<f64>,
    pub when_ally_down: bool,
}

impl PointTriggers {
    pub fn any(&self) -> bool {
        self.at_start || self.on_turn_start || self.below_hp.is_some() || self.when_ally_down
    }
}

/// A combatant's decisions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    pub dark: PointTriggers,
    pub light: PointTriggers,
    /// When both triggers fire, Dark first.
    pub prefer_dark: bool,
    /// Posture turn (1..3) from which the Final Skill is used; 0 never.
    pub final_skill_turn: u8,
    pub defence: DefencePolicy,
    pub target: TargetPolicy,
    pub attack: AttackPolicy,
    /// Switch to Offensive before acting when own HP fraction is below this.
    pub offensive_below_hp: Option<f64>,
    /// Switch to Defensive before acting when own HP fraction is below this.
    pub defensive_below_hp: Option<f64>,
}

/// One combatant.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    pub name: String,
    pub side: usize,
    pub level: u32,
    pub stats: [i32; 6],
    pub hp: i32,
    pub pm: i32,
    pub mode: Mode,
    pub element: Option<Element>,
    pub attacks: Vec<usize>,
    pub final_skill: Option<usize>,
    pub light_points: u8,
    pub dark_points: u8,
    pub actions: u8,
    pub karma: i8,
    pub policy: Policy,
    /// HP, PM and fatigue at combat start.
    pub start: Start,
    pub armour: Armour,
    /// Entries of `CombatModel::support` it may use, and its policy rules.
    pub support: Vec<usize>,
    pub rules: super::trigger::Rules,
    /// Entries of `CombatModel::periodic` it holds from the start (`periodic.rs`).
    pub periodic: Vec<usize>,
    /// At level 5+, what the points rest on when a count was not given, so the level-5
    /// grant in force (parameter `level5_points`) sets them when the simulation is built;
    /// `light_points`/`dark_points` hold the book's counts (3 granted) until then.
    pub level5: Option<Level5Points>,
}

impl Fighter {
    /// The first combatant the file's `[combatants.<name>]` entry made (`name`, or
    /// `name_1`.. after `count` expansion): validation and settings read one per entry.
    pub fn of_entry<'a>(fighters: &'a [Fighter], name: &str) -> Option<&'a Fighter> {
        fighters
            .iter()
            .find(|f| f.name == *name || f.name.starts_with(&format!("{name}_")))
    }

    /// Whether its policy may spend Light points: a flat trigger or a `policy.rules` entry
    /// (issue 25, defect 2: a rule-driven spender has its `combat-postures.csv` row).
    pub fn spends_light(&self) -> bool {
        self.policy.light.any() || self.rules.spends(super::state::ILLUMINATION)
    }

    /// As [`Fighter::spends_light`] for Dark points.
    pub fn spends_dark(&self) -> bool {
        self.policy.dark.any() || self.rules.spends(super::state::SEPULCRALE)
    }
}

/// The level-5 split of a combatant whose points were (partly) left to the rules (C-LD-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level5Points {
    /// `level5_dark` as given (at most the grant in force).
    pub dark_share: Option<u8>,
    pub light_given: Option<u8>,
    pub dark_given: Option<u8>,
    pub light_spent: u8,
    pub dark_spent: u8,
}

impl Level5Points {
    /// (Light, Dark) points at combat start under a level-5 grant of `grant` points:
    /// 1 + 1 from level 1, the grant split by `level5_dark` or two thirds Dark, rounded
    /// (3 -> 2 Dark + 1 Light, the tool's default), less the points already spent.
    pub fn resolve(&self, grant: u8) -> (u8, u8) {
        let dark_share = self
            .dark_share
            .map_or((2 * grant as u32 + 1) / 3, |d| (d as u32).min(grant as u32))
            as u8;
        let light = self.light_given.unwrap_or(1 + grant - dark_share);
        let dark = self.dark_given.unwrap_or(1 + dark_share);
        (
            light.saturating_sub(self.light_spent),
            dark.saturating_sub(self.dark_spent),
        )
    }
}

/// Which enemy tests an aura holder spends its points on (C-AURA).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AuraUse {
    #[default]
    EnemyAttacks,
    EnemyDefences,
    EnemyTests,
    Never,
}

/// The small rules a combatant brings: aura, anti-aura (C-AURA) and inventory (C-INV).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallRules {
    /// Aura points at combat start (0..4).
    pub aura_points: u8,
    /// Anti-aura points at combat start.
    pub anti_aura: u8,
    /// Whether the combatant's race has the aura: the file gives it `aura_points` (0
    /// included). Such a victim gains no anti-aura under `anti_aura_gain = without_aura`
    /// (book l. 264).
    pub has_aura: bool,
    pub aura_use: AuraUse,
    /// Only on enemy tests whose threshold (stat and modifiers) is at least this.
    pub aura_min_threshold: i32,
    /// Only on this enemy group (first index, count); None: any enemy.
    pub aura_target: Option<(usize, usize)>,
    /// Spend an anti-aura point to cancel every aura use on it (else never).
    pub anti_aura_always: bool,
    /// Inventory slots used (C-INV), None when not given.
    pub inventory_slots_used: Option<u16>,
}

impl Default for SmallRules {
    fn default() -> Self {
        SmallRules {
            aura_points: 0,
            anti_aura: 0,
            has_aura: false,
            aura_use: AuraUse::EnemyAttacks,
            aura_min_threshold: 0,
            aura_target: None,
            anti_aura_always: true,
            inventory_slots_used: None,
        }
    }
}

pub use super::events::Event;

/// A whole combat scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct CombatModel {
    /// In the current language (the file's words or the tool's default).
    pub title: String,
    pub question: String,
    pub sides: Vec<String>,
    pub fighters: Vec<Fighter>,
    pub attacks: Vec<Attack>,
    pub max_rounds: u32,
    /// Aura table edition (C-EDITION).
    pub edition: Edition,
    /// Per combatant (same order as `fighters`).
    pub small: Vec<SmallRules>,
    /// Scripted events, by round.
    pub events: Vec<Event>,
    /// In-combat fatigue (C-FAT-2, C-FAT-4; `fatigue.rs`).
    pub fatigue: super::fatigue::FatigueModel,
    /// Per combatant: second element and coefficient overrides (C-ELEM, `affinity.rs`).
    pub affinity: Vec<super::affinity::Affinity>,
    /// Support actions (`[support.*]`).
    pub support: Vec<super::support::SupportAction>,
    /// Periodic effects (`[periodic.*]`, a house rule).
    pub periodic: Vec<super::periodic::Periodic>,
    /// The policies in force and which come from defaults (not part of the task hash:
    /// they describe the values above).
    pub settings: Vec<super::settings::Setting>,
}

impl CombatModel {
    /// Whether any combatant uses a small rule (aura, anti-aura, inventory). An aura race
    /// with no points (`has_aura` alone) uses none.
    pub fn uses_small_rules(&self) -> bool {
        self.small.iter().any(|s| {
            let rules = SmallRules {
                has_aura: false,
                ..*s
            };
            rules != SmallRules::default()
        })
    }
}
