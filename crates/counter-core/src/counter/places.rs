//! Where this till stands: the pass new customers join and the location it serves,
//! chosen by the manager among the business's own.

use loyalty_api::{ListParams, LocationId};

use super::*;

for_the_ui! {
/// A pass or a location to choose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// In use (an inactive location can still be chosen, and says so).
    pub active: bool,
}
}

for_the_ui! {
/// The business's passes and locations, and the ones this till uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TillPlaces {
    /// The active passes.
    pub passes: Vec<Place>,
    /// The locations, inactive ones included.
    pub locations: Vec<Place>,
    /// The pass new customers join at this till.
    pub pass_id: Option<String>,
    /// The location this till serves.
    pub location_id: Option<String>,
}
}

impl Counter {
    /// The business's passes and locations (read now), and this till's choice.
    pub async fn till_places(&self) -> Result<TillPlaces, Error> {
        self.staff()?;
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let passes = self.passes().await?;
        let locations = client
            .locations()
            .list(&ListParams::new().limit(100))
            .await?
            .data
            .data;
        let settings = self.settings()?;
        Ok(TillPlaces {
            passes: passes
                .iter()
                .map(|p| Place {
                    id: p.id.as_str().to_owned(),
                    name: p.name.clone(),
                    active: true,
                })
                .collect(),
            locations: locations
                .iter()
                .map(|l| Place {
                    id: l.id.as_str().to_owned(),
                    name: l.name.clone(),
                    active: l.active,
                })
                .collect(),
            pass_id: settings.pass_id.map(|p| p.as_str().to_owned()),
            location_id: settings.location_id.map(|l| l.as_str().to_owned()),
        })
    }

    /// Keeps the pass and location this till uses (a manager's); each must be one of
    /// the business's, read now. None leaves the choice to each screen.
    pub async fn set_till_places(
        &self,
        pass_id: Option<&str>,
        location_id: Option<&str>,
    ) -> Result<(), Error> {
        self.staff()?;
        self.permit(Action::SetTillPlaces)?;
        let places = self.till_places().await?;
        let pick = |given: Option<&str>, among: &[Place]| -> Result<Option<String>, Error> {
            match given.map(str::trim).filter(|g| !g.is_empty()) {
                None => Ok(None),
                Some(id) if among.iter().any(|p| p.id == id) => Ok(Some(id.to_owned())),
                Some(_) => Err(NotAllowed::NotOfThisBusiness.into()),
            }
        };
        let pass = pick(pass_id, &places.passes)?;
        let location = pick(location_id, &places.locations)?;
        // Its name too, for the receipts (printed offline as well).
        let location_name = location.as_ref().and_then(|id| {
            places
                .locations
                .iter()
                .find(|p| p.id == *id)
                .map(|p| p.name.clone())
        });
        self.change_settings(|saved| {
            saved.pass_id = pass.map(PassId::new);
            saved.location_id = location.map(LocationId::new);
            saved.location_name = location_name;
        })
    }
}
