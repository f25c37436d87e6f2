//! JSON request bodies and their validation.
//!
//! Bodies are read by hand, never by axum's `Json` extractor, so that every way a
//! body can be wrong answers 422 validation_failed with one item per field: a
//! content type other than `application/json` (param `Content-Type`, code
//! `unsupported_content_type`), JSON that does not parse (param `body`, code
//! `invalid_json`), a body that is not an object (`body`, `invalid_type`), and per
//! field `required`, `invalid_type`, `invalid_value`, `too_long`, `out_of_range`.
//! Unknown fields are ignored (v1 only ever adds fields).
//!
//! Numbers are read from their JSON text ([`super::number`]), never through the
//! `f64` serde_json gives them: a [`JsonObject`] keeps its text beside its members.

use std::collections::BTreeMap;
use std::ops::Deref;

use axum::body::Bytes;
use axum::http::{HeaderMap, header};
use rust_decimal::Decimal;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::number::{self, Inexact};
use crate::error::{ApiError, FieldError};

/// Largest body read, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

fn field_error(param: &str, code: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        param: param.to_owned(),
        code,
        message: message.into(),
    }
}

/// Whether the request says its body is JSON.
pub fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let mime = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
}

/// A JSON object sent as a body: its members, and its text, from which numbers are
/// read exactly. It derefs to its members.
#[derive(Debug, Clone)]
pub struct JsonObject {
    members: Map<String, Value>,
    text: Box<RawValue>,
}

/// Why a body is not a JSON object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotAnObject {
    /// Not JSON (or not UTF-8); the parser's explanation.
    InvalidJson(String),
    /// JSON, but not an object.
    NotAnObject,
}

impl JsonObject {
    /// The empty object `{}`.
    pub fn empty() -> JsonObject {
        JsonObject {
            members: Map::new(),
            text: RawValue::from_string("{}".into()).expect("{} is JSON"),
        }
    }

    /// Reads a body that must be one JSON object.
    pub fn parse(bytes: &[u8]) -> Result<JsonObject, NotAnObject> {
        let text = std::str::from_utf8(bytes)
            .map_err(|err| NotAnObject::InvalidJson(format!("not UTF-8 ({err})")))?;
        let members = match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(members)) => members,
            Ok(_) => return Err(NotAnObject::NotAnObject),
            Err(err) => return Err(NotAnObject::InvalidJson(err.to_string())),
        };
        let text = serde_json::from_str::<Box<RawValue>>(text)
            .map_err(|err| NotAnObject::InvalidJson(err.to_string()))?;
        Ok(JsonObject { members, text })
    }

    /// The object's JSON text, as sent.
    pub fn text(&self) -> &RawValue {
        &self.text
    }
}

impl Deref for JsonObject {
    type Target = Map<String, Value>;

    fn deref(&self) -> &Map<String, Value> {
        &self.members
    }
}

/// Parses a write's body into a JSON object, or refuses it.
pub fn parse_object(headers: &HeaderMap, bytes: &Bytes) -> Result<JsonObject, ApiError> {
    if !is_json(headers) {
        return Err(ApiError::validation(vec![field_error(
            "Content-Type",
            "unsupported_content_type",
            "Send the body as JSON with Content-Type: application/json.",
        )]));
    }
    JsonObject::parse(bytes).map_err(|err| {
        ApiError::validation(vec![match err {
            NotAnObject::NotAnObject => {
                field_error("body", "invalid_type", "The body must be a JSON object.")
            }
            NotAnObject::InvalidJson(why) => field_error(
                "body",
                "invalid_json",
                format!("The body is not valid JSON: {why}."),
            ),
        }])
    })
}

/// Canonical JSON text of a body: object keys sorted at every depth (a repeated key
/// keeps its last value, as parsing does), strings re-escaped one way, and numbers
/// written as their exact value (`10`, `10.0` and `1e1` are one number;
/// `10.000000000000000001` is another, which `f64` made equal to `10`).
pub fn canonical_text(raw: &RawValue) -> String {
    fn write(raw: &RawValue, out: &mut String) {
        let text = raw.get().trim();
        match text.as_bytes().first() {
            Some(b'{') => {
                let members: BTreeMap<String, &RawValue> =
                    serde_json::from_str(text).unwrap_or_default();
                out.push('{');
                for (i, (key, value)) in members.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(key).to_string());
                    out.push(':');
                    write(value, out);
                }
                out.push('}');
            }
            Some(b'[') => {
                let items: Vec<&RawValue> = serde_json::from_str(text).unwrap_or_default();
                out.push('[');
                for (i, item) in items.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            Some(b'"') => {
                let string: String = serde_json::from_str(text).unwrap_or_default();
                out.push_str(&Value::String(string).to_string());
            }
            _ => match number::exact(text) {
                Some(Ok(value)) => out.push_str(&value.normalize().to_string()),
                // true, false, null, and numbers beyond a Decimal, as sent.
                _ => out.push_str(text),
            },
        }
    }
    let mut out = String::new();
    write(raw, &mut out);
    out
}

/// Reads fields of a JSON object, collecting every problem before refusing.
#[derive(Debug)]
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    /// The JSON text of each member, for numbers.
    texts: BTreeMap<String, &'a RawValue>,
    prefix: String,
    errors: Vec<FieldError>,
}

impl<'a> Fields<'a> {
    /// Starts reading `body`.
    pub fn new(body: &'a JsonObject) -> Self {
        Fields::within(&body.members, &body.text, String::new())
    }

    fn within(map: &'a Map<String, Value>, text: &'a RawValue, prefix: String) -> Self {
        Fields {
            map,
            // The same text `map` was parsed from: a repeated member keeps its last
            // value in both.
            texts: serde_json::from_str(text.get()).unwrap_or_default(),
            prefix,
            errors: Vec::new(),
        }
    }

    /// The exact value of a number member, from its text.
    fn number(&self, field: &str) -> Option<Result<Decimal, Inexact>> {
        number::exact(self.texts.get(field)?.get())
    }

    fn name(&self, field: &str) -> String {
        format!("{}{field}", self.prefix)
    }

    fn present(&self, field: &str) -> Option<&'a Value> {
        self.map.get(field).filter(|v| !v.is_null())
    }

    /// Records a problem with a field.
    pub fn refuse(&mut self, field: &str, code: &'static str, message: impl Into<String>) {
        let name = self.name(field);
        self.errors.push(field_error(&name, code, message));
    }

    fn missing(&mut self, field: &str) {
        self.refuse(field, "required", "This field is required.");
    }

    /// A string field (trimmed, not empty, at most `max` characters).
    pub fn string(&mut self, field: &str, required: bool, max: usize) -> Option<String> {
        match self.present(field) {
            None => {
                if required {
                    self.missing(field);
                }
                None
            }
            Some(Value::String(s)) => {
                let s = s.trim();
                if s.is_empty() {
                    if required {
                        self.refuse(field, "required", "This field must not be empty.");
                    }
                    None
                } else if s.chars().count() > max {
                    self.refuse(field, "too_long", format!("At most {max} characters."));
                    None
                } else {
                    Some(s.to_owned())
                }
            }
            Some(_) => {
                self.refuse(field, "invalid_type", "Expected a string.");
                None
            }
        }
    }

    /// A string that must be one of `allowed`.
    pub fn choice(&mut self, field: &str, required: bool, allowed: &[&str]) -> Option<String> {
        let value = self.string(field, required, 64)?;
        if allowed.contains(&value.as_str()) {
            Some(value)
        } else {
            self.refuse(
                field,
                "invalid_value",
                format!("One of: {}.", allowed.join(", ")),
            );
            None
        }
    }

    /// An email address (a plausible one: local part, `@`, a domain with a dot).
    pub fn email(&mut self, field: &str, required: bool) -> Option<String> {
        let value = self.string(field, required, 254)?;
        let plausible = match value.split_once('@') {
            Some((local, domain)) => {
                !local.is_empty()
                    && domain.contains('.')
                    && !domain.starts_with('.')
                    && !domain.ends_with('.')
                    && !value.chars().any(char::is_whitespace)
                    && !domain.contains('@')
            }
            None => false,
        };
        if plausible {
            Some(value)
        } else {
            self.refuse(field, "invalid_value", "Expected an email address.");
            None
        }
    }

    /// A boolean field.
    pub fn boolean(&mut self, field: &str) -> Option<bool> {
        match self.present(field) {
            None => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(_) => {
                self.refuse(field, "invalid_type", "Expected true or false.");
                None
            }
        }
    }

    /// An integer field: a JSON number whose exact value is whole (`100`, and also
    /// `1e2` and `100.0`, as JSON Schema's `integer` has it) and fits an `i64`.
    pub fn integer(&mut self, field: &str, required: bool) -> Option<i64> {
        match self.present(field) {
            None => {
                if required {
                    self.missing(field);
                }
                None
            }
            Some(Value::Number(_)) => match self.number(field) {
                Some(Ok(value)) if value.fract().is_zero() => match i64::try_from(value) {
                    Ok(i) => Some(i),
                    Err(_) => {
                        self.refuse(field, "out_of_range", "The number is out of range.");
                        None
                    }
                },
                Some(Err(Inexact::TooLarge)) => {
                    self.refuse(field, "out_of_range", "The number is out of range.");
                    None
                }
                _ => {
                    self.refuse(field, "invalid_type", "Expected a whole number.");
                    None
                }
            },
            Some(_) => {
                self.refuse(field, "invalid_type", "Expected a number.");
                None
            }
        }
    }

    /// A decimal number field, read exactly from its JSON text.
    pub fn decimal(&mut self, field: &str, required: bool) -> Option<Decimal> {
        match self.present(field) {
            None => {
                if required {
                    self.missing(field);
                }
                None
            }
            Some(Value::Number(_)) => match self.number(field) {
                Some(Ok(value)) => Some(value.normalize()),
                Some(Err(Inexact::TooLarge)) => {
                    self.refuse(field, "out_of_range", "The number is out of range.");
                    None
                }
                Some(Err(Inexact::TooPrecise)) | None => {
                    self.refuse(
                        field,
                        "invalid_value",
                        "The number has more decimals than can be read exactly (28).",
                    );
                    None
                }
            },
            Some(_) => {
                self.refuse(field, "invalid_type", "Expected a number.");
                None
            }
        }
    }

    /// Whether the field is present and not null.
    pub fn has(&self, field: &str) -> bool {
        self.present(field).is_some()
    }

    /// Reads a nested object with `read`; problems are named `field.inner`.
    pub fn object<T>(
        &mut self,
        field: &str,
        required: bool,
        read: impl FnOnce(&mut Fields<'_>) -> T,
    ) -> Option<T> {
        match self.present(field) {
            None => {
                if required {
                    self.missing(field);
                }
                None
            }
            Some(Value::Object(inner)) => {
                let Some(&text) = self.texts.get(field) else {
                    self.refuse(field, "invalid_type", "Expected an object.");
                    return None;
                };
                let mut nested = Fields::within(inner, text, format!("{}{field}.", self.prefix));
                let out = read(&mut nested);
                self.errors.extend(nested.errors);
                Some(out)
            }
            Some(_) => {
                self.refuse(field, "invalid_type", "Expected an object.");
                None
            }
        }
    }

    /// Refuses with every problem found, or passes.
    pub fn finish(self) -> Result<(), ApiError> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(ApiError::validation(self.errors))
        }
    }
}
