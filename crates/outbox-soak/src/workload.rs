//! The seeded workload: what the cashier means to do, step by step.
//!
//! Each step makes at most one outbox item (a step the till refuses itself, such as a
//! payment over the known balance, makes none). Visits come in pairs on fresh visits
//! cards, the second a few steps after the first, so the rules predict its answer
//! (`recent_visit`, unless the server's own records show 15 minutes between them).

use counter_core::roles::Role;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The points pass's goal.
pub const POINTS_GOAL: i64 = 100;
/// The starting amount of each gift card, in euros.
pub const GIFT_CARD_EUROS: i64 = 150;
/// The poison card's: enough that the till never refuses its payments itself, so
/// that they reach the outbox while the poison holds.
pub const POISON_EUROS: i64 = 5_000;

/// The starting amount of gift card `index`, in euros.
pub fn gift_card_euros(workload_poison: usize, index: usize) -> i64 {
    if index == workload_poison {
        POISON_EUROS
    } else {
        GIFT_CARD_EUROS
    }
}

/// One card made for the soak before it starts.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Card {
    pub card_id: String,
    pub customer_id: String,
}

/// What the till is given.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Workload {
    /// Tells this run's references and emails apart from any other.
    pub run: String,
    /// The pass enrolments go to.
    pub pass_id: String,
    pub points_cards: Vec<Card>,
    pub visit_cards: Vec<Card>,
    pub gift_cards: Vec<String>,
    /// Index into `gift_cards` of the card whose payments are made to fail (poison).
    pub poison: usize,
    pub steps: Vec<Step>,
}

/// One thing the cashier does. Cards are indices into the workload's lists.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Step {
    Visit { card: usize },
    Points { card: usize, amount: i64 },
    Redeem { card: usize },
    Pay { gift_card: usize, cents: i64 },
    Enrol { n: usize },
}

/// How many cards a workload of `steps` steps needs, and its steps.
#[derive(Debug)]
pub struct Shape {
    pub points_cards: usize,
    pub visit_cards: usize,
    pub gift_cards: usize,
    pub steps: Vec<Step>,
}

pub fn generate(seed: u64, steps: usize, points_cards: usize, gift_cards: usize) -> Shape {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(steps);
    let mut visit_cards = 0;
    // Second visits waiting to be made: (card, made at or after this step).
    let mut seconds: Vec<(usize, usize)> = Vec::new();
    let mut enrolments = 0;
    while out.len() < steps {
        let i = out.len();
        if let Some(pos) = seconds.iter().position(|&(_, at)| at <= i) {
            let (card, _) = seconds.remove(pos);
            out.push(Step::Visit { card });
            continue;
        }
        let roll: u32 = rng.random_range(0..100);
        let step = match roll {
            0..30 => Step::Points {
                card: rng.random_range(0..points_cards),
                amount: rng.random_range(5..=40),
            },
            30..42 => Step::Points {
                card: rng.random_range(0..points_cards),
                amount: -rng.random_range(1..=30),
            },
            42..50 => Step::Redeem {
                card: rng.random_range(0..points_cards),
            },
            50..56 => {
                let card = visit_cards;
                visit_cards += 1;
                seconds.push((card, i + rng.random_range(1..=6)));
                Step::Visit { card }
            }
            56..90 => Step::Pay {
                // One payment in ten is on the poison card.
                gift_card: if rng.random_range(0..10) == 0 {
                    0
                } else {
                    rng.random_range(1..gift_cards)
                },
                cents: rng.random_range(100..1000),
            },
            _ => {
                enrolments += 1;
                Step::Enrol { n: enrolments }
            }
        };
        out.push(step);
    }
    Shape {
        points_cards,
        visit_cards,
        gift_cards,
        steps: out,
    }
}

/// An enrolment's email: unique in the run, so the server's customer list finds it.
pub fn enrol_email(run: &str, n: usize) -> String {
    format!("soak-{run}-{n}@example.com")
}

/// The till's people, who take turns at the counter: the owner (the till's first
/// person), a cashier and a manager, each with their PIN.
pub const STAFF: [Staff; 3] = [
    Staff {
        name: "Owner",
        pin: "2468",
        role: Role::Owner,
    },
    Staff {
        name: "Anna",
        pin: "1357",
        role: Role::Cashier,
    },
    Staff {
        name: "Ben",
        pin: "8642",
        role: Role::Manager,
    },
];

/// A person of the soak's till.
#[derive(Debug, Clone, Copy)]
pub struct Staff {
    pub name: &'static str,
    pub pin: &'static str,
    pub role: Role,
}

/// Who makes step `step`: the people take turns every seven steps, so that switches
/// happen while writes wait in the queue, and across the till's SIGKILLs.
pub fn staff_of(step: usize) -> Staff {
    STAFF[(step / 7) % STAFF.len()]
}

/// A payment's reference: unique in the run, so the gift card's ledger finds it.
pub fn payment_reference(run: &str, step: usize) -> String {
    format!("soak-{run}-{step}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_visits_card_gets_two_visits_the_second_after_the_first() {
        let shape = generate(7, 2_000, 10, 6);
        let mut seen = vec![Vec::new(); shape.visit_cards];
        for (i, step) in shape.steps.iter().enumerate() {
            if let Step::Visit { card } = step {
                seen[*card].push(i);
            }
        }
        // The last few first visits may lose their second to the end of the steps.
        let pairs = seen.iter().filter(|s| s.len() == 2).count();
        assert!(
            pairs + 6 >= shape.visit_cards,
            "{pairs} of {}",
            shape.visit_cards
        );
        assert!(
            seen.iter()
                .all(|s| s.len() <= 2 && s.windows(2).all(|w| w[0] < w[1]))
        );
    }

    #[test]
    fn the_same_seed_makes_the_same_workload() {
        let a = serde_json::to_string(&generate(3, 500, 5, 4).steps).unwrap();
        let b = serde_json::to_string(&generate(3, 500, 5, 4).steps).unwrap();
        assert_eq!(a, b);
    }
}
