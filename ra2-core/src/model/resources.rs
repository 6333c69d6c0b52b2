//! Pod resource semantics the kubelet and scheduler apply: QoS class (ra2-rules.md §2.1),
//! static CPU-manager eligibility (§2.2) and effective pod requests and limits with init and
//! sidecar phases (§2.3). Computed from the model's defaulted container resources, once, and
//! shared by every rule that needs them.

use std::collections::BTreeMap;

use crate::k8s::quantity::Quantity;
use crate::model::{Container, ContainerKind, PodSpec, Resources};

/// A pod's Quality of Service class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QosClass {
    Guaranteed,
    Burstable,
    BestEffort,
}

impl QosClass {
    pub fn as_str(self) -> &'static str {
        match self {
            QosClass::Guaranteed => "Guaranteed",
            QosClass::Burstable => "Burstable",
            QosClass::BestEffort => "BestEffort",
        }
    }
}

/// Only cpu and memory decide QoS.
const QOS_RESOURCES: [&str; 2] = ["cpu", "memory"];

/// Resource name -> sum of positive amounts.
type Totals = BTreeMap<&'static str, Quantity>;

fn add(totals: &mut Totals, name: &'static str, q: &Quantity) {
    let entry = totals.entry(name).or_insert_with(Quantity::zero);
    *entry = entry.saturating_add(q);
}

/// Adds one container's (or the pod's) cpu/memory requests and limits to the totals, the way
/// Kubernetes' `ComputePodQOS` does: only positive amounts count, and a container (or pod)
/// without positive cpu AND memory limits can no longer be Guaranteed.
fn accumulate(resources: &Resources<'_>, requests: &mut Totals, limits: &mut Totals, guaranteed: &mut bool) {
    let mut limits_found = 0;
    for name in QOS_RESOURCES {
        if let Some(q) = resources.request(name).and_then(|a| a.quantity()) {
            if q > &Quantity::zero() {
                add(requests, name, q);
            }
        }
        if let Some(q) = resources.limit(name).and_then(|a| a.quantity()) {
            if q > &Quantity::zero() {
                limits_found += 1;
                add(limits, name, q);
            }
        }
    }
    if limits_found < QOS_RESOURCES.len() {
        *guaranteed = false;
    }
}

fn classify(requests: &Totals, limits: &Totals, guaranteed: bool) -> QosClass {
    if requests.is_empty() && limits.is_empty() {
        return QosClass::BestEffort;
    }
    let all_equal = requests.iter().all(|(name, req)| limits.get(name) == Some(req));
    if guaranteed && all_equal && requests.len() == limits.len() {
        QosClass::Guaranteed
    } else {
        QosClass::Burstable
    }
}

/// The pod's QoS class. With `pod_level_resources` (the PodLevelResources feature, on by
/// default from Kubernetes 1.34) and a pod-level `spec.resources`, that alone decides;
/// otherwise regular and init containers (sidecars included) do. Ephemeral containers never
/// count. Requests defaulted from limits are taken into account, as on a created Pod.
pub fn pod_qos(pod: &PodSpec<'_>, pod_level_resources: bool) -> QosClass {
    let mut requests = Totals::new();
    let mut limits = Totals::new();
    let mut guaranteed = true;
    if let Some(pod_resources) = pod_level_resources.then(|| pod.pod_resources()).flatten() {
        accumulate(&pod_resources, &mut requests, &mut limits, &mut guaranteed);
    } else {
        for container in pod.workload_containers() {
            accumulate(&container.resources, &mut requests, &mut limits, &mut guaranteed);
        }
    }
    classify(&requests, &limits, guaranteed)
}

/// The number of exclusive CPUs the static CPU manager gives `container`: its cpu request
/// when the pod is Guaranteed and the request is a whole number (`Value() * 1000 ==
/// MilliValue()`, both rounded up); 0 otherwise.
pub fn exclusive_cpus(qos: QosClass, container: &Container<'_>) -> i128 {
    if qos != QosClass::Guaranteed || container.kind == ContainerKind::Ephemeral {
        return 0;
    }
    match container.resources.request("cpu").and_then(|a| a.quantity()) {
        Some(cpu) if cpu.is_integer() => cpu.value().max(0),
        _ => 0,
    }
}

/// The pod's effective request or limit for one resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effective {
    /// The amount the scheduler and quota see.
    Bounded(Quantity),
    /// Some contributing container sets no limit, so the pod as a whole has none.
    Unbounded,
}

/// Which side of the resources to aggregate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Requests,
    Limits,
}

/// The pod's effective request or limit for `name`, as Kubernetes' `PodRequests` /
/// `PodLimits` aggregate it: the running phase (regular containers plus every sidecar) against
/// the init phase (each init container plus the sidecars started before it; a sidecar counts
/// together with the sidecars before it), whichever is larger. Pod overhead from a
/// RuntimeClass is not in the manifest and is taken as zero. For limits, a contributing
/// container without a limit makes the result [`Effective::Unbounded`]; a missing request
/// counts as zero.
pub fn pod_effective(pod: &PodSpec<'_>, name: &str, side: Side) -> Effective {
    let amount = |c: &Container<'_>| -> Option<Quantity> {
        let amount = match side {
            Side::Requests => c.resources.request(name),
            Side::Limits => c.resources.limit(name),
        };
        match (amount.and_then(|a| a.quantity()), side) {
            (Some(q), _) => Some(q.clone()),
            (None, Side::Requests) => Some(Quantity::zero()),
            (None, Side::Limits) => None,
        }
    };
    let sum = |a: Option<Quantity>, b: Option<Quantity>| Some(a?.saturating_add(&b?));
    let max = |a: Option<Quantity>, b: Option<Quantity>| match (a, b) {
        (Some(a), Some(b)) => Some(if a >= b { a } else { b }),
        _ => None,
    };
    let mut running = Some(Quantity::zero());
    let mut sidecars = Some(Quantity::zero());
    let mut init_phase = Some(Quantity::zero());
    for container in pod.workload_containers() {
        match container.kind {
            ContainerKind::Regular => running = sum(running, amount(container)),
            ContainerKind::Sidecar => {
                running = sum(running, amount(container));
                sidecars = sum(sidecars, amount(container));
                init_phase = max(init_phase, sidecars.clone());
            }
            ContainerKind::Init => init_phase = max(init_phase, sum(amount(container), sidecars.clone())),
            ContainerKind::Ephemeral => {}
        }
    }
    max(running, init_phase).map_or(Effective::Unbounded, Effective::Bounded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Object;
    use crate::parse::doc::{Limits, read_chunk};
    use crate::parse::source::chunks;
    use crate::parse::view::Located;

    fn with_pod<T>(spec: &str, f: impl FnOnce(&PodSpec<'_>) -> T) -> T {
        let text = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n{spec}");
        let result = read_chunk(chunks(&text, 0, 0)[0], false, Limits::default());
        let doc = &result.docs[0];
        let object = Object::new(Located::root(doc));
        f(object.pod_spec().unwrap())
    }

    fn qos(spec: &str) -> QosClass {
        with_pod(spec, |p| pod_qos(p, false))
    }

    #[test]
    fn qos_follows_kubernetes() {
        // Limits alone: requests default to them (§3.4).
        assert_eq!(
            qos("  containers: [{name: a, resources: {limits: {cpu: 2, memory: 1Gi}}}]\n"),
            QosClass::Guaranteed
        );
        assert_eq!(
            qos("  containers: [{name: a, resources: {requests: {cpu: 2, memory: 1Gi}}}]\n"),
            QosClass::Burstable
        );
        assert_eq!(qos("  containers: [{name: a}]\n"), QosClass::BestEffort);
        // An init container without resources makes the pod Burstable (§3.8).
        assert_eq!(
            qos(
                "  initContainers: [{name: i}]\n  containers: [{name: a, resources: {limits: {cpu: 2, memory: 1Gi}}}]\n"
            ),
            QosClass::Burstable
        );
        // Only cpu and memory count; a GPU-only pod is BestEffort.
        assert_eq!(
            qos("  containers: [{name: a, resources: {limits: {nvidia.com/gpu: 1}}}]\n"),
            QosClass::BestEffort
        );
        // Numeric equality: 1Gi == 1024Mi, 1000m == 1.
        assert_eq!(
            qos(
                "  containers: [{name: a, resources: {requests: {cpu: 1000m, memory: 1024Mi}, limits: {cpu: 1, memory: 1Gi}}}]\n"
            ),
            QosClass::Guaranteed
        );
        // Zero pairs count as absent.
        assert_eq!(
            qos("  containers: [{name: a, resources: {limits: {cpu: 0, memory: 0}}}]\n"),
            QosClass::BestEffort
        );
    }

    #[test]
    fn pod_level_resources_decide_when_enabled() {
        let spec = "  resources: {limits: {cpu: 2, memory: 1Gi}}\n  containers: [{name: a}]\n";
        assert_eq!(with_pod(spec, |p| pod_qos(p, true)), QosClass::Guaranteed);
        assert_eq!(with_pod(spec, |p| pod_qos(p, false)), QosClass::BestEffort);
    }

    #[test]
    fn exclusive_cpus_need_guaranteed_and_integral() {
        let spec = "  containers:\n  - {name: dp, resources: {limits: {cpu: 4000m, memory: 1Gi}}}\n  - {name: ctl, resources: {limits: {cpu: 1.5, memory: 1Gi}}}\n";
        let cpus = with_pod(spec, |p| {
            let q = pod_qos(p, false);
            p.containers().iter().map(|c| exclusive_cpus(q, c)).collect::<Vec<_>>()
        });
        assert_eq!(cpus, vec![4, 0]);
    }

    #[test]
    fn effective_requests_with_init_and_sidecars() {
        // Sidecar s1 (100m), init i (1), sidecar s2 (200m), regular a (500m) and b (300m).
        let spec = "  initContainers:\n  - {name: s1, restartPolicy: Always, resources: {requests: {cpu: 100m}}}\n  - {name: i, resources: {requests: {cpu: 1}}}\n  - {name: s2, restartPolicy: Always, resources: {requests: {cpu: 200m}}}\n  containers:\n  - {name: a, resources: {requests: {cpu: 500m}}}\n  - {name: b, resources: {requests: {cpu: 300m}}}\n";
        let effective = with_pod(spec, |p| pod_effective(p, "cpu", Side::Requests));
        // Init phase: max(100m, 1 + 100m, 100m + 200m) = 1100m; running: 500m + 300m + 300m = 1100m.
        assert_eq!(effective, Effective::Bounded(Quantity::parse("1100m").unwrap()));
        let limits = with_pod(spec, |p| pod_effective(p, "cpu", Side::Limits));
        assert_eq!(limits, Effective::Unbounded);
    }
}
