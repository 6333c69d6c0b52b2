//! Platform checks of the newest RA2 chapter 4 (anuket-project/RA2 f3d0d2b): infrastructure
//! monitoring (ra2.mon.001–003), storage class support (ra2.stg.010) and certificate
//! management for workloads (ra2.k8s.020).
//!
//! What they judge is what the cluster runs, so, like the other cluster-wide checks, each runs
//! only when the input shows it: `Node` objects and DaemonSets (a cluster dump, or `ra2 audit`).
//! An agent is known by its image (the last segments of the repository, as devices are known by
//! their resource names), from a table of the usual ones that the `agent_images` parameter
//! extends. A finding is reported at the input's first Node: it is about the cluster.

use crate::model::bundle::Bundle;
use crate::model::platform::{ControllerFact, Facts, image_is};
use crate::rules::params::RuleParams;
use crate::rules::{BundleContext, Checks};

pub(super) static MON001: Checks = Checks {
    bundle: Some(metrics),
    params: Some(super::params::decoder::<Agents>),
    ..Checks::NONE
};

pub(super) static MON002: Checks = Checks {
    bundle: Some(logs),
    params: Some(super::params::decoder::<Agents>),
    ..Checks::NONE
};

pub(super) static MON003: Checks = Checks {
    bundle: Some(events),
    params: Some(super::params::decoder::<Agents>),
    ..Checks::NONE
};

pub(super) static STG010: Checks = Checks {
    bundle: Some(storage_classes),
    ..Checks::NONE
};

pub(super) static K8S020: Checks = Checks {
    bundle: Some(cert_manager),
    params: Some(super::params::decoder::<Agents>),
    ..Checks::NONE
};

/// Images the user counts as agents of the rule, beside the built-in table.
#[derive(Clone, Debug)]
struct Agents {
    agent_images: Vec<String>,
}

impl RuleParams for Agents {
    fn decode(params: &mut super::params::Params<'_>) -> Self {
        Agents {
            agent_images: params.list("agent_images"),
        }
    }
}

/// Node metrics agents: they run on every node (a DaemonSet) and export its CPU, memory, disk
/// and network use.
const NODE_METRICS: &[&str] = &[
    "node-exporter",
    "prometheus-node-exporter",
    "ose-prometheus-node-exporter",
    "datadog/agent",
    "opentelemetry-collector",
    "opentelemetry-collector-contrib",
    "opentelemetry-collector-k8s",
    "splunk-otel-collector",
    "grafana/alloy",
    "grafana/agent",
    "telegraf",
    "metricbeat",
    "infrastructure-bundle",
    "dynatrace/oneagent",
    "netdata/netdata",
];

/// Metrics collectors that scrape the control plane's components (kube-apiserver, etcd, the
/// controller manager, the scheduler, kubelets), wherever they run.
const SCRAPERS: &[&str] = &[
    "prometheus/prometheus",
    "bitnami/prometheus",
    "ose-prometheus",
    "vmagent",
    "victoria-metrics",
    "grafana/alloy",
    "grafana/agent",
    "opentelemetry-collector",
    "opentelemetry-collector-contrib",
    "opentelemetry-collector-k8s",
    "splunk-otel-collector",
    "datadog/agent",
    "datadog/cluster-agent",
    "telegraf",
    "metricbeat",
];

/// Log agents: they run on every node (a DaemonSet) and ship its system, runtime and container
/// logs.
const LOG_AGENTS: &[&str] = &[
    "fluent-bit",
    "fluentd",
    "fluentd-kubernetes-daemonset",
    "fluentd-elasticsearch",
    "timberio/vector",
    "promtail",
    "grafana/alloy",
    "grafana/agent",
    "filebeat",
    "logstash",
    "opentelemetry-collector-contrib",
    "opentelemetry-collector-k8s",
    "splunk-otel-collector",
    "datadog/agent",
    "logging-fluentd",
    "logging-vector",
];

/// Collectors of the API server's events, wherever they run.
const EVENT_COLLECTORS: &[&str] = &[
    "kubernetes-event-exporter",
    "event-exporter",
    "eventrouter",
    "kube-eventer",
    "k8s-event-logger",
    "grafana/alloy",
    "opentelemetry-collector-contrib",
    "opentelemetry-collector-k8s",
    "splunk-otel-collector",
    "datadog/cluster-agent",
];

/// cert-manager's controller.
const CERT_MANAGER: &[&str] = &["cert-manager-controller", "jetstack/cert-manager-controller"];

/// Does a controller run one of `table`'s images, or of the user's `extra`?
fn runs(controller: &ControllerFact, table: &[&str], extra: &[String]) -> bool {
    controller.repositories.iter().any(|repository| {
        table.iter().any(|image| image_is(repository, image)) || extra.iter().any(|image| image_is(repository, image))
    })
}

/// The controllers (of `kinds`, all when empty) that run one of the images.
fn running<'f>(facts: &'f Facts, table: &[&str], extra: &[String], daemonsets_only: bool) -> Vec<&'f ControllerFact> {
    facts
        .controllers
        .iter()
        .filter(|c| !daemonsets_only || c.kind == "DaemonSet")
        .filter(|c| runs(c, table, extra))
        .collect()
}

/// `the input's 3 DaemonSets` / `the input's 12 Deployments, StatefulSets and DaemonSets`.
fn seen(facts: &Facts, daemonsets_only: bool) -> String {
    if daemonsets_only {
        let n = facts.controllers.iter().filter(|c| c.kind == "DaemonSet").count();
        format!("none of the input's {n} DaemonSets")
    } else {
        format!(
            "none of the input's {} Deployments, StatefulSets and DaemonSets",
            facts.controllers.len()
        )
    }
}

/// One agent the cluster must run: the check that says it does not, the images that count,
/// whether only a DaemonSet (on every node) counts, what it is and what is lost without it, and
/// the help.
struct Need {
    check: &'static str,
    images: &'static [&'static str],
    daemonsets_only: bool,
    missing: &'static str,
    help: &'static str,
}

const NODE_METRICS_NEED: Need = Need {
    check: "node-metrics",
    images: NODE_METRICS,
    daemonsets_only: true,
    missing: "a node metrics agent (node-exporter, an OpenTelemetry or Grafana Alloy collector, the Datadog agent, ...), so the nodes' CPU, memory, disk and network use is not collected",
    help: "Run a node metrics agent as a DaemonSet on every node, such as the Prometheus node-exporter; if yours is not known to ra2, add its image to the agent_images parameter of ra2.mon.001.",
};

const SCRAPER_NEED: Need = Need {
    check: "control-plane-metrics",
    images: SCRAPERS,
    daemonsets_only: false,
    missing: "a metrics collector (Prometheus, VictoriaMetrics' vmagent, an OpenTelemetry or Grafana Alloy collector, ...), so nothing scrapes kube-apiserver, etcd, the controller manager, the scheduler and the kubelets",
    help: "Deploy a metrics collector that scrapes the control-plane components and kubelets, such as Prometheus (kube-prometheus-stack); if yours is not known to ra2, add its image to the agent_images parameter of ra2.mon.001.",
};

const LOG_NEED: Need = Need {
    check: "log-agent",
    images: LOG_AGENTS,
    daemonsets_only: true,
    missing: "a log agent (Fluent Bit, Fluentd, Vector, Promtail, an OpenTelemetry or Grafana Alloy collector, ...), so the nodes' system, runtime, kubelet and control-plane logs are not aggregated",
    help: "Run a log agent as a DaemonSet on every node, control-plane nodes included, that ships the journal and the container logs to a central store; if yours is not known to ra2, add its image to the agent_images parameter of ra2.mon.002.",
};

const EVENT_NEED: Need = Need {
    check: "event-collector",
    images: EVENT_COLLECTORS,
    daemonsets_only: false,
    missing: "a collector of Kubernetes events (kubernetes-event-exporter, eventrouter, an OpenTelemetry or Grafana Alloy collector, ...), so events are lost after the API server's one-hour retention",
    help: "Deploy an event collector that stores the API server's events centrally, such as kubernetes-event-exporter; if yours is not known to ra2, add its image to the agent_images parameter of ra2.mon.003.",
};

/// Reports each of `needs` that no controller of a cluster dump meets, at its first Node.
fn require(bundle: &Bundle, cx: &mut BundleContext<'_>, needs: &[Need]) {
    let facts = &bundle.platform;
    let Some(node) = facts.nodes.first().filter(|_| facts.shows_stack()) else {
        return;
    };
    let extra = cx.params::<Agents>().agent_images.clone();
    for need in needs {
        if running(facts, need.images, &extra, need.daemonsets_only).is_empty() {
            cx.report_with_help(
                need.check,
                &node.place,
                format!("{} runs {}", seen(facts, need.daemonsets_only), need.missing),
                need.help,
            );
        }
    }
}

fn metrics(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    require(bundle, cx, &[NODE_METRICS_NEED, SCRAPER_NEED]);
}

fn logs(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    require(bundle, cx, &[LOG_NEED]);
}

fn events(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    require(bundle, cx, &[EVENT_NEED]);
}

/// no-storage-class and no-default-class.
fn storage_classes(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let facts = &bundle.platform;
    let Some(node) = facts.nodes.first().filter(|_| facts.shows_stack()) else {
        return;
    };
    if bundle.storage_classes.is_empty() {
        cx.report(
            "no-storage-class",
            &node.place,
            "the input shows the cluster's nodes and DaemonSets but no StorageClass, so PersistentVolumeClaims cannot be provisioned dynamically",
        );
    } else if !bundle.storage_classes.iter().any(|c| c.default) {
        let names: Vec<&str> = bundle.storage_classes.iter().map(|c| c.name.as_str()).collect();
        cx.report(
            "no-default-class",
            &node.place,
            format!(
                "no StorageClass of the input ({}) is the default (annotation storageclass.kubernetes.io/is-default-class: \"true\"), so a claim without storageClassName stays pending",
                names.join(", ")
            ),
        );
    }
}

/// not-deployed: cert-manager objects exist, the input shows the cluster's workloads, and none
/// runs cert-manager's controller.
fn cert_manager(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let facts = &bundle.platform;
    let Some((place, count)) = facts.certificates.as_ref().filter(|_| facts.shows_stack()) else {
        return;
    };
    let extra = cx.params::<Agents>().agent_images.clone();
    if running(facts, CERT_MANAGER, &extra, false).is_empty() {
        cx.report(
            "not-deployed",
            place,
            format!(
                "the input holds {count} cert-manager object{} (Certificates, Issuers) but {} runs cert-manager's controller, so no certificate is issued or renewed",
                if *count == 1 { "" } else { "s" },
                seen(facts, false)
            ),
        );
    }
}
