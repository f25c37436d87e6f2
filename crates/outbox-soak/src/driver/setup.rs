//! The soak's business, keys, cards and gift cards, and the workload written for the till.

use anyhow::Context;
use serde_json::json;

use crate::workload::{self, Card, GIFT_CARD_EUROS, POINTS_GOAL, Workload};

use super::faults::high_limits;
use super::*;

pub(super) async fn setup(run: &mut Run) -> anyhow::Result<Workload> {
    let business = run
        .control(
            reqwest::Method::POST,
            "/_sandbox/businesses",
            json!({"name": "Soak Café", "plan": "enterprise", "customer_limit": 100_000,
                   "pass": {"name": "Points", "loyalty_type": "points", "goal": POINTS_GOAL,
                            "reward_title": "A cake", "locale": "en"}}),
        )
        .await?;
    run.business_id = business["id"].as_str().context("business id")?.to_owned();
    let pass_id = business["pass_id"].as_str().context("pass id")?.to_owned();
    run.control(
        reqwest::Method::PATCH,
        &format!("/_sandbox/businesses/{}", run.business_id),
        high_limits(),
    )
    .await?;
    let visits = run
        .control(
            reqwest::Method::POST,
            "/_sandbox/passes",
            json!({"business_id": run.business_id, "place": "live", "name": "Visits",
                   "loyalty_type": "visits", "goal": 10, "reward_title": "A coffee",
                   "locale": "en"}),
        )
        .await?;
    let visits_pass = visits["id"].as_str().context("visits pass id")?.to_owned();
    let key = run
        .control(
            reqwest::Method::POST,
            "/_sandbox/keys",
            json!({"business_id": run.business_id, "mode": "live"}),
        )
        .await?;
    run.keys
        .push(key["key"].as_str().context("key")?.to_owned());
    run.key_ids
        .push(key["id"].as_str().context("key id")?.to_owned());

    // Enough steps that the target is reached even when the till refuses some itself.
    let steps = (run.plan.target_writes as usize) * 2;
    let shape = workload::generate(
        run.plan.seed,
        steps,
        run.plan.points_cards,
        run.plan.gift_cards,
    );
    let run_tag = format!("{}{}", run.plan.name, jiff::Timestamp::now().as_second());
    let mut n = 0;
    let mut card_on = async |run: &Run, pass: &str, kind: &str| -> anyhow::Result<Card> {
        n += 1;
        let customer = run
            .api_post(
                "/v1/customers",
                json!({"pass_id": pass, "name": format!("{kind} {n}"),
                       "email": format!("setup-{run_tag}-{kind}-{n}@example.com"),
                       "wallet": "apple", "send_welcome": false}),
                n,
            )
            .await?;
        Ok(Card {
            card_id: customer["cards"][0]["id"]
                .as_str()
                .context("card")?
                .to_owned(),
            customer_id: customer["id"].as_str().context("customer")?.to_owned(),
        })
    };
    let mut points_cards = Vec::new();
    for _ in 0..shape.points_cards {
        points_cards.push(card_on(run, &pass_id, "points").await?);
    }
    let mut visit_cards = Vec::new();
    for _ in 0..shape.visit_cards {
        visit_cards.push(card_on(run, &visits_pass, "visits").await?);
    }
    let mut gift_cards = Vec::new();
    for i in 0..shape.gift_cards {
        let card = run
            .api_post(
                "/v1/gift_cards",
                json!({"amount": workload::gift_card_euros(0, i), "currency": "EUR", "locale": "en",
                       "recipient": {"name": format!("Gift {i}"),
                                     "email": format!("gift-{run_tag}-{i}@example.com")}}),
                100_000 + i,
            )
            .await?;
        let id = card["id"].as_str().context("gift card id")?.to_owned();
        run.control(
            reqwest::Method::POST,
            &format!("/_sandbox/gift_cards/{id}/claim"),
            json!({}),
        )
        .await?;
        gift_cards.push(id);
    }
    let workload = Workload {
        run: run_tag,
        pass_id,
        points_cards,
        visit_cards,
        gift_cards,
        poison: 0,
        steps: shape.steps,
    };
    std::fs::write(
        run.plan.dir.join("workload.json"),
        serde_json::to_vec(&workload)?,
    )?;
    let line = format!(
        "setup: {} points cards, {} visits cards, {} gift cards of {GIFT_CARD_EUROS} EUR, {} steps \
         for {} writes",
        workload.points_cards.len(),
        workload.visit_cards.len(),
        workload.gift_cards.len(),
        workload.steps.len(),
        run.plan.target_writes
    );
    run.say(line);
    Ok(workload)
}
