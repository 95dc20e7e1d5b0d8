//! The deployment files under `deploy/` checked against the service they deploy:
//! every Kubernetes manifest parsed and its fields that matter asserted (ports,
//! probe paths that are real routes, image name, `BRANAN_*` names that the
//! configuration really reads, graceful termination long enough for a search), and
//! the key lines of the Dockerfile, the systemd unit, nginx.conf and cluster.sh.
//!
//! Runs with and without the `server` feature: it reads files, and uses only the
//! rules engine (to check the load generator's positions).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use branan::rules::AnyVariant;
use yaml_rust2::{Yaml, YamlLoader};

/// The port the service listens on in a container.
const CONTAINER_PORT: i64 = 8080;
/// The default longest search (`BRANAN_MAX_TIME_MS`), for files that do not set it.
const DEFAULT_MAX_TIME_MS: i64 = 10_000;
/// The default search queue (`BRANAN_SEARCH_QUEUE`) and the Deployment's search
/// threads: how many longest searches a request may wait behind.
const DEFAULT_SEARCH_QUEUE: i64 = 8;
const DEFAULT_SEARCH_THREADS: i64 = 2;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    let path = root().join(rel);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The whole crate source (`src/**/*.rs`), concatenated.
fn source() -> String {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    files.sort();
    files
        .iter()
        .map(|f| fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `BRANAN_[A-Z0-9_]+` word of `text`.
fn branan_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(at) = text[i..].find("BRANAN_") {
        let start = i + at;
        let mut end = start + "BRANAN_".len();
        while end < bytes.len()
            && (bytes[end].is_ascii_uppercase()
                || bytes[end].is_ascii_digit()
                || bytes[end] == b'_')
        {
            end += 1;
        }
        let before_ok =
            start == 0 || !(bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_');
        if before_ok && end > start + "BRANAN_".len() {
            names.insert(text[start..end].to_owned());
        }
        i = end;
    }
    names
}

/// The `BRANAN_*` names the configuration reads: string literals (`env =
/// "BRANAN_BIND"`) in the source, not mentions in comments.
fn config_names() -> BTreeSet<String> {
    let src = source();
    let names: BTreeSet<String> = branan_names(&src)
        .into_iter()
        .filter(|n| src.contains(&format!("\"{n}\"")))
        .collect();
    assert!(
        names.contains("BRANAN_BIND"),
        "the configuration source reads BRANAN_BIND (found {names:?})"
    );
    names
}

fn yaml_docs(rel: &str) -> Vec<Yaml> {
    let docs = YamlLoader::load_from_str(&read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(!docs.is_empty(), "{rel} holds a document");
    docs
}

fn yaml_doc(rel: &str) -> Yaml {
    let mut docs = yaml_docs(rel);
    assert_eq!(docs.len(), 1, "{rel} holds one document");
    docs.remove(0)
}

fn s<'a>(y: &'a Yaml, what: &str) -> &'a str {
    y.as_str()
        .unwrap_or_else(|| panic!("{what} is a string, not {y:?}"))
}

fn int(y: &Yaml, what: &str) -> i64 {
    y.as_i64()
        .unwrap_or_else(|| panic!("{what} is an integer, not {y:?}"))
}

fn string_map(y: &Yaml, what: &str) -> BTreeMap<String, String> {
    y.as_hash()
        .unwrap_or_else(|| panic!("{what} is a mapping, not {y:?}"))
        .iter()
        .map(|(k, v)| (s(k, what).to_owned(), s(v, what).to_owned()))
        .collect()
}

/// `selector` is non-empty and every one of its labels is on `labels`.
fn assert_selects(
    selector: &BTreeMap<String, String>,
    labels: &BTreeMap<String, String>,
    what: &str,
) {
    assert!(!selector.is_empty(), "{what}: empty selector");
    for (k, v) in selector {
        assert_eq!(
            labels.get(k),
            Some(v),
            "{what}: selector {k}={v} not on the pod labels {labels:?}"
        );
    }
}

/// A CPU quantity in millicores ("500m", "1", "1.5").
fn millicores(q: &Yaml) -> i64 {
    let text = match q {
        Yaml::Integer(n) => return n * 1000,
        Yaml::Real(r) => r.clone(),
        other => s(other, "cpu quantity").to_owned(),
    };
    if let Some(m) = text.strip_suffix('m') {
        return m.parse().unwrap_or_else(|e| panic!("cpu {text}: {e}"));
    }
    let cores: f64 = text.parse().unwrap_or_else(|e| panic!("cpu {text}: {e}"));
    (cores * 1000.0).round() as i64
}

/// A memory quantity in bytes ("128Mi", "1Gi", "500M", "1048576").
fn bytes(q: &Yaml) -> i64 {
    if let Yaml::Integer(n) = q {
        return *n;
    }
    let text = s(q, "memory quantity");
    let units: [(&str, i64); 6] = [
        ("Ki", 1 << 10),
        ("Mi", 1 << 20),
        ("Gi", 1 << 30),
        ("k", 1_000),
        ("M", 1_000_000),
        ("G", 1_000_000_000),
    ];
    for (suffix, factor) in units {
        if let Some(n) = text.strip_suffix(suffix) {
            return n
                .parse::<i64>()
                .unwrap_or_else(|e| panic!("memory {text}: {e}"))
                * factor;
        }
    }
    text.parse()
        .unwrap_or_else(|e| panic!("memory {text}: {e}"))
}

fn cargo_version() -> String {
    let manifest = read("Cargo.toml");
    let package = manifest
        .split("[package]")
        .nth(1)
        .expect("Cargo.toml has [package]");
    let line = package
        .lines()
        .find(|l| l.trim_start().starts_with("version"))
        .expect("[package] has a version");
    line.split('"')
        .nth(1)
        .expect("version = \"...\"")
        .to_owned()
}

/// The image every deployment file names: `branan:<crate version>`.
fn image() -> String {
    format!("branan:{}", cargo_version())
}

/// The routes the service serves: the paths of `openapi/openapi.json` when it
/// exists, and the route string literals of the source.
fn is_route(path: &str) -> bool {
    let in_source = source().contains(&format!("\"{path}\""));
    let openapi = root().join("openapi/openapi.json");
    let in_openapi = openapi.exists() && {
        let text = fs::read_to_string(&openapi).expect("openapi.json reads");
        let doc: serde_json::Value = serde_json::from_str(&text).expect("openapi.json parses");
        doc["paths"].get(path).is_some()
    };
    in_source || in_openapi
}

// ---- Kubernetes ------------------------------------------------------------------

const K8S: &str = "deploy/k8s";

/// The Deployment, its pod template and its one container.
struct Deployment {
    doc: Yaml,
}

impl Deployment {
    fn load() -> Self {
        let doc = yaml_doc("deploy/k8s/deployment.yaml");
        assert_eq!(s(&doc["apiVersion"], "apiVersion"), "apps/v1");
        assert_eq!(s(&doc["kind"], "kind"), "Deployment");
        Deployment { doc }
    }
    fn name(&self) -> &str {
        s(&self.doc["metadata"]["name"], "metadata.name")
    }
    fn pod(&self) -> &Yaml {
        &self.doc["spec"]["template"]["spec"]
    }
    fn pod_labels(&self) -> BTreeMap<String, String> {
        string_map(
            &self.doc["spec"]["template"]["metadata"]["labels"],
            "template labels",
        )
    }
    fn container(&self) -> &Yaml {
        let containers = self.pod()["containers"]
            .as_vec()
            .expect("containers is a list");
        assert_eq!(containers.len(), 1, "one container per pod");
        &containers[0]
    }
    fn env(&self) -> BTreeMap<String, String> {
        self.container()["env"]
            .as_vec()
            .expect("env is a list")
            .iter()
            .map(|e| {
                (
                    s(&e["name"], "env name").to_owned(),
                    s(&e["value"], "env value").to_owned(),
                )
            })
            .collect()
    }
    fn port_name(&self) -> String {
        let ports = self.container()["ports"].as_vec().expect("ports is a list");
        let http = ports
            .iter()
            .find(|p| int(&p["containerPort"], "containerPort") == CONTAINER_PORT)
            .unwrap_or_else(|| panic!("a containerPort {CONTAINER_PORT}"));
        s(&http["name"], "port name").to_owned()
    }
}

#[test]
fn kustomization_lists_every_manifest() {
    let k = yaml_doc("deploy/k8s/kustomization.yaml");
    assert_eq!(s(&k["kind"], "kind"), "Kustomization");
    let listed: BTreeSet<String> = k["resources"]
        .as_vec()
        .expect("resources is a list")
        .iter()
        .map(|r| s(r, "resource").to_owned())
        .collect();
    let present: BTreeSet<String> = fs::read_dir(root().join(K8S))
        .expect("deploy/k8s reads")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") && n != "kustomization.yaml")
        .collect();
    assert_eq!(listed, present);
    for required in ["deployment.yaml", "service.yaml", "hpa.yaml", "pdb.yaml"] {
        assert!(present.contains(required), "deploy/k8s/{required} exists");
    }
}

#[test]
fn deployment_runs_the_image_on_port_8080() {
    let d = Deployment::load();
    let c = d.container();
    assert_eq!(s(&c["image"], "image"), image());
    assert_eq!(d.port_name(), "http");
    assert_eq!(
        d.env().get("BRANAN_BIND").map(String::as_str),
        Some("0.0.0.0:8080")
    );
    // The selector picks the template's own pods.
    let selector = string_map(&d.doc["spec"]["selector"]["matchLabels"], "selector");
    assert_selects(&selector, &d.pod_labels(), "Deployment selector");
    // A rolling update never drops below the wanted count.
    assert_eq!(
        int(
            &d.doc["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"],
            "maxUnavailable"
        ),
        0
    );
}

#[test]
fn deployment_probes_are_real_routes() {
    let d = Deployment::load();
    let c = d.container();
    let port = d.port_name();
    for (probe, path) in [("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")] {
        let get = &c[probe]["httpGet"];
        assert_eq!(s(&get["path"], probe), path, "{probe} path");
        match &get["port"] {
            Yaml::String(name) => assert_eq!(name, &port, "{probe} port"),
            other => assert_eq!(int(other, probe), CONTAINER_PORT, "{probe} port"),
        }
        assert!(is_route(path), "{path} is a route of the service");
    }
}

#[test]
fn deployment_sets_resources_and_runs_unprivileged() {
    let d = Deployment::load();
    let r = &d.container()["resources"];
    let (cpu_req, cpu_lim) = (
        millicores(&r["requests"]["cpu"]),
        millicores(&r["limits"]["cpu"]),
    );
    let (mem_req, mem_lim) = (
        bytes(&r["requests"]["memory"]),
        bytes(&r["limits"]["memory"]),
    );
    assert!(
        0 < cpu_req && cpu_req <= cpu_lim,
        "cpu request {cpu_req}m <= limit {cpu_lim}m"
    );
    assert!(
        0 < mem_req && mem_req <= mem_lim,
        "memory request {mem_req} <= limit {mem_lim}"
    );
    // Threads follow the CPU limit: no more HTTP workers than cores granted.
    if let Some(workers) = d.env().get("BRANAN_WORKERS") {
        let workers: i64 = workers.parse().expect("BRANAN_WORKERS is a number");
        assert!(
            workers * 1000 <= cpu_lim.max(1000),
            "{workers} workers for {cpu_lim}m"
        );
    }
    let pod_sc = &d.pod()["securityContext"];
    assert_eq!(pod_sc["runAsNonRoot"].as_bool(), Some(true));
    assert_eq!(
        int(&pod_sc["runAsUser"], "runAsUser"),
        dockerfile_uid(),
        "same uid as the image"
    );
    let sc = &d.container()["securityContext"];
    assert_eq!(sc["allowPrivilegeEscalation"].as_bool(), Some(false));
    assert_eq!(sc["readOnlyRootFilesystem"].as_bool(), Some(true));
}

/// A whole number from a `BRANAN_*` setting.
fn int_setting(env: &BTreeMap<String, String>, name: &str) -> Option<i64> {
    env.get(name)
        .map(|v| v.parse().unwrap_or_else(|e| panic!("{name}={v}: {e}")))
}

/// How long a shutdown may take: in-flight requests get the shutdown timeout, and a
/// search that just started runs up to the longest time limit.
fn shutdown_budget_s(env: &BTreeMap<String, String>, what: &str) -> i64 {
    let names = config_names();
    assert!(
        names.contains("BRANAN_SHUTDOWN_TIMEOUT_S"),
        "the configuration reads BRANAN_SHUTDOWN_TIMEOUT_S"
    );
    let shutdown = int_setting(env, "BRANAN_SHUTDOWN_TIMEOUT_S")
        .unwrap_or_else(|| panic!("{what} sets BRANAN_SHUTDOWN_TIMEOUT_S"));
    let max_time_ms = int_setting(env, "BRANAN_MAX_TIME_MS").unwrap_or(DEFAULT_MAX_TIME_MS);
    shutdown + (max_time_ms + 999) / 1000
}

#[test]
fn deployment_lets_in_flight_searches_finish() {
    let d = Deployment::load();
    let grace = int(
        &d.pod()["terminationGracePeriodSeconds"],
        "terminationGracePeriodSeconds",
    );
    let pre_stop: i64 = match d.container()["lifecycle"]["preStop"]["exec"]["command"].as_vec() {
        Some(cmd) => {
            assert_eq!(s(&cmd[0], "preStop command"), "sleep");
            s(&cmd[1], "sleep seconds")
                .parse()
                .expect("sleep takes whole seconds")
        }
        None => 0,
    };
    let budget = shutdown_budget_s(&d.env(), "the Deployment");
    assert!(
        grace >= pre_stop + budget,
        "terminationGracePeriodSeconds {grace} < preStop {pre_stop} + shutdown and search {budget}"
    );
}

#[test]
fn service_reaches_the_pods() {
    let d = Deployment::load();
    let svc = yaml_doc("deploy/k8s/service.yaml");
    assert_eq!(s(&svc["kind"], "kind"), "Service");
    assert_selects(
        &string_map(&svc["spec"]["selector"], "Service selector"),
        &d.pod_labels(),
        "Service",
    );
    let ports = svc["spec"]["ports"].as_vec().expect("ports is a list");
    assert!(!ports.is_empty());
    for p in ports {
        match &p["targetPort"] {
            Yaml::String(name) => assert_eq!(name, &d.port_name()),
            other => assert_eq!(int(other, "targetPort"), CONTAINER_PORT),
        }
    }
}

#[test]
fn hpa_scales_the_deployment_on_cpu() {
    let d = Deployment::load();
    let hpa = yaml_doc("deploy/k8s/hpa.yaml");
    assert_eq!(s(&hpa["apiVersion"], "apiVersion"), "autoscaling/v2");
    assert_eq!(s(&hpa["kind"], "kind"), "HorizontalPodAutoscaler");
    let target = &hpa["spec"]["scaleTargetRef"];
    assert_eq!(s(&target["apiVersion"], "apiVersion"), "apps/v1");
    assert_eq!(s(&target["kind"], "kind"), "Deployment");
    assert_eq!(s(&target["name"], "name"), d.name());
    let min = int(&hpa["spec"]["minReplicas"], "minReplicas");
    let max = int(&hpa["spec"]["maxReplicas"], "maxReplicas");
    assert!(2 <= min && min <= max, "replicas {min}..{max}");
    let metrics = hpa["spec"]["metrics"].as_vec().expect("metrics is a list");
    assert!(
        metrics
            .iter()
            .any(|m| m["resource"]["name"].as_str() == Some("cpu")
                && m["resource"]["target"]["type"].as_str() == Some("Utilization")),
        "an average CPU utilisation target"
    );
    // Utilisation is measured against the CPU request: it must be set (checked above)
    // and the Deployment's own replica count within the HPA's range.
    let replicas = int(&d.doc["spec"]["replicas"], "replicas");
    assert!(min <= replicas && replicas <= max);
}

#[test]
fn pdb_selects_the_pods_and_leaves_some_running() {
    let d = Deployment::load();
    let hpa = yaml_doc("deploy/k8s/hpa.yaml");
    let pdb = yaml_doc("deploy/k8s/pdb.yaml");
    assert_eq!(s(&pdb["apiVersion"], "apiVersion"), "policy/v1");
    assert_eq!(s(&pdb["kind"], "kind"), "PodDisruptionBudget");
    let selector = string_map(&pdb["spec"]["selector"]["matchLabels"], "PDB selector");
    assert_selects(&selector, &d.pod_labels(), "PodDisruptionBudget");
    let min_replicas = int(&hpa["spec"]["minReplicas"], "minReplicas");
    let spec = &pdb["spec"];
    let unavailable = match (&spec["maxUnavailable"], &spec["minAvailable"]) {
        (Yaml::Integer(n), Yaml::BadValue) => *n,
        (Yaml::BadValue, Yaml::Integer(n)) => min_replicas - n,
        other => panic!("one integer of maxUnavailable or minAvailable, not {other:?}"),
    };
    // At least one may go (else drains block) and at least two stay.
    assert!(
        unavailable >= 1 && min_replicas - unavailable >= 2,
        "PDB lets {unavailable} of {min_replicas} go"
    );
}

// ---- configuration names -----------------------------------------------------------

#[test]
fn every_branan_setting_used_is_read_by_the_configuration() {
    let known = config_names();
    let mut used = BTreeMap::new();
    for name in Deployment::load().env().keys() {
        used.insert(name.clone(), "deploy/k8s/deployment.yaml");
    }
    for rel in [
        "deploy/Dockerfile",
        "deploy/branan.service",
        "deploy/cluster.sh",
        "deploy/nginx.conf",
    ] {
        for name in branan_names(&read(rel)) {
            used.insert(name, rel);
        }
    }
    assert!(used.contains_key("BRANAN_BIND"));
    for (name, file) in &used {
        assert!(
            known.contains(name),
            "{file} uses {name}, which the configuration does not read ({known:?})"
        );
    }
}

// ---- Dockerfile ------------------------------------------------------------------

fn dockerfile_uid() -> i64 {
    let docker = read("deploy/Dockerfile");
    let user = docker
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("USER "))
        .expect("the Dockerfile sets USER");
    user.trim()
        .split(':')
        .next()
        .and_then(|u| u.parse().ok())
        .unwrap_or_else(|| panic!("USER is numeric (for runAsNonRoot): {user}"))
}

#[test]
fn dockerfile_is_multi_stage_with_a_cached_dependency_layer() {
    let docker = read("deploy/Dockerfile");
    let froms: Vec<&str> = docker.lines().filter(|l| l.starts_with("FROM ")).collect();
    assert!(
        froms.len() >= 2,
        "a build stage and a runtime stage: {froms:?}"
    );
    assert!(
        froms[0].contains(" AS build"),
        "the first stage is named build"
    );
    assert!(
        froms
            .last()
            .is_some_and(|f| f.contains("-slim") || f.contains("distroless")),
        "a small runtime image"
    );
    // The manifest and lock file are copied and built before the sources.
    let manifests = docker
        .find("COPY Cargo.toml Cargo.lock")
        .expect("COPY Cargo.toml Cargo.lock");
    let sources = docker.find("COPY src ").expect("COPY src");
    let first_build = docker
        .find("cargo build --release --locked")
        .expect("a locked release build");
    assert!(
        manifests < first_build && first_build < sources,
        "dependencies build before the sources arrive"
    );
    // Every target Cargo.toml declares gets a stub in the dependency layer.
    let manifest = read("Cargo.toml");
    for bench in manifest.split("[[bench]]").skip(1) {
        let name = bench
            .lines()
            .find_map(|l| l.trim().strip_prefix("name = "))
            .expect("[[bench]] has a name")
            .trim_matches('"');
        assert!(
            docker.contains(&format!("benches/{name}.rs")),
            "a stub for bench {name}"
        );
    }
    for section in ["[[test]]", "[[example]]"] {
        assert!(
            !manifest.contains(section),
            "{section} in Cargo.toml needs a stub in deploy/Dockerfile"
        );
    }
    assert!(
        !root().join("build.rs").exists(),
        "build.rs needs COPYing in deploy/Dockerfile"
    );
}

#[test]
fn dockerfile_runs_unprivileged_on_8080_with_a_healthcheck() {
    let docker = read("deploy/Dockerfile");
    assert!(dockerfile_uid() > 0, "not root");
    assert!(docker.contains(&format!("EXPOSE {CONTAINER_PORT}")));
    assert!(docker.contains(&format!("BRANAN_BIND=0.0.0.0:{CONTAINER_PORT}")));
    let health = docker
        .split("\nHEALTHCHECK ")
        .nth(1)
        .expect("a HEALTHCHECK")
        .split("\n\n")
        .next()
        .unwrap_or_default();
    assert!(
        health.contains("/healthz") && is_route("/healthz"),
        "HEALTHCHECK asks /healthz: {health}"
    );
    // The check's tool is installed in the runtime stage.
    let runtime = docker.rsplit("FROM ").next().unwrap_or_default();
    let tool = if health.contains("curl") {
        "curl"
    } else {
        "wget"
    };
    assert!(
        runtime.contains(&format!("install -y --no-install-recommends {tool}")),
        "{tool} is installed"
    );
    assert!(docker.contains("ENTRYPOINT [\"/usr/local/bin/branan\"]"));
}

#[test]
fn dockerignore_lets_in_what_the_build_reads() {
    let ignore = read(".dockerignore");
    for needed in [
        "!Cargo.toml",
        "!Cargo.lock",
        "!src/",
        "!benches/",
        "!openings/",
        "!openapi/examples/",
    ] {
        assert!(
            ignore.lines().any(|l| l.trim() == needed),
            ".dockerignore has {needed}"
        );
    }
    // Files pulled in at compile time must be inside what the image build copies.
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    for f in files {
        let text = fs::read_to_string(&f).expect("source reads");
        for part in text
            .split("include_str!(")
            .chain(text.split("include_bytes!("))
            .skip(1)
        {
            let Some(arg) = part.split(')').next() else {
                continue;
            };
            // `include_str!(concat!("dir/", ...))`: the folder is what counts.
            let arg = arg.trim();
            let arg = arg.strip_prefix("concat!(").unwrap_or(arg);
            if let Some(path) = arg
                .trim()
                .strip_prefix('"')
                .and_then(|a| a.split('"').next())
            {
                let target = f.parent().expect("parent").join(path);
                let target = target.canonicalize().unwrap_or(target);
                // The folders the image build copies (`COPY <dir> ./<dir>`).
                let docker = read("deploy/Dockerfile");
                let copied: Vec<&str> = docker
                    .lines()
                    .filter_map(|l| l.strip_prefix("COPY "))
                    .filter(|l| !l.starts_with("--"))
                    .filter_map(|l| l.split_whitespace().next())
                    .collect();
                let inside = copied.iter().any(|d| target.starts_with(root().join(d)));
                assert!(
                    inside,
                    "{} includes {path}, outside what deploy/Dockerfile copies",
                    f.display()
                );
            }
        }
    }
}

#[test]
fn readme_builds_the_image_the_manifests_run() {
    let readme = read("README.md");
    assert!(
        readme.contains(&format!(
            "docker build -f deploy/Dockerfile -t {} .",
            image()
        )),
        "README's docker build names {}",
        image()
    );
    assert!(
        read("deploy/Dockerfile").contains(&format!("-t {} .", image())),
        "the Dockerfile's usage line"
    );
}

// ---- systemd ---------------------------------------------------------------------

#[test]
fn systemd_unit_is_hardened_and_restarts() {
    let unit = read("deploy/branan.service");
    let lines: BTreeSet<&str> = unit.lines().map(str::trim).collect();
    for required in [
        "[Service]",
        "ExecStart=/usr/local/bin/branan serve",
        "DynamicUser=yes",
        "Restart=on-failure",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "PrivateTmp=yes",
        "CapabilityBoundingSet=",
        "KillSignal=SIGTERM",
        "WantedBy=multi-user.target",
    ] {
        assert!(lines.contains(required), "branan.service has {required}");
    }
    let env: BTreeMap<String, String> = unit
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Environment="))
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    let stop = unit
        .lines()
        .find_map(|l| l.trim().strip_prefix("TimeoutStopSec="))
        .and_then(|v| v.trim_end_matches('s').parse::<i64>().ok())
        .expect("TimeoutStopSec=<n>s");
    let budget = shutdown_budget_s(&env, "branan.service");
    assert!(
        stop >= budget,
        "TimeoutStopSec {stop} < shutdown and search {budget}"
    );
}

// ---- nginx -----------------------------------------------------------------------

/// The lines of nginx.conf, comments and blank lines dropped, trimmed.
fn nginx_lines() -> Vec<String> {
    read("deploy/nginx.conf")
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect()
}

fn nginx_directive(name: &str) -> Vec<String> {
    nginx_lines()
        .into_iter()
        .filter(|l| l.split_whitespace().next() == Some(name))
        .collect()
}

#[test]
fn nginx_balances_three_replicas_with_passive_health_checks() {
    let conf = read("deploy/nginx.conf");
    let upstream = conf
        .split("upstream branan {")
        .nth(1)
        .expect("upstream branan")
        .split("\n    }")
        .next()
        .unwrap_or_default();
    let replicas = upstream
        .split("# replicas-begin")
        .nth(1)
        .and_then(|r| r.split("# replicas-end").next())
        .expect("replica markers (cluster.sh rewrites between them)");
    let servers: Vec<&str> = replicas
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("server "))
        .collect();
    assert_eq!(servers.len(), 3, "three replicas: {servers:?}");
    for s in &servers {
        assert!(s.starts_with("server 127.0.0.1:"), "{s}");
        assert!(
            s.contains(" max_fails=") && s.contains(" fail_timeout="),
            "passive health check on {s}"
        );
    }
    // Hashing on the position (consistent: a replica's leaving moves only its keys).
    assert!(
        nginx_directive("hash")
            .iter()
            .any(|l| l == "hash $branan_key consistent;")
    );
    let map = conf
        .split("map $request_body $branan_key {")
        .nth(1)
        .expect("the key comes from the body");
    assert!(
        map.split("}")
            .next()
            .is_some_and(|m| m.contains(r#"\"position\""#)),
        "the key is the position field"
    );
    assert!(
        map.contains("default $request_id;"),
        "an even spread without a position"
    );
    assert_eq!(
        nginx_directive("proxy_pass"),
        vec!["proxy_pass http://branan;"]
    );
    // cluster.sh rewrites this line for its own port.
    assert!(nginx_lines().iter().any(|l| l == "listen 127.0.0.1:8080;"));
}

#[test]
fn nginx_retries_failures_on_the_next_replica() {
    let next = nginx_directive("proxy_next_upstream");
    assert_eq!(next.len(), 1, "one proxy_next_upstream: {next:?}");
    let words: BTreeSet<&str> = next[0].trim_end_matches(';').split_whitespace().collect();
    for w in ["error", "timeout", "non_idempotent"] {
        assert!(words.contains(w), "proxy_next_upstream retries on {w}");
    }
    // A 503 is branan's "search queue full": retrying it would count toward
    // max_fails and take overloaded replicas out all at once.
    assert!(
        !words.contains("http_503"),
        "503 (overload) is not a replica failure"
    );
    let tries = &nginx_directive("proxy_next_upstream_tries")[0];
    assert!(tries.trim_end_matches(';').ends_with(" 3"), "{tries}");
}

/// An nginx size ("128k", "1m") in bytes.
fn nginx_size(directive: &str) -> i64 {
    let line = nginx_directive(directive)
        .pop()
        .unwrap_or_else(|| panic!("nginx.conf sets {directive}"));
    let value = line
        .split_whitespace()
        .nth(1)
        .expect("a value")
        .trim_end_matches(';')
        .to_owned();
    let (n, factor) = match value.chars().last() {
        Some('k') => (&value[..value.len() - 1], 1 << 10),
        Some('m') => (&value[..value.len() - 1], 1 << 20),
        _ => (value.as_str(), 1),
    };
    n.parse::<i64>().expect("a size") * factor
}

#[test]
fn nginx_hashes_bodies_the_service_accepts_and_waits_for_searches() {
    // A body must be in memory for $request_body to exist: the buffer holds the
    // largest body the service accepts by default (BRANAN_BODY_LIMIT, 64 KiB).
    assert!(nginx_size("client_body_buffer_size") >= 65_536);
    assert!(nginx_size("client_max_body_size") >= nginx_size("client_body_buffer_size"));
    let read_timeout = nginx_directive("proxy_read_timeout")
        .pop()
        .expect("proxy_read_timeout");
    let secs: i64 = read_timeout
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.trim_end_matches(';').trim_end_matches('s').parse().ok())
        .expect("proxy_read_timeout <n>s");
    // The longest search, after waiting behind a full queue of searches as long.
    let waits = 1 + DEFAULT_SEARCH_QUEUE / DEFAULT_SEARCH_THREADS;
    assert!(
        secs * 1000 > DEFAULT_MAX_TIME_MS * waits,
        "nginx waits {secs} s, less than {waits} longest searches"
    );
}

// ---- cluster.sh and its load ---------------------------------------------------------

#[test]
fn cluster_script_targets_loopback_only_and_cleans_up() {
    for rel in ["deploy/cluster.sh", "deploy/load/mixed.lua"] {
        let text = read(rel);
        for url in text.split("http://").skip(1) {
            assert!(
                url.starts_with("127.0.0.1:") || url.starts_with("branan"),
                "{rel} targets only loopback: http://{}",
                &url[..url.len().min(30)]
            );
        }
    }
    let script = read("deploy/cluster.sh");
    assert!(script.contains("trap cleanup EXIT"));
    assert!(script.contains("set -euo pipefail"));
    for route in ["/readyz", "/v1/analyze"] {
        assert!(script.contains(route));
    }
}

#[test]
fn load_positions_are_legal_and_their_moves_too() {
    let text = read("deploy/load/positions.tsv");
    let mut count = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "variant, position, move: {line}");
        let variant =
            AnyVariant::by_id(fields[0]).unwrap_or_else(|| panic!("variant {}", fields[0]));
        let pos = variant
            .parse_position(fields[1])
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let mv = variant
            .parse_move(fields[2])
            .unwrap_or_else(|_| panic!("move {}", fields[2]))
            .mv;
        assert!(pos.check_move(mv).is_ok(), "{line}: the move is legal");
        count += 1;
    }
    assert!(count >= 20, "a varied pool: {count} positions");
    for route in ["/v1/moves", "/v1/play", "/v1/analyze", "/v1/variants"] {
        assert!(read("deploy/load/mixed.lua").contains(&format!("\"{route}\"")));
        assert!(is_route(route), "{route} is a route of the service");
    }
}
