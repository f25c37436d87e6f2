//! Customers: the local cache, its sync, passes and enrolments.

use super::*;

for_the_ui! {
/// A person enrolling a customer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Enrolment {
    /// The pass (the till's pass setting when None).
    pub pass_id: Option<PassId>,
    /// Name.
    pub name: String,
    /// Email.
    pub email: String,
    /// The wallet the card goes to: Apple's or Google's.
    pub wallet: Wallet,
    /// Send the welcome email.
    pub send_welcome: bool,
}
}

/// What became of an enrolment ([`Counter::enrol`]): the customer enrolled, or, when
/// the email is already enrolled on the pass, the customer the service named (read from
/// the service now; from the cache when it cannot be read; only their id when neither
/// knows them).
pub type EnrolOutcome = Outcome<CustomerSummary, CustomerSummary>;

/// The ids a `customer_exists` detail may hold: the whole detail when it is an id, else
/// each word of it that mixes letters and digits, last first (a sentence names the
/// customer at its end: "... as customer cus_8DpP...").
fn named_ids(detail: &str) -> Vec<CustomerId> {
    let detail = detail.trim();
    if crate::scanner::plausible_id(detail) {
        return vec![CustomerId::new(detail)];
    }
    detail
        .split_whitespace()
        .rev()
        .map(|word| {
            word.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        })
        .filter(|word| {
            crate::scanner::plausible_id(word)
                && word.chars().any(|c| c.is_ascii_digit())
                && word.chars().any(|c| c.is_ascii_alphabetic())
        })
        .map(CustomerId::new)
        .collect()
}

impl From<&CustomerView> for CustomerSummary {
    fn from(c: &CustomerView) -> Self {
        Self {
            id: c.id.clone(),
            name: c.name.clone(),
            email: c.email.clone(),
            phone: c.phone.clone(),
            card_ids: c.cards.iter().map(|k| k.id.clone()).collect(),
        }
    }
}

impl Counter {
    /// The business's active passes (the first page, up to 100: the ones to enrol on).
    pub async fn passes(&self) -> Result<Vec<PassView>, Error> {
        self.staff()?;
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let params = loyalty_api::ListParams::new().limit(100);
        let read = client.passes().list(&params).await?;
        Ok(read
            .data
            .data
            .iter()
            .filter(|p| p.status == loyalty_api::PassStatus::Active)
            .map(|p| self.remember_pass(PassView::from(p)))
            .collect())
    }

    /// Keeps a pass read from the service (for this run, and in the cache for the
    /// next, and for offline), and gives it back.
    fn remember_pass(&self, pass: PassView) -> PassView {
        if let Err(error) = cache::put_pass(&self.core.db(), &pass, self.core.now()) {
            tracing::warn!(%error, "a pass could not be cached");
        }
        let mut known = self.passes.lock().unwrap_or_else(|p| p.into_inner());
        known.insert(pass.id.clone(), pass.clone());
        pass
    }

    /// A pass this till has read, if any: in this run, else from the cache.
    pub fn known_pass(&self, id: &PassId) -> Option<PassView> {
        let read = self.read_this_run(id);
        read.or_else(|| cache::pass(&self.core.db(), id).ok().flatten())
    }

    fn read_this_run(&self, id: &PassId) -> Option<PassView> {
        let known = self.passes.lock().unwrap_or_else(|p| p.into_inner());
        known.get(id).cloned()
    }

    /// Reads a pass this run has not read yet (a cached one is read again once per
    /// run: a pass may have changed). Best effort: a card shows without its pass (and
    /// both kinds of action) when it cannot be read.
    pub(super) async fn learn_pass(&self, id: &PassId) {
        if self.read_this_run(id).is_none()
            && let Err(error) = self.read_pass(id).await
        {
            tracing::info!(%error, "the card's pass was not read");
        }
    }

    /// A pass (its goal and reward), read from the service now.
    pub async fn pass(&self, id: &PassId) -> Result<PassView, Error> {
        self.staff()?;
        self.read_pass(id).await
    }

    /// [`Counter::pass`], for the kiosk's check-in too.
    async fn read_pass(&self, id: &PassId) -> Result<PassView, Error> {
        input::pass(id)?;
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let read = client.passes().get(id).await?;
        Ok(self.remember_pass(PassView::from(&read.data)))
    }

    /// Enrols a customer.
    pub async fn enrol(&self, enrolment: Enrolment) -> Result<EnrolOutcome, Error> {
        self.staff()?;
        let pass_id = match enrolment.pass_id {
            Some(pass) => pass,
            None => settings::load(&self.core.db())?
                .pass_id
                .ok_or_else(|| Error::NotAllowed(NotAllowed::NoPassChosen))?,
        };
        input::pass(&pass_id)?;
        let wallet = enrolment
            .wallet
            .known()
            .ok_or(input::InputError::UnknownWallet)?;
        // Another business's pass (or none at all) is refused before anything is
        // stored, while the service can say so; offline, the service decides later.
        if self.known_pass(&pass_id).is_none() && self.may_ask_now() {
            match self.read_pass(&pass_id).await {
                Err(Error::Api(err)) if err.code() == Some(&loyalty_api::ErrorCode::NotFound) => {
                    return Err(NotAllowed::NotOfThisBusiness.into());
                }
                Ok(_) | Err(_) => {}
            }
        }
        let write = Write::Enrol {
            pass_id,
            name: input::text(TextField::Name, &enrolment.name, 200, true)?.unwrap_or_default(),
            email: input::email(&enrolment.email)?,
            wallet,
            send_welcome: enrolment.send_welcome,
        };
        let (item, _) = self.submit(write, None).await?;
        let outcome = Outcome::of(
            &item,
            |answer| match answer {
                Answer::Customer(customer) => Some(CustomerSummary::from(&customer)),
                _ => None,
            },
            |refusal| {
                (refusal.code == loyalty_api::ErrorCode::CustomerExists).then(|| refusal.clone())
            },
        )?;
        outcome
            .settle_known(|item, refusal| async move {
                let named = named_ids(refusal.detail.as_deref().unwrap_or_default());
                Ok(match self.existing_customer(&named).await? {
                    Some(customer) => Outcome::Known {
                        item,
                        known: customer,
                    },
                    None => Outcome::Refused { item, refusal },
                })
            })
            .await
    }

    /// The customer the service named as already enrolled (`named`: the ids its detail
    /// may hold), read now into the cache, else as the cache has them; None when
    /// neither knows any of them.
    async fn existing_customer(
        &self,
        named: &[CustomerId],
    ) -> Result<Option<CustomerSummary>, Error> {
        if let Some(client) = self.core.client() {
            for id in named {
                let asked = self.core.now();
                match client.customers().get(id).await {
                    Ok(read) => {
                        let customer = CustomerView::from(&read.data);
                        let mut db = self.core.db();
                        let tx = db.transaction()?;
                        cache::put_customer(&tx, &customer, asked)?;
                        tx.commit()?;
                        return Ok(Some(CustomerSummary::from(&customer)));
                    }
                    Err(error) if error.code() == Some(&loyalty_api::ErrorCode::NotFound) => {}
                    Err(error) => {
                        tracing::info!(%error, "the existing customer was not read");
                        break;
                    }
                }
            }
        }
        for id in named {
            if let Some(known) = cache::customer(&self.core.db(), id)? {
                return Ok(Some(known));
            }
        }
        Ok(None)
    }

    /// Customers found by the start of their name's or email's words, or by digits of their
    /// phone number.
    pub fn search(&self, typed: &str, limit: u32) -> Result<Vec<CustomerSummary>, Error> {
        self.staff()?;
        let Some(typed) = input::text(TextField::Search, typed, 200, false)? else {
            return Ok(Vec::new());
        };
        Ok(cache::search(&self.core.reader(), &typed, limit)?)
    }

    /// A full sync of customers and cards (resuming an interrupted one); `max_pages`
    /// stops after that many pages, and the next call goes on.
    ///
    /// The walk borrows nothing of the counter, so a shell can let go of it while the
    /// walk runs: scans, payments, a disconnect or a key change never wait for a sync,
    /// and a key change stops it between pages.
    pub fn sync(
        &self,
        max_pages: Option<u32>,
    ) -> impl Future<Output = Result<SyncReport, Error>> + Send + 'static {
        let allowed = self.staff();
        let core = self.core.clone();
        async move {
            allowed?;
            let sender = core.sender().ok_or(Error::NotConnected)?;
            sync::full(&core, &sender, max_pages).await
        }
    }

    /// The customers enrolled since the last sync (borrowing nothing, as [`Counter::sync`]).
    pub fn top_up(&self) -> impl Future<Output = Result<SyncReport, Error>> + Send + 'static {
        let allowed = self.staff();
        let core = self.core.clone();
        async move {
            allowed?;
            let sender = core.sender().ok_or(Error::NotConnected)?;
            sync::top_up(&core, &sender).await
        }
    }

    /// Stores a customer the shell already has (for example from another screen).
    pub fn cache_customer(&self, customer: &CustomerView) -> Result<(), Error> {
        self.staff()?;
        let mut db = self.core.db();
        let tx = db.transaction()?;
        cache::put_customer(&tx, customer, self.core.now())?;
        tx.commit()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_customer_a_refusal_names_is_found_in_its_detail_whatever_the_detail_says() {
        let ids = |detail: &str| -> Vec<String> {
            named_ids(detail)
                .iter()
                .map(|id| id.as_str().to_owned())
                .collect()
        };
        assert_eq!(
            ids("cus_8DpPgPggcqtOPiBhdCPaiXHq"),
            ["cus_8DpPgPggcqtOPiBhdCPaiXHq"]
        );
        assert_eq!(
            ids(
                "This email is already enrolled on this pass as customer cus_8DpPgPggcqtOPiBhdCPaiXHq."
            ),
            ["cus_8DpPgPggcqtOPiBhdCPaiXHq"]
        );
        assert_eq!(ids("Already enrolled: 7f3K2a9."), ["7f3K2a9"]);
        assert!(ids("").is_empty());
        assert!(ids("This email is already enrolled.").is_empty());
    }
}
