//! The check itself: each card and gift card's items against the server's records
//! and a model of the service's rules, in the order the outbox sent them.

use super::*;

pub async fn check(
    server: &ServerRecords,
    workload: &Workload,
    items: &[OutboxItem],
) -> anyhow::Result<Report> {
    let mut report = Report::default();
    let mut ordered: Vec<&OutboxItem> = items.iter().collect();
    ordered.sort_by_key(|i| i.id);
    let mut by_card: HashMap<String, Vec<&OutboxItem>> = HashMap::new();
    let mut by_gift_card: HashMap<String, Vec<&OutboxItem>> = HashMap::new();
    for item in &ordered {
        attribution(workload, item, &mut report);
        if fate(item) == Fate::Open {
            report.stuck += 1;
            report.note(format!("STUCK at the end: {}", describe(item)));
        }
        match &item.write {
            Write::Scan { card_id, .. } => by_card
                .entry(card_id.as_str().to_owned())
                .or_default()
                .push(item),
            Write::Payment { gift_card_id, .. } => by_gift_card
                .entry(gift_card_id.as_str().to_owned())
                .or_default()
                .push(item),
            Write::Enrol { email, .. } => {
                let on_server = server.customers_with_email(email).await?;
                let f = fate(item);
                if f == Fate::Accepted {
                    report.tally(
                        "the customers",
                        &BTreeMap::from([(email.clone(), on_server as i64)]),
                        &BTreeMap::from([(email.clone(), 1)]),
                    );
                } else if matches!(f, Fate::Refused(_)) {
                    // Every email is new: the rules predict every enrolment accepted.
                    report.compare(item, &Fate::Accepted, &f);
                    if on_server > 0 {
                        report.note(format!(
                            "  ... yet the customer is on the server: {}",
                            describe(item)
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    for card in &workload.points_cards {
        let items = by_card.remove(&card.card_id).unwrap_or_default();
        check_points_card(server, card, &items, &mut report).await?;
    }
    for card in &workload.visit_cards {
        let items = by_card.remove(&card.card_id).unwrap_or_default();
        check_visit_card(server, card, &items, &mut report).await?;
    }
    for (i, gift_card) in workload.gift_cards.iter().enumerate() {
        let items = by_gift_card.remove(gift_card).unwrap_or_default();
        let euros = gift_card_euros(workload.poison, i);
        check_gift_card(server, gift_card, euros, &items, &mut report).await?;
    }
    report.lines.insert(
        0,
        format!(
            "reconciled {} items: lost={} doubled={} stuck={} misattributed={}",
            items.len(),
            report.lost,
            report.doubled,
            report.stuck,
            report.misattributed
        ),
    );
    Ok(report)
}

async fn check_points_card(
    server: &ServerRecords,
    card: &crate::workload::Card,
    items: &[&OutboxItem],
    report: &mut Report,
) -> anyhow::Result<()> {
    let scans = server.scans_of(&card.customer_id).await?;
    let mut on_server: BTreeMap<String, i64> = BTreeMap::new();
    for s in &scans {
        *on_server
            .entry(format!("{} {}", s.kind, s.amount))
            .or_default() += 1;
    }
    let mut expected: BTreeMap<String, i64> = BTreeMap::new();
    let mut redeems = 0;
    // The card as the rules make it, in item order, until something is unknown.
    let (mut points, mut rewards, mut known) = (0i64, 0i64, true);
    for item in items {
        let Write::Scan { action, amount, .. } = &item.write else {
            continue;
        };
        let actual = fate(item);
        if actual == Fate::Accepted {
            if *action == ScanAction::Redeem {
                redeems += 1;
            } else {
                let (k, a) = scan_key(action, *amount);
                *expected.entry(format!("{k} {a}")).or_default() += 1;
            }
        }
        if matches!(actual, Fate::Open | Fate::Withdrawn) {
            known &= actual == Fate::Withdrawn;
            continue;
        }
        if !known {
            continue;
        }
        let n = amount
            .and_then(|a| i64::try_from(a.trunc().mantissa()).ok())
            .unwrap_or(0);
        let predicted = match action {
            ScanAction::Redeem if rewards < 1 => Fate::Refused("no_reward_available".into()),
            ScanAction::Points if n <= 0 && -n > points => {
                Fate::Refused("insufficient_balance".into())
            }
            _ => Fate::Accepted,
        };
        if !report.compare(item, &predicted, &actual) {
            known = false;
            continue;
        }
        if actual == Fate::Accepted {
            match action {
                ScanAction::Redeem => rewards -= 1,
                _ if n > 0 => {
                    points += n.min(POINTS_GOAL - points).max(0);
                    if points >= POINTS_GOAL {
                        points = 0;
                        rewards += 1;
                    }
                }
                _ => points += n,
            }
        }
    }
    report.tally(&format!("card {}", card.card_id), &on_server, &expected);
    let server_card = server.card_of(&card.customer_id).await?;
    let redeemed = server_card["rewards_redeemed"].as_i64().unwrap_or(-1);
    report.tally(
        &format!("card {}", card.card_id),
        &BTreeMap::from([("redeem".to_owned(), redeemed)]),
        &BTreeMap::from([("redeem".to_owned(), redeems)]),
    );
    if known {
        let (sp, sr) = (
            server_card["points"].as_i64().unwrap_or(-1),
            server_card["rewards_available"].as_i64().unwrap_or(-1),
        );
        if (sp, sr) != (points, rewards) {
            report.state_mismatches += 1;
            report.note(format!(
                "CARD {} holds {sp} points and {sr} rewards; the rules give {points} and {rewards}",
                card.card_id
            ));
        }
    }
    Ok(())
}

async fn check_visit_card(
    server: &ServerRecords,
    card: &crate::workload::Card,
    items: &[&OutboxItem],
    report: &mut Report,
) -> anyhow::Result<()> {
    let visits: Vec<ScanRecord> = server
        .scans_of(&card.customer_id)
        .await?
        .into_iter()
        .filter(|s| s.kind == "visit")
        .collect();
    let mut accepted = 0usize;
    let mut known = true;
    for item in items {
        let actual = fate(item);
        if matches!(actual, Fate::Open | Fate::Withdrawn) {
            known &= actual == Fate::Withdrawn;
            continue;
        }
        if known {
            // The first visit is accepted; a later one is too recent unless the
            // server's own records put 15 minutes between it and the one before.
            let predicted = if accepted == 0 {
                Fate::Accepted
            } else {
                let apart = visits
                    .get(accepted)
                    .zip(visits.get(accepted - 1))
                    .map(|(b, a)| b.created_at.duration_since(a.created_at));
                if actual == Fate::Accepted && apart >= Some(SignedDuration::from_mins(15)) {
                    Fate::Accepted
                } else {
                    Fate::Refused("recent_visit".into())
                }
            };
            known = report.compare(item, &predicted, &actual);
        }
        if actual == Fate::Accepted {
            accepted += 1;
        }
    }
    report.tally(
        &format!("card {}", card.card_id),
        &BTreeMap::from([("visit".to_owned(), visits.len() as i64)]),
        &BTreeMap::from([("visit".to_owned(), accepted as i64)]),
    );
    Ok(())
}

async fn check_gift_card(
    server: &ServerRecords,
    gift_card: &str,
    euros: i64,
    items: &[&OutboxItem],
    report: &mut Report,
) -> anyhow::Result<()> {
    let (ledger, card) = server.ledger(gift_card).await?;
    let mut on_server: BTreeMap<String, i64> = BTreeMap::new();
    for t in ledger.iter().filter(|t| t["type"] == "spend") {
        let reference = t["reference"].as_str().unwrap_or("(none)").to_owned();
        *on_server.entry(reference).or_default() += 1;
        if cents(t["balance_after"].as_str().unwrap_or("-1")) < 0 {
            report.below_zero += 1;
            report.note(format!("BELOW ZERO: gift card {gift_card}: {t}"));
        }
    }
    let balance = cents(card["balance"].as_str().unwrap_or("-1"));
    if balance < 0 {
        report.below_zero += 1;
        report.note(format!(
            "BELOW ZERO: gift card {gift_card} holds {balance} cents"
        ));
    }
    let mut expected: BTreeMap<String, i64> = BTreeMap::new();
    let (mut model, mut known) = (euros * 100, true);
    for item in items {
        let Write::Payment {
            amount_minor,
            reference,
            ..
        } = &item.write
        else {
            continue;
        };
        let actual = fate(item);
        if actual == Fate::Accepted {
            *expected
                .entry(reference.clone().unwrap_or_default())
                .or_default() += 1;
        }
        if matches!(actual, Fate::Open | Fate::Withdrawn) {
            known &= actual == Fate::Withdrawn;
            continue;
        }
        if !known {
            continue;
        }
        let amount = amount_minor.get();
        let predicted = if model == 0 {
            Fate::Refused("gift_card_depleted".into())
        } else if amount > model {
            Fate::Refused("insufficient_balance".into())
        } else {
            Fate::Accepted
        };
        if !report.compare(item, &predicted, &actual) {
            known = false;
            continue;
        }
        if actual == Fate::Accepted {
            model -= amount;
        }
    }
    report.tally(&format!("gift card {gift_card}"), &on_server, &expected);
    if known && model != balance {
        report.state_mismatches += 1;
        report.note(format!(
            "GIFT CARD {gift_card} holds {balance} cents; its accepted payments leave {model}"
        ));
    }
    Ok(())
}

/// Each write names the person whose turn its step was: a payment by the step its
/// reference carries, an enrolment by its email's number; a scan (a repeat visit may be
/// confirmed later, by whoever decides) names one of the till's people, never nobody.
fn attribution(workload: &Workload, item: &OutboxItem, report: &mut Report) {
    let run = format!("soak-{}-", workload.run);
    let step = match &item.write {
        Write::Payment { reference, .. } => reference
            .as_deref()
            .and_then(|r| r.split_once(&run))
            .and_then(|(_, step)| step.parse::<usize>().ok()),
        Write::Enrol { email, .. } => email
            .strip_prefix(&run)
            .and_then(|rest| rest.split_once('@'))
            .and_then(|(n, _)| n.parse::<usize>().ok())
            .and_then(|n| {
                workload
                    .steps
                    .iter()
                    .position(|s| matches!(s, crate::workload::Step::Enrol { n: m } if *m == n))
            }),
        _ => None,
    };
    let named = match &item.made_by {
        counter_core::outbox::MadeBy::Person { name, .. } => Some(name.as_str()),
        _ => None,
    };
    let right = match (step, named) {
        (Some(step), Some(name)) => crate::workload::staff_of(step).name == name,
        (None, Some(name)) => crate::workload::STAFF.iter().any(|s| s.name == name),
        (_, None) => false,
    };
    if !right {
        report.misattributed += 1;
        report.note(format!(
            "MISATTRIBUTED (step {step:?}, made by {named:?}): {}",
            describe(item)
        ));
    }
}
