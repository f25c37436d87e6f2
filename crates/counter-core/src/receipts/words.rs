//! The printed words, in the languages the till speaks.

use super::Language;

/// Every word a receipt prints.
#[derive(Debug)]
pub(super) struct Words {
    pub payment: &'static str,
    pub card: &'static str,
    pub ticket: &'static str,
    pub taken: &'static str,
    pub balance_left: &'static str,
    pub voucher: &'static str,
    pub voucher_for: &'static str,
    pub voucher_use: &'static str,
    pub voucher_card: &'static str,
    pub voucher_on_paper: &'static str,
    pub voucher_not_a_card: &'static str,
    pub copy: &'static str,
    pub slip: &'static str,
    pub visits: &'static str,
    pub points: &'static str,
    pub rewards_ready: &'static str,
    /// "{n} more {unit} to: {reward}".
    pub to_go: fn(i64, &str, &str) -> String,
    pub reward_earned: &'static str,
    pub pass_unknown: &'static str,
    pub test: &'static str,
    pub test_width: &'static str,
    pub test_accents: &'static str,
    pub thanks: &'static str,
    pub badge: &'static str,
    pub badge_use: &'static str,
    pub badge_gone: &'static str,
    /// "Served by {first name}".
    pub served_by: fn(&str) -> String,
}

const EN: Words = Words {
    payment: "GIFT CARD PAYMENT",
    card: "Card",
    ticket: "Ticket",
    taken: "Amount taken",
    balance_left: "Balance left",
    voucher: "GIFT VOUCHER",
    voucher_for: "For",
    voucher_use: "Show this code at the counter to pay with it.",
    voucher_card: "Card",
    voucher_on_paper: "The card's whole code prints on the voucher only.",
    voucher_not_a_card: "This copy is no card: the card is the voucher first printed.",
    copy: "COPY",
    slip: "LOYALTY CARD",
    visits: "Visits",
    points: "Points",
    rewards_ready: "Rewards ready",
    to_go: |n, unit, reward| format!("{n} more {unit} to: {reward}"),
    reward_earned: "Reward earned:",
    pass_unknown: "Progress shown at the counter.",
    test: "TEST PRINT",
    test_width: "The line below fills the paper:",
    test_accents: "Accents:",
    thanks: "Thank you!",
    badge: "STAFF BADGE",
    badge_use: "Scan it at the lock screen to sign in. Keep it as a key.",
    badge_gone: "This badge's code is kept nowhere: make a new badge to print one.",
    served_by: |name| format!("Served by {name}"),
};

const FR: Words = Words {
    payment: "PAIEMENT CARTE CADEAU",
    card: "Carte",
    ticket: "Ticket",
    taken: "Montant débité",
    balance_left: "Solde restant",
    voucher: "BON CADEAU",
    voucher_for: "Pour",
    voucher_use: "Présentez ce code en caisse pour payer avec.",
    voucher_card: "Carte",
    voucher_on_paper: "Le code entier de la carte ne s'imprime que sur le bon.",
    voucher_not_a_card: "Ce duplicata n'est pas une carte : la carte est le bon imprimé d'abord.",
    copy: "DUPLICATA",
    slip: "CARTE DE FIDÉLITÉ",
    visits: "Visites",
    points: "Points",
    rewards_ready: "Récompenses à retirer",
    to_go: |n, unit, reward| format!("Encore {n} {unit} pour : {reward}"),
    reward_earned: "Récompense gagnée :",
    pass_unknown: "Progression affichée en caisse.",
    test: "IMPRESSION DE TEST",
    test_width: "La ligne ci-dessous remplit le papier :",
    test_accents: "Accents :",
    thanks: "Merci !",
    badge: "BADGE EMPLOYÉ",
    badge_use: "À scanner sur l'écran de verrouillage pour se connecter. À garder comme une clé.",
    badge_gone: "Le code de ce badge n'est gardé nulle part : faites un nouveau badge pour l'imprimer.",
    served_by: |name| format!("Servi par {name}"),
};

impl Language {
    pub(super) fn words(self) -> &'static Words {
        match self {
            Language::En => &EN,
            Language::Fr => &FR,
        }
    }
}
