//! Small macros that keep the models free of repeated serde code.

/// Declares an id newtype: a string the API issued, kept apart from other kinds of id.
macro_rules! id_type {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "ts", derive(ts_rs::TS))]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// Wraps an id the API issued (or that a person typed); it is not checked.
            pub fn new(id: impl Into<String>) -> Self {
                Self(id.into())
            }

            /// The id's text, as the API uses it in paths and bodies.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<String> for $name {
            fn from(id: String) -> Self {
                Self(id)
            }
        }

        impl From<&str> for $name {
            fn from(id: &str) -> Self {
                Self(id.to_owned())
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }
    };
}

/// Declares a set of values of the API: a closed, `Copy` enum the compiler checks,
/// with `Other` for a value the service adds later (v1 only ever adds values, and a new
/// one must not break decoding). The same type is what the till keeps and what its
/// screens receive (TypeScript: the values' texts and `"other"`), so each set is written
/// once. `alias` texts read as the variant too (values kept by earlier versions).
///
/// `Name else Unknown { ... }` declares a set whose unknown values are kept as sent, in
/// `Unknown(String)`, for a value that must be shown as it came (a problem's code).
macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $text:literal $(| alias $alias:literal)*, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[cfg_attr(feature = "ts", derive(ts_rs::TS))]
        pub enum $name {
            $( $(#[$vmeta])* #[cfg_attr(feature = "ts", ts(rename = $text))] $variant, )+
            /// A value this version does not know.
            #[cfg_attr(feature = "ts", ts(rename = "other"))]
            Other,
        }

        impl $name {
            /// The value's text on the wire (`"other"` for a value this version does
            /// not know).
            pub fn as_str(&self) -> &'static str {
                match self {
                    $( Self::$variant => $text, )+
                    Self::Other => "other",
                }
            }

            /// Reads a wire value; unknown values become `Other`.
            pub fn parse(text: &str) -> Self {
                match text {
                    $( $text $(| $alias)* => Self::$variant, )+
                    _ => Self::Other,
                }
            }

            /// The value, when this version knows it (it can then be sent).
            pub fn known(self) -> Option<Self> {
                (self != Self::Other).then_some(self)
            }
        }

        $crate::macros::string_enum!(@text $name);
    };
    (
        $(#[$meta:meta])*
        $name:ident else $fallback:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value this version of the client does not know, kept as sent.
            $fallback(String),
        }

        impl $name {
            /// The value's text on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $( Self::$variant => $text, )+
                    Self::$fallback(text) => text,
                }
            }

            /// Reads a wire value; unknown values become `Other`.
            pub fn parse(text: &str) -> Self {
                match text {
                    $( $text => Self::$variant, )+
                    other => Self::$fallback(other.to_owned()),
                }
            }
        }

        $crate::macros::string_enum!(@text $name);
    };
    (@text $name:ident) => {
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> Self {
                Self::parse(text)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                // Read in place: a known value allocates nothing.
                struct Text;
                impl serde::de::Visitor<'_> for Text {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("a string")
                    }
                    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<$name, E> {
                        Ok($name::parse(text))
                    }
                }
                deserializer.deserialize_str(Text)
            }
        }
    };
}

pub(crate) use id_type;
pub(crate) use string_enum;
