//! JSON request bodies and their validation.
//!
//! Bodies are read by hand, never by axum's `Json` extractor, so that every way a
//! body can be wrong answers 422 validation_failed with one item per field: a
//! content type other than `application/json` (param `Content-Type`, code
//! `unsupported_content_type`), JSON that does not parse (param `body`, code
//! `invalid_json`), a body that is not an object (`body`, `invalid_type`), and per
//! field `required`, `invalid_type`, `invalid_value`, `too_long`, `out_of_range`.
//! Unknown fields are ignored (v1 only ever adds fields).

use axum::body::Bytes;
use axum::http::{HeaderMap, header};
use rust_decimal::Decimal;
use serde_json::{Map, Value};

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

/// Parses a write's body into a JSON object, or refuses it.
pub fn parse_object(headers: &HeaderMap, bytes: &Bytes) -> Result<Map<String, Value>, ApiError> {
    if !is_json(headers) {
        return Err(ApiError::validation(vec![field_error(
            "Content-Type",
            "unsupported_content_type",
            "Send the body as JSON with Content-Type: application/json.",
        )]));
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::validation(vec![field_error(
            "body",
            "invalid_type",
            "The body must be a JSON object.",
        )])),
        Err(err) => Err(ApiError::validation(vec![field_error(
            "body",
            "invalid_json",
            format!("The body is not valid JSON: {err}."),
        )])),
    }
}

/// Reads fields of a JSON object, collecting every problem before refusing.
#[derive(Debug)]
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    prefix: String,
    errors: Vec<FieldError>,
}

impl<'a> Fields<'a> {
    /// Starts reading `map`.
    pub fn new(map: &'a Map<String, Value>) -> Self {
        Fields {
            map,
            prefix: String::new(),
            errors: Vec::new(),
        }
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

    /// An integer field.
    pub fn integer(&mut self, field: &str, required: bool) -> Option<i64> {
        match self.present(field) {
            None => {
                if required {
                    self.missing(field);
                }
                None
            }
            Some(Value::Number(n)) => match n.as_i64() {
                Some(i) => Some(i),
                None => {
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
            Some(Value::Number(n)) => {
                let text = n.to_string();
                match text
                    .parse::<Decimal>()
                    .or_else(|_| Decimal::from_scientific(&text))
                {
                    Ok(d) => Some(d.normalize()),
                    Err(_) => {
                        self.refuse(field, "invalid_value", "The number is out of range.");
                        None
                    }
                }
            }
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
                let mut nested = Fields {
                    map: inner,
                    prefix: format!("{}{field}.", self.prefix),
                    errors: Vec::new(),
                };
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
