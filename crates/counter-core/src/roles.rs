//! What each person may do at the till: one table, with a line for every command of the
//! shell ([`Action`]) and, on it, what each role may do ([`Rule`]). The defaults follow
//! the peers (Square, Shopify POS, Loyverse): a cashier serves customers, a manager
//! answers for money and the till's set-up, the owner alone for the people and for this
//! table, which they may change for their shop ([`RoleTable`]).
//!
//! Beside the roles, two seats that are no person: the kiosk (a customer checks in) and
//! the till while nobody is signed in (its lock screen). Their columns are fixed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

for_the_ui! {
/// A person's role at the till.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Serves customers: scans, enrols, searches, takes gift-card payments.
    Cashier,
    /// Answers for money and the till's set-up.
    Manager,
    /// Answers for the people and for what each role may do.
    Owner,
}
}

impl Role {
    /// Every role, the least first.
    pub const ALL: [Role; 3] = [Role::Cashier, Role::Manager, Role::Owner];

    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Cashier => "cashier",
            Role::Manager => "manager",
            Role::Owner => "owner",
        }
    }

    /// From its stored name.
    pub fn parse(stored: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|role| role.as_str() == stored)
    }
}

for_the_ui! {
/// What a seat may do with one action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Goes on.
    Allowed,
    /// Goes on for the one call a manager approved at the till (their PIN or badge).
    WithApproval,
    /// Never.
    Refused,
}
}

/// Who is at the till, for the table: a person's role, or a seat that is no person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    /// No one is on the roster yet: only the till's first set-up (connecting, the
    /// owner's first PIN).
    FirstStart,
    /// Nobody is signed in: the lock screen.
    Locked,
    /// The till is a kiosk: customers check themselves in.
    Kiosk,
    /// Another copy of the app owns the till's data: this one shows its queue, and
    /// nobody signs in here.
    ReadingOnly,
    /// A person is signed in.
    Person(Role),
}

/// What kind of action a line is, for its defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Anyone, signed in or not, the kiosk too: the page's own workings and signing in.
    Open,
    /// What the first set-up and the connect screen ask: anyone before the roster
    /// exists, any person after.
    Connecting,
    /// Putting back the settings a till runs on (damaged settings): anyone before the
    /// roster exists, a manager's after, or a manager's approval (at the lock screen
    /// too: the trouble screen comes before anyone signs in).
    Repair,
    /// Serving customers: every person.
    Counter,
    /// Serving customers, the kiosk's way too.
    CounterAndKiosk,
    /// A manager's, or a cashier's with a manager's approval.
    Manager,
    /// The owner's alone, and not to be changed.
    Owner,
}

macro_rules! actions {
    ($($(#[doc = $doc:literal])* $variant:ident: $kind:ident,)*) => {
        for_the_ui! {
        /// Every command of the shell, by name (its `#[tauri::command]`), and the few
        /// decisions a command makes on what it is given (which write is discarded).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Action {
            $($(#[doc = $doc])* $variant,)*
        }
        }

        impl Action {
            /// Every action, in the table's order.
            pub const ALL: &'static [Action] = &[$(Action::$variant,)*];

            fn kind(self) -> Kind {
                match self {
                    $(Action::$variant => Kind::$kind,)*
                }
            }
        }
    };
}

actions! {
    /// The page says its first screen is built.
    FirstScreenBuilt: Open,
    /// The page says its first screen is shown.
    FirstScreenShown: Open,
    /// What the app is (version, data folder).
    AppInfo: Open,
    /// What the till opens on.
    Opening: Open,
    /// What the page hears.
    PageEvents: Open,
    /// Whether an update waits, and the restart into it between customers.
    UpdateMoment: Open,
    /// The zoom.
    Zoom: Open,
    /// The queue's counts for the status bar.
    QueueStatus: Open,
    /// The customer's screen's own page.
    CustomerScreen: Open,
    /// The customer's screen told the counter is idle.
    CounterIdle: Open,
    /// Who is signed in, and what they may do.
    Seat: Open,
    /// The names on the lock screen.
    People: Open,
    /// Signing in (a PIN, or a badge).
    SignIn: Open,
    /// Locking the till.
    LockTill: Open,
    /// The person at the till touched it (the idle lock starts again).
    StillHere: Open,
    /// Where a PIN stands.
    PinStatus: Open,
    /// A manager's PIN for one action or a visit.
    CheckPin: Open,
    /// A manager's badge for one action or a visit.
    ApproveWithBadge: Open,
    /// A manager leaves the manager's screens.
    ManagerLeaves: Open,
    /// The owner's first PIN (refused once there is one).
    SetPin: Connecting,
    /// The base URL kept from the last connect.
    SavedBaseUrl: Connecting,
    /// Whether a base URL is a service's.
    CheckBaseUrl: Connecting,
    /// Connects with a key (once a key is kept, or writes wait, it is leaving the
    /// business: [`Action::Disconnect`]).
    Connect: Connecting,
    /// Whether connecting waits.
    ConnectGate: Connecting,
    /// Opens the built-in demo (from a connected till, it is leaving the business:
    /// [`Action::Disconnect`]).
    TryDemo: Connecting,
    /// Puts damaged settings back to their defaults (from the trouble screen, before
    /// anyone signs in: with a manager's approval).
    ResetDamagedSettings: Repair,
    /// Opens the till again after a trouble.
    Reopen: Open,
    /// A card scanned by the wedge.
    ReadScan: CounterAndKiosk,
    /// Opens the camera.
    CameraOpen: CounterAndKiosk,
    /// Lets the camera go.
    CameraClose: CounterAndKiosk,
    /// A customer checks in at the kiosk.
    CheckIn: CounterAndKiosk,
    /// The cameras there are.
    Cameras: Counter,
    /// The screens there are.
    Monitors: Counter,
    /// A card's details.
    ReadCard: Counter,
    /// A loyalty scan.
    RecordScan: Counter,
    /// A repeat visit confirmed.
    ConfirmRepeatVisit: Counter,
    /// The queue.
    Queue: Counter,
    /// Sends waiting writes now.
    SendNow: Counter,
    /// Discards a waiting visit or enrolment.
    DiscardItem: Counter,
    /// Sends a visit or enrolment again.
    RetryItem: Counter,
    /// Gift cards probably issued by a write.
    ProbablyIssued: Counter,
    /// A gift card's balance.
    GiftCard: Counter,
    /// Takes a gift-card payment.
    TakePayment: Counter,
    /// Searches customers.
    SearchCustomers: Counter,
    /// Reads the customers for search.
    SyncCustomers: Counter,
    /// The offline policy as its form shows it.
    OfflinePayments: Counter,
    /// A pass.
    Pass: Counter,
    /// The passes.
    Passes: Counter,
    /// Enrols a customer.
    Enrol: Counter,
    /// The printer's report.
    PrinterReport: Counter,
    /// The printer set up.
    Printer: Counter,
    /// Prints a slip of a write.
    PrintSlip: Counter,
    /// The receipts.
    Receipts: Counter,
    /// The receipt of a write.
    ReceiptOf: Counter,
    /// A receipt's preview.
    ReceiptPreview: Counter,
    /// Prints a receipt again (a voucher again is a gift card again).
    Reprint: Manager,
    /// Prints a receipt kept while no printer was set up, the first time.
    PrintKept: Counter,
    /// Says whether a receipt that may have printed did, or prints it again.
    SettlePrint: Counter,
    /// The till's places (pass and location).
    TillPlaces: Counter,
    /// The scanner's keyboard layout.
    ScannerLayout: Counter,
    /// The customer's screen set up.
    CustomerDisplay: Counter,
    /// The till's language.
    SetTillLanguage: Counter,
    /// Discards, or decides on, a waiting gift-card payment or issue.
    DiscardPaymentOrIssue: Manager,
    /// Sends a gift-card payment or issue again.
    ResendPaymentOrIssue: Manager,
    /// What the issue form offers (its currencies and languages).
    IssueChoices: Counter,
    /// Issues a gift card.
    IssueGiftCard: Manager,
    /// The business's figures.
    Figures: Manager,
    /// The manager's lists.
    Browse: Manager,
    /// The demo's sample cards.
    DemoSamples: Counter,
    /// Resets the demo.
    ResetDemo: Manager,
    /// Sets the till's places.
    SetTillPlaces: Manager,
    /// Previews a message.
    PreviewMessage: Manager,
    /// Sends a message.
    SendMessage: Manager,
    /// The messages scheduled.
    ScheduledMessages: Manager,
    /// Cancels a scheduled message.
    CancelMessage: Manager,
    /// Turns the kiosk on or off.
    SetKiosk: Manager,
    /// The queue's history (a year of writes: behind the same permission as its export).
    History: Manager,
    /// Exports the queue's history.
    ExportHistory: Manager,
    /// Cards scanned unusually often.
    UnusualActivity: Manager,
    /// Sets the unusual threshold.
    SetUnusualThreshold: Manager,
    /// How long customers' details are kept.
    Retention: Manager,
    /// Sets how long customers' details are kept.
    SetRetention: Manager,
    /// Checks an amount against the offline policy.
    CheckAmount: Counter,
    /// Leaves the business's key.
    Disconnect: Manager,
    /// Saves the offline policy.
    SaveOfflinePayments: Manager,
    /// Sets up the printer.
    SetPrinter: Manager,
    /// Prints a test page.
    PrintTest: Manager,
    /// Cancels a print.
    CancelPrint: Manager,
    /// Sets the scanner's layout.
    SetScannerLayout: Manager,
    /// Sets the customer's screen.
    SetCustomerDisplay: Manager,
    /// Chooses the camera.
    SetCamera: Manager,
    /// Where the till's shifts stand.
    ShiftStatus: Counter,
    /// Opens a shift.
    OpenShift: Counter,
    /// The open shift's X report.
    XReport: Manager,
    /// Closes the shift and seals its Z.
    CloseShift: Manager,
    /// The past Z reports.
    ZReports: Manager,
    /// One past Z report.
    ZReport: Manager,
    /// Exports a Z report as CSV.
    ExportZ: Manager,
    /// Prints a Z report.
    PrintZ: Manager,
    /// Changes one's own PIN.
    ChangePin: Counter,
    /// The roster, whole.
    Roster: Owner,
    /// Adds a person.
    AddPerson: Owner,
    /// Renames a person, changes their role, disables or enables them.
    ChangePerson: Owner,
    /// Gives a person a new PIN.
    ResetPersonPin: Owner,
    /// Makes a person's badge.
    MakeBadge: Owner,
    /// This table, whole.
    RoleTable: Owner,
    /// Changes a line of this table.
    SetRule: Owner,
    /// When the till locks itself.
    SetLockPolicy: Owner,
    /// Names the till.
    SetTillName: Owner,
    /// Writes the roster to a file signed with the owner's key, for the shop's other tills.
    ExportRoster: Owner,
    /// Reads the roster another till's owner signed.
    ImportRoster: Owner,
}

impl Action {
    /// The action of a command, from its name.
    pub fn of_command(name: &str) -> Option<Action> {
        serde_json::from_value(serde_json::Value::String(name.to_owned())).ok()
    }

    /// Its name, as the command is called.
    pub fn name(self) -> String {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::String(name)) => name,
            _ => unreachable!("an action is named by a string"),
        }
    }

    /// Whether anyone may do it, signed in or not, the kiosk too: the page's own
    /// workings and signing in. Nothing needs to be asked to admit it.
    pub fn open_to_anyone(self) -> bool {
        self.kind() == Kind::Open
    }

    /// Whether the owner may change what a role may do with it.
    pub fn changeable(self) -> bool {
        matches!(
            self.kind(),
            Kind::Counter | Kind::CounterAndKiosk | Kind::Manager
        )
    }

    /// The rule before the owner changed anything.
    pub fn default_rule(self, seat: Seat) -> Rule {
        use Rule::{Allowed, Refused, WithApproval};
        match (self.kind(), seat) {
            (Kind::Open, _) => Allowed,
            (Kind::Connecting, Seat::FirstStart | Seat::Person(_)) => Allowed,
            (Kind::Repair, Seat::FirstStart | Seat::Person(Role::Manager | Role::Owner)) => Allowed,
            (Kind::Repair, Seat::Person(Role::Cashier) | Seat::Locked) => WithApproval,
            // Leaving the kiosk: a manager's word at the kiosk's screen.
            (_, Seat::Kiosk) if self == Action::SetKiosk => WithApproval,
            (Kind::CounterAndKiosk, Seat::Kiosk) => Allowed,
            (Kind::Counter | Kind::CounterAndKiosk, Seat::Person(_)) => Allowed,
            (Kind::Manager, Seat::Person(Role::Cashier)) => WithApproval,
            (Kind::Manager, Seat::Person(_)) => Allowed,
            (Kind::Owner, Seat::Person(Role::Owner)) => Allowed,
            (_, Seat::ReadingOnly) if self == Action::Queue => Allowed,
            _ => Refused,
        }
    }
}

for_the_ui! {
/// One line of the table as its screen shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleLine {
    /// The action.
    pub action: Action,
    /// What a cashier may do.
    pub cashier: Rule,
    /// What a manager may do.
    pub manager: Rule,
    /// What the owner may do.
    pub owner: Rule,
    /// What the kiosk may do.
    pub kiosk: Rule,
    /// What the lock screen may do.
    pub locked: Rule,
    /// Whether the owner may change the cashier's and the manager's rules.
    pub changeable: bool,
}
}

/// Why a change of the table was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum RuleError {
    /// The line is fixed (signing in, the owner's own, the first set-up).
    #[error("what anyone may do with {action:?} is fixed")]
    Fixed {
        /// The action.
        action: Action,
    },
    /// The owner's column is fixed: the owner may do everything a manager may.
    #[error("the owner's rules are fixed")]
    OwnersColumn,
}

/// The table of one till: the defaults, and what the owner changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoleTable {
    changed: BTreeMap<(Action, Role), Rule>,
}

impl RoleTable {
    /// The table with the owner's changes.
    pub fn with_changes(changed: impl IntoIterator<Item = ((Action, Role), Rule)>) -> Self {
        let mut table = Self::default();
        for ((action, role), rule) in changed {
            if table.may_change(action, role).is_ok() {
                table.changed.insert((action, role), rule);
            }
        }
        table
    }

    /// Whether the owner may change what `role` may do with `action`.
    pub fn may_change(&self, action: Action, role: Role) -> Result<(), RuleError> {
        if !action.changeable() {
            Err(RuleError::Fixed { action })
        } else if role == Role::Owner {
            Err(RuleError::OwnersColumn)
        } else {
            Ok(())
        }
    }

    /// Changes one rule (the default again when it is the default).
    pub fn change(&mut self, action: Action, role: Role, rule: Rule) -> Result<(), RuleError> {
        self.may_change(action, role)?;
        if rule == action.default_rule(Seat::Person(role)) {
            self.changed.remove(&(action, role));
        } else {
            self.changed.insert((action, role), rule);
        }
        Ok(())
    }

    /// The owner's changes, as stored.
    pub fn changes(&self) -> impl Iterator<Item = (Action, Role, Rule)> + '_ {
        self.changed
            .iter()
            .map(|(&(action, role), &rule)| (action, role, rule))
    }

    /// What `seat` may do with `action`.
    pub fn rule(&self, action: Action, seat: Seat) -> Rule {
        match seat {
            Seat::Person(role) => self
                .changed
                .get(&(action, role))
                .copied()
                .unwrap_or_else(|| action.default_rule(seat)),
            _ => action.default_rule(seat),
        }
    }

    /// Every line, in the table's order.
    pub fn lines(&self) -> Vec<RuleLine> {
        Action::ALL
            .iter()
            .map(|&action| RuleLine {
                action,
                cashier: self.rule(action, Seat::Person(Role::Cashier)),
                manager: self.rule(action, Seat::Person(Role::Manager)),
                owner: self.rule(action, Seat::Person(Role::Owner)),
                kiosk: self.rule(action, Seat::Kiosk),
                locked: self.rule(action, Seat::Locked),
                changeable: action.changeable(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_is_named_as_its_command_and_read_back() {
        for &action in Action::ALL {
            assert_eq!(Action::of_command(&action.name()), Some(action));
        }
        assert_eq!(
            Action::of_command("issue_gift_card"),
            Some(Action::IssueGiftCard)
        );
        assert_eq!(Action::of_command("IssueGiftCard"), None);
    }

    #[test]
    fn the_defaults_follow_the_peers() {
        let table = RoleTable::default();
        let cashier = Seat::Person(Role::Cashier);
        assert_eq!(table.rule(Action::TakePayment, cashier), Rule::Allowed);
        assert_eq!(table.rule(Action::Enrol, cashier), Rule::Allowed);
        assert_eq!(
            table.rule(Action::IssueGiftCard, cashier),
            Rule::WithApproval
        );
        assert_eq!(
            table.rule(Action::ExportHistory, cashier),
            Rule::WithApproval
        );
        assert_eq!(table.rule(Action::AddPerson, cashier), Rule::Refused);
        assert_eq!(
            table.rule(Action::AddPerson, Seat::Person(Role::Manager)),
            Rule::Refused
        );
        assert_eq!(
            table.rule(Action::AddPerson, Seat::Person(Role::Owner)),
            Rule::Allowed
        );
        assert_eq!(table.rule(Action::RecordScan, Seat::Locked), Rule::Refused);
        assert_eq!(table.rule(Action::RecordScan, Seat::Kiosk), Rule::Refused);
        assert_eq!(table.rule(Action::CheckIn, Seat::Kiosk), Rule::Allowed);
        assert_eq!(
            table.rule(Action::SetKiosk, Seat::Kiosk),
            Rule::WithApproval
        );
        assert_eq!(table.rule(Action::Figures, Seat::Kiosk), Rule::Refused);
        assert_eq!(table.rule(Action::SignIn, Seat::Locked), Rule::Allowed);
        // A window reading a till another copy owns shows its queue, not a year of
        // writes (the History is a manager's, as its export).
        assert_eq!(table.rule(Action::Queue, Seat::ReadingOnly), Rule::Allowed);
        assert_eq!(
            table.rule(Action::History, Seat::ReadingOnly),
            Rule::Refused
        );
    }

    #[test]
    fn the_owner_changes_a_cashiers_or_a_managers_line_and_nothing_fixed() {
        let mut table = RoleTable::default();
        table
            .change(Action::IssueGiftCard, Role::Cashier, Rule::Allowed)
            .unwrap();
        assert_eq!(
            table.rule(Action::IssueGiftCard, Seat::Person(Role::Cashier)),
            Rule::Allowed
        );
        assert_eq!(
            table.change(Action::AddPerson, Role::Manager, Rule::Allowed),
            Err(RuleError::Fixed {
                action: Action::AddPerson
            })
        );
        assert_eq!(
            table.change(Action::Figures, Role::Owner, Rule::Refused),
            Err(RuleError::OwnersColumn)
        );
        table
            .change(Action::IssueGiftCard, Role::Cashier, Rule::WithApproval)
            .unwrap();
        assert_eq!(table.changes().count(), 0, "back to the default");
    }
}
