//! The door every call of the page comes through: Tauri's `ipc:` scheme, owned by the
//! app. Any script in the page can call any command with anything; here a call is
//! measured before it is decoded (too large, nested too deep), then checked against the
//! command's own list of arguments (none unknown), then against the core's role table
//! for who is at the till ([`counter_core::Counter::admit`]), then handed to Tauri, which decodes
//! each argument and runs the command. Whatever is refused, here or by Tauri's decoding,
//! is answered in the one shape of every refusal: a [`CommandError`], here with the
//! code `invalid_arguments` and what was wrong, never a bare string.
//!
//! Tauri's own handler of the scheme does the same hand-over without these checks; the
//! protocol between the page's `invoke` and this door (headers, answers) is Tauri's.

use counter_core::{ArgumentsError, ErrorCode};
use tauri::http::{HeaderValue, Method, Request, Response, StatusCode, header};
use tauri::ipc::{CallbackFn, InvokeBody, InvokeError, InvokeResponse, InvokeResponseBody};
use tauri::webview::InvokeRequest;
use tauri::{Manager, Runtime, UriSchemeContext, UriSchemeResponder};

use crate::CommandError;
use crate::command_table::COMMANDS;
use crate::till::Till;

/// The largest call the door takes. The largest a page sends is a message to card
/// holders: a title and a body of a few hundred characters.
pub const MOST_BYTES: usize = 64 * 1024;

/// The deepest a call nests. The deepest arguments (the offline policy's caps) nest 3
/// levels below the call's object.
pub const MOST_DEPTH: u32 = 8;

/// Tauri's names for the headers of a call and of its answer.
const CALLBACK: &str = "Tauri-Callback";
const ERROR: &str = "Tauri-Error";
const INVOKE_KEY: &str = "Tauri-Invoke-Key";
const RESPONSE: &str = "Tauri-Response";

/// The scheme's handler (`register_asynchronous_uri_scheme_protocol("ipc", ...)`).
pub fn answer<R: Runtime>(
    context: UriSchemeContext<'_, R>,
    request: Request<Vec<u8>>,
    responder: UriSchemeResponder,
) {
    let respond = move |mut response: Response<Vec<u8>>| {
        let headers = response.headers_mut();
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        headers.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static(RESPONSE),
        );
        responder.respond(response);
    };
    match *request.method() {
        Method::POST => {}
        Method::OPTIONS => {
            let mut preflight = Response::new(Vec::new());
            preflight.headers_mut().insert(
                header::ACCESS_CONTROL_ALLOW_HEADERS,
                HeaderValue::from_static("*"),
            );
            return respond(preflight);
        }
        _ => {
            let refused = CommandError::new(ErrorCode::IpcFailed, "only POST reaches the app");
            return respond(with_status(
                refusal(&refused),
                StatusCode::METHOD_NOT_ALLOWED,
            ));
        }
    }
    let Some(webview) = context
        .app_handle()
        .get_webview_window(context.webview_label())
    else {
        let refused = CommandError::new(ErrorCode::IpcFailed, "the call's window is gone");
        return respond(refusal(&refused));
    };
    match admit(request, context.app_handle().invoke_key()) {
        Ok(call) => {
            let app = context.app_handle().clone();
            tauri::async_runtime::spawn(async move {
                if let Err(refused) = permitted(&app, &call).await {
                    return respond(refusal(&refused));
                }
                webview.on_message(
                    call,
                    Box::new(move |_, command: String, response, _, _| {
                        respond(reply(&command, response));
                    }),
                );
            });
        }
        Err(refused) => respond(refusal(&refused)),
    }
}

/// Whether who is at the till may make this call: the core's role table decides
/// ([`counter_core::Counter::admit`]), for every command, before it runs. Tauri's own
/// plugins (the save dialog) are no action of the till's.
async fn permitted<R: Runtime>(
    app: &tauri::AppHandle<R>,
    call: &InvokeRequest,
) -> Result<(), CommandError> {
    let Some(command) = COMMANDS.iter().find(|c| c.name == call.cmd) else {
        return Ok(());
    };
    // The page's own workings (its events among them) never wait for the till.
    if command.action.open_to_anyone() {
        return Ok(());
    }
    let InvokeBody::Json(arguments) = &call.body else {
        return Err(refused(ArgumentsError::NotAnObject));
    };
    let till = app.state::<Till>();
    let session = till.session().await;
    Ok(session.counter.admit(command.action, arguments)?)
}

/// The call as Tauri takes it, or why it is refused before anything is decoded. A call
/// without the key Tauri gave the app's own page (`expected_key`) is refused here:
/// Tauri would drop it without an answer, and its caller would wait forever.
fn admit(request: Request<Vec<u8>>, expected_key: &str) -> Result<InvokeRequest, CommandError> {
    let (parts, body) = request.into_parts();
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| {
                CommandError::new(
                    ErrorCode::IpcFailed,
                    format!("the call has no {name} header"),
                )
            })
    };
    let callback = |name: &str| {
        header(name)?.parse().map(CallbackFn).map_err(|_| {
            CommandError::new(
                ErrorCode::IpcFailed,
                format!("the {name} header is not a number"),
            )
        })
    };
    let (callback, error) = (callback(CALLBACK)?, callback(ERROR)?);
    let invoke_key = header(INVOKE_KEY)?.to_owned();
    if invoke_key != expected_key {
        return Err(CommandError::new(
            ErrorCode::IpcFailed,
            "the call did not come from the app's page",
        ));
    }
    let url = header("Origin")?
        .parse()
        .map_err(|_| CommandError::new(ErrorCode::IpcFailed, "the call's Origin is not a URL"))?;
    let path = parts.uri.path();
    let command = percent_encoding::percent_decode_str(path.strip_prefix('/').unwrap_or(path))
        .decode_utf8_lossy()
        .into_owned();

    if body.len() > MOST_BYTES {
        return Err(refused(ArgumentsError::TooLarge {
            bytes: body.len() as u64,
            limit: MOST_BYTES as u64,
        }));
    }
    let json = parts
        .headers
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    let body = if json {
        check_depth(&body)?;
        let value = if body.is_empty() {
            serde_json::Value::Object(serde_json::Map::new())
        } else {
            serde_json::from_slice(&body).map_err(|_| refused(ArgumentsError::NotJson))?
        };
        InvokeBody::Json(value)
    } else {
        InvokeBody::Raw(body)
    };
    // Tauri's own plugins (the save dialog) check their own calls.
    if !command.starts_with("plugin:") {
        check_arguments(&command, &body)?;
    }
    Ok(InvokeRequest {
        cmd: command,
        callback,
        error,
        url,
        body,
        headers: parts.headers,
        invoke_key,
    })
}

/// Refuses a call that opens more objects or lists than [`MOST_DEPTH`], read from its
/// bytes before it is decoded (strings skipped).
fn check_depth(body: &[u8]) -> Result<(), CommandError> {
    let (mut depth, mut in_string, mut escaped) = (0_u32, false, false);
    for &byte in body {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') | (false, _, b'"') => in_string = !in_string,
            (false, _, b'{' | b'[') => {
                depth += 1;
                if depth > MOST_DEPTH + 1 {
                    return Err(refused(ArgumentsError::TooDeep { limit: MOST_DEPTH }));
                }
            }
            (false, _, b'}' | b']') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// Refuses a call of no command, or with arguments that are not an object, or with an
/// argument its command does not take.
fn check_arguments(command: &str, body: &InvokeBody) -> Result<(), CommandError> {
    let Some(known) = COMMANDS.iter().find(|c| c.name == command) else {
        return Err(refused(ArgumentsError::NoSuchCommand {
            command: cut(command, 64),
        }));
    };
    let InvokeBody::Json(serde_json::Value::Object(arguments)) = body else {
        return Err(refused(ArgumentsError::NotAnObject));
    };
    match arguments
        .keys()
        .find(|name| !known.arguments.contains(&name.as_str()))
    {
        Some(unknown) => Err(refused(ArgumentsError::Unknown {
            command: known.name.to_owned(),
            argument: cut(unknown, 64),
        })),
        None => Ok(()),
    }
}

/// The answer of a call Tauri handed to its command. A refusal of the app's own is a
/// [`CommandError`] already; a bare string answering one of the app's commands is
/// Tauri's own refusal of an argument it could not decode ("invalid args `item` for
/// command `retry_item`: invalid type: ..."), put in the same shape.
fn reply(command: &str, response: InvokeResponse) -> Response<Vec<u8>> {
    let (body, content_type, outcome) = match response {
        InvokeResponse::Ok(InvokeResponseBody::Json(json)) => {
            (json.into_bytes(), "application/json", "ok")
        }
        InvokeResponse::Ok(InvokeResponseBody::Raw(bytes)) => {
            (bytes, "application/octet-stream", "ok")
        }
        // Tauri's own plugins answer their errors as text, and keep them so.
        InvokeResponse::Err(InvokeError(serde_json::Value::String(text)))
            if !command.starts_with("plugin:") =>
        {
            return refusal(&undecoded(command, &text));
        }
        InvokeResponse::Err(InvokeError(error)) => (
            serde_json::to_vec(&error).unwrap_or_default(),
            "application/json",
            "error",
        ),
    };
    answered(body, content_type, outcome)
}

/// Tauri's words for an argument it could not decode, as the app's refusal.
fn undecoded(command: &str, text: &str) -> CommandError {
    let (argument, problem) = text
        .strip_prefix("invalid args `")
        .and_then(|rest| rest.split_once('`'))
        .map_or((None, text), |(argument, rest)| {
            let problem = rest.split_once(": ").map_or(rest, |(_, p)| p);
            (Some(cut(argument, 64)), problem)
        });
    refused(ArgumentsError::Invalid {
        command: cut(command, 64),
        argument,
        problem: cut(problem, 160),
    })
}

fn refused(error: ArgumentsError) -> CommandError {
    counter_core::Error::from(error).into()
}

/// A refusal as the page's `invoke` reads it: rejected with the error's JSON.
fn refusal(error: &CommandError) -> Response<Vec<u8>> {
    let body = serde_json::to_vec(error).unwrap_or_default();
    answered(body, "application/json", "error")
}

fn answered(body: Vec<u8>, content_type: &'static str, outcome: &'static str) -> Response<Vec<u8>> {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(RESPONSE, HeaderValue::from_static(outcome));
    response
}

fn with_status(mut response: Response<Vec<u8>>, status: StatusCode) -> Response<Vec<u8>> {
    *response.status_mut() = status;
    response
}

/// At most `most` characters of a text a caller sent, control characters dropped.
fn cut(text: &str, most: usize) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .take(most)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_counted_outside_strings_only() {
        let deep = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
        assert!(check_depth(deep(MOST_DEPTH as usize + 1).as_bytes()).is_ok());
        assert!(check_depth(deep(MOST_DEPTH as usize + 2).as_bytes()).is_err());
        let quoted = format!(r#"{{"a":"{}\"{}"}}"#, "[".repeat(50), "{".repeat(50));
        assert!(check_depth(quoted.as_bytes()).is_ok());
    }

    #[test]
    fn tauris_words_for_an_undecoded_argument_name_it() {
        let error = undecoded(
            "retry_item",
            "invalid args `item` for command `retry_item`: invalid type: string \"x\", expected u32",
        );
        assert_eq!(error.code, ErrorCode::InvalidArguments);
        let Some(data) = error.data.as_deref() else {
            panic!("no data")
        };
        assert_eq!(
            *data,
            counter_core::ErrorData::Arguments(ArgumentsError::Invalid {
                command: "retry_item".into(),
                argument: Some("item".into()),
                problem: "invalid type: string \"x\", expected u32".into(),
            })
        );
    }

    #[test]
    fn every_command_of_the_table_has_a_name_and_its_arguments_are_camel_case() {
        assert!(COMMANDS.len() > 40);
        for command in COMMANDS {
            for argument in command.arguments {
                assert!(!argument.contains('_'), "{}: {argument}", command.name);
            }
        }
        let connect = COMMANDS
            .iter()
            .find(|c| c.name == "connect")
            .expect("connect");
        assert_eq!(connect.arguments, ["baseUrl", "apiKey"]);
    }
}
