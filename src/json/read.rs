//! Reading a form from JSON text, a JSON value or a query string, each refusal
//! located (the JSON path of the fault, `moves[2]`, the line and column where the
//! text stops being JSON, or the query's parameter).

use serde::de::DeserializeOwned;

use super::problem::FormError;

/// Reads a form from a URL query string (`variant=tablut&depth=4`), the refusal
/// naming the parameter at fault: an unknown one, or one whose value is not of its
/// type.
pub fn from_query<T: DeserializeOwned>(query: &[u8]) -> Result<T, FormError> {
    let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query));
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let message = e.into_inner().to_string();
        match (path != "." && !path.is_empty()).then_some(path) {
            Some(field) => {
                let given = form_urlencoded::parse(query)
                    .find(|(key, _)| *key == *field)
                    .map(|(_, value)| format!(" (got {value:?})"))
                    .unwrap_or_default();
                FormError::MalformedQuery {
                    detail: format!("invalid query string: `{field}`: {message}{given}"),
                    field: Some(field),
                }
            }
            None => FormError::MalformedQuery {
                field: field_in_message(&message),
                detail: format!("invalid query string: {message}"),
            },
        }
    })
}

/// Deserializes `bytes` as `T`, locating the fault.
pub fn from_json_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, FormError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(FormError::MalformedJson {
            detail: "the request body is empty (expected a JSON object)".to_owned(),
            path: None,
        });
    }
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        // serde reads a struct from an array of its fields' values too; a body is
        // never meant that way, so an array gets the plain refusal.
        return Err(FormError::MalformedJson {
            detail: format!("the body is a JSON array; {}", expecting::<T>()),
            path: Some("body".to_owned()),
        });
    }
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if matches!(
            inner.classify(),
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof
        ) {
            // Not JSON at all: where in the text it stops being JSON.
            return FormError::MalformedBody {
                detail: format!("the body is not valid JSON: {inner}"),
                line: inner.line(),
                column: inner.column(),
            };
        }
        let path = (path != "." && !path.is_empty()).then_some(path);
        let detail = match &path {
            Some(p) => format!("{p}: {}", in_json_words(&inner.to_string())),
            None => format!("invalid JSON body: {}", in_json_words(&inner.to_string())),
        };
        // A missing field is reported at its parent; name it from serde's message.
        // Anything else at the root is the body's shape (an array for an object...).
        let path = path
            .or_else(|| field_in_message(&inner.to_string()))
            .or_else(|| Some("body".to_owned()));
        FormError::MalformedJson { detail, path }
    })
}

/// What `T` expects, as serde says it (`expected a JSON object with ...`), with a
/// Rust type name said as what it is in JSON.
fn expecting<T: DeserializeOwned>() -> String {
    let message = match serde_json::from_value::<T>(serde_json::Value::Null) {
        Err(e) => e.to_string(),
        Ok(_) => String::new(),
    };
    match in_json_words(&message).split_once("expected ") {
        Some((_, what)) => format!("expected {what}"),
        None => "expected a JSON object".to_owned(),
    }
}

/// What a JSON reader's message says in Rust's words (`expected u64`, `expected
/// struct MovesRequest`, `floating point`), said in JSON's.
fn in_json_words(message: &str) -> String {
    const WORDS: [(&str, &str); 16] = [
        ("u8", "a whole number of 0 or more"),
        ("u16", "a whole number of 0 or more"),
        ("u32", "a whole number of 0 or more"),
        ("u64", "a whole number of 0 or more"),
        ("usize", "a whole number of 0 or more"),
        ("i8", "a whole number"),
        ("i16", "a whole number"),
        ("i32", "a whole number"),
        ("i64", "a whole number"),
        ("isize", "a whole number"),
        ("f32", "a number"),
        ("f64", "a number"),
        ("a sequence", "a JSON array"),
        ("a map", "a JSON object"),
        ("unit", "null"),
        ("a borrowed string", "a string"),
    ];
    let mut out = message.replace("floating point `", "number `");
    if let Some(at) = out.find("expected struct ") {
        let rest = &out[at + "expected struct ".len()..];
        let end = rest
            .find(|c: char| !c.is_alphanumeric() && c != '_')
            .unwrap_or(rest.len());
        out = format!("{}expected a JSON object{}", &out[..at], &rest[end..]);
    }
    for (rust, json) in WORDS {
        let from = format!("expected {rust}");
        if let Some(at) = out.find(&from) {
            let end = at + from.len();
            let whole_word = out[end..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric() && c != '_');
            if whole_word {
                out = format!("{}expected {json}{}", &out[..at], &out[end..]);
            }
        }
    }
    out
}

/// Deserializes a JSON value (a batch item) as `T`, locating the fault as
/// [`from_json_bytes`] does.
pub fn from_json_value<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, FormError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let path = (path != "." && !path.is_empty()).then_some(path);
        let detail = match &path {
            Some(p) => format!("{p}: {}", in_json_words(&inner.to_string())),
            None => in_json_words(&inner.to_string()),
        };
        let path = path.or_else(|| field_in_message(&inner.to_string()));
        FormError::MalformedJson { detail, path }
    })
}

/// `missing field `variant`` → `variant`; `unknown field `x`` → `x`.
pub fn field_in_message(msg: &str) -> Option<String> {
    for prefix in ["missing field `", "unknown field `"] {
        if let Some(rest) = msg.strip_prefix(prefix) {
            return rest.split('`').next().map(str::to_owned);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::game::{MovesRequest, PlayRequest};

    #[test]
    fn body_errors_name_the_field() {
        let e = from_json_bytes::<MovesRequest>(br#"{"variant":"tablut","moves":["a1-a2",5]}"#)
            .unwrap_err();
        let p = e.problem();
        assert_eq!(p.status, 400);
        assert_eq!((p.field.as_deref(), p.index), (Some("moves"), Some(1)));
        let e = from_json_bytes::<PlayRequest>(br#"{"variant":"tablut"}"#).unwrap_err();
        assert_eq!(e.problem().field.as_deref(), Some("move"));
        let e =
            from_json_bytes::<MovesRequest>(br#"{"variant":"tablut","postion":"x"}"#).unwrap_err();
        assert_eq!(e.problem().field.as_deref(), Some("postion"));
        let e = from_json_bytes::<MovesRequest>(b"{").unwrap_err();
        assert_eq!(e.problem().status, 400);
        assert_eq!(e.problem().field.as_deref(), Some("body"));
        let e = from_json_bytes::<MovesRequest>(b"{\n  \"variant\": tablut}").unwrap_err();
        let p = e.problem();
        assert_eq!(
            (p.field.as_deref(), p.line, p.column),
            (Some("body"), Some(2), Some(15)),
            "{p:?}"
        );
        let e = from_json_bytes::<MovesRequest>(b"[1]").unwrap_err();
        assert_eq!(e.problem().field.as_deref(), Some("body"));
        let e = from_json_bytes::<crate::json::analyze::BatchRequest>(b" [{}]").unwrap_err();
        let p = e.problem();
        assert!(p.detail.contains("object with `items`"), "{p:?}");
        assert_eq!(p.field.as_deref(), Some("body"));
    }

    #[test]
    fn refusals_say_json_words_not_rust_names() {
        let detail = |body: &[u8]| {
            from_json_bytes::<MovesRequest>(body)
                .unwrap_err()
                .to_string()
        };
        let null = detail(b"null");
        assert!(null.contains("expected a JSON object"), "{null}");
        assert!(
            !null.contains("struct") && !null.contains("MovesRequest"),
            "{null}"
        );
        let d = from_json_bytes::<crate::json::analyze::AnalyzeRequest>(
            br#"{"variant":"brandubh","time_ms":-5}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            d.starts_with(
                "time_ms: invalid value: integer `-5`, expected a whole number of 0 or more"
            ),
            "{d}"
        );
        let d = from_json_bytes::<crate::json::analyze::AnalyzeRequest>(
            br#"{"variant":"brandubh","multipv":1.5}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            d.contains("number `1.5`, expected a whole number of 0 or more"),
            "{d}"
        );
        assert_eq!(in_json_words("expected u64x"), "expected u64x");
        assert_eq!(
            in_json_words("invalid type: string, expected struct Foo at line 1"),
            "invalid type: string, expected a JSON object at line 1"
        );
    }
}
