//! The OpenAPI document: the part that is not collected from the handlers (title,
//! description, tags, shared schemas), the whole spec as JSON, and the table of
//! routes and methods that the 405 answers use.

use actix_web::dev::ResourceDef;
use actix_web::http::Method;
use utoipa::OpenApi;
use utoipa::openapi::OpenApi as Spec;

use super::error::Problem;

/// The document's fixed part; the paths come from the registered services.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "branan",
        description = "A stateless tafl analysis service: the legal moves of a position and what each captures, the result of a move, the best moves from a time-limited search (alone, streamed or in batches) and whole-game reviews. Nine presets (Brandubh 7x7, Tablut 9x9, Tawlbwrdd, Copenhagen and Fetlar 11x11, Tablut 15x15, Alea Evangelii 19x19, and other readings of Brandubh and Tablut), or any rule set of your own from 7x7 to 19x19 sent as `rules`: a rule object or an OpenTafl rules string.\n\nPositions are written `<rows> <side> [<plies since capture>]`, ranks from the top (`3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0`), `t` attacker, `T` defender, `K` king; moves `e7-e4`. Every error is an RFC 9457 problem document (`application/problem+json`) whose `field`, `index`, `column` and `square` locate the fault.",
        license(name = "MIT", identifier = "MIT"),
    ),
    tags(
        (name = "rules", description = "Presets, legal moves and playing moves"),
        (name = "pictures", description = "Board pictures for any web page"),
        (name = "operations", description = "Health, readiness and metrics"),
    ),
    components(schemas(Problem, crate::json::analyze::InfoEvent))
)]
pub struct ApiDoc;

/// The schema of one event of `/v1/analyze/stream`, named in every
/// `text/event-stream` response.
pub const STREAM_EVENT: &str = "AnalyzeStreamEvent";

/// The events of `/v1/analyze/stream`, each as the object a Server-Sent Events
/// reader makes of it (`event`, `data`, `id`), with its `data` the JSON text of a
/// named schema: `info` an `InfoEvent`, `bestmove` an `AnalyzeResponse` (with `id:
/// end`), `problem` a `Problem`. OpenAPI 3.1 has no keyword for the items of a
/// stream, so the response's `schema` describes one event, as OpenAPI 3.2's
/// `itemSchema` does and as schema-driven testers read a 3.1 event stream.
fn stream_event_schemas() -> Vec<(&'static str, serde_json::Value)> {
    use serde_json::json;
    let event = |name: &str, data: &str, what: &str, id: Option<&str>| {
        let mut properties = json!({
            "event": {"type": "string", "enum": [name], "description": "The event's name."},
            "data": {
                "type": "string",
                "description": format!("The event's data: a `{data}`, as one line of JSON text."),
                "contentMediaType": "application/json",
                "contentSchema": {"$ref": format!("#/components/schemas/{data}")},
            },
        });
        let mut required = vec!["event", "data"];
        if let Some(id) = id {
            properties["id"] = json!({
                "type": "string",
                "enum": [id],
                "description": "The final event's id: a reconnection that sends it back in `Last-Event-ID` gets 204.",
            });
            required.push("id");
        }
        json!({
            "type": "object",
            "description": format!("The `{name}` event: {what}."),
            "required": required,
            "properties": properties,
        })
    };
    let info = "AnalyzeStreamInfo";
    let bestmove = "AnalyzeStreamBestmove";
    let problem = "AnalyzeStreamProblem";
    let at = |name: &str| format!("#/components/schemas/{name}");
    vec![
        (
            info,
            event(
                "info",
                "InfoEvent",
                "one completed iteration of the search",
                None,
            ),
        ),
        (
            bestmove,
            event(
                "bestmove",
                "AnalyzeResponse",
                "the analysis as `POST /v1/analyze` answers it, the final event",
                Some(super::routes::stream::END_ID),
            ),
        ),
        (
            problem,
            event(
                "problem",
                "Problem",
                "the search could not finish (the server is shutting down), the final event",
                None,
            ),
        ),
        (
            STREAM_EVENT,
            json!({
                "description": "One event of an analysis stream, told apart by `event`: `info` events while the search deepens, then one `bestmove` (or, if the search could not finish, one `problem`).",
                "oneOf": [{"$ref": at(info)}, {"$ref": at(bestmove)}, {"$ref": at(problem)}],
                "discriminator": {
                    "propertyName": "event",
                    "mapping": {"info": at(info), "bestmove": at(bestmove), "problem": at(problem)},
                },
            }),
        ),
    ]
}

/// Final touches on the collected spec: the events of every `text/event-stream`
/// answer (see [`stream_event_schemas`]).
pub fn finish(mut spec: Spec) -> Spec {
    use utoipa::openapi::{RefOr, schema::Schema};
    let components = spec.components.get_or_insert_with(Default::default);
    for (name, value) in stream_event_schemas() {
        // The schemas above are fixed text; a unit test checks that each is read.
        if let Ok(schema) = serde_json::from_value::<RefOr<Schema>>(value) {
            components.schemas.insert(name.to_owned(), schema);
        }
    }
    let refusals = shared_refusals();
    for (path, item) in spec.paths.paths.iter_mut() {
        let limited = !super::ratelimit::exempt(path);
        for op in [&mut item.get, &mut item.post].into_iter().flatten() {
            for (status, response) in &refusals {
                let applies = match status {
                    Refusal::BodyTooLarge | Refusal::NotJson => op.request_body.is_some(),
                    Refusal::RateLimited => limited,
                };
                if !applies {
                    continue;
                }
                let mut response = response.clone();
                if op.request_body.is_none() {
                    // A query's examples are request lines that the spec's
                    // readers replay; no request line is refused for its rate.
                    for content in response.content.values_mut() {
                        if let RefOr::T(content) = content {
                            content.examples.clear();
                        }
                    }
                }
                op.responses
                    .responses
                    .entry(status.code().to_owned())
                    .or_insert(RefOr::T(response));
            }
            for response in op.responses.responses.values_mut() {
                let RefOr::T(response) = response else {
                    continue;
                };
                if let Some(RefOr::T(content)) = response
                    .content
                    .get_mut(super::routes::stream::EVENT_STREAM)
                {
                    content.schema = Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                        STREAM_EVENT,
                    )));
                }
            }
        }
    }
    spec
}

/// A refusal many routes share, declared once here rather than on each route.
#[derive(Clone, Copy, Debug)]
enum Refusal {
    /// 413, on every operation with a body.
    BodyTooLarge,
    /// 415, on every operation with a body.
    NotJson,
    /// 429, on every operation the rate limit counts.
    RateLimited,
}

impl Refusal {
    fn code(self) -> &'static str {
        match self {
            Refusal::BodyTooLarge => "413",
            Refusal::NotJson => "415",
            Refusal::RateLimited => "429",
        }
    }
}

/// The shared refusals, each a problem document with its example.
fn shared_refusals() -> Vec<(Refusal, utoipa::openapi::Response)> {
    use super::examples;
    let problem = |description: &str, name: &str, summary: &str, value: serde_json::Value| {
        serde_json::json!({
            "description": description,
            "content": {"application/problem+json": {
                "schema": {"$ref": "#/components/schemas/Problem"},
                "examples": {name: {"summary": summary, "value": value}},
            }},
        })
    };
    [
        (
            Refusal::BodyTooLarge,
            problem(
                "The body is over the limit",
                "body_too_large",
                "A body over 65,536 bytes",
                examples::body_too_large(),
            ),
        ),
        (
            Refusal::NotJson,
            problem(
                "The body is not JSON",
                "not_json",
                "Content-Type: text/plain",
                examples::unsupported_media_type(),
            ),
        ),
        (
            Refusal::RateLimited,
            problem(
                "The client is over its rate limit (see `Retry-After`)",
                "rate_limited",
                "Too many requests",
                examples::rate_limited(),
            ),
        ),
    ]
    .into_iter()
    // Fixed text in the shape of a response; a unit test checks each is read.
    .filter_map(|(refusal, value)| Some((refusal, serde_json::from_value(value).ok()?)))
    .collect()
}

/// The spec as the service serves it, built from the same routes as the app.
pub fn spec() -> Spec {
    use utoipa_actix_web::AppExt;
    let (_, api) = actix_web::App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(super::routes)
        .split_for_parts();
    finish(api)
}

/// The spec as pretty JSON with a final newline: the content of
/// `openapi/openapi.json`.
pub fn spec_json() -> String {
    let mut text = spec()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}

/// Every route pattern and its methods, to answer 405 with `Allow`.
#[derive(Debug)]
pub struct RouteTable {
    routes: Vec<(ResourceDef, Vec<Method>)>,
}

impl RouteTable {
    /// The routes of `spec`, plus `get_only` routes that answer GET (and HEAD) alone.
    pub fn new(spec: &Spec, get_only: &[&str]) -> RouteTable {
        let mut routes: Vec<(ResourceDef, Vec<Method>)> = spec
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let mut methods = Vec::new();
                let pairs = [
                    (Method::GET, item.get.is_some()),
                    (Method::POST, item.post.is_some()),
                    (Method::PUT, item.put.is_some()),
                    (Method::DELETE, item.delete.is_some()),
                    (Method::PATCH, item.patch.is_some()),
                    (Method::HEAD, item.head.is_some()),
                    (Method::OPTIONS, item.options.is_some()),
                    (Method::TRACE, item.trace.is_some()),
                ];
                for (m, present) in pairs {
                    // A GET route answers HEAD too (see `head`).
                    let head = m == Method::GET;
                    if present && !methods.contains(&m) {
                        methods.push(m);
                    }
                    if present && head {
                        methods.push(Method::HEAD);
                    }
                }
                (ResourceDef::new(path.as_str()), methods)
            })
            .collect();
        routes.extend(
            get_only
                .iter()
                .map(|p| (ResourceDef::new(*p), vec![Method::GET, Method::HEAD])),
        );
        RouteTable { routes }
    }

    /// The methods allowed on `path`, if any route matches it.
    pub fn allowed(&self, path: &str) -> Option<Vec<Method>> {
        let mut found: Option<Vec<Method>> = None;
        for (def, methods) in &self.routes {
            if def.is_match(path) {
                let list = found.get_or_insert_with(Vec::new);
                for m in methods {
                    if !list.contains(m) {
                        list.push(m.clone());
                    }
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shared_refusal_is_read() {
        assert_eq!(shared_refusals().len(), 3);
    }

    #[test]
    fn every_stream_event_schema_is_read() {
        let spec = spec();
        let schemas = &spec.components.expect("components").schemas;
        for (name, value) in stream_event_schemas() {
            let written = serde_json::to_value(&schemas[name]).expect("json");
            assert_eq!(written, value, "{name}");
        }
    }

    #[test]
    fn route_table_knows_methods() {
        let table = RouteTable::new(&spec(), &["/openapi.json"]);
        assert_eq!(
            table.allowed("/v1/moves"),
            Some(vec![Method::GET, Method::HEAD, Method::POST])
        );
        let get = Some(vec![Method::GET, Method::HEAD]);
        assert_eq!(table.allowed("/v1/variants/x"), get);
        assert_eq!(table.allowed("/openapi.json"), get);
        assert_eq!(table.allowed("/nope"), None);
    }
}
