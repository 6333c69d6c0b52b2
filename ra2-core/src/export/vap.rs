//! `ra2 export vap`: ra2's single-object workload checks as `admissionregistration.k8s.io/v1`
//! ValidatingAdmissionPolicies and their bindings, generated from the catalogue and the run's
//! settings (edition, select/ignore, severities, exemptions, `fail-on`).
//!
//! Which checks are exported is data: [`EXPORTED`] holds the CEL of each exported check (rule
//! and check as in the catalogue), [`NOT_EXPORTED`] says why every other check is not. A test
//! keeps both equal to the catalogue.
//!
//! The workload policies match Pods and every workload kind whose pod template ra2 judges
//! (CREATE and UPDATE), and reach the pod spec through shared `variables`; others match
//! ConfigMaps, Services, PersistentVolumes, StorageClasses, and every resource at every version
//! (the apiVersion checks, read from the request's own version with `matchPolicy: Exact`). There
//! is one policy and one binding per kind of object and action: checks at or above `fail-on` deny
//! (`[Deny]`), the others warn (`[Warn, Audit]`). Every message starts with `<rule>/<check>: `.
//! Tables ra2's rules read (API versions, volume sources, profile names) are written into the CEL
//! from the same data, never copied.
//!
//! CEL cost: every expression walks the containers (or volumes) once with `exists`, the
//! message's `filter` walk runs only when the check fails, and the shared variables are
//! evaluated lazily, once per admission; the nested walks are over short lists of constants
//! (capabilities, the runtime sockets and their two spellings, a path's elements) or a map's
//! keys (labels, node selectors). The all-resources policy, which every request passes through,
//! reads the request's group, version and kind and the object's name, labels and suppression
//! annotations (map lookups), and a pod's or workload's container images only for Tiller.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use std::fmt::Write as _;

use crate::catalogue::{self, Edition};
use crate::config::{Config, Exemption, selector_matches};

/// The API group and version of the objects written.
pub const API_VERSION: &str = "admissionregistration.k8s.io/v1";
/// The label every object written carries.
pub const MANAGED_BY: (&str, &str) = ("app.kubernetes.io/managed-by", "ra2");
/// ValidatingAdmissionPolicy is GA (`admissionregistration.k8s.io/v1`) from Kubernetes 1.30.
pub const MIN_KUBERNETES_MINOR: u32 = 30;

/// The containers a check looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Set {
    /// Init (and sidecar), regular and ephemeral: `pod.containers()`.
    All,
    /// Init (and sidecar) and regular: `pod.workload_containers()`.
    Workload,
    /// Sidecar (init with `restartPolicy: Always`) and regular: the containers that keep running.
    Running,
}

impl Set {
    fn variable(self) -> &'static str {
        match self {
            Set::All => "variables.containers",
            Set::Workload => "variables.workload",
            Set::Running => "variables.running",
        }
    }
}

/// What a check's CEL tests.
#[derive(Clone, Copy, Debug)]
enum Test {
    /// Fires for each container `c` of the set for which `when` holds; the message is `what`
    /// followed by the containers' names.
    Container {
        set: Set,
        when: &'static str,
        what: &'static str,
    },
    /// Fires for each pod volume `v` for which `when` holds; the message names the volumes.
    Volume { when: &'static str, what: &'static str },
    /// Fires once when `when` (over the variables) holds.
    Pod { when: &'static str, what: &'static str },
    /// Like `Container`, the message naming each container with `shows` (CEL over `c`).
    Showing {
        set: Set,
        when: &'static str,
        what: &'static str,
        shows: &'static str,
    },
    /// Fires once when `when` (over `object`) holds, on an object of another kind.
    Object {
        kind: Kind,
        when: &'static str,
        what: &'static str,
    },
    /// Fires once when `when` (over the request's group, version and kind: the variables of
    /// [`Kind::Api`]) holds; the message names the apiVersion, then says `what`.
    Api { when: &'static str, what: &'static str },
}

/// The objects a policy matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Pods and every workload kind whose pod template ra2 judges.
    Workload,
    /// The same objects, for the checks that only fire on a pod with special resources (see
    /// [`SPECIAL_RESOURCES`]): their policy's `matchConditions` skip a pod of cpu, memory and
    /// ephemeral storage alone, so a typical Pod does not pay for them.
    Resources,
    /// Core v1 ConfigMaps.
    ConfigMap,
    /// Core v1 Services.
    Service,
    /// Core v1 PersistentVolumes.
    PersistentVolume,
    /// Core v1 PersistentVolumeClaims.
    PersistentVolumeClaim,
    /// `storage.k8s.io/v1` StorageClasses.
    StorageClass,
    /// Every resource at every version (the apiVersion checks, and ra2.pkg.001's Tiller, which
    /// any kind of object can show).
    Api,
}

/// An exported check: its rule and check (as in the catalogue) and its CEL.
#[derive(Clone, Copy, Debug)]
pub struct Exported {
    pub rule: &'static str,
    pub check: &'static str,
    test: Test,
}

impl Exported {
    /// The objects the check's policy matches.
    pub fn kind(&self) -> Kind {
        match self.test {
            Test::Object { kind, .. } => kind,
            Test::Api { .. } => Kind::Api,
            _ if SPECIAL_RESOURCES
                .iter()
                .any(|(rule, check)| *rule == self.rule && (check.is_empty() || *check == self.check)) =>
            {
                Kind::Resources
            }
            _ => Kind::Workload,
        }
    }
}

/// The checks (rule, and check or every check of it) that fire only on a pod with special
/// resources: a container or pod-level resource other than cpu, memory and ephemeral-storage
/// (huge pages, devices, any extended or invalid name), an emptyDir of a HugePages medium, a
/// profile selector or node affinity, or the CPU-pinning opt-in annotation
/// ([`special_resources_cel`]). The API server plans every expression of a policy it
/// evaluates on each request, and these are the largest; in a policy of their own, behind
/// `matchConditions`, a typical Pod skips them.
pub static SPECIAL_RESOURCES: &[(&str, &str)] = &[
    ("ra2.k8s.009", ""),
    ("ra2.ch.001", ""),
    ("ra2.app.009", "extended-resource"),
];

const fn showing(
    rule: &'static str,
    check: &'static str,
    set: Set,
    when: &'static str,
    what: &'static str,
    shows: &'static str,
) -> Exported {
    Exported {
        rule,
        check,
        test: Test::Showing { set, when, what, shows },
    }
}

const fn object(
    rule: &'static str,
    check: &'static str,
    kind: Kind,
    when: &'static str,
    what: &'static str,
) -> Exported {
    Exported {
        rule,
        check,
        test: Test::Object { kind, when, what },
    }
}

const fn api(rule: &'static str, check: &'static str, when: &'static str, what: &'static str) -> Exported {
    Exported {
        rule,
        check,
        test: Test::Api { when, what },
    }
}

const fn container(
    rule: &'static str,
    check: &'static str,
    set: Set,
    when: &'static str,
    what: &'static str,
) -> Exported {
    Exported {
        rule,
        check,
        test: Test::Container { set, when, what },
    }
}

const fn pod(rule: &'static str, check: &'static str, when: &'static str, what: &'static str) -> Exported {
    Exported {
        rule,
        check,
        test: Test::Pod { when, what },
    }
}

const fn volume(rule: &'static str, check: &'static str, when: &'static str, what: &'static str) -> Exported {
    Exported {
        rule,
        check,
        test: Test::Volume { when, what },
    }
}

// The container's own securityContext fields (`privileged`, `allowPrivilegeEscalation` and
// `capabilities` have no pod-level form; see `model::Security`).
const PRIVILEGED: &str = "c.?securityContext.?privileged.orValue(false) == true";
/// ra2.app.003's baseline (the Pod Security Standards baseline set, `process::BASELINE_CAPABILITIES`).
const OUTSIDE_BASELINE: &str = "c.?securityContext.?capabilities.?add.orValue([]).exists(x, !((x.upperAscii().startsWith('CAP_') ? x.upperAscii().substring(4) : x.upperAscii()) in ['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']))";
const HOST_NETWORK: &str = "variables.spec.?hostNetwork.orValue(false) == true";
const HOST_PID: &str = "variables.spec.?hostPID.orValue(false) == true";
const HOST_IPC: &str = "variables.spec.?hostIPC.orValue(false) == true";
const WRITABLE_ROOT: &str = "c.?securityContext.?readOnlyRootFilesystem.orValue(false) != true";
const HOST_PATH_VOLUME: &str = "v.?hostPath.hasValue()";

/// `hardcoded_ips::whole_address`: a string that is one IP address (surrounding white space
/// allowed), not unspecified, loopback or an IPv4 netmask (255.x.x.x with contiguous ones).
/// Kubernetes' `isIP` refuses IPv4-mapped IPv6 addresses, which ra2 reads as the IPv4 address:
/// such an alias is not judged here.
macro_rules! specific_address {
    ($s:literal) => {
        concat!(
            "type(", $s, ") == string && isIP(", $s, ".trim()) && !ip(", $s, ".trim()).isUnspecified() && !ip(", $s,
            ".trim()).isLoopback() && !(", $s, ".trim() in [",
            "'255.0.0.0', '255.128.0.0', '255.192.0.0', '255.224.0.0', '255.240.0.0', '255.248.0.0', '255.252.0.0', '255.254.0.0', ",
            "'255.255.0.0', '255.255.128.0', '255.255.192.0', '255.255.224.0', '255.255.240.0', '255.255.248.0', '255.255.252.0', '255.255.254.0', ",
            "'255.255.255.0', '255.255.255.128', '255.255.255.192', '255.255.255.224', '255.255.255.240', '255.255.255.248', '255.255.255.252', '255.255.255.254', ",
            "'255.255.255.255'])"
        )
    };
}

const MAPPED_ADDRESS_NOTE: &str =
    "an IPv4-mapped IPv6 address (::ffff:10.0.0.1), which Kubernetes' isIP refuses, is not judged by the policy";

/// `mounts::runtime_path` of a host path, which the API server keeps free of `..` elements: rooted,
/// without empty or `.` elements.
macro_rules! clean_path {
    ($path:literal) => {
        concat!("'/' + ", $path, ".split('/').filter(e, e != '' && e != '.').join('/')")
    };
}
/// ra2.app.028's `exposes`: the cleaned host path `p` is a socket of the `sockets` parameter, in
/// either spelling of `/var/run` and `/run`, or a directory above it.
macro_rules! exposes_socket {
    () => {
        concat!(
            "@sockets@.exists(s, [s, s.startsWith('/var/run/') ? '/run/' + s.substring(9) : (s.startsWith('/run/') ? '/var/run/' + s.substring(5) : s)]",
            ".exists(x, x == p || p == '/' || x.startsWith(p + '/')))"
        )
    };
}

/// `names::is_qualified_name`: an optional DNS-1123 subdomain prefix (at most 253) and `/`, then a
/// name of at most 63 alphanumerics, `-`, `_` and `.` that starts and ends alphanumeric.
macro_rules! qualified_name {
    ($key:literal) => {
        concat!(
            "(", $key, ".matches('^(?:[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:[.][a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$')",
            " && (!", $key, ".contains('/') || size(", $key, ".split('/')[0]) <= 253))"
        )
    };
}

/// ra2.app.034 judges an image that is written and not a placeholder a tool fills in
/// (`image_tags::is_placeholder`).
macro_rules! image_judged {
    () => {
        "c.?image.orValue('') != '' && !(c.image.contains('{{') && c.image.contains('}}')) && !c.image.contains('$') && !c.image.contains('<') && !c.image.contains('>') && !c.image.contains('://')"
    };
}
/// `names::image_reference(..).valid`: Docker's reference grammar (a first component with `.`
/// or `:`, or upper case, is a registry), a tag, a sha256/384/512 digest, and a repository of at
/// most 255 characters. Written without backslashes (`[.]`, `[[]`).
macro_rules! image_valid {
    () => {
        concat!(
    "c.image.matches('^(?:",
    // registry: host (domain components or a bracketed IPv6 literal), optional port, then the path
    "(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:[.][a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|[[][0-9a-fA-F:]+[]])(?::[0-9]+)?",
    "/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*",
    // no registry: a first component without a dot, then more
    "|[a-z0-9]+(?:(?:_|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)+",
    // one component
    "|[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*",
    ")(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@(?:sha256:[0-9a-f]{64}|sha384:[0-9a-f]{96}|sha512:[0-9a-f]{128}))?$')",
    " && size(c.image.split('@')[0]) - size(c.image.split('@')[0].find(':[^:/]*$')) <= 255"
)
    };
}
/// ra2.stg.007/static-binding of the claim `$q` (`ClaimView::volume_name` or `selector`): it
/// names a volume, or selects volumes by label.
macro_rules! claim_pinned {
    ($q:literal) => {
        concat!(
            "(", $q, ".?spec.?volumeName.orValue('') != '' || [", $q,
            ".?spec.?selector.orValue({})].exists(s, size(s.?matchLabels.orValue({})) > 0 || size(s.?matchExpressions.orValue([])) > 0))"
        )
    };
}
/// ra2.stg.007/empty-class of the claim `$q`: not pinned, and its effective class
/// (`ClaimView::class`: the annotation wins over `storageClassName`) is the empty string.
macro_rules! claim_empty_class {
    ($q:literal) => {
        concat!(
            "(!",
            claim_pinned!($q),
            " && ('volume.beta.kubernetes.io/storage-class' in ",
            $q,
            ".?metadata.?annotations.orValue({}) ? ",
            $q,
            ".metadata.annotations['volume.beta.kubernetes.io/storage-class'] == '' : ",
            $q,
            ".?spec.?storageClassName.orValue('-') == ''))"
        )
    };
}
/// The claims a workload makes besides its pod's (`storage::object_claims`): a StatefulSet's
/// volumeClaimTemplates, as a CEL list.
macro_rules! claim_templates {
    () => {
        "(object.kind == 'StatefulSet' && object.apiVersion.startsWith('apps/') ? object.?spec.?volumeClaimTemplates.orValue([]) : [])"
    };
}
/// ra2.k8s.009 judges a pod only when it is network-intensive by its own signals
/// (`variables.networkIntensive`, `profile::local_signal`) or its pod metadata carries the
/// `opt_in_annotation` parameter with the value "true".
macro_rules! cpu_pinning_gate {
    () => {
        concat!(
            "((@opt_in_annotation@ != '' && [variables.template.?metadata.?annotations.orValue({})].exists(a, @opt_in_annotation@ in a && a[@opt_in_annotation@] == 'true'))",
            " || variables.networkIntensive)"
        )
    };
}
/// `Quantity::is_integer` of the CEL quantity `$q` (see [`whole_cpu_request!`]).
macro_rules! whole {
    ($($q:literal),+) => {
        concat!(
            "(", $($q),+, ".isInteger() || (", $($q),+, ".isLessThan(quantity('1P')) && ", $($q),+, ".compareTo(quantity('0')) >= 0 && ",
            "[int(", $($q),+, ".asApproximateFloat())].exists(n, quantity(string(n)).compareTo(", $($q),+, ") == 0 || quantity(string(n + 1)).compareTo(", $($q),+, ") == 0)))"
        )
    };
}
/// `accelerators::quantity_problem` of the amount `$v` (null is zero, as ra2 reads it): not a
/// quantity, negative, or not a whole number.
macro_rules! device_count_problem {
    ($v:literal) => {
        concat!(
            "(",
            $v,
            " != null && (!isQuantity(string(",
            $v,
            ")) || quantity(string(",
            $v,
            ")).isLessThan(quantity('0')) || !",
            whole!("quantity(string(", $v, "))"),
            "))"
        )
    };
}
/// `hugepages::page_size(..)` is Ok for the size `$size` (a CEL string): a quantity that is a
/// positive whole number of bytes (Kubernetes' `isInteger()` misses unreduced whole numbers such
/// as `2000000000n`, so below 1P the approximation's whole numbers count too, as in
/// [`whole_cpu_request!`]).
macro_rules! page_size_ok {
    ($size:literal) => {
        concat!(
            "(isQuantity(",
            $size,
            ") && quantity(",
            $size,
            ").isGreaterThan(quantity('0')) && (quantity(",
            $size,
            ").isInteger() || (quantity(",
            $size,
            ").isLessThan(quantity('1P')) && ",
            "[int(quantity(",
            $size,
            ").asApproximateFloat())].exists(n, quantity(string(n)).compareTo(quantity(",
            $size,
            ")) == 0 || quantity(string(n + 1)).compareTo(quantity(",
            $size,
            ")) == 0))))"
        )
    };
}
/// `names::classify_resource_name(k)` is `HugePages`: a qualified name without a prefix that
/// starts with `hugepages-`.
macro_rules! huge_page_name {
    ($k:literal) => {
        concat!(
            "(",
            $k,
            ".startsWith('hugepages-') && !",
            $k,
            ".contains('/') && ",
            qualified_name!($k),
            ")"
        )
    };
}
/// ra2.ch.001/request-limit on the resources `r` (a container's, or the pod's): a huge-page
/// request written without a limit, or with a limit of another value.
macro_rules! huge_page_request_without_equal_limit {
    () => {
        concat!(
            "r.?requests.orValue({}).exists(k, ", huge_page_name!("k"), " && (!(k in r.?limits.orValue({})) || ",
            "(isQuantity(string(r.requests[k])) && isQuantity(string(r.limits[k])) && quantity(string(r.requests[k])).compareTo(quantity(string(r.limits[k]))) != 0)))"
        )
    };
}
/// Container `c`'s cpu request (defaulted from its limit), as a quantity; only after
/// [`cpu_request_ok!`].
macro_rules! cpu_request {
    () => {
        "quantity(string(c.?resources.?requests.?cpu.or(c.?resources.?limits.?cpu).value()))"
    };
}
macro_rules! cpu_request_ok {
    () => {
        "(c.?resources.?requests.?cpu.or(c.?resources.?limits.?cpu).hasValue() && isQuantity(string(c.?resources.?requests.?cpu.or(c.?resources.?limits.?cpu).value())))"
    };
}
/// `Quantity::is_integer` of container `c`'s cpu request: Kubernetes' `isInteger()` is false for
/// a whole number whose factors were not reduced (`4000m` in an object the API server keeps as
/// written, such as a custom resource), so a quantity below 1P also counts when it equals the
/// whole number its approximation rounds to (`n` or `n + 1`, `n` the truncated approximation).
macro_rules! whole_cpu_request {
    () => {
        concat!(
            "(",
            cpu_request!(),
            ".isInteger() || (",
            cpu_request!(),
            ".isLessThan(quantity('1P')) && ",
            cpu_request!(),
            ".compareTo(quantity('0')) >= 0 && ",
            "[int(",
            cpu_request!(),
            ".asApproximateFloat())].exists(n, quantity(string(n)).compareTo(",
            cpu_request!(),
            ") == 0 || quantity(string(n + 1)).compareTo(",
            cpu_request!(),
            ") == 0)))"
        )
    };
}
/// The whole number of CPUs of a [`whole_cpu_request!`].
macro_rules! cpu_request_value {
    () => {
        concat!(
            "(",
            cpu_request!(),
            ".isInteger() ? ",
            cpu_request!(),
            ".asInteger() : ",
            "[int(",
            cpu_request!(),
            ".asApproximateFloat())].map(n, quantity(string(n)).compareTo(",
            cpu_request!(),
            ") == 0 ? n : n + 1)[0])"
        )
    };
}
/// `resources::exclusive_cpus(..) > 0` for container `c` of a Guaranteed pod: its cpu request
/// (defaulted from its limit) is a whole number of at least one.
macro_rules! pinned_cpus {
    () => {
        concat!(
            "(",
            cpu_request_ok!(),
            " && ",
            cpu_request!(),
            ".isGreaterThan(quantity('0')) && ",
            whole_cpu_request!(),
            ")"
        )
    };
}
const SHOW_IMAGE: &str = "' (image \"' + c.image + '\")'";

/// ra2.app.032: a cpu or memory limit missing (unless the pod-level limit counts: Kubernetes 1.34
/// on, `variables.podLimits`) or zero.
const NO_LIMIT: &str = concat!(
    "(!c.?resources.?limits.?cpu.hasValue() && !('cpu' in variables.podLimits)) || ",
    "(!c.?resources.?limits.?memory.hasValue() && !('memory' in variables.podLimits)) || ",
    "(c.?resources.?limits.?cpu.hasValue() && quantity(string(c.resources.limits.cpu)).compareTo(quantity('0')) == 0) || ",
    "(c.?resources.?limits.?memory.hasValue() && quantity(string(c.resources.limits.memory)).compareTo(quantity('0')) == 0)"
);

/// ra2.ch.006: no cpu limit (unless a pod-level one counts: Kubernetes 1.34 on,
/// `variables.podLimits`), or a zero one.
const NO_CPU_LIMIT: &str = concat!(
    "(!c.?resources.?limits.?cpu.hasValue() && !('cpu' in variables.podLimits && quantity(string(variables.podLimits.cpu)).compareTo(quantity('0')) > 0)) || ",
    "(c.?resources.?limits.?cpu.hasValue() && quantity(string(c.resources.limits.cpu)).compareTo(quantity('0')) == 0)"
);

/// A Kubernetes-owned group (`api_versions::owner`) at an alpha version, or at no valid version.
const K8S_ALPHA: &str = "variables.owner == 'kubernetes' && variables.level in ['alpha', 'invalid']";
const THIRD_PARTY_ALPHA: &str = "variables.owner == 'third-party' && variables.level == 'alpha'";
const ALPHA_WHAT: &str = "is an alpha API (or not a valid Kubernetes API version)";
const THIRD_PARTY_ALPHA_WHAT: &str = "is an alpha version of a third-party API";

/// Every exported check, by rule.
pub static EXPORTED: &[Exported] = &[
    container(
        "ra2.app.001",
        "readonly-root",
        Set::Workload,
        WRITABLE_ROOT,
        "securityContext.readOnlyRootFilesystem is not true",
    ),
    container(
        "ra2.app.002",
        "unmasked-proc",
        Set::All,
        "c.?securityContext.?procMount.orValue('') == 'Unmasked'",
        "securityContext.procMount is Unmasked",
    ),
    container(
        "ra2.app.003",
        "privileged",
        Set::All,
        PRIVILEGED,
        "securityContext.privileged is true",
    ),
    container(
        "ra2.app.003",
        "privilege-escalation",
        Set::All,
        "!variables.windows && !(c.?securityContext.?allowPrivilegeEscalation.orValue(true) == false)",
        "securityContext.allowPrivilegeEscalation is not false",
    ),
    container(
        "ra2.app.003",
        "capabilities",
        Set::All,
        OUTSIDE_BASELINE,
        "securityContext.capabilities.add holds a capability outside the baseline set",
    ),
    pod(
        "ra2.app.003",
        "seccomp-unconfined",
        "variables.containers.exists(c, c.?securityContext.?seccompProfile.?type.orValue('') == 'Unconfined') || (variables.spec.?securityContext.?seccompProfile.?type.orValue('') == 'Unconfined' && variables.workload.exists(c, !c.?securityContext.?seccompProfile.hasValue()))",
        "seccompProfile type Unconfined leaves a container without a seccomp filter",
    ),
    container(
        "ra2.app.003",
        "privileged-escalation-conflict",
        Set::All,
        "c.?securityContext.?allowPrivilegeEscalation.orValue(true) == false && (c.?securityContext.?privileged.orValue(false) == true || 'CAP_SYS_ADMIN' in c.?securityContext.?capabilities.?add.orValue([]))",
        "securityContext.allowPrivilegeEscalation is false beside privileged or CAP_SYS_ADMIN",
    ),
    pod(
        "ra2.app.004",
        "host-network",
        HOST_NETWORK,
        "spec.hostNetwork is true, so the pod sees the node's host name",
    ),
    container(
        "ra2.app.005",
        "run-as-root",
        Set::Workload,
        "!variables.windows && (c.?securityContext.?runAsUser.or(variables.spec.?securityContext.?runAsUser).orValue(-1) == 0 || (!c.?securityContext.?runAsUser.or(variables.spec.?securityContext.?runAsUser).hasValue() && c.?securityContext.?runAsNonRoot.or(variables.spec.?securityContext.?runAsNonRoot).orValue(false) != true))",
        "runAsUser is 0, or neither runAsUser nor runAsNonRoot: true is set (the image decides the user)",
    ),
    container(
        "ra2.app.005",
        "non-root-conflict",
        Set::Workload,
        "!variables.windows && c.?securityContext.?runAsUser.or(variables.spec.?securityContext.?runAsUser).orValue(-1) == 0 && c.?securityContext.?runAsNonRoot.or(variables.spec.?securityContext.?runAsNonRoot).orValue(false) == true",
        "runAsNonRoot is true but runAsUser is 0",
    ),
    volume("ra2.app.007", "host-path", HOST_PATH_VOLUME, "hostPath volume"),
    object(
        "ra2.app.007",
        "pv",
        Kind::PersistentVolume,
        "object.?spec.?hostPath.hasValue()",
        "the persistent volume is backed by a host path (spec.hostPath)",
    ),
    pod(
        "ra2.app.008",
        "control-plane-selector",
        concat!(
            "variables.spec.?nodeSelector.orValue({}).exists(k, k in ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master']) || ",
            "variables.spec.?affinity.?nodeAffinity.?requiredDuringSchedulingIgnoredDuringExecution.?nodeSelectorTerms.orValue([]).exists(t, ",
            "t.?matchExpressions.orValue([]).exists(e, e.?key.orValue('') in ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'] && e.?operator.orValue('') in ['In', 'Exists']))"
        ),
        "spec.nodeSelector or a required node affinity selects control-plane nodes",
    ),
    pod(
        "ra2.app.008",
        "control-plane-toleration",
        "variables.spec.?tolerations.orValue([]).exists(t, t.?key.orValue('') in ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'])",
        "spec.tolerations tolerates the control-plane taint",
    ),
    pod(
        "ra2.app.008",
        "wildcard-toleration",
        "variables.spec.?tolerations.orValue([]).exists(t, t.?key.orValue('') == '' && t.?operator.orValue('') == 'Exists' && t.?effect.orValue('') in ['', 'NoSchedule'])",
        "spec.tolerations has operator Exists without a key, which tolerates every (NoSchedule) taint",
    ),
    pod(
        "ra2.app.008",
        "node-name",
        concat!(
            "variables.spec.?nodeName.orValue('') != '' && !(object.kind == 'Pod' && (",
            "object.metadata.?ownerReferences.orValue([]).exists(o, o.?controller.orValue(false) == true) || ",
            "'kubernetes.io/config.mirror' in object.metadata.?annotations.orValue({})))"
        ),
        "spec.nodeName binds the pod to a named node, bypassing the scheduler",
    ),
    pod(
        "ra2.app.009",
        "privileged-device",
        concat!(
            "variables.containers.exists(c, c.?securityContext.?privileged.orValue(false) == true) || ",
            // `/dev` or below it once empty and `.` elements are dropped (`..` the API server refuses
            // in a hostPath), or a device type.
            "variables.spec.?volumes.orValue([]).exists(v, v.?hostPath.hasValue() && ",
            "(v.hostPath.?path.orValue('').matches('^/(?:[.]?/)*dev(?:/|$)') || v.hostPath.?type.orValue('') in ['CharDevice', 'BlockDevice']))"
        ),
        "a privileged container, or a hostPath volume under /dev or of a device type, reaches node devices directly",
    ),
    container(
        "ra2.app.009",
        "extended-resource",
        Set::Workload,
        concat!(
            // p: the container's limits and requests (the request written, or defaulted by the
            // API server on a Pod: then equal to the limit).
            "[[c.?resources.?limits.orValue({}), c.?resources.?requests.orValue({})]].exists(p, p.exists(m, m.exists(k, ",
            // `names::classify_resource_name` is Invalid ...
            "(!(k in ['cpu', 'memory', 'ephemeral-storage']) && (!",
            qualified_name!("k"),
            " || (!k.contains('/') && !k.startsWith('hugepages-')) || (k.contains('/') && !k.contains('kubernetes.io/') && (k.startsWith('requests.') || !",
            qualified_name!("('requests.' + k)"),
            ")))) || ",
            // ... or Extended, with an amount that is no device count, a request without a limit,
            // or a request other than the limit.
            "(k.contains('/') && ",
            qualified_name!("k"),
            " && !k.contains('kubernetes.io/') && !k.startsWith('requests.') && ",
            qualified_name!("('requests.' + k)"),
            " && ((k in p[0] && ",
            device_count_problem!("p[0][k]"),
            ") || (k in p[1] && ",
            device_count_problem!("p[1][k]"),
            ") || (k in p[1] && !(k in p[0])) || ",
            "(k in p[1] && k in p[0] && !",
            device_count_problem!("p[0][k]"),
            " && !",
            device_count_problem!("p[1][k]"),
            " && (p[1][k] == null ? quantity('0') : quantity(string(p[1][k]))).compareTo(p[0][k] == null ? quantity('0') : quantity(string(p[0][k]))) != 0))))))"
        ),
        "a resource name the API server refuses in containers, or a device count that is no whole number, a request without a limit, or a request other than its limit",
    ),
    pod(
        "ra2.app.013",
        "rolling-update",
        "(object.kind == 'Deployment' && object.?spec.?strategy.?type.orValue('') == 'Recreate') || (object.kind in ['StatefulSet', 'DaemonSet'] && object.?spec.?updateStrategy.?type.orValue('') == 'OnDelete')",
        "the update strategy (Recreate, OnDelete) does not roll a new version out pod by pod",
    ),
    api("ra2.app.016", "alpha-api", K8S_ALPHA, ALPHA_WHAT),
    api(
        "ra2.app.016",
        "third-party-alpha",
        concat!(
            "variables.owner == 'third-party' && variables.level == 'alpha'",
            " && !(variables.group in variables.requiredByRa2)"
        ),
        THIRD_PARTY_ALPHA_WHAT,
    ),
    volume(
        "ra2.app.025",
        "host-path",
        HOST_PATH_VOLUME,
        "hostPath volume keeps data on one node",
    ),
    object(
        "ra2.app.025",
        "local-pv",
        Kind::PersistentVolume,
        "object.?spec.?local.hasValue()",
        "the persistent volume is a local volume on one node's disk (spec.local)",
    ),
    object(
        "ra2.app.025",
        "no-provisioner",
        Kind::StorageClass,
        "object.?provisioner.orValue('') == 'kubernetes.io/no-provisioner'",
        "the storage class has no provisioner (kubernetes.io/no-provisioner), the class for pre-created local volumes",
    ),
    container(
        "ra2.app.026",
        "liveness-probe",
        Set::Running,
        concat!(
            "!(object.kind in ['Job', 'CronJob'] || variables.spec.?restartPolicy.orValue('') in ['Never', 'OnFailure']) && ",
            "(!c.?livenessProbe.hasValue() || !['exec', 'httpGet', 'tcpSocket', 'grpc'].exists(h, h in c.livenessProbe))"
        ),
        "no livenessProbe with a handler",
    ),
    container(
        "ra2.app.026",
        "run-to-completion",
        Set::Running,
        concat!(
            "(object.kind in ['Job', 'CronJob'] || variables.spec.?restartPolicy.orValue('') in ['Never', 'OnFailure']) && ",
            "(!c.?livenessProbe.hasValue() || !['exec', 'httpGet', 'tcpSocket', 'grpc'].exists(h, h in c.livenessProbe))"
        ),
        "no livenessProbe with a handler (the pod runs to completion)",
    ),
    container(
        "ra2.app.027",
        "readiness-probe",
        Set::Running,
        concat!(
            "!(object.kind in ['Job', 'CronJob'] || variables.spec.?restartPolicy.orValue('') in ['Never', 'OnFailure']) && ",
            "(!c.?readinessProbe.hasValue() || !['exec', 'httpGet', 'tcpSocket', 'grpc'].exists(h, h in c.readinessProbe))"
        ),
        "no readinessProbe with a handler",
    ),
    container(
        "ra2.app.027",
        "run-to-completion",
        Set::Running,
        concat!(
            "(object.kind in ['Job', 'CronJob'] || variables.spec.?restartPolicy.orValue('') in ['Never', 'OnFailure']) && ",
            "(!c.?readinessProbe.hasValue() || !['exec', 'httpGet', 'tcpSocket', 'grpc'].exists(h, h in c.readinessProbe))"
        ),
        "no readinessProbe with a handler (the pod runs to completion)",
    ),
    volume(
        "ra2.app.028",
        "runtime-socket",
        concat!(
            "v.?hostPath.?path.hasValue() && [",
            clean_path!("v.hostPath.path"),
            "].exists(p, ",
            exposes_socket!(),
            ")"
        ),
        "hostPath volume exposes a container runtime socket (or a directory above it)",
    ),
    object(
        "ra2.app.028",
        "runtime-socket",
        Kind::PersistentVolume,
        concat!(
            "object.?spec.?hostPath.?path.hasValue() && [",
            clean_path!("object.spec.hostPath.path"),
            "].exists(p, ",
            exposes_socket!(),
            ")"
        ),
        "the persistent volume's host path exposes a container runtime socket (or a directory above it)",
    ),
    pod(
        "ra2.app.030",
        "host-network",
        HOST_NETWORK,
        "spec.hostNetwork is true: the pod shares the node's network namespace",
    ),
    pod(
        "ra2.app.031",
        "host-pid",
        HOST_PID,
        "spec.hostPID is true: the pod shares the node's process ID namespace",
    ),
    pod(
        "ra2.app.031",
        "host-ipc",
        HOST_IPC,
        "spec.hostIPC is true: the pod shares the node's IPC namespace",
    ),
    container(
        "ra2.app.032",
        "container-limits",
        Set::Workload,
        NO_LIMIT,
        "no cpu or memory limit, or a zero one, in resources.limits",
    ),
    container(
        "ra2.app.033",
        "readonly-root",
        Set::Workload,
        WRITABLE_ROOT,
        "securityContext.readOnlyRootFilesystem is not true",
    ),
    showing(
        "ra2.app.034",
        "no-tag",
        Set::All,
        "c.?image.orValue('') in variables.validImages && !c.image.contains('@') && !c.image.matches(':[^/]*$')",
        "image has no tag and no digest",
        SHOW_IMAGE,
    ),
    showing(
        "ra2.app.034",
        "latest-tag",
        Set::All,
        "c.?image.orValue('') in variables.validImages && !c.image.contains('@') && c.image.endsWith(':latest')",
        "image uses the latest tag",
        SHOW_IMAGE,
    ),
    showing(
        "ra2.app.034",
        "latest-with-digest",
        Set::All,
        "c.?image.orValue('') in variables.validImages && c.image.matches('^[^@]*:latest@')",
        "image pinned by digest also carries the latest tag",
        SHOW_IMAGE,
    ),
    showing(
        "ra2.app.034",
        "invalid-reference",
        Set::All,
        "c.?image.orValue('') in variables.invalidImages",
        "image is not a valid image reference",
        SHOW_IMAGE,
    ),
    pod(
        "ra2.app.035",
        "host-alias",
        concat!(
            "variables.spec.?hostAliases.orValue([]).exists(a, [a.?ip.orValue('')].exists(s, ",
            specific_address!("s"),
            "))"
        ),
        "a host alias in spec.hostAliases maps names to a hardcoded IP address",
    ),
    pod(
        "ra2.app.035",
        "dns-nameserver",
        concat!(
            "variables.spec.?dnsConfig.?nameservers.orValue([]).exists(s, ",
            specific_address!("s"),
            ")"
        ),
        "spec.dnsConfig.nameservers names a hardcoded name server",
    ),
    object(
        "ra2.app.036",
        "node-port-type",
        Kind::Service,
        "object.?spec.?type.orValue('') == 'NodePort'",
        "spec.type is NodePort, which opens the service's ports on every node",
    ),
    object(
        "ra2.app.037",
        "not-immutable",
        Kind::ConfigMap,
        "object.?immutable.orValue(false) != true",
        "immutable is not true",
    ),
    container(
        "ra2.app.041",
        "privileged",
        Set::All,
        PRIVILEGED,
        "securityContext.privileged is true",
    ),
    container(
        "ra2.app.042",
        "run-as-root",
        Set::Workload,
        "!variables.windows && c.?securityContext.?runAsUser.or(variables.spec.?securityContext.?runAsUser).orValue(-1) == 0",
        "runAsUser is 0 (root)",
    ),
    container(
        "ra2.app.042",
        "user-unset",
        Set::Workload,
        "!variables.windows && !c.?securityContext.?runAsUser.or(variables.spec.?securityContext.?runAsUser).hasValue() && c.?securityContext.?runAsNonRoot.or(variables.spec.?securityContext.?runAsNonRoot).orValue(false) != true",
        "neither runAsUser nor runAsNonRoot: true is set, so the image decides the user",
    ),
    container(
        "ra2.app.043",
        "privilege-escalation",
        Set::All,
        concat!(
            "(!variables.windows && !(c.?securityContext.?allowPrivilegeEscalation.orValue(true) == false)) || ",
            "(c.?securityContext.?allowPrivilegeEscalation.orValue(true) == false && !(c.?securityContext.?privileged.orValue(false) == true) && !('CAP_SYS_ADMIN' in c.?securityContext.?capabilities.?add.orValue([])) && ",
            "c.?securityContext.?capabilities.?add.orValue([]).exists(x, x.upperAscii() in ['SYS_ADMIN', 'CAP_SYS_ADMIN', 'ALL', 'CAP_ALL']))"
        ),
        "securityContext.allowPrivilegeEscalation is not false, or SYS_ADMIN lets the process escalate anyway",
    ),
    container(
        "ra2.app.043",
        "privileged-escalation-conflict",
        Set::All,
        "c.?securityContext.?allowPrivilegeEscalation.orValue(true) == false && (c.?securityContext.?privileged.orValue(false) == true || 'CAP_SYS_ADMIN' in c.?securityContext.?capabilities.?add.orValue([]))",
        "securityContext.allowPrivilegeEscalation is false beside privileged or CAP_SYS_ADMIN",
    ),
    container(
        "ra2.app.044",
        "user-id",
        Set::Workload,
        "!variables.windows && c.?securityContext.?runAsUser.or(variables.spec.?securityContext.?runAsUser).orValue(0) <= 999",
        "runAsUser is unset or at most 999",
    ),
    container(
        "ra2.app.044",
        "group-id",
        Set::Workload,
        "!variables.windows && c.?securityContext.?runAsGroup.or(variables.spec.?securityContext.?runAsGroup).orValue(0) <= 999",
        "runAsGroup is unset or at most 999",
    ),
    pod(
        "ra2.app.045",
        "recommended-labels",
        "['app.kubernetes.io/name', 'app.kubernetes.io/version', 'app.kubernetes.io/part-of'].exists(k, !(k in variables.template.?metadata.?labels.orValue({})) || variables.template.metadata.labels[k] == '')",
        "the pod's labels (a controller's pod template's) lack app.kubernetes.io/name, version or part-of",
    ),
    pod(
        "ra2.app.048",
        "selinux-type",
        concat!(
            "(variables.spec.?securityContext.?seLinuxOptions.?type.orValue('') != '' && !(variables.spec.securityContext.seLinuxOptions.type in @allowed_types@)) || ",
            "variables.containers.exists(c, c.?securityContext.?seLinuxOptions.?type.orValue('') != '' && !(c.securityContext.seLinuxOptions.type in @allowed_types@))"
        ),
        "a seLinuxOptions.type (of the pod or a container) is not one of the allowed types",
    ),
    container(
        "ra2.ch.006",
        "cpu-bounded",
        Set::Workload,
        NO_CPU_LIMIT,
        "no cpu limit, or a zero one, in resources.limits",
    ),
    pod(
        "ra2.k8s.011",
        "invalid-key",
        concat!(
            "[variables.template.?metadata.?labels.orValue({}), variables.spec.?nodeSelector.orValue({})].exists(m, m.exists(k, !",
            qualified_name!("k"),
            ")) || ",
            "(variables.spec.?affinity.?nodeAffinity.?requiredDuringSchedulingIgnoredDuringExecution.?nodeSelectorTerms.orValue([]) + ",
            "variables.spec.?affinity.?nodeAffinity.?preferredDuringSchedulingIgnoredDuringExecution.orValue([]).map(p, p.?preference.orValue({})))",
            ".exists(t, t.?matchExpressions.orValue([]).exists(e, e.?key.hasValue() && !",
            qualified_name!("e.key"),
            "))"
        ),
        "a label, node selector or node affinity key is not a valid Kubernetes label key",
    ),
    pod(
        "ra2.k8s.011",
        "selector-value",
        concat!(
            "variables.spec.?nodeSelector.orValue({}).exists(k, k in @data:profile_label@ && !(variables.spec.nodeSelector[k] in @data:profile_names@)) || ",
            "(variables.spec.?affinity.?nodeAffinity.?requiredDuringSchedulingIgnoredDuringExecution.?nodeSelectorTerms.orValue([]) + ",
            "variables.spec.?affinity.?nodeAffinity.?preferredDuringSchedulingIgnoredDuringExecution.orValue([]).map(p, p.?preference.orValue({})))",
            ".exists(t, t.?matchExpressions.orValue([]).exists(e, e.?key.orValue('') in @data:profile_label@ && e.?operator.orValue('') == 'In' && e.?values.orValue([]).exists(v, !(v in @data:profile_names@))))"
        ),
        "the pod selects anuket.io/profile with a value that is not an Anuket profile (basic, network-intensive)",
    ),
    api("ra2.k8s.012", "alpha-api", K8S_ALPHA, ALPHA_WHAT),
    api(
        "ra2.k8s.012",
        "third-party-alpha",
        THIRD_PARTY_ALPHA,
        THIRD_PARTY_ALPHA_WHAT,
    ),
    api(
        "ra2.k8s.019",
        "beta-with-ga",
        concat!(
            "variables.owner == 'kubernetes' && variables.level == 'beta'",
            " && variables.betaWithGa"
        ),
        "is a beta API with a GA version (or one the target release no longer serves)",
    ),
    api(
        "ra2.k8s.019",
        "beta-no-ga",
        concat!(
            "variables.owner == 'kubernetes' && variables.level == 'beta'",
            " && !variables.betaWithGa"
        ),
        "is a beta API with no GA version at the target release",
    ),
    api(
        "ra2.k8s.019",
        "third-party-beta",
        "variables.owner == 'third-party' && variables.level == 'beta'",
        "is a beta version of a third-party API",
    ),
    volume(
        "ra2.stg.005",
        "volume-types",
        "@data:non_portable_volume_sources@.exists(k, k in v)",
        "volume of a type RA2 platforms need not support (not emptyDir, configMap, secret, persistentVolumeClaim, projected, downwardAPI, ephemeral or hostPath)",
    ),
    volume(
        "ra2.stg.006",
        "in-tree-volume",
        "@data:in_tree_volume_sources@.exists(k, k in v)",
        "volume through an in-tree plugin instead of a CSI driver",
    ),
    object(
        "ra2.stg.006",
        "pv-source",
        Kind::PersistentVolume,
        "@data:in_tree_pv_sources@.exists(k, k in object.?spec.orValue({}))",
        "the persistent volume uses an in-tree plugin instead of a CSI driver",
    ),
    object(
        "ra2.stg.006",
        "provisioner",
        Kind::StorageClass,
        "object.?provisioner.orValue('').startsWith('kubernetes.io/') && object.provisioner != 'kubernetes.io/no-provisioner'",
        "the storage class uses an in-tree provisioner (kubernetes.io/...)",
    ),
    object(
        "ra2.pkg.001",
        "no-tiller",
        Kind::Api,
        concat!(
            // A container whose image's repository ends in the component `tiller`
            // (`names::image_reference`: before any `@`, the last segment's last `:` starts the tag).
            "variables.containers.exists(c, c.?image.orValue('').matches('^(?:[^@]*/)?tiller(?::[^:/@]*)?(?:@.*)?$')) || ",
            "(object.?metadata.?name.orValue('') == 'tiller-deploy' && variables.kind in ['Deployment', 'Service', 'Pod', 'ReplicaSet']) || ",
            "[object.?metadata.?labels.orValue({}), variables.template.?metadata.?labels.orValue({})].exists(l, l.?app.orValue('') == 'helm' && l.?name.orValue('') == 'tiller') || ",
            "(variables.group == '' && variables.kind in ['ConfigMap', 'Secret'] && object.?metadata.?labels.?OWNER.orValue('') == 'TILLER')"
        ),
        "Helm 2's Tiller: its image, its tiller-deploy name, its app=helm name=tiller labels, or the OWNER=TILLER label of its release records",
    ),
    pod(
        "ra2.ch.001",
        "request-limit",
        concat!(
            "variables.hugeResources.exists(r, ",
            huge_page_request_without_equal_limit!(),
            ")"
        ),
        "a huge-page request (resources.requests.hugepages-<size>) has no limit, or a limit of another value",
    ),
    container(
        "ra2.ch.001",
        "needs-cpu-or-memory",
        Set::Workload,
        concat!(
            "[c.?resources.?limits.orValue({}), c.?resources.?requests.orValue({})].exists(m, m.exists(k, ",
            huge_page_name!("k"),
            ")) && !['cpu', 'memory'].exists(n, n in c.?resources.?limits.orValue({}) || n in c.?resources.?requests.orValue({}))"
        ),
        "requests huge pages (resources hugepages-<size>) but neither cpu nor memory",
    ),
    volume(
        "ra2.ch.001",
        "emptydir-medium",
        concat!(
            "(v.?emptyDir.?medium.orValue('') == 'HugePages' && (size(variables.hugePageFirst) == 0 || ",
            "variables.hugePages.exists(l, l.exists(k, quantity(k.substring(10)).compareTo(quantity(variables.hugePageFirst[0].substring(10))) != 0)))) || ",
            "(v.?emptyDir.?medium.orValue('').startsWith('HugePages-') && [v.emptyDir.medium.substring(10)].exists(s, !",
            page_size_ok!("s"),
            " || !variables.hugePages.exists(l, l.exists(k, quantity(k.substring(10)).compareTo(quantity(s)) == 0))))"
        ),
        "emptyDir volume of medium HugePages with no or several requested page sizes, or of medium HugePages-<size> with no request of that size",
    ),
    pod(
        "ra2.k8s.009",
        "cpu-pinning",
        concat!(
            cpu_pinning_gate!(),
            " && !variables.qosUndecided && (!variables.guaranteed || (size(variables.spec.?containers.orValue([])) > 0 && !variables.cpuPinned))"
        ),
        "the network-intensive (or opted-in) pod is not Guaranteed with a whole number of CPUs for some container, so the static CPU manager pins none",
    ),
    container(
        "ra2.k8s.009",
        "fractional",
        Set::Running,
        concat!(
            cpu_pinning_gate!(),
            " && !variables.qosUndecided && variables.guaranteed && variables.cpuPinned && ",
            cpu_request_ok!(),
            " && ",
            cpu_request!(),
            ".compareTo(quantity('0')) >= 0 && !",
            whole_cpu_request!()
        ),
        "requests a fraction of a CPU in a pod that pins CPUs, so it runs on the shared pool",
    ),
    container(
        "ra2.k8s.009",
        "smt",
        Set::Workload,
        concat!(
            cpu_pinning_gate!(),
            " && !variables.qosUndecided && variables.guaranteed && variables.cpuPinned && ",
            pinned_cpus!(),
            " && ",
            cpu_request_value!(),
            " % 2 == 1"
        ),
        "gets an odd number of exclusive CPUs, which nodes with SMT and the full-pcpus-only option reject",
    ),
    object(
        "ra2.stg.007",
        "static-binding",
        Kind::PersistentVolumeClaim,
        concat!("object.?spec.hasValue() && ", claim_pinned!("object")),
        "spec.volumeName names a PersistentVolume, or spec.selector selects volumes by label, so the claim binds to a volume made by hand instead of one provisioned for it",
    ),
    object(
        "ra2.stg.007",
        "empty-class",
        Kind::PersistentVolumeClaim,
        concat!("object.?spec.hasValue() && ", claim_empty_class!("object")),
        "the effective class (annotation volume.beta.kubernetes.io/storage-class, else spec.storageClassName) is \"\", which turns dynamic provisioning off",
    ),
    pod(
        "ra2.stg.007",
        "static-binding",
        concat!(
            claim_templates!(),
            ".exists(q, q.?spec.hasValue() && ",
            claim_pinned!("q"),
            ") || variables.spec.?volumes.orValue([]).exists(v, v.?ephemeral.?volumeClaimTemplate.?spec.hasValue() && ",
            claim_pinned!("v.ephemeral.volumeClaimTemplate"),
            ")"
        ),
        "a volume claim template or generic ephemeral volume names a PersistentVolume (spec.volumeName) or selects volumes by label (spec.selector), so it binds to a volume made by hand instead of one provisioned for it",
    ),
    pod(
        "ra2.stg.007",
        "empty-class",
        concat!(
            claim_templates!(),
            ".exists(q, q.?spec.hasValue() && ",
            claim_empty_class!("q"),
            ") || variables.spec.?volumes.orValue([]).exists(v, v.?ephemeral.?volumeClaimTemplate.?spec.hasValue() && ",
            claim_empty_class!("v.ephemeral.volumeClaimTemplate"),
            ")"
        ),
        "a volume claim template or generic ephemeral volume has the effective class \"\" (annotation volume.beta.kubernetes.io/storage-class, else spec.storageClassName), which turns dynamic provisioning off",
    ),
    pod(
        "sec.sys.021",
        "host-users",
        "!variables.windows && !(variables.spec.?hostNetwork.orValue(false) == true || variables.spec.?hostPID.orValue(false) == true || variables.spec.?hostIPC.orValue(false) == true) && variables.spec.?hostUsers.orValue(true) != false",
        "spec.hostUsers is not false, so the containers share the node's user ids",
    ),
];

/// The API server refuses these objects itself, before any admission policy runs.
const API_REFUSES: &str = "the API server's own validation refuses such objects before admission policies run";
/// The API server refuses such Pods itself, but not a StatefulSet's template.
const API_REFUSES_PODS: &str = "the API server refuses such Pods and most controllers itself; a StatefulSet's template is not fully validated, and this check is not expressed in CEL yet";
/// Chapter-4 platform checks.
const PLATFORM: &str = "judges nodes, kubelets or the control plane, not an object under admission";
/// Cross-document checks.
const OTHER_OBJECTS: &str = "needs other objects (ServiceAccounts, NetworkAttachmentDefinitions, PersistentVolumes, namespaces' quotas), which a policy does not see";
/// Checks of kinds the policies do not match.
const OTHER_KINDS: &str = "judges a kind the policies do not match yet (Service, ConfigMap, PersistentVolume, StorageClass, NetworkAttachmentDefinition, any apiVersion)";
/// Checks that CEL could decide, not written yet.
const NOT_YET: &str = "not expressed in CEL yet";
/// Checks that read JSON written inside an annotation's string.
const JSON_IN_STRING: &str = "reads the JSON that Multus and DANM annotations hold inside a string, and Kubernetes CEL has no JSON decoder (a pattern cannot parse JSON exactly)";

/// Why a check is not exported: by `rule/check`, else by rule.
pub static NOT_EXPORTED: &[(&str, &str)] = &[
    ("k8s.api", API_REFUSES),
    ("ra2.app.002/undeclared-volume", API_REFUSES_PODS),
    ("ra2.app.002/duplicate-mount-path", API_REFUSES_PODS),
    ("ra2.app.002/subpath", API_REFUSES_PODS),
    ("ra2.app.002/bidirectional-propagation", API_REFUSES_PODS),
    ("ra2.app.002/host-system-path", NOT_YET),
    ("ra2.app.004/hostname-invalid", API_REFUSES),
    ("ra2.app.004/fqdn-too-long", NOT_YET),
    ("ra2.app.006", JSON_IN_STRING),
    ("ra2.app.009/sriov-resource", OTHER_OBJECTS),
    ("ra2.app.010", NOT_YET),
    (
        "ra2.app.029",
        "a pod that leaves automountServiceAccountToken unset takes its ServiceAccount's value: another object, which a policy does not see",
    ),
    ("ra2.app.032/namespace-limits", OTHER_OBJECTS),
    ("ra2.app.035/multus-ips", JSON_IN_STRING),
    ("ra2.app.035", NOT_YET),
    (
        "ra2.app.036/node-port",
        "the API server allocates a nodePort to every NodePort and LoadBalancer Service port before admission, so a policy cannot tell a written one from an allocated one",
    ),
    (
        "ra2.app.047",
        "API defaulting sets hostPort to containerPort on the host network before admission, so a policy cannot tell host-port from host-network-port",
    ),
    ("ra2.ch.001/node-hugepages", PLATFORM),
    (
        "ra2.ch.001/page-size-name",
        "compares the page size with its canonical quantity form (hugepages-2048Ki is 2Mi), which Kubernetes CEL cannot print",
    ),
    (
        "ra2.ch.001/multiple",
        "needs an amount's remainder by the page size, which Kubernetes CEL's quantity library cannot compute (no division, and asInteger fails on unreduced amounts such as 2048Ki written in a custom resource)",
    ),
    (
        "ra2.ch.001/size-policy",
        "judges only page sizes written in canonical form, which Kubernetes CEL cannot print (see page-size-name)",
    ),
    ("ra2.ch.006/below-allocatable", OTHER_OBJECTS),
    ("ra2.ch.010", PLATFORM),
    ("ra2.ch.012", PLATFORM),
    ("ra2.ch.018", PLATFORM),
    ("ra2.crt.001", PLATFORM),
    ("ra2.crt.002", PLATFORM),
    ("ra2.k8s.002", PLATFORM),
    ("ra2.k8s.003", PLATFORM),
    ("ra2.k8s.004", PLATFORM),
    ("ra2.k8s.005", PLATFORM),
    ("ra2.k8s.006", PLATFORM),
    ("ra2.k8s.008", PLATFORM),
    ("ra2.k8s.009/kubelet-cpu-manager", PLATFORM),
    ("ra2.k8s.011/node", PLATFORM),
    ("ra2.k8s.011/worker-label", PLATFORM),
    ("ra2.k8s.011/no-host", PLATFORM),
    (
        "ra2.k8s.011/workload",
        "a pod is network-intensive also by the NetworkAttachmentDefinitions it attaches (other objects), which a policy does not see",
    ),
    ("ra2.k8s.012", PLATFORM),
    ("ra2.k8s.019", PLATFORM),
    ("ra2.k8s.020", PLATFORM),
    ("ra2.k8s.024", PLATFORM),
    ("ra2.mon.001", PLATFORM),
    ("ra2.mon.002", PLATFORM),
    ("ra2.mon.003", PLATFORM),
    ("ra2.ntw.002", PLATFORM),
    ("ra2.ntw.003", JSON_IN_STRING),
    ("ra2.ntw.006/multiplexer", PLATFORM),
    ("ra2.ntw.006", OTHER_KINDS),
    ("ra2.ntw.008/device-plugin", PLATFORM),
    ("ra2.ntw.008", OTHER_KINDS),
    ("ra2.ntw.009", OTHER_OBJECTS),
    ("ra2.ntw.010", PLATFORM),
    ("ra2.ntw.012", PLATFORM),
    ("ra2.ntw.015/ipam-not-deployed", PLATFORM),
    ("ra2.ntw.015", OTHER_KINDS),
    ("ra2.ntw.016", OTHER_KINDS),
    ("ra2.stg.006/no-csi-driver", PLATFORM),
    (
        "ra2.stg.006/unregistered-driver",
        "needs the cluster's CSIDriver objects (other objects), which a policy does not see",
    ),
    ("ra2.stg.006", OTHER_KINDS),
    (
        "ra2.stg.007/default-class",
        "whether the cluster has a default StorageClass depends on the input's (other objects) StorageClasses, which a policy does not see",
    ),
    ("ra2.stg.010", PLATFORM),
];

/// Parameters of rules with exported checks that no exported check reads, so that setting them
/// changes nothing the policies decide (any other parameter of such a rule is an error).
pub static PARAMS_NOT_USED: &[(&str, &str)] = &[
    // Only fqdn-too-long, which is not exported, builds the fully qualified host name.
    ("ra2.app.004", "cluster_domain"),
    // Only extended-resource and sriov-resource, which are not exported, read it.
    ("ra2.app.009", "network_resources_injector"),
    // The device table's accelerators, which ra2.k8s.009's network-intensive signal reads from
    // the config itself (`network_device_cel`).
    ("ra2.app.009", "accelerator_resource_patterns"),
    // Only below-allocatable, which is not exported, compares with it.
    ("ra2.ch.006", "node_allocatable_cpu"),
];

/// String-list parameters that exported checks read: `@name@` in the rule's CEL becomes the
/// list the run's config (else the catalogue's default) gives.
pub static PARAM_LISTS: &[(&str, &str)] = &[("ra2.app.048", "allowed_types"), ("ra2.app.028", "sockets")];

/// String parameters that exported checks read: `@name@` in the rule's CEL becomes the string
/// the run's config (else the catalogue's default) gives, as a CEL literal.
pub static PARAM_STRINGS: &[(&str, &str)] = &[("ra2.k8s.009", "opt_in_annotation")];

/// The exported CEL of `rule`/`check`, if it is exported.
pub fn exported(rule: &str, check: &str) -> Option<&'static Exported> {
    EXPORTED.iter().find(|e| e.rule == rule && e.check == check)
}

/// Why `rule`/`check` is not exported (`None` when it is, or when no reason is written).
pub fn reason(rule: &str, check: &str) -> Option<&'static str> {
    if exported(rule, check).is_some() {
        return None;
    }
    let key = format!("{rule}/{check}");
    NOT_EXPORTED
        .iter()
        .find(|(selector, _)| *selector == key)
        .or_else(|| NOT_EXPORTED.iter().find(|(selector, _)| *selector == rule))
        .map(|(_, reason)| *reason)
}

/// One line of `ra2 export vap --list`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Listed {
    pub rule: &'static str,
    pub check: &'static str,
    pub exported: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// What an exported check's policy cannot see, when something.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
    /// The only kinds of object an exported check's policy judges, when it does not judge every
    /// object ra2 reports the check on (ra2 also reports a PersistentVolume's problem on a claim
    /// bound to it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kinds: Option<&'static [&'static str]>,
}

/// What the policy of an exported check does not see, by `rule/check`.
pub static NOTES: &[(&str, &str)] = &[
    ("ra2.app.035/host-alias", MAPPED_ADDRESS_NOTE),
    ("ra2.app.035/dns-nameserver", MAPPED_ADDRESS_NOTE),
    ("ra2.k8s.012/alpha-api", API_VERSION_NOTE),
    ("ra2.k8s.012/third-party-alpha", API_VERSION_NOTE),
    ("ra2.app.016/alpha-api", API_VERSION_NOTE),
    ("ra2.app.016/third-party-alpha", API_VERSION_NOTE),
    ("ra2.k8s.019/beta-with-ga", API_VERSION_NOTE),
    ("ra2.k8s.019/beta-no-ga", API_VERSION_NOTE),
    ("ra2.k8s.019/third-party-beta", API_VERSION_NOTE),
    ("ra2.k8s.009/cpu-pinning", CPU_PINNING_NOTE),
    ("ra2.k8s.009/fractional", CPU_PINNING_NOTE),
    ("ra2.k8s.009/smt", CPU_PINNING_NOTE),
    ("ra2.app.007/pv", CLAIMS_NOTE),
    ("ra2.app.025/local-pv", CLAIMS_NOTE),
    ("ra2.stg.006/pv-source", CLAIMS_NOTE),
    ("ra2.stg.006/provisioner", CLAIMS_NOTE),
];

/// What the CPU-pinning policy cannot decide from the object alone.
const CPU_PINNING_NOTE: &str = "the policy judges pods that are network-intensive by their own signals (the anuket.io/profile node selector or affinity, huge pages, network devices by the device table and the configured patterns) or opt in; ra2 also judges a pod that attaches to a fast-path NetworkAttachmentDefinition or requests a definition's or SriovNetworkNodePolicy's resource, which needs those other objects. Where a container requests more cpu or memory than its limit (the API server refuses that in Pods and every built-in template but a StatefulSet's), and from Kubernetes 1.34 where two or more containers request a resource whose pod-level request is left to default, the QoS class depends on summed quantities, which CEL cannot add up over a list: the policy does not judge such pods";

/// The PersistentVolume and StorageClass checks that ra2 also reports on the claims leading to them.
const CLAIMS_NOTE: &str = "the policy judges the PersistentVolume or StorageClass itself; ra2 also reports a claim of the same input bound to such a volume or naming such a class, which needs the other object";

/// The apiVersion checks: the versions Kubernetes stopped serving never reach a policy.
pub const API_VERSION_NOTE: &str = "the API server refuses the apiVersions it no longer serves (extensions/v1beta1, policy/v1beta1, apiextensions.k8s.io/v1beta1 …, all removed before 1.30) itself, before any policy runs; the policy judges the alpha and beta versions the cluster serves (CRDs', enabled APIs)";

/// Every check of `edition`, with whether it is exported and why not.
pub fn list(edition: Edition) -> Vec<Listed> {
    let mut out = Vec::new();
    for doc in catalogue::all().iter().filter(|d| d.in_edition(edition)) {
        for check in doc.checks_in(edition) {
            let exported = exported(doc.id, check.slug).is_some();
            out.push(Listed {
                rule: doc.id,
                check: check.slug,
                exported,
                reason: if exported {
                    None
                } else {
                    Some(reason(doc.id, check.slug).unwrap_or(NOT_YET))
                },
                note: NOTES
                    .iter()
                    .find(|(key, _)| exported && *key == format!("{}/{}", doc.id, check.slug))
                    .map(|(_, note)| *note),
                kinds: self::exported(doc.id, check.slug).and_then(|e| match e.kind() {
                    Kind::PersistentVolume => Some(&["PersistentVolume"][..]),
                    Kind::StorageClass => Some(&["StorageClass"][..]),
                    _ => None,
                }),
            });
        }
    }
    out
}

/// A setting the policies cannot express: never a silently weaker policy.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ExportError(pub String);

/// One policy's rules and validations.
type Group = (Vec<&'static str>, Vec<Value>);

/// What the export wrote, for a summary line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Checks that deny.
    pub deny: usize,
    /// Checks that warn.
    pub warn: usize,
    /// Checks of the edition the settings run that are not exported.
    pub not_exported: usize,
    /// Every check written: rule, check, and whether it denies.
    pub checks: Vec<(&'static str, &'static str, bool)>,
    /// Exemptions left out because their `expires` date has passed by [`Config::today`]
    /// (described, with the date).
    pub lapsed: Vec<String>,
    /// The first day an exported exemption no longer holds: CEL has no clock, so the policies
    /// must be exported again by then (they carry it as `ra2.dev/export-again-by`).
    pub export_again_by: Option<String>,
}

/// The policies and bindings for `config` (its edition, select/ignore, severities, exemptions
/// and `fail-on`), policy then binding, one pair per kind of object and action (few policies:
/// the API server evaluates each policy's variables, and its match, once per policy).
pub fn generate(config: &Config) -> Result<(Vec<Value>, Summary), Vec<ExportError>> {
    let edition = config.edition;
    let mut errors = Vec::new();
    if config.kubernetes_minor < MIN_KUBERNETES_MINOR {
        errors.push(ExportError(format!(
            "kubernetes-version 1.{} has no admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy (GA in 1.{MIN_KUBERNETES_MINOR})",
            config.kubernetes_minor
        )));
    }
    for exemption in &config.exemptions {
        if let Some(template) = &exemption.template {
            errors.push(ExportError(format!(
                "exemption {} matches Helm template {template:?}, which an object under admission does not carry: remove `template` or exempt by kind, namespace and name",
                exemption.describe()
            )));
        }
    }
    for d in declared(config) {
        if let Some(key) = d.template.iter().find(|k| !is_cel_field(k)) {
            errors.push(ExportError(format!(
                "workload kind {} {}: its template path has the key {key:?}, which CEL cannot select on every kind of object (letters, digits and _ only, not a CEL reserved word)",
                d.api_version, d.kind
            )));
        }
    }
    // (rule, deny) -> validations, in catalogue order.
    let mut groups: BTreeMap<(Kind, bool), Group> = BTreeMap::new();
    let mut summary = Summary::default();
    // A waiver holds through its `expires` day; the policies cannot read a clock, so a lapsed
    // one is left out and the day after the first one to lapse is when to export again.
    for exemption in &config.exemptions {
        match (&exemption.expires, exemption.lapsed(config.today.as_deref())) {
            (_, Some(date)) => summary
                .lapsed
                .push(format!("{} (expired {date})", exemption.describe())),
            (Some(date), None) => {
                let after = crate::config::day_after(date);
                if summary.export_again_by.as_ref().is_none_or(|d| after < *d) {
                    summary.export_again_by = Some(after);
                }
            }
            (None, None) => {}
        }
    }
    for doc in catalogue::all().iter().filter(|d| d.in_edition(edition)) {
        for check in doc.checks_in(edition) {
            if !config.enabled(doc.id, check.slug) {
                continue;
            }
            let Some(entry) = exported(doc.id, check.slug) else {
                summary.not_exported += 1;
                continue;
            };
            let used: Vec<&str> = config
                .params
                .get(doc.id)
                .into_iter()
                .flat_map(|p| p.keys())
                .map(String::as_str)
                .filter(|name| {
                    !PARAMS_NOT_USED.contains(&(doc.id, *name))
                        && !PARAM_LISTS.contains(&(doc.id, *name))
                        && !PARAM_STRINGS.contains(&(doc.id, *name))
                })
                .collect();
            if !used.is_empty() {
                let names = used;
                errors.push(ExportError(format!(
                    "params of {} ({}) are not expressed in the policies yet; {}/{} would run with the defaults: leave them out, or --ignore {}",
                    doc.id,
                    names.join(", "),
                    doc.id,
                    check.slug,
                    doc.id
                )));
                continue;
            }
            let severity = config.severity_for(doc.id, check.slug, Some(doc), edition);
            let deny = config.fail_on.threshold().is_some_and(|t| severity >= t);
            if deny {
                summary.deny += 1;
            } else {
                summary.warn += 1;
            }
            summary.checks.push((doc.id, check.slug, deny));
            let exemptions: Vec<&Exemption> = config
                .exemptions
                .iter()
                .filter(|e| selector_matches(&e.rule, doc.id, check.slug))
                .filter(|e| e.lapsed(config.today.as_deref()).is_none())
                .collect();
            // A check ra2 reports on objects of several kinds has an entry for each.
            for entry in EXPORTED
                .iter()
                .filter(|e| e.rule == entry.rule && e.check == entry.check)
            {
                let (rules, validations) = groups.entry((entry.kind(), deny)).or_default();
                if !rules.contains(&doc.id) {
                    rules.push(doc.id);
                }
                validations.push(with_params(validation(entry, check.title, &exemptions), doc.id, config));
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut out = Vec::new();
    for ((kind, deny), (rules, validations)) in groups {
        let name = policy_name(kind, deny);
        out.push(policy(
            &name,
            &rules,
            (kind, summary.export_again_by.as_deref()),
            config,
            &validations,
        ));
        out.push(binding(&name, deny));
    }
    Ok((out, summary))
}

/// `ra2-workloads-deny`, `ra2-workloads-warn`, `ra2-configmaps-deny`, `ra2-services-deny`.
pub fn policy_name(kind: Kind, deny: bool) -> String {
    let objects = match kind {
        Kind::Workload => "workloads",
        Kind::Resources => "resources",
        Kind::ConfigMap => "configmaps",
        Kind::PersistentVolume => "persistentvolumes",
        Kind::PersistentVolumeClaim => "persistentvolumeclaims",
        Kind::StorageClass => "storageclasses",
        Kind::Service => "services",
        Kind::Api => "allresources",
    };
    format!("ra2-{objects}-{}", if deny { "deny" } else { "warn" })
}

fn metadata(name: &str) -> Value {
    json!({"name": name, "labels": {MANAGED_BY.0: MANAGED_BY.1}})
}

/// The kinds the config declares to carry a pod template (`workload-kinds`) that ra2 does not
/// know already (an entry for a known kind is left to the built-in reading, as in a lint).
fn declared(config: &Config) -> impl Iterator<Item = &crate::config::DeclaredWorkload> {
    config
        .workload_kinds
        .iter()
        .filter(|d| crate::model::builtin_workload_kind(d.group(), &d.kind).is_none())
}

/// The resources of `kind`: for workloads, the kinds whose pod spec ra2 judges
/// (`model::WorkloadKind`, the built-in ones, and those the config declares).
fn resource_rules(kind: Kind, config: &Config) -> Value {
    let rule = |group: &str, resources: &[&str]| {
        json!({
            "apiGroups": [group],
            "apiVersions": ["v1"],
            "operations": ["CREATE", "UPDATE"],
            "resources": resources,
        })
    };
    match kind {
        Kind::Workload | Kind::Resources => {
            let mut rules = vec![
                rule("", &["pods", "podtemplates", "replicationcontrollers"]),
                rule("apps", &["deployments", "statefulsets", "daemonsets", "replicasets"]),
                rule("batch", &["jobs", "cronjobs"]),
            ];
            // The custom resources ra2 reads a pod template of at any version
            // (`model::builtin_workload_kind`).
            for (group, resources) in [
                ("apps.openshift.io", &["deploymentconfigs"][..]),
                ("argoproj.io", &["rollouts"][..]),
                ("serving.knative.dev", &["services", "configurations"][..]),
            ] {
                rules.push(json!({
                    "apiGroups": [group],
                    "apiVersions": ["*"],
                    "operations": ["CREATE", "UPDATE"],
                    "resources": resources,
                }));
            }
            for d in declared(config) {
                rules.push(json!({
                    "apiGroups": [d.group()],
                    "apiVersions": [d.version()],
                    "operations": ["CREATE", "UPDATE"],
                    "resources": [d.resource],
                }));
            }
            Value::Array(rules)
        }
        Kind::ConfigMap => json!([rule("", &["configmaps"])]),
        Kind::PersistentVolume => json!([rule("", &["persistentvolumes"])]),
        Kind::PersistentVolumeClaim => json!([rule("", &["persistentvolumeclaims"])]),
        Kind::StorageClass => json!([rule("storage.k8s.io", &["storageclasses"])]),
        Kind::Service => json!([rule("", &["services"])]),
        // Every resource (not subresources) at every version, each as requested (`matchPolicy:
        // Exact`, so no request is converted to another version before the policy sees it).
        Kind::Api => json!([{
            "apiGroups": ["*"],
            "apiVersions": ["*"],
            "operations": ["CREATE", "UPDATE"],
            "resources": ["*"],
        }]),
    }
}

/// Where each kind keeps its pod template (`model::Object::pod_spec`), as CEL over `object`; a
/// Pod is its own. A declared kind's, where its entry says.
fn workload_template(config: &Config) -> String {
    let mut template = String::new();
    for d in declared(config) {
        let _ = write!(
            template,
            "object.apiVersion == {} && object.kind == {} ? object",
            literal(&d.api_version),
            literal(&d.kind)
        );
        for key in &d.template {
            let _ = write!(template, ".?{key}");
        }
        template.push_str(".orValue({}) : ");
    }
    template.push_str("object.kind == 'Pod' ? object : object.kind == 'PodTemplate' ? object.?template.orValue({}) : object.kind == 'CronJob' ? object.?spec.?jobTemplate.?spec.?template.orValue({}) : object.?spec.?template.orValue({})");
    template
}

/// The variables every validation shares (evaluated lazily, at most once per admission).
fn variables(kind: Kind, config: &Config) -> Value {
    let var = |name: &str, expression: &str| json!({"name": name, "expression": expression});
    let name = var(
        "name",
        "object.?metadata.?name.orValue('') != '' ? object.metadata.name : object.?metadata.?generateName.orValue('')",
    );
    if kind == Kind::Api {
        return api_variables(config, &name);
    }
    if !matches!(kind, Kind::Workload | Kind::Resources) {
        return json!([var("annotations", "[object.metadata.?annotations.orValue({})]"), name]);
    }
    // A pod-level limit covers the containers from Kubernetes 1.34 (`Config::pod_level_resources`).
    let pod_limits = if config.pod_level_resources() {
        "variables.spec.?resources.?limits.orValue({})"
    } else {
        "{}"
    };
    let template = workload_template(config);
    json!([
        var("template", &template),
        var("spec", "variables.template.?spec.orValue({})"),
        var(
            "workload",
            "variables.spec.?initContainers.orValue([]) + variables.spec.?containers.orValue([])"
        ),
        var(
            "containers",
            "variables.workload + variables.spec.?ephemeralContainers.orValue([])"
        ),
        var(
            "running",
            "variables.spec.?initContainers.orValue([]).filter(c, c.?restartPolicy.orValue('') == 'Always') + variables.spec.?containers.orValue([])"
        ),
        var("podLimits", pod_limits),
        var("windows", "variables.spec.?os.?name.orValue('') == 'windows'"),
        // ra2.k8s.009: the pod's own network-intensive signals, its QoS class, and whether a
        // regular container gets exclusive CPUs.
        var(
            "podLevel",
            if config.pod_level_resources() {
                "variables.spec.?resources.hasValue()"
            } else {
                "false"
            }
        ),
        var("networkIntensive", &network_intensive_cel(config)),
        // ra2.ch.001: the resources of the workload containers (and, from Kubernetes 1.34, the
        // pod's), the valid huge-page sizes each requests (requests defaulted from limits), and
        // the first of each that requests any.
        var(
            "hugeResources",
            "variables.workload.map(c, c.?resources.orValue({})) + (variables.podLevel ? [variables.spec.?resources.orValue({})] : [])"
        ),
        var(
            "hugePages",
            &format!(
                "variables.hugeResources.map(r, r.?limits.orValue({{}}).filter(k, {huge}) + r.?requests.orValue({{}}).filter(k, {huge}))",
                huge = concat!(
                    huge_page_name!("k"),
                    " && [k.substring(10)].exists(s, ",
                    page_size_ok!("s"),
                    ")"
                )
            )
        ),
        var(
            "hugePageFirst",
            "variables.hugePages.filter(l, size(l) > 0).map(l, l[0])"
        ),
        var("guaranteed", &qos_cel(false)),
        var("qosUndecided", &qos_cel(true)),
        var(
            "cpuPinned",
            &format!("variables.spec.?containers.orValue([]).exists(c, {})", pinned_cpus!())
        ),
        // ra2.app.034: the images of every container that ra2 judges (not empty, no template
        // placeholder or URL), valid references or not, each parsed once per evaluation (the
        // API server compiles a pattern each time it plans an expression, on every request).
        var(
            "validImages",
            concat!(
                "variables.containers.filter(c, ",
                image_judged!(),
                " && ",
                image_valid!(),
                ").map(c, c.image)"
            )
        ),
        var(
            "invalidImages",
            concat!(
                "variables.containers.filter(c, ",
                image_judged!(),
                " && !(c.image in variables.validImages)).map(c, c.image)"
            )
        ),
        // The suppression annotations: the object's and its pod template's.
        var(
            "annotations",
            "[object.metadata.?annotations.orValue({}), variables.template.?metadata.?annotations.orValue({})]"
        ),
        name,
    ])
}

/// CEL: `expr` (a CEL expression for a string) is a qualified name (`names::is_qualified_name`),
/// as [`qualified_name!`] writes it.
fn qualified_cel(expr: &str) -> String {
    format!(
        "({expr}.matches('^(?:[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:[.][a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]{{0,61}}[A-Za-z0-9])?$') && (!{expr}.contains('/') || size({expr}.split('/')[0]) <= 253))"
    )
}

/// CEL: the lower-cased resource name `l` matches one of `globs` (ra2's globs, compared
/// lower-cased as `devices::matches` does).
fn globs_cel(l: &str, globs: &[&str]) -> String {
    if globs.is_empty() {
        return "false".to_owned();
    }
    let alternatives: Vec<String> = globs
        .iter()
        .map(|g| {
            let re = glob_regex(&g.to_ascii_lowercase());
            re.trim_start_matches('^').trim_end_matches('$').to_owned()
        })
        .collect();
    format!(
        "{l}.matches({})",
        literal(&format!("(?s)^(?:{})$", alternatives.join("|")))
    )
}

/// CEL: the resource name `k` is an extended resource the run's device table
/// (`devices::Classifier`: the config's network then accelerator patterns, bridge markers, the
/// shipped accelerators, then the shipped network devices) calls a network device
/// (`names::classify_resource_name` is `Extended`).
fn network_device_cel(k: &str, config: &Config) -> String {
    use crate::k8s::devices::{BRIDGE_MARKER_PREFIXES, Classifier, table};
    let classifier = Classifier::new(config);
    let (network, accelerator) = classifier.configured_patterns();
    let network: Vec<&str> = network.iter().map(String::as_str).collect();
    let accelerator: Vec<&str> = accelerator.iter().map(String::as_str).collect();
    let table = table();
    let shipped_accelerators: Vec<&str> = table.accelerator.iter().map(|e| e.pattern).collect();
    let shipped_network: Vec<&str> = table.network.iter().map(|e| e.pattern).collect();
    let bridge: Vec<String> = BRIDGE_MARKER_PREFIXES
        .iter()
        .map(|p| format!("{k}.startsWith({})", literal(p)))
        .collect();
    format!(
        "({k}.contains('/') && {} && !{k}.contains('kubernetes.io/') && !{k}.startsWith('requests.') && {} && [{k}.lowerAscii()].exists(l, {} || (!{} && !({}) && !{} && {})))",
        qualified_cel(k),
        qualified_cel(&format!("('requests.' + {k})")),
        globs_cel("l", &network),
        globs_cel("l", &accelerator),
        bridge.join(" || "),
        globs_cel("l", &shipped_accelerators),
        globs_cel("l", &shipped_network),
    )
}

/// CEL: `profile::local_signal`, the pod's own network-intensive signals: it selects or prefers
/// nodes labelled `anuket.io/profile: network-intensive`, or a workload container (or, from
/// Kubernetes 1.34, the pod-level resources) writes a huge-page or network-device resource.
fn network_intensive_cel(config: &Config) -> String {
    let expression = "e.?key.orValue('') in @data:profile_label@ && e.?operator.orValue('') == 'In' && e.?values.orValue([]).exists(v, v in @data:network_intensive@)";
    let resource = format!(
        "(({k}.startsWith('hugepages-') && !{k}.contains('/') && {}) || {})",
        qualified_cel("k"),
        network_device_cel("k", config),
        k = "k"
    );
    with_data(&format!(
        concat!(
            "variables.spec.?nodeSelector.orValue({{}}).exists(k, k in @data:profile_label@ && variables.spec.nodeSelector[k] in @data:network_intensive@) || ",
            "variables.spec.?affinity.?nodeAffinity.?requiredDuringSchedulingIgnoredDuringExecution.?nodeSelectorTerms.orValue([]).exists(t, t.?matchExpressions.orValue([]).exists(e, {expression})) || ",
            "variables.spec.?affinity.?nodeAffinity.?preferredDuringSchedulingIgnoredDuringExecution.orValue([]).exists(p, p.?preference.?matchExpressions.orValue([]).exists(e, {expression})) || ",
            "(variables.workload.map(c, c.?resources.orValue({{}})) + (variables.podLevel ? [variables.spec.?resources.orValue({{}})] : [])).exists(r, ",
            "[r.?limits.orValue({{}}), r.?requests.orValue({{}})].exists(m, m.exists(k, {resource})))"
        ),
        expression = expression,
        resource = resource
    ))
}

/// CEL over an optional quantity `o`: it is written and parses.
fn quantity_ok(o: &str) -> String {
    format!("({o}.hasValue() && isQuantity(string({o}.value())))")
}

fn quantity_of(o: &str) -> String {
    format!("quantity(string({o}.value()))")
}

/// CEL for `resources::pod_qos(..) == Guaranteed` (`undecided` false), or for the pods whose
/// class CEL cannot tell (`undecided` true): Kubernetes compares the pod's summed requests
/// with its summed limits, and CEL cannot sum a list. The per-container test is the same
/// whenever no container requests more than its limit; from Kubernetes 1.34 (`podLevel`), the
/// pod-level resources decide, and a request they leave to default is the containers' sum
/// (KEP-2837), known here only when at most one container requests the resource.
fn qos_cel(undecided: bool) -> String {
    let resources = ["cpu", "memory"];
    let limit = |r: &str| format!("c.?resources.?limits.?{r}");
    let request = |r: &str| format!("c.?resources.?requests.?{r}.or(c.?resources.?limits.?{r})");
    let positive = |o: &str| {
        format!(
            "({} && {}.isGreaterThan(quantity('0')))",
            quantity_ok(o),
            quantity_of(o)
        )
    };
    let equal = |a: &str, b: &str| {
        format!(
            "({} && {} && {}.compareTo({}) == 0)",
            quantity_ok(a),
            quantity_ok(b),
            quantity_of(a),
            quantity_of(b)
        )
    };
    let above = |r: &str| {
        format!(
            "({} && {} && {}.isGreaterThan({}))",
            quantity_ok(&request(r)),
            quantity_ok(&limit(r)),
            quantity_of(&request(r)),
            quantity_of(&limit(r))
        )
    };
    let limits_positive: Vec<String> = resources.iter().map(|r| positive(&limit(r))).collect();
    let container_guaranteed: Vec<String> = resources
        .iter()
        .map(|r| format!("{} && {}", positive(&limit(r)), equal(&request(r), &limit(r))))
        .collect();
    let containers = if undecided {
        format!(
            "variables.workload.all(c, {}) && variables.workload.exists(c, {} || {})",
            limits_positive.join(" && "),
            above("cpu"),
            above("memory")
        )
    } else {
        format!(
            "size(variables.workload) > 0 && variables.workload.all(c, {})",
            container_guaranteed.join(" && ")
        )
    };
    // Per resource at the pod level: 1 the request equals the limit, 0 it does not, 2 unknown.
    let pod_limit = |r: &str| format!("variables.spec.?resources.?limits.?{r}");
    let state = |r: &str| {
        let written = format!("variables.spec.?resources.?requests.?{r}");
        let requesting = format!(
            "variables.workload.filter(c, c.?resources.?requests.?{r}.hasValue() || c.?resources.?limits.?{r}.hasValue())"
        );
        format!(
            "({written}.hasValue() ? ({} ? 1 : 0) : size({requesting}) == 0 ? 1 : size({requesting}) == 1 ? ({requesting}.all(c, {}) ? 1 : 0) : 2)",
            equal(&written, &pod_limit(r)),
            equal(&request(r), &pod_limit(r))
        )
    };
    let pod_limits_positive = format!("{} && {}", positive(&pod_limit("cpu")), positive(&pod_limit("memory")));
    let pod = if undecided {
        format!(
            "{pod_limits_positive} && [[{}, {}]].exists(s, s[0] != 0 && s[1] != 0 && (s[0] == 2 || s[1] == 2))",
            state("cpu"),
            state("memory")
        )
    } else {
        format!(
            "{pod_limits_positive} && {} == 1 && {} == 1",
            state("cpu"),
            state("memory")
        )
    };
    format!("variables.podLevel ? ({pod}) : ({containers})")
}

/// A policy for the objects of `kind`; with the day to export again by when an exemption
/// lapses (`ra2.dev/export-again-by`).
fn policy(
    name: &str,
    rules: &[&str],
    (kind, export_again_by): (Kind, Option<&str>),
    config: &Config,
    validations: &[Value],
) -> Value {
    let mut annotations = serde_json::Map::new();
    annotations.insert("ra2.dev/rules".to_owned(), Value::from(rules.join(", ")));
    annotations.insert("ra2.dev/edition".to_owned(), Value::from(config.edition.as_str()));
    if let Some(date) = export_again_by {
        annotations.insert("ra2.dev/export-again-by".to_owned(), Value::from(date));
    }
    let meta = json!({
        "name": name,
        "labels": {MANAGED_BY.0: MANAGED_BY.1},
        "annotations": annotations,
    });
    let mut spec = serde_json::Map::new();
    spec.insert("failurePolicy".to_owned(), Value::from("Fail"));
    spec.insert("matchConstraints".to_owned(), match_constraints(kind, config));
    if let Some(conditions) = match_conditions(kind, config) {
        spec.insert("matchConditions".to_owned(), conditions);
    }
    spec.insert("variables".to_owned(), variables(kind, config));
    spec.insert("validations".to_owned(), Value::from(validations.to_vec()));
    json!({
        "apiVersion": API_VERSION,
        "kind": "ValidatingAdmissionPolicy",
        "metadata": meta,
        "spec": spec,
    })
}

/// The workload policy judges only objects with a pod spec where their kind keeps it, as ra2
/// does (a Rollout that refers to a Deployment has none).
fn match_conditions(kind: Kind, config: &Config) -> Option<Value> {
    let has_pod_spec = || {
        json!({
            "name": "has-pod-spec",
            "expression": format!("({}).?spec.hasValue()", workload_template(config)),
        })
    };
    match kind {
        Kind::Workload => Some(json!([has_pod_spec()])),
        Kind::Resources => Some(json!([
            has_pod_spec(),
            {"name": "special-resources", "expression": special_resources_cel(config)},
        ])),
        _ => None,
    }
}

/// CEL over `object` (matchConditions cannot read `variables`): the pod template has a
/// signal one of the [`SPECIAL_RESOURCES`] checks needs before it can fire. A superset of
/// each: any resource name but cpu, memory and ephemeral-storage in a container's or the pod's
/// limits or requests (huge pages, network devices, extended and invalid names: ra2.ch.001's
/// requests, ra2.app.009's names, ra2.k8s.009's resource signals), an emptyDir medium starting
/// with HugePages (ra2.ch.001's media), a profile label key in the node selector or any node
/// affinity (ra2.k8s.009's selector signals), the opt-in annotation (ra2.k8s.009's
/// `opt_in_annotation`), on the template `variables.template` reads.
fn special_resources_cel(config: &Config) -> String {
    let opt_in = crate::rules::params::Params::new("ra2.k8s.009", config).string("opt_in_annotation");
    let opt_in = if opt_in.is_empty() {
        String::new()
    } else {
        format!("{} in t.?metadata.?annotations.orValue({{}}) || ", literal(&opt_in))
    };
    let special = "m.exists(k, !(k in ['cpu', 'memory', 'ephemeral-storage']))";
    with_data(&format!(
        concat!(
            "[{template}].exists(t, {opt_in}[t.?spec.orValue({{}})].exists(s, ",
            "(s.?initContainers.orValue([]) + s.?containers.orValue([])).exists(c, [c.?resources.?limits.orValue({{}}), c.?resources.?requests.orValue({{}})].exists(m, {special})) || ",
            "[s.?resources.?limits.orValue({{}}), s.?resources.?requests.orValue({{}})].exists(m, {special}) || ",
            "s.?volumes.orValue([]).exists(v, v.?emptyDir.?medium.orValue('').startsWith('HugePages')) || ",
            "s.?nodeSelector.orValue({{}}).exists(k, k in @data:profile_label@) || ",
            "s.?affinity.?nodeAffinity.hasValue()))"
        ),
        template = workload_template(config),
        opt_in = opt_in,
        special = special,
    ))
}

fn match_constraints(kind: Kind, config: &Config) -> Value {
    let rules = resource_rules(kind, config);
    if kind == Kind::Api {
        json!({"matchPolicy": "Exact", "resourceRules": rules})
    } else {
        json!({"resourceRules": rules})
    }
}

/// The variables of [`Kind::Api`]: the request's group, version and kind as requested
/// (`request.requestKind`: with `matchPolicy: Exact` the object is in that version), who owns
/// the group and how stable the version is (`api_versions::owner` and `level`), and whether a
/// Kubernetes beta has a GA version at the target release (`api_versions::lookup`, from the
/// table ra2.k8s.019 reads, at the config's Kubernetes version); the suppression annotations of
/// the object and, for a kind ra2 reads a pod template of, the template's.
fn api_variables(config: &Config, name: &Value) -> Value {
    use crate::k8s::api_versions::{Level, Owner, level, owner, table};
    let var = |name: &str, expression: &str| json!({"name": name, "expression": expression});
    let list =
        |items: &mut dyn Iterator<Item = &str>| format!("[{}]", items.map(literal).collect::<Vec<_>>().join(", "));
    let table = table();
    let client_side: Vec<String> = table
        .client_side_groups
        .iter()
        .map(|p| match p.strip_prefix('*') {
            Some(suffix) => format!("variables.group.endsWith({})", literal(suffix)),
            None => format!("variables.group == {}", literal(p)),
        })
        .collect();
    let owner_cel = format!(
        "variables.group == '' || variables.group in {} ? 'kubernetes' : !variables.group.contains('.') || {} ? 'none' : variables.group.endsWith('.k8s.io') || variables.group.endsWith('.kubernetes.io') ? 'kubernetes' : 'third-party'",
        list(&mut table.dotless_groups.iter().copied()),
        client_side.join(" || ")
    );
    // `lookup`: a kind's own entry, else its group version's catch-all entry (the first of each).
    let target = config.kubernetes_minor;
    let mut with_ga: BTreeMap<String, bool> = BTreeMap::new();
    for entry in table.versions {
        if level(entry.version) != Some(Level::Beta) || owner(entry.group) != Owner::Kubernetes {
            continue;
        }
        let group_version = if entry.group.is_empty() {
            entry.version.to_owned()
        } else {
            format!("{}/{}", entry.group, entry.version)
        };
        let verdict = entry.removed_by(target).is_some() || entry.replacement_at(target).is_some();
        if entry.kinds.is_empty() {
            with_ga.entry(group_version).or_insert(verdict);
        } else {
            for kind in entry.kinds {
                with_ga.entry(format!("{group_version}/{kind}")).or_insert(verdict);
            }
        }
    }
    let map = format!(
        "{{{}}}",
        with_ga
            .iter()
            .map(|(key, verdict)| format!("{}: {verdict}", literal(key)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let beta_with_ga = concat!(
        "variables.apiVersion + '/' + variables.kind in variables.betaTable ? variables.betaTable[variables.apiVersion + '/' + variables.kind] : ",
        "variables.apiVersion in variables.betaTable ? variables.betaTable[variables.apiVersion] : false"
    );
    // Where ra2 reads a pod template's annotations (`model::Object::pod_spec`): the built-in
    // workload kinds by group and kind, and the declared ones.
    let mut template = String::new();
    for d in declared(config) {
        let _ = write!(
            template,
            "variables.apiVersion == {} && variables.kind == {} ? object",
            literal(&d.api_version),
            literal(&d.kind)
        );
        for key in &d.template {
            let _ = write!(template, ".?{key}");
        }
        template.push_str(".orValue({}) : ");
    }
    template.push_str(concat!(
        "variables.group == '' && variables.kind == 'PodTemplate' ? object.?template.orValue({}) : ",
        "variables.group == 'batch' && variables.kind == 'CronJob' ? object.?spec.?jobTemplate.?spec.?template.orValue({}) : ",
        "(variables.group == '' && variables.kind == 'ReplicationController') || ",
        "(variables.group in ['apps', 'extensions'] && variables.kind in ['ReplicaSet', 'Deployment', 'DaemonSet']) || ",
        "(variables.group == 'apps' && variables.kind == 'StatefulSet') || (variables.group == 'batch' && variables.kind == 'Job') || ",
        "(variables.group == 'apps.openshift.io' && variables.kind == 'DeploymentConfig') || (variables.group == 'argoproj.io' && variables.kind == 'Rollout') || ",
        "(variables.group == 'serving.knative.dev' && variables.kind in ['Service', 'Configuration']) ? object.?spec.?template.orValue({}) : {}"
    ));
    json!([
        var("group", "request.requestKind.group"),
        var("version", "request.requestKind.version"),
        var("kind", "request.requestKind.kind"),
        var(
            "apiVersion",
            "variables.group == '' ? variables.version : variables.group + '/' + variables.version"
        ),
        var("owner", &owner_cel),
        var(
            "level",
            "variables.version.matches('^v[1-9][0-9]*$') ? 'ga' : variables.version.matches('^v[1-9][0-9]*beta[1-9][0-9]*$') ? 'beta' : variables.version.matches('^v[1-9][0-9]*alpha[1-9][0-9]*$') ? 'alpha' : 'invalid'"
        ),
        var("betaTable", &map),
        var("betaWithGa", beta_with_ga),
        var(
            "requiredByRa2",
            &list(&mut crate::rules::alpha_api::REQUIRED_BY_RA2.iter().copied())
        ),
        var("template", &template),
        // The pod spec of a Pod or of a kind ra2 reads a template of, and its containers.
        var(
            "podSpec",
            "variables.group == '' && variables.kind == 'Pod' ? object.?spec.orValue({}) : variables.template.?spec.orValue({})"
        ),
        var(
            "containers",
            "variables.podSpec.?initContainers.orValue([]) + variables.podSpec.?containers.orValue([]) + variables.podSpec.?ephemeralContainers.orValue([])"
        ),
        var(
            "annotations",
            "[object.?metadata.?annotations.orValue({}), variables.template.?metadata.?annotations.orValue({})]"
        ),
        name.clone(),
    ])
}

fn binding(name: &str, deny: bool) -> Value {
    let actions = if deny {
        json!(["Deny"])
    } else {
        json!(["Warn", "Audit"])
    };
    json!({
        "apiVersion": API_VERSION,
        "kind": "ValidatingAdmissionPolicyBinding",
        "metadata": metadata(name),
        "spec": {"policyName": name, "validationActions": actions},
    })
}

/// Whether `key` can be selected as `.key` both on an object its schema types and on one it
/// leaves untyped (`x-kubernetes-preserve-unknown-fields`): Kubernetes escapes other names
/// (`__dash__`) only where a schema declares them.
fn is_cel_field(key: &str) -> bool {
    const RESERVED: &[&str] = &[
        "true",
        "false",
        "null",
        "in",
        "as",
        "break",
        "const",
        "continue",
        "else",
        "for",
        "function",
        "if",
        "import",
        "let",
        "loop",
        "package",
        "namespace",
        "return",
        "var",
        "void",
        "while",
    ];
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !key.starts_with("__")
        && !RESERVED.contains(&key)
}

/// A CEL string literal.
fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// ra2's glob (`*`, `?`; `config::glob`) as an anchored RE2 pattern.
fn glob_regex(pattern: &str) -> String {
    let mut out = String::from("^");
    for c in pattern.chars() {
        match c {
            '*' => out.push_str(".*"),
            '?' => out.push('.'),
            c if c.is_ascii_alphanumeric() || !c.is_ascii() => out.push(c),
            c => {
                out.push('\\');
                out.push(c);
            }
        }
    }
    out.push('$');
    out
}

/// CEL: `value` matches the glob `pattern`.
fn glob_cel(value: &str, pattern: &str) -> String {
    if pattern.contains(['*', '?']) {
        format!("{value}.matches({})", literal(&format!("(?s){}", glob_regex(pattern))))
    } else {
        format!("{value} == {}", literal(pattern))
    }
}

/// CEL: the object under admission is covered by `exemption` (its kind, namespace and name; the
/// request's namespace, as `ra2 serve` judges it).
fn exemption_cel(exemption: &Exemption) -> String {
    let parts: Vec<String> = [
        ("object.kind", &exemption.kind),
        ("request.namespace", &exemption.namespace),
        ("variables.name", &exemption.name),
    ]
    .into_iter()
    .filter_map(|(value, pattern)| pattern.as_deref().map(|p| glob_cel(value, p)))
    .collect();
    if parts.is_empty() {
        "true".to_owned()
    } else {
        format!("({})", parts.join(" && "))
    }
}

/// A list of ra2's own data that exported CEL names as `@data:NAME@`, so the policies and the
/// rules read the same tables.
fn data_list(name: &str) -> Option<Vec<&'static str>> {
    use crate::model::storage::{IN_TREE_STORAGE, POD_VOLUME_SOURCES};
    let pod_sources = POD_VOLUME_SOURCES.iter().copied();
    Some(match name {
        "non_portable_volume_sources" => pod_sources
            .filter(|k| !crate::rules::volume_types::PORTABLE.contains(k))
            .collect(),
        "in_tree_volume_sources" => pod_sources.filter(|k| IN_TREE_STORAGE.contains(k)).collect(),
        "profile_label" => vec![crate::model::profile::PROFILE_LABEL],
        "profile_names" => crate::model::profile::PROFILE_NAMES.to_vec(),
        "network_intensive" => vec![crate::model::profile::NETWORK_INTENSIVE],
        "in_tree_pv_sources" => crate::model::storage::PV_SOURCES
            .iter()
            .copied()
            .filter(|k| IN_TREE_STORAGE.contains(k))
            .collect(),
        _ => return None,
    })
}

/// `text` with every `@data:NAME@` replaced by its [`data_list`] as a CEL list.
fn with_data(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("@data:") {
        let after = rest.get(at + "@data:".len()..).unwrap_or_default();
        let Some(end) = after.find('@') else { break };
        let name = after.get(..end).unwrap_or_default();
        let items = data_list(name).unwrap_or_default();
        out.push_str(rest.get(..at).unwrap_or_default());
        let _ = write!(
            out,
            "[{}]",
            items.iter().map(|i| literal(i)).collect::<Vec<_>>().join(", ")
        );
        rest = after.get(end + 1..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// One validation: passes when the check does not fire, or a suppression annotation or an
/// exemption covers it.
fn validation(entry: &Exported, title: &str, exemptions: &[&Exemption]) -> Value {
    let (rule, check) = (entry.rule, entry.check);
    let prefix = literal(&format!("{rule}/{check}: "));
    let (fires, message) = match entry.test {
        Test::Container { set, when, what } | Test::Showing { set, when, what, .. } => {
            let list = set.variable();
            let shows = match entry.test {
                Test::Showing { shows, .. } => format!(" + {shows}"),
                _ => String::new(),
            };
            (
                format!("{list}.exists(c, {when})"),
                Some(format!(
                    "{prefix} + {} + ' in ' + {list}.filter(c, {when}).map(c, 'container \"' + c.?name.orValue('?') + '\"'{shows}).join(', ')",
                    literal(what)
                )),
            )
        }
        Test::Volume { when, what } => (
            format!("variables.spec.?volumes.orValue([]).exists(v, {when})"),
            Some(format!(
                "{prefix} + {} + ' ' + variables.spec.?volumes.orValue([]).filter(v, {when}).map(v, '\"' + v.?name.orValue('?') + '\"').join(', ')",
                literal(what)
            )),
        ),
        Test::Pod { when, .. } | Test::Object { when, .. } => (when.to_owned(), None),
        Test::Api { when, what } => (
            when.to_owned(),
            Some(format!(
                "{prefix} + 'apiVersion ' + variables.apiVersion + ' ' + {}",
                literal(what)
            )),
        ),
    };
    let suppressed = format!(
        "variables.annotations.exists(a, 'ra2.dev/ignore-all' in a || {} in a || {} in a)",
        literal(&format!("ignore-check.ra2.dev/{rule}")),
        literal(&format!("ignore-check.ra2.dev/{rule}.{check}"))
    );
    let mut allowed = vec![suppressed];
    allowed.extend(exemptions.iter().map(|e| exemption_cel(e)));
    let expression = format!("{} || !({fires})", allowed.join(" || "));
    let static_message = match entry.test {
        Test::Pod { what, .. } | Test::Object { what, .. } => format!("{rule}/{check}: {what}"),
        Test::Api { what, .. } => format!("{rule}/{check}: the apiVersion {what}"),
        _ => format!("{rule}/{check}: {title}"),
    };
    let (expression, message) = (with_data(&expression), message.as_deref().map(with_data));
    let mut out = serde_json::Map::new();
    out.insert("expression".to_owned(), Value::String(expression));
    out.insert("message".to_owned(), Value::String(static_message));
    if let Some(message) = message {
        out.insert("messageExpression".to_owned(), Value::String(message));
    }
    out.insert("reason".to_owned(), Value::String("Forbidden".to_owned()));
    Value::Object(out)
}

/// `validation` with the rule's `@param@` lists written in (see [`PARAM_LISTS`]).
fn with_params(mut validation: Value, rule: &'static str, config: &Config) -> Value {
    for (_, name) in PARAM_LISTS.iter().filter(|(r, _)| *r == rule) {
        let items: Vec<String> = crate::rules::params::Params::new(rule, config)
            .list(name)
            .iter()
            .map(|item| literal(item))
            .collect();
        let list = format!("[{}]", items.join(", "));
        for field in ["expression", "messageExpression"] {
            if let Some(Value::String(expression)) = validation.get_mut(field) {
                *expression = expression.replace(&format!("@{name}@"), &list);
            }
        }
    }
    for (_, name) in PARAM_STRINGS.iter().filter(|(r, _)| *r == rule) {
        let text = literal(&crate::rules::params::Params::new(rule, config).string(name));
        for field in ["expression", "messageExpression"] {
            if let Some(Value::String(expression)) = validation.get_mut(field) {
                *expression = expression.replace(&format!("@{name}@"), &text);
            }
        }
    }
    validation
}

/// The objects as a YAML stream (`---` between them), ready for `kubectl apply -f -`.
pub fn to_yaml(objects: &[Value]) -> String {
    let mut out = String::new();
    for object in objects {
        out.push_str("---\n");
        write_yaml(&mut out, object, 0);
    }
    out
}

/// Block YAML; every string is a JSON (double-quoted YAML) scalar, so no value is misread.
fn write_yaml(out: &mut String, value: &Value, indent: usize) {
    let pad = " ".repeat(indent);
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (key, item) in map {
                out.push_str(&pad);
                out.push_str(&yaml_key(key));
                out.push(':');
                write_nested(out, item, indent + 2);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for item in items {
                out.push_str(&pad);
                out.push('-');
                match item {
                    Value::Object(map) if !map.is_empty() => {
                        // The first key on the dash's line, the rest below it.
                        let mut first = true;
                        for (key, inner) in map {
                            if first {
                                out.push(' ');
                                first = false;
                            } else {
                                out.push_str(&" ".repeat(indent + 2));
                            }
                            out.push_str(&yaml_key(key));
                            out.push(':');
                            write_nested(out, inner, indent + 4);
                        }
                    }
                    _ => write_nested(out, item, indent + 2),
                }
            }
        }
        scalar => {
            out.push_str(&pad);
            out.push_str(&scalar_text(scalar));
            out.push('\n');
        }
    }
}

/// A value after `key:` or `-`: inline when scalar or empty, else on the following lines.
fn write_nested(out: &mut String, value: &Value, indent: usize) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            write_yaml(out, value, indent);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            write_yaml(out, value, indent);
        }
        scalar => {
            out.push(' ');
            out.push_str(&scalar_text(scalar));
            out.push('\n');
        }
    }
}

fn scalar_text(value: &Value) -> String {
    match value {
        Value::Object(_) => "{}".to_owned(),
        Value::Array(_) => "[]".to_owned(),
        other => other.to_string(),
    }
}

/// A mapping key: plain when it is a simple word, else quoted.
fn yaml_key(key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
        && key.starts_with(|c: char| c.is_ascii_alphabetic());
    if plain {
        key.to_owned()
    } else {
        Value::String(key.to_owned()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every exported check and every reason names a rule and check of the catalogue; every
    /// check of the catalogue is exported or has a reason; none is both.
    #[test]
    fn the_tables_match_the_catalogue() {
        for entry in EXPORTED {
            let doc = catalogue::get(entry.rule).unwrap_or_else(|| panic!("{} is not in the catalogue", entry.rule));
            assert!(
                doc.check(entry.check).is_some(),
                "{}/{} is not in the catalogue",
                entry.rule,
                entry.check
            );
            assert!(
                crate::rules::find(entry.rule).is_some(),
                "{} is not registered",
                entry.rule
            );
            let twice = EXPORTED
                .iter()
                .filter(|e| e.rule == entry.rule && e.check == entry.check && e.kind() == entry.kind())
                .count();
            assert_eq!(
                twice, 1,
                "{}/{} is exported twice for the same objects",
                entry.rule, entry.check
            );
        }
        for (selector, _) in NOTES {
            let (rule, check) = selector.split_once('/').unwrap_or_default();
            assert!(
                exported(rule, check).is_some(),
                "{selector} has a note and is not exported"
            );
        }
        for (selector, _) in NOT_EXPORTED {
            assert!(
                crate::config::known_selector(selector),
                "{selector} is not in the catalogue"
            );
            if let Some((rule, check)) = selector.split_once('/') {
                assert!(
                    exported(rule, check).is_none(),
                    "{selector} is exported and has a reason"
                );
            }
        }
        for doc in catalogue::all() {
            for check in doc.checks {
                assert!(
                    exported(doc.id, check.slug).is_some() || reason(doc.id, check.slug).is_some(),
                    "{}/{} is neither exported nor given a reason",
                    doc.id,
                    check.slug
                );
            }
        }
    }

    #[test]
    fn every_data_list_is_known() {
        for entry in EXPORTED {
            let when = match entry.test {
                Test::Container { when, .. }
                | Test::Volume { when, .. }
                | Test::Pod { when, .. }
                | Test::Showing { when, .. }
                | Test::Object { when, .. }
                | Test::Api { when, .. } => when,
            };
            for part in when.split("@data:").skip(1) {
                let name = part.split('@').next().unwrap_or_default();
                assert!(
                    data_list(name).is_some_and(|l| !l.is_empty()),
                    "{}/{}: @data:{name}@",
                    entry.rule,
                    entry.check
                );
            }
            assert!(!with_data(when).contains("@data:"));
        }
    }

    #[test]
    fn params_are_used_or_refused() {
        for (rule, param) in PARAMS_NOT_USED {
            assert!(
                catalogue::get(rule).and_then(|d| d.param(param)).is_some(),
                "{rule}: {param}"
            );
        }
        for (rule, param) in PARAM_LISTS {
            assert!(
                catalogue::get(rule)
                    .and_then(|d| d.param(param))
                    .is_some_and(|p| p.kind == "string-list"),
                "{rule}: {param}"
            );
        }
        let custom = Config::from_yaml(
            "edition: latest\nparams: {ra2.app.048: {allowed_types: [my_t, \"o'k\"]}}\n",
            "c",
        )
        .unwrap();
        let text = to_yaml(&generate(&custom).unwrap().0);
        assert!(text.contains("in ['my_t', 'o\\\\'k']"), "{text}");
        assert!(!text.contains("@allowed_types@"));
        let sockets = Config::from_yaml(
            "edition: latest\nparams: {ra2.app.028: {sockets: [/run/my.sock]}}\n",
            "c",
        )
        .unwrap();
        let text = to_yaml(&generate(&sockets).unwrap().0);
        assert!(text.contains("['/run/my.sock'].exists(s, "), "{text}");
        assert!(!text.contains("@sockets@"));
        // ra2.k8s.009's opt-in annotation, and the device patterns its network-intensive signal
        // reads (ra2.app.006's network patterns, ra2.app.009's accelerators).
        let pinning = Config::from_yaml(
            "params: {ra2.k8s.009: {opt_in_annotation: example.com/pin}, ra2.app.006: {ni_resource_patterns: [acme.io/Fast*]}, ra2.app.009: {accelerator_resource_patterns: [acme.io/fastgpu]}}\n",
            "c",
        )
        .unwrap();
        let text = to_yaml(&generate(&pinning).unwrap().0);
        assert!(
            text.contains("'example.com/pin' in a && a['example.com/pin'] == 'true'"),
            "{text}"
        );
        assert!(
            text.contains("l.matches('(?s)^(?:acme\\\\\\\\.io\\\\\\\\/fast.*)$')"),
            "{text}"
        );
        assert!(text.contains("acme\\\\\\\\.io\\\\\\\\/fastgpu"), "{text}");
        assert!(!text.contains("@opt_in_annotation@"));
        let off = Config::from_yaml("params: {ra2.k8s.009: {opt_in_annotation: ''}}\n", "c").unwrap();
        assert!(to_yaml(&generate(&off).unwrap().0).contains("('' != '' && "));
        let unused = Config::from_yaml("params: {ra2.app.004: {cluster_domain: example.org}}\n", "c").unwrap();
        assert!(generate(&unused).is_ok());
        let config = Config::from_yaml("edition: base\nfail-on: info\n", "c").unwrap();
        assert!(generate(&config).is_ok());
    }

    #[test]
    fn every_check_of_the_edition_is_listed() {
        for edition in Edition::ALL {
            let listed = list(edition);
            let expected: usize = catalogue::all()
                .iter()
                .filter(|d| d.in_edition(edition))
                .map(|d| d.checks_in(edition).count())
                .sum();
            assert_eq!(listed.len(), expected);
            assert!(listed.iter().all(|l| l.exported == l.reason.is_none()));
            assert!(listed.iter().any(|l| l.exported));
        }
    }

    #[test]
    fn severities_and_fail_on_choose_the_action() {
        let config = Config {
            edition: Edition::Latest,
            ..Config::default()
        };
        let (objects, summary) = generate(&config).unwrap();
        let names: Vec<&str> = objects
            .iter()
            .filter_map(|o| o.pointer("/metadata/name").and_then(Value::as_str))
            .collect();
        assert!(names.contains(&"ra2-workloads-deny"));
        assert!(names.contains(&"ra2-workloads-warn"));
        assert!(names.contains(&"ra2-configmaps-deny"));
        assert!(summary.deny > 0 && summary.warn > 0);
        let never = Config {
            fail_on: crate::FailOn::Never,
            ..config
        };
        let (objects, summary) = generate(&never).unwrap();
        assert_eq!(summary.deny, 0);
        assert!(
            objects
                .iter()
                .all(|o| o["spec"]["validationActions"] != json!(["Deny"]))
        );
    }

    #[test]
    fn settings_it_cannot_express_are_errors() {
        let config = Config::from_yaml(
            "edition: latest\nexemptions:\n  - {rule: ra2.app.041, template: 'templates/*', reason: lab}\n",
            "c",
        )
        .unwrap();
        let errors = generate(&config).unwrap_err();
        assert!(errors[0].0.contains("templates/*"), "{errors:?}");
        let old = Config {
            kubernetes_minor: 29,
            ..Config::default()
        };
        assert!(generate(&old).unwrap_err()[0].0.contains("1.29"));
    }

    #[test]
    fn declared_workload_kinds_are_matched_where_their_template_is() {
        let config = Config::from_yaml(
            "workload-kinds:\n- {api-version: apps.kruise.io/v1alpha1, kind: CloneSet, template: spec.template}\n- {api-version: argoproj.io/v1alpha1, kind: Rollout, template: spec.x}\n",
            "c",
        )
        .unwrap();
        let (policies, _) = generate(&config).unwrap();
        let workload = &policies[0]["spec"];
        let rules = workload["matchConstraints"]["resourceRules"].as_array().unwrap();
        assert_eq!(
            rules.last().unwrap(),
            &json!({"apiGroups": ["apps.kruise.io"], "apiVersions": ["v1alpha1"], "operations": ["CREATE", "UPDATE"], "resources": ["clonesets"]})
        );
        // A kind ra2 knows keeps its own reading (Rollouts at any version, their template at
        // spec.template).
        let argo: Vec<&Value> = rules.iter().filter(|r| r["apiGroups"][0] == "argoproj.io").collect();
        assert_eq!(argo.len(), 1);
        assert_eq!(argo[0]["apiVersions"], json!(["*"]));
        let template = workload["variables"][0]["expression"].as_str().unwrap();
        assert!(
            template.starts_with("object.apiVersion == 'apps.kruise.io/v1alpha1' && object.kind == 'CloneSet' ? object.?spec.?template.orValue({}) : object.kind == 'Pod'"),
            "{template}"
        );
        let bad = Config::from_yaml(
            "workload-kinds:\n- {api-version: example.com/v1, kind: Cnf, template: spec.pod-template}\n",
            "c",
        )
        .unwrap();
        assert!(generate(&bad).unwrap_err()[0].0.contains("\"pod-template\""));
    }

    #[test]
    fn lapsed_waivers_are_left_out_and_the_first_expiry_is_announced() {
        let mut config = Config::from_yaml(
            concat!(
                "edition: latest\n",
                "exemptions:\n",
                "  - {rule: ra2.app.041, name: old, reason: r, expires: 2026-11-26}\n",
                "  - {rule: ra2.app.041, name: soon, reason: r, expires: 2026-12-31}\n",
                "  - {rule: ra2.app.041, name: later, reason: r, expires: 2027-03-01}\n",
                "  - {rule: ra2.app.041, name: always, reason: r}\n",
            ),
            "c",
        )
        .unwrap();
        config.today = Some("2026-11-27".to_owned());
        let (policies, summary) = generate(&config).unwrap();
        assert_eq!(summary.lapsed, ["ra2.app.041 (name old) (expired 2026-11-26)"]);
        assert_eq!(summary.export_again_by.as_deref(), Some("2027-01-01"));
        let text = serde_json::to_string(&policies).unwrap();
        for (name, exported) in [("old", false), ("soon", true), ("later", true), ("always", true)] {
            assert_eq!(
                text.contains(&format!("variables.name == '{name}'")),
                exported,
                "{name}: {text}"
            );
        }
        assert_eq!(
            policies[0]["metadata"]["annotations"]["ra2.dev/export-again-by"],
            "2027-01-01"
        );
        // Without a clock nothing lapses (as in a lint), and the date is still announced.
        config.today = None;
        let (policies, summary) = generate(&config).unwrap();
        assert!(summary.lapsed.is_empty());
        assert!(serde_json::to_string(&policies).unwrap().contains("'old'"));
    }

    #[test]
    fn the_api_version_policy_matches_every_kind_and_reads_the_table_at_the_target() {
        let table = |minor: u32| {
            let config = Config {
                kubernetes_minor: minor,
                ..Config::default()
            };
            let (policies, _) = generate(&config).unwrap();
            let policy = policies
                .iter()
                .find(|p| p["metadata"]["name"] == "ra2-allresources-warn")
                .expect("the apiVersion policy")
                .clone();
            assert_eq!(policy["spec"]["matchConstraints"]["matchPolicy"], "Exact");
            assert_eq!(
                policy["spec"]["matchConstraints"]["resourceRules"][0]["resources"],
                json!(["*"])
            );
            let variables = policy["spec"]["variables"].as_array().unwrap().clone();
            variables
                .iter()
                .find(|v| v["name"] == "betaTable")
                .and_then(|v| v["expression"].as_str())
                .unwrap()
                .to_owned()
        };
        // resource.k8s.io/v1 arrives in 1.34 (as ra2.k8s.019's own test says).
        assert!(table(33).contains("'resource.k8s.io/v1beta1/DeviceClass': false"));
        assert!(table(34).contains("'resource.k8s.io/v1beta1/DeviceClass': true"));
        assert!(table(33).contains("'extensions/v1beta1': true"));
    }

    #[test]
    fn exemptions_become_cel() {
        let exemption = Exemption {
            rule: "ra2.app.041".into(),
            namespace: Some("kube-*".into()),
            name: Some("agent".into()),
            ..Exemption::default()
        };
        assert_eq!(
            exemption_cel(&exemption),
            "(request.namespace.matches('(?s)^kube\\\\-.*$') && variables.name == 'agent')"
        );
    }

    #[test]
    fn yaml_output_reads_back_as_the_same_objects() {
        let config = Config::from_yaml(
            "edition: latest\nexemptions: [{rule: ra2.app.030, namespace: \"o'k*\", reason: r}]\n",
            "c",
        )
        .unwrap();
        let (objects, _) = generate(&config).unwrap();
        let text = to_yaml(&objects);
        let (body, bom) = crate::source::strip_bom(&text);
        let read: Vec<Value> = crate::source::chunks(body, bom, 0)
            .into_iter()
            .filter_map(|c| crate::yaml_to_json(c.text).ok())
            .filter(|v| !v.is_null())
            .collect();
        assert_eq!(read, objects);
    }
}
