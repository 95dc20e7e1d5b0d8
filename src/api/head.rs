//! `HEAD` on every route that answers `GET`: the request is routed as a `GET`, and
//! the connection sends the answer's head alone (actix-http leaves out the body of
//! an answer to a `HEAD` request, whatever the handler wrote), so the headers are
//! the ones a `GET` would get: `Content-Type`, `ETag`, `Cache-Control`. A path
//! without a `GET` route keeps its `HEAD`, and is answered 405 with `Allow`.

use actix_web::dev::ServiceRequest;
use actix_web::http::Method;

use crate::api::openapi::RouteTable;

/// Routes a `HEAD` request as a `GET` when its path has a `GET` route.
pub fn as_get(req: &mut ServiceRequest, table: &RouteTable) {
    if req.method() == Method::HEAD
        && table
            .allowed(req.path())
            .is_some_and(|methods| methods.contains(&Method::GET))
    {
        req.head_mut().method = Method::GET;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn head_becomes_get_where_get_is_routed() {
        let table = RouteTable::new(&crate::api::openapi::spec(), &["/client.js"]);
        for (path, method) in [
            ("/client.js", Method::GET),
            ("/v1/board.svg", Method::GET),
            ("/v1/analyze", Method::HEAD),
            ("/nowhere", Method::HEAD),
        ] {
            let mut req = TestRequest::default()
                .method(Method::HEAD)
                .uri(path)
                .to_srv_request();
            as_get(&mut req, &table);
            assert_eq!(req.method(), method, "{path}");
        }
    }
}
