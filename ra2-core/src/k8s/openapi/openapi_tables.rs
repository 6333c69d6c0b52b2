// Generated from k8s-openapi 0.29 (Kubernetes 1.33) by ra2-strict/src/tables.rs: do not edit.
// Regenerate with `RA2_REGENERATE=1 cargo test -p ra2-strict generated_tables_are_current`.

use super::{Shape, Struct};

/// Every built-in kind: apiVersion, kind and its struct, sorted.
pub(crate) static KINDS: &[(&str, &str, u16)] = &[
    ("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", 5),
    ("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", 12),
    ("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding", 13),
    ("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", 18),
    ("admissionregistration.k8s.io/v1alpha1", "MutatingAdmissionPolicy", 26),
    ("admissionregistration.k8s.io/v1alpha1", "MutatingAdmissionPolicyBinding", 27),
    ("admissionregistration.k8s.io/v1beta1", "ValidatingAdmissionPolicy", 43),
    ("admissionregistration.k8s.io/v1beta1", "ValidatingAdmissionPolicyBinding", 44),
    ("apiextensions.k8s.io/v1", "CustomResourceDefinition", 570),
    ("apiregistration.k8s.io/v1", "APIService", 595),
    ("apps/v1", "ControllerRevision", 54),
    ("apps/v1", "DaemonSet", 55),
    ("apps/v1", "Deployment", 60),
    ("apps/v1", "ReplicaSet", 65),
    ("apps/v1", "StatefulSet", 72),
    ("authentication.k8s.io/v1", "SelfSubjectReview", 80),
    ("authentication.k8s.io/v1", "TokenRequest", 82),
    ("authentication.k8s.io/v1", "TokenReview", 85),
    ("authorization.k8s.io/v1", "LocalSubjectAccessReview", 91),
    ("authorization.k8s.io/v1", "SelfSubjectAccessReview", 96),
    ("authorization.k8s.io/v1", "SelfSubjectRulesReview", 98),
    ("authorization.k8s.io/v1", "SubjectAccessReview", 100),
    ("autoscaling/v1", "HorizontalPodAutoscaler", 105),
    ("autoscaling/v1", "Scale", 108),
    ("autoscaling/v2", "HorizontalPodAutoscaler", 118),
    ("batch/v1", "CronJob", 134),
    ("batch/v1", "Job", 137),
    ("certificates.k8s.io/v1", "CertificateSigningRequest", 149),
    ("certificates.k8s.io/v1alpha1", "ClusterTrustBundle", 153),
    ("certificates.k8s.io/v1beta1", "ClusterTrustBundle", 155),
    ("coordination.k8s.io/v1", "Lease", 157),
    ("coordination.k8s.io/v1alpha2", "LeaseCandidate", 159),
    ("coordination.k8s.io/v1beta1", "LeaseCandidate", 161),
    ("discovery.k8s.io/v1", "EndpointSlice", 363),
    ("events.k8s.io/v1", "Event", 366),
    ("flowcontrol.apiserver.k8s.io/v1", "FlowSchema", 370),
    ("flowcontrol.apiserver.k8s.io/v1", "PriorityLevelConfiguration", 379),
    ("internal.apiserver.k8s.io/v1alpha1", "StorageVersion", 51),
    ("networking.k8s.io/v1", "IPAddress", 391),
    ("networking.k8s.io/v1", "Ingress", 394),
    ("networking.k8s.io/v1", "IngressClass", 396),
    ("networking.k8s.io/v1", "NetworkPolicy", 407),
    ("networking.k8s.io/v1", "ServiceCIDR", 415),
    ("networking.k8s.io/v1beta1", "IPAddress", 418),
    ("networking.k8s.io/v1beta1", "ServiceCIDR", 421),
    ("node.k8s.io/v1", "RuntimeClass", 425),
    ("policy/v1", "Eviction", 427),
    ("policy/v1", "PodDisruptionBudget", 428),
    ("rbac.authorization.k8s.io/v1", "ClusterRole", 432),
    ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", 433),
    ("rbac.authorization.k8s.io/v1", "Role", 435),
    ("rbac.authorization.k8s.io/v1", "RoleBinding", 436),
    ("resource.k8s.io/v1alpha3", "DeviceClass", 451),
    ("resource.k8s.io/v1alpha3", "DeviceTaintRule", 461),
    ("resource.k8s.io/v1alpha3", "ResourceClaim", 467),
    ("resource.k8s.io/v1alpha3", "ResourceClaimTemplate", 471),
    ("resource.k8s.io/v1alpha3", "ResourceSlice", 474),
    ("resource.k8s.io/v1beta1", "DeviceClass", 489),
    ("resource.k8s.io/v1beta1", "ResourceClaim", 502),
    ("resource.k8s.io/v1beta1", "ResourceClaimTemplate", 506),
    ("resource.k8s.io/v1beta1", "ResourceSlice", 509),
    ("resource.k8s.io/v1beta2", "DeviceClass", 523),
    ("resource.k8s.io/v1beta2", "ResourceClaim", 537),
    ("resource.k8s.io/v1beta2", "ResourceClaimTemplate", 541),
    ("resource.k8s.io/v1beta2", "ResourceSlice", 544),
    ("scheduling.k8s.io/v1", "PriorityClass", 546),
    ("storage.k8s.io/v1", "CSIDriver", 547),
    ("storage.k8s.io/v1", "CSINode", 549),
    ("storage.k8s.io/v1", "CSIStorageCapacity", 552),
    ("storage.k8s.io/v1", "StorageClass", 553),
    ("storage.k8s.io/v1", "VolumeAttachment", 555),
    ("storage.k8s.io/v1alpha1", "VolumeAttributesClass", 561),
    ("storage.k8s.io/v1beta1", "VolumeAttributesClass", 562),
    ("storagemigration.k8s.io/v1alpha1", "StorageVersionMigration", 565),
    ("v1", "Binding", 170),
    ("v1", "ComponentStatus", 181),
    ("v1", "ConfigMap", 182),
    ("v1", "Endpoints", 206),
    ("v1", "Event", 212),
    ("v1", "LimitRange", 236),
    ("v1", "Namespace", 246),
    ("v1", "Node", 250),
    ("v1", "PersistentVolume", 269),
    ("v1", "PersistentVolumeClaim", 270),
    ("v1", "Pod", 279),
    ("v1", "PodTemplate", 295),
    ("v1", "ReplicationController", 305),
    ("v1", "ResourceQuota", 312),
    ("v1", "Secret", 323),
    ("v1", "Service", 330),
    ("v1", "ServiceAccount", 331),
];

/// The struct types, their fields sorted by name.
pub(crate) static STRUCTS: &[Struct] = &[
    // 0: io.k8s.api.admissionregistration.v1.AuditAnnotation
    Struct {
        name: "AuditAnnotation",
        fields: &[
            ("key", Shape::String),
            ("valueExpression", Shape::String),
        ],
    },
    // 1: io.k8s.api.admissionregistration.v1.ExpressionWarning
    Struct {
        name: "ExpressionWarning",
        fields: &[
            ("fieldRef", Shape::String),
            ("warning", Shape::String),
        ],
    },
    // 2: io.k8s.api.admissionregistration.v1.MatchCondition
    Struct {
        name: "MatchCondition",
        fields: &[
            ("expression", Shape::String),
            ("name", Shape::String),
        ],
    },
    // 3: io.k8s.api.admissionregistration.v1.MatchResources
    Struct {
        name: "MatchResources",
        fields: &[
            ("excludeResourceRules", Shape::List(&Shape::Struct(6))),
            ("matchPolicy", Shape::String),
            ("namespaceSelector", Shape::Struct(589)),
            ("objectSelector", Shape::Struct(589)),
            ("resourceRules", Shape::List(&Shape::Struct(6))),
        ],
    },
    // 4: io.k8s.api.admissionregistration.v1.MutatingWebhook
    Struct {
        name: "MutatingWebhook",
        fields: &[
            ("admissionReviewVersions", Shape::List(&Shape::String)),
            ("clientConfig", Shape::Struct(21)),
            ("failurePolicy", Shape::String),
            ("matchConditions", Shape::List(&Shape::Struct(2))),
            ("matchPolicy", Shape::String),
            ("name", Shape::String),
            ("namespaceSelector", Shape::Struct(589)),
            ("objectSelector", Shape::Struct(589)),
            ("reinvocationPolicy", Shape::String),
            ("rules", Shape::List(&Shape::Struct(9))),
            ("sideEffects", Shape::String),
            ("timeoutSeconds", Shape::Int32),
        ],
    },
    // 5: io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration
    Struct {
        name: "MutatingWebhookConfiguration",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("webhooks", Shape::List(&Shape::Struct(4))),
        ],
    },
    // 6: io.k8s.api.admissionregistration.v1.NamedRuleWithOperations
    Struct {
        name: "NamedRuleWithOperations",
        fields: &[
            ("apiGroups", Shape::List(&Shape::String)),
            ("apiVersions", Shape::List(&Shape::String)),
            ("operations", Shape::List(&Shape::String)),
            ("resourceNames", Shape::List(&Shape::String)),
            ("resources", Shape::List(&Shape::String)),
            ("scope", Shape::String),
        ],
    },
    // 7: io.k8s.api.admissionregistration.v1.ParamKind
    Struct {
        name: "ParamKind",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
        ],
    },
    // 8: io.k8s.api.admissionregistration.v1.ParamRef
    Struct {
        name: "ParamRef",
        fields: &[
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("parameterNotFoundAction", Shape::String),
            ("selector", Shape::Struct(589)),
        ],
    },
    // 9: io.k8s.api.admissionregistration.v1.RuleWithOperations
    Struct {
        name: "RuleWithOperations",
        fields: &[
            ("apiGroups", Shape::List(&Shape::String)),
            ("apiVersions", Shape::List(&Shape::String)),
            ("operations", Shape::List(&Shape::String)),
            ("resources", Shape::List(&Shape::String)),
            ("scope", Shape::String),
        ],
    },
    // 10: io.k8s.api.admissionregistration.v1.ServiceReference
    Struct {
        name: "ServiceReference",
        fields: &[
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("path", Shape::String),
            ("port", Shape::Int32),
        ],
    },
    // 11: io.k8s.api.admissionregistration.v1.TypeChecking
    Struct {
        name: "TypeChecking",
        fields: &[
            ("expressionWarnings", Shape::List(&Shape::Struct(1))),
        ],
    },
    // 12: io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy
    Struct {
        name: "ValidatingAdmissionPolicy",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(15)),
            ("status", Shape::Struct(16)),
        ],
    },
    // 13: io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding
    Struct {
        name: "ValidatingAdmissionPolicyBinding",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(14)),
        ],
    },
    // 14: io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec
    Struct {
        name: "ValidatingAdmissionPolicyBindingSpec",
        fields: &[
            ("matchResources", Shape::Struct(3)),
            ("paramRef", Shape::Struct(8)),
            ("policyName", Shape::String),
            ("validationActions", Shape::List(&Shape::String)),
        ],
    },
    // 15: io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec
    Struct {
        name: "ValidatingAdmissionPolicySpec",
        fields: &[
            ("auditAnnotations", Shape::List(&Shape::Struct(0))),
            ("failurePolicy", Shape::String),
            ("matchConditions", Shape::List(&Shape::Struct(2))),
            ("matchConstraints", Shape::Struct(3)),
            ("paramKind", Shape::Struct(7)),
            ("validations", Shape::List(&Shape::Struct(19))),
            ("variables", Shape::List(&Shape::Struct(20))),
        ],
    },
    // 16: io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus
    Struct {
        name: "ValidatingAdmissionPolicyStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(586))),
            ("observedGeneration", Shape::Int64),
            ("typeChecking", Shape::Struct(11)),
        ],
    },
    // 17: io.k8s.api.admissionregistration.v1.ValidatingWebhook
    Struct {
        name: "ValidatingWebhook",
        fields: &[
            ("admissionReviewVersions", Shape::List(&Shape::String)),
            ("clientConfig", Shape::Struct(21)),
            ("failurePolicy", Shape::String),
            ("matchConditions", Shape::List(&Shape::Struct(2))),
            ("matchPolicy", Shape::String),
            ("name", Shape::String),
            ("namespaceSelector", Shape::Struct(589)),
            ("objectSelector", Shape::Struct(589)),
            ("rules", Shape::List(&Shape::Struct(9))),
            ("sideEffects", Shape::String),
            ("timeoutSeconds", Shape::Int32),
        ],
    },
    // 18: io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration
    Struct {
        name: "ValidatingWebhookConfiguration",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("webhooks", Shape::List(&Shape::Struct(17))),
        ],
    },
    // 19: io.k8s.api.admissionregistration.v1.Validation
    Struct {
        name: "Validation",
        fields: &[
            ("expression", Shape::String),
            ("message", Shape::String),
            ("messageExpression", Shape::String),
            ("reason", Shape::String),
        ],
    },
    // 20: io.k8s.api.admissionregistration.v1.Variable
    Struct {
        name: "Variable",
        fields: &[
            ("expression", Shape::String),
            ("name", Shape::String),
        ],
    },
    // 21: io.k8s.api.admissionregistration.v1.WebhookClientConfig
    Struct {
        name: "WebhookClientConfig",
        fields: &[
            ("caBundle", Shape::Bytes),
            ("service", Shape::Struct(10)),
            ("url", Shape::String),
        ],
    },
    // 22: io.k8s.api.admissionregistration.v1alpha1.ApplyConfiguration
    Struct {
        name: "ApplyConfiguration",
        fields: &[
            ("expression", Shape::String),
        ],
    },
    // 23: io.k8s.api.admissionregistration.v1alpha1.JSONPatch
    Struct {
        name: "JSONPatch",
        fields: &[
            ("expression", Shape::String),
        ],
    },
    // 24: io.k8s.api.admissionregistration.v1alpha1.MatchCondition
    Struct {
        name: "MatchCondition",
        fields: &[
            ("expression", Shape::String),
            ("name", Shape::String),
        ],
    },
    // 25: io.k8s.api.admissionregistration.v1alpha1.MatchResources
    Struct {
        name: "MatchResources",
        fields: &[
            ("excludeResourceRules", Shape::List(&Shape::Struct(31))),
            ("matchPolicy", Shape::String),
            ("namespaceSelector", Shape::Struct(589)),
            ("objectSelector", Shape::Struct(589)),
            ("resourceRules", Shape::List(&Shape::Struct(31))),
        ],
    },
    // 26: io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicy
    Struct {
        name: "MutatingAdmissionPolicy",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(29)),
        ],
    },
    // 27: io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBinding
    Struct {
        name: "MutatingAdmissionPolicyBinding",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(28)),
        ],
    },
    // 28: io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingSpec
    Struct {
        name: "MutatingAdmissionPolicyBindingSpec",
        fields: &[
            ("matchResources", Shape::Struct(25)),
            ("paramRef", Shape::Struct(33)),
            ("policyName", Shape::String),
        ],
    },
    // 29: io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicySpec
    Struct {
        name: "MutatingAdmissionPolicySpec",
        fields: &[
            ("failurePolicy", Shape::String),
            ("matchConditions", Shape::List(&Shape::Struct(24))),
            ("matchConstraints", Shape::Struct(25)),
            ("mutations", Shape::List(&Shape::Struct(30))),
            ("paramKind", Shape::Struct(32)),
            ("reinvocationPolicy", Shape::String),
            ("variables", Shape::List(&Shape::Struct(34))),
        ],
    },
    // 30: io.k8s.api.admissionregistration.v1alpha1.Mutation
    Struct {
        name: "Mutation",
        fields: &[
            ("applyConfiguration", Shape::Struct(22)),
            ("jsonPatch", Shape::Struct(23)),
            ("patchType", Shape::String),
        ],
    },
    // 31: io.k8s.api.admissionregistration.v1alpha1.NamedRuleWithOperations
    Struct {
        name: "NamedRuleWithOperations",
        fields: &[
            ("apiGroups", Shape::List(&Shape::String)),
            ("apiVersions", Shape::List(&Shape::String)),
            ("operations", Shape::List(&Shape::String)),
            ("resourceNames", Shape::List(&Shape::String)),
            ("resources", Shape::List(&Shape::String)),
            ("scope", Shape::String),
        ],
    },
    // 32: io.k8s.api.admissionregistration.v1alpha1.ParamKind
    Struct {
        name: "ParamKind",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
        ],
    },
    // 33: io.k8s.api.admissionregistration.v1alpha1.ParamRef
    Struct {
        name: "ParamRef",
        fields: &[
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("parameterNotFoundAction", Shape::String),
            ("selector", Shape::Struct(589)),
        ],
    },
    // 34: io.k8s.api.admissionregistration.v1alpha1.Variable
    Struct {
        name: "Variable",
        fields: &[
            ("expression", Shape::String),
            ("name", Shape::String),
        ],
    },
    // 35: io.k8s.api.admissionregistration.v1beta1.AuditAnnotation
    Struct {
        name: "AuditAnnotation",
        fields: &[
            ("key", Shape::String),
            ("valueExpression", Shape::String),
        ],
    },
    // 36: io.k8s.api.admissionregistration.v1beta1.ExpressionWarning
    Struct {
        name: "ExpressionWarning",
        fields: &[
            ("fieldRef", Shape::String),
            ("warning", Shape::String),
        ],
    },
    // 37: io.k8s.api.admissionregistration.v1beta1.MatchCondition
    Struct {
        name: "MatchCondition",
        fields: &[
            ("expression", Shape::String),
            ("name", Shape::String),
        ],
    },
    // 38: io.k8s.api.admissionregistration.v1beta1.MatchResources
    Struct {
        name: "MatchResources",
        fields: &[
            ("excludeResourceRules", Shape::List(&Shape::Struct(39))),
            ("matchPolicy", Shape::String),
            ("namespaceSelector", Shape::Struct(589)),
            ("objectSelector", Shape::Struct(589)),
            ("resourceRules", Shape::List(&Shape::Struct(39))),
        ],
    },
    // 39: io.k8s.api.admissionregistration.v1beta1.NamedRuleWithOperations
    Struct {
        name: "NamedRuleWithOperations",
        fields: &[
            ("apiGroups", Shape::List(&Shape::String)),
            ("apiVersions", Shape::List(&Shape::String)),
            ("operations", Shape::List(&Shape::String)),
            ("resourceNames", Shape::List(&Shape::String)),
            ("resources", Shape::List(&Shape::String)),
            ("scope", Shape::String),
        ],
    },
    // 40: io.k8s.api.admissionregistration.v1beta1.ParamKind
    Struct {
        name: "ParamKind",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
        ],
    },
    // 41: io.k8s.api.admissionregistration.v1beta1.ParamRef
    Struct {
        name: "ParamRef",
        fields: &[
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("parameterNotFoundAction", Shape::String),
            ("selector", Shape::Struct(589)),
        ],
    },
    // 42: io.k8s.api.admissionregistration.v1beta1.TypeChecking
    Struct {
        name: "TypeChecking",
        fields: &[
            ("expressionWarnings", Shape::List(&Shape::Struct(36))),
        ],
    },
    // 43: io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicy
    Struct {
        name: "ValidatingAdmissionPolicy",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(46)),
            ("status", Shape::Struct(47)),
        ],
    },
    // 44: io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBinding
    Struct {
        name: "ValidatingAdmissionPolicyBinding",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(45)),
        ],
    },
    // 45: io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBindingSpec
    Struct {
        name: "ValidatingAdmissionPolicyBindingSpec",
        fields: &[
            ("matchResources", Shape::Struct(38)),
            ("paramRef", Shape::Struct(41)),
            ("policyName", Shape::String),
            ("validationActions", Shape::List(&Shape::String)),
        ],
    },
    // 46: io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicySpec
    Struct {
        name: "ValidatingAdmissionPolicySpec",
        fields: &[
            ("auditAnnotations", Shape::List(&Shape::Struct(35))),
            ("failurePolicy", Shape::String),
            ("matchConditions", Shape::List(&Shape::Struct(37))),
            ("matchConstraints", Shape::Struct(38)),
            ("paramKind", Shape::Struct(40)),
            ("validations", Shape::List(&Shape::Struct(48))),
            ("variables", Shape::List(&Shape::Struct(49))),
        ],
    },
    // 47: io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyStatus
    Struct {
        name: "ValidatingAdmissionPolicyStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(586))),
            ("observedGeneration", Shape::Int64),
            ("typeChecking", Shape::Struct(42)),
        ],
    },
    // 48: io.k8s.api.admissionregistration.v1beta1.Validation
    Struct {
        name: "Validation",
        fields: &[
            ("expression", Shape::String),
            ("message", Shape::String),
            ("messageExpression", Shape::String),
            ("reason", Shape::String),
        ],
    },
    // 49: io.k8s.api.admissionregistration.v1beta1.Variable
    Struct {
        name: "Variable",
        fields: &[
            ("expression", Shape::String),
            ("name", Shape::String),
        ],
    },
    // 50: io.k8s.api.apiserverinternal.v1alpha1.ServerStorageVersion
    Struct {
        name: "ServerStorageVersion",
        fields: &[
            ("apiServerID", Shape::String),
            ("decodableVersions", Shape::List(&Shape::String)),
            ("encodingVersion", Shape::String),
            ("servedVersions", Shape::List(&Shape::String)),
        ],
    },
    // 51: io.k8s.api.apiserverinternal.v1alpha1.StorageVersion
    Struct {
        name: "StorageVersion",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Any),
            ("status", Shape::Struct(53)),
        ],
    },
    // 52: io.k8s.api.apiserverinternal.v1alpha1.StorageVersionCondition
    Struct {
        name: "StorageVersionCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("observedGeneration", Shape::Int64),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 53: io.k8s.api.apiserverinternal.v1alpha1.StorageVersionStatus
    Struct {
        name: "StorageVersionStatus",
        fields: &[
            ("commonEncodingVersion", Shape::String),
            ("conditions", Shape::List(&Shape::Struct(52))),
            ("storageVersions", Shape::List(&Shape::Struct(50))),
        ],
    },
    // 54: io.k8s.api.apps.v1.ControllerRevision
    Struct {
        name: "ControllerRevision",
        fields: &[
            ("apiVersion", Shape::String),
            ("data", Shape::Any),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("revision", Shape::Int64),
        ],
    },
    // 55: io.k8s.api.apps.v1.DaemonSet
    Struct {
        name: "DaemonSet",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(57)),
            ("status", Shape::Struct(58)),
        ],
    },
    // 56: io.k8s.api.apps.v1.DaemonSetCondition
    Struct {
        name: "DaemonSetCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 57: io.k8s.api.apps.v1.DaemonSetSpec
    Struct {
        name: "DaemonSetSpec",
        fields: &[
            ("minReadySeconds", Shape::Int32),
            ("revisionHistoryLimit", Shape::Int32),
            ("selector", Shape::Struct(589)),
            ("template", Shape::Struct(296)),
            ("updateStrategy", Shape::Struct(59)),
        ],
    },
    // 58: io.k8s.api.apps.v1.DaemonSetStatus
    Struct {
        name: "DaemonSetStatus",
        fields: &[
            ("collisionCount", Shape::Int32),
            ("conditions", Shape::List(&Shape::Struct(56))),
            ("currentNumberScheduled", Shape::Int32),
            ("desiredNumberScheduled", Shape::Int32),
            ("numberAvailable", Shape::Int32),
            ("numberMisscheduled", Shape::Int32),
            ("numberReady", Shape::Int32),
            ("numberUnavailable", Shape::Int32),
            ("observedGeneration", Shape::Int64),
            ("updatedNumberScheduled", Shape::Int32),
        ],
    },
    // 59: io.k8s.api.apps.v1.DaemonSetUpdateStrategy
    Struct {
        name: "DaemonSetUpdateStrategy",
        fields: &[
            ("rollingUpdate", Shape::Struct(69)),
            ("type", Shape::String),
        ],
    },
    // 60: io.k8s.api.apps.v1.Deployment
    Struct {
        name: "Deployment",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(62)),
            ("status", Shape::Struct(63)),
        ],
    },
    // 61: io.k8s.api.apps.v1.DeploymentCondition
    Struct {
        name: "DeploymentCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("lastUpdateTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 62: io.k8s.api.apps.v1.DeploymentSpec
    Struct {
        name: "DeploymentSpec",
        fields: &[
            ("minReadySeconds", Shape::Int32),
            ("paused", Shape::Bool),
            ("progressDeadlineSeconds", Shape::Int32),
            ("replicas", Shape::Int32),
            ("revisionHistoryLimit", Shape::Int32),
            ("selector", Shape::Struct(589)),
            ("strategy", Shape::Struct(64)),
            ("template", Shape::Struct(296)),
        ],
    },
    // 63: io.k8s.api.apps.v1.DeploymentStatus
    Struct {
        name: "DeploymentStatus",
        fields: &[
            ("availableReplicas", Shape::Int32),
            ("collisionCount", Shape::Int32),
            ("conditions", Shape::List(&Shape::Struct(61))),
            ("observedGeneration", Shape::Int64),
            ("readyReplicas", Shape::Int32),
            ("replicas", Shape::Int32),
            ("terminatingReplicas", Shape::Int32),
            ("unavailableReplicas", Shape::Int32),
            ("updatedReplicas", Shape::Int32),
        ],
    },
    // 64: io.k8s.api.apps.v1.DeploymentStrategy
    Struct {
        name: "DeploymentStrategy",
        fields: &[
            ("rollingUpdate", Shape::Struct(70)),
            ("type", Shape::String),
        ],
    },
    // 65: io.k8s.api.apps.v1.ReplicaSet
    Struct {
        name: "ReplicaSet",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(67)),
            ("status", Shape::Struct(68)),
        ],
    },
    // 66: io.k8s.api.apps.v1.ReplicaSetCondition
    Struct {
        name: "ReplicaSetCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 67: io.k8s.api.apps.v1.ReplicaSetSpec
    Struct {
        name: "ReplicaSetSpec",
        fields: &[
            ("minReadySeconds", Shape::Int32),
            ("replicas", Shape::Int32),
            ("selector", Shape::Struct(589)),
            ("template", Shape::Struct(296)),
        ],
    },
    // 68: io.k8s.api.apps.v1.ReplicaSetStatus
    Struct {
        name: "ReplicaSetStatus",
        fields: &[
            ("availableReplicas", Shape::Int32),
            ("conditions", Shape::List(&Shape::Struct(66))),
            ("fullyLabeledReplicas", Shape::Int32),
            ("observedGeneration", Shape::Int64),
            ("readyReplicas", Shape::Int32),
            ("replicas", Shape::Int32),
            ("terminatingReplicas", Shape::Int32),
        ],
    },
    // 69: io.k8s.api.apps.v1.RollingUpdateDaemonSet
    Struct {
        name: "RollingUpdateDaemonSet",
        fields: &[
            ("maxSurge", Shape::IntOrString),
            ("maxUnavailable", Shape::IntOrString),
        ],
    },
    // 70: io.k8s.api.apps.v1.RollingUpdateDeployment
    Struct {
        name: "RollingUpdateDeployment",
        fields: &[
            ("maxSurge", Shape::IntOrString),
            ("maxUnavailable", Shape::IntOrString),
        ],
    },
    // 71: io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy
    Struct {
        name: "RollingUpdateStatefulSetStrategy",
        fields: &[
            ("maxUnavailable", Shape::IntOrString),
            ("partition", Shape::Int32),
        ],
    },
    // 72: io.k8s.api.apps.v1.StatefulSet
    Struct {
        name: "StatefulSet",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(76)),
            ("status", Shape::Struct(77)),
        ],
    },
    // 73: io.k8s.api.apps.v1.StatefulSetCondition
    Struct {
        name: "StatefulSetCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 74: io.k8s.api.apps.v1.StatefulSetOrdinals
    Struct {
        name: "StatefulSetOrdinals",
        fields: &[
            ("start", Shape::Int32),
        ],
    },
    // 75: io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy
    Struct {
        name: "StatefulSetPersistentVolumeClaimRetentionPolicy",
        fields: &[
            ("whenDeleted", Shape::String),
            ("whenScaled", Shape::String),
        ],
    },
    // 76: io.k8s.api.apps.v1.StatefulSetSpec
    Struct {
        name: "StatefulSetSpec",
        fields: &[
            ("minReadySeconds", Shape::Int32),
            ("ordinals", Shape::Struct(74)),
            ("persistentVolumeClaimRetentionPolicy", Shape::Struct(75)),
            ("podManagementPolicy", Shape::String),
            ("replicas", Shape::Int32),
            ("revisionHistoryLimit", Shape::Int32),
            ("selector", Shape::Struct(589)),
            ("serviceName", Shape::String),
            ("template", Shape::Struct(296)),
            ("updateStrategy", Shape::Struct(78)),
            ("volumeClaimTemplates", Shape::List(&Shape::Struct(270))),
        ],
    },
    // 77: io.k8s.api.apps.v1.StatefulSetStatus
    Struct {
        name: "StatefulSetStatus",
        fields: &[
            ("availableReplicas", Shape::Int32),
            ("collisionCount", Shape::Int32),
            ("conditions", Shape::List(&Shape::Struct(73))),
            ("currentReplicas", Shape::Int32),
            ("currentRevision", Shape::String),
            ("observedGeneration", Shape::Int64),
            ("readyReplicas", Shape::Int32),
            ("replicas", Shape::Int32),
            ("updateRevision", Shape::String),
            ("updatedReplicas", Shape::Int32),
        ],
    },
    // 78: io.k8s.api.apps.v1.StatefulSetUpdateStrategy
    Struct {
        name: "StatefulSetUpdateStrategy",
        fields: &[
            ("rollingUpdate", Shape::Struct(71)),
            ("type", Shape::String),
        ],
    },
    // 79: io.k8s.api.authentication.v1.BoundObjectReference
    Struct {
        name: "BoundObjectReference",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("name", Shape::String),
            ("uid", Shape::String),
        ],
    },
    // 80: io.k8s.api.authentication.v1.SelfSubjectReview
    Struct {
        name: "SelfSubjectReview",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("status", Shape::Struct(81)),
        ],
    },
    // 81: io.k8s.api.authentication.v1.SelfSubjectReviewStatus
    Struct {
        name: "SelfSubjectReviewStatus",
        fields: &[
            ("userInfo", Shape::Struct(88)),
        ],
    },
    // 82: io.k8s.api.authentication.v1.TokenRequest
    Struct {
        name: "TokenRequest",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(83)),
            ("status", Shape::Struct(84)),
        ],
    },
    // 83: io.k8s.api.authentication.v1.TokenRequestSpec
    Struct {
        name: "TokenRequestSpec",
        fields: &[
            ("audiences", Shape::List(&Shape::String)),
            ("boundObjectRef", Shape::Struct(79)),
            ("expirationSeconds", Shape::Int64),
        ],
    },
    // 84: io.k8s.api.authentication.v1.TokenRequestStatus
    Struct {
        name: "TokenRequestStatus",
        fields: &[
            ("expirationTimestamp", Shape::String),
            ("token", Shape::String),
        ],
    },
    // 85: io.k8s.api.authentication.v1.TokenReview
    Struct {
        name: "TokenReview",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(86)),
            ("status", Shape::Struct(87)),
        ],
    },
    // 86: io.k8s.api.authentication.v1.TokenReviewSpec
    Struct {
        name: "TokenReviewSpec",
        fields: &[
            ("audiences", Shape::List(&Shape::String)),
            ("token", Shape::String),
        ],
    },
    // 87: io.k8s.api.authentication.v1.TokenReviewStatus
    Struct {
        name: "TokenReviewStatus",
        fields: &[
            ("audiences", Shape::List(&Shape::String)),
            ("authenticated", Shape::Bool),
            ("error", Shape::String),
            ("user", Shape::Struct(88)),
        ],
    },
    // 88: io.k8s.api.authentication.v1.UserInfo
    Struct {
        name: "UserInfo",
        fields: &[
            ("extra", Shape::Map(&Shape::List(&Shape::String))),
            ("groups", Shape::List(&Shape::String)),
            ("uid", Shape::String),
            ("username", Shape::String),
        ],
    },
    // 89: io.k8s.api.authorization.v1.FieldSelectorAttributes
    Struct {
        name: "FieldSelectorAttributes",
        fields: &[
            ("rawSelector", Shape::String),
            ("requirements", Shape::List(&Shape::Struct(588))),
        ],
    },
    // 90: io.k8s.api.authorization.v1.LabelSelectorAttributes
    Struct {
        name: "LabelSelectorAttributes",
        fields: &[
            ("rawSelector", Shape::String),
            ("requirements", Shape::List(&Shape::Struct(590))),
        ],
    },
    // 91: io.k8s.api.authorization.v1.LocalSubjectAccessReview
    Struct {
        name: "LocalSubjectAccessReview",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(101)),
            ("status", Shape::Struct(102)),
        ],
    },
    // 92: io.k8s.api.authorization.v1.NonResourceAttributes
    Struct {
        name: "NonResourceAttributes",
        fields: &[
            ("path", Shape::String),
            ("verb", Shape::String),
        ],
    },
    // 93: io.k8s.api.authorization.v1.NonResourceRule
    Struct {
        name: "NonResourceRule",
        fields: &[
            ("nonResourceURLs", Shape::List(&Shape::String)),
            ("verbs", Shape::List(&Shape::String)),
        ],
    },
    // 94: io.k8s.api.authorization.v1.ResourceAttributes
    Struct {
        name: "ResourceAttributes",
        fields: &[
            ("fieldSelector", Shape::Struct(89)),
            ("group", Shape::String),
            ("labelSelector", Shape::Struct(90)),
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("resource", Shape::String),
            ("subresource", Shape::String),
            ("verb", Shape::String),
            ("version", Shape::String),
        ],
    },
    // 95: io.k8s.api.authorization.v1.ResourceRule
    Struct {
        name: "ResourceRule",
        fields: &[
            ("apiGroups", Shape::List(&Shape::String)),
            ("resourceNames", Shape::List(&Shape::String)),
            ("resources", Shape::List(&Shape::String)),
            ("verbs", Shape::List(&Shape::String)),
        ],
    },
    // 96: io.k8s.api.authorization.v1.SelfSubjectAccessReview
    Struct {
        name: "SelfSubjectAccessReview",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(97)),
            ("status", Shape::Struct(102)),
        ],
    },
    // 97: io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec
    Struct {
        name: "SelfSubjectAccessReviewSpec",
        fields: &[
            ("nonResourceAttributes", Shape::Struct(92)),
            ("resourceAttributes", Shape::Struct(94)),
        ],
    },
    // 98: io.k8s.api.authorization.v1.SelfSubjectRulesReview
    Struct {
        name: "SelfSubjectRulesReview",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(99)),
            ("status", Shape::Struct(103)),
        ],
    },
    // 99: io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec
    Struct {
        name: "SelfSubjectRulesReviewSpec",
        fields: &[
            ("namespace", Shape::String),
        ],
    },
    // 100: io.k8s.api.authorization.v1.SubjectAccessReview
    Struct {
        name: "SubjectAccessReview",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(101)),
            ("status", Shape::Struct(102)),
        ],
    },
    // 101: io.k8s.api.authorization.v1.SubjectAccessReviewSpec
    Struct {
        name: "SubjectAccessReviewSpec",
        fields: &[
            ("extra", Shape::Map(&Shape::List(&Shape::String))),
            ("groups", Shape::List(&Shape::String)),
            ("nonResourceAttributes", Shape::Struct(92)),
            ("resourceAttributes", Shape::Struct(94)),
            ("uid", Shape::String),
            ("user", Shape::String),
        ],
    },
    // 102: io.k8s.api.authorization.v1.SubjectAccessReviewStatus
    Struct {
        name: "SubjectAccessReviewStatus",
        fields: &[
            ("allowed", Shape::Bool),
            ("denied", Shape::Bool),
            ("evaluationError", Shape::String),
            ("reason", Shape::String),
        ],
    },
    // 103: io.k8s.api.authorization.v1.SubjectRulesReviewStatus
    Struct {
        name: "SubjectRulesReviewStatus",
        fields: &[
            ("evaluationError", Shape::String),
            ("incomplete", Shape::Bool),
            ("nonResourceRules", Shape::List(&Shape::Struct(93))),
            ("resourceRules", Shape::List(&Shape::Struct(95))),
        ],
    },
    // 104: io.k8s.api.autoscaling.v1.CrossVersionObjectReference
    Struct {
        name: "CrossVersionObjectReference",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("name", Shape::String),
        ],
    },
    // 105: io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler
    Struct {
        name: "HorizontalPodAutoscaler",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(106)),
            ("status", Shape::Struct(107)),
        ],
    },
    // 106: io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec
    Struct {
        name: "HorizontalPodAutoscalerSpec",
        fields: &[
            ("maxReplicas", Shape::Int32),
            ("minReplicas", Shape::Int32),
            ("scaleTargetRef", Shape::Struct(104)),
            ("targetCPUUtilizationPercentage", Shape::Int32),
        ],
    },
    // 107: io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerStatus
    Struct {
        name: "HorizontalPodAutoscalerStatus",
        fields: &[
            ("currentCPUUtilizationPercentage", Shape::Int32),
            ("currentReplicas", Shape::Int32),
            ("desiredReplicas", Shape::Int32),
            ("lastScaleTime", Shape::String),
            ("observedGeneration", Shape::Int64),
        ],
    },
    // 108: io.k8s.api.autoscaling.v1.Scale
    Struct {
        name: "Scale",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(109)),
            ("status", Shape::Struct(110)),
        ],
    },
    // 109: io.k8s.api.autoscaling.v1.ScaleSpec
    Struct {
        name: "ScaleSpec",
        fields: &[
            ("replicas", Shape::Int32),
        ],
    },
    // 110: io.k8s.api.autoscaling.v1.ScaleStatus
    Struct {
        name: "ScaleStatus",
        fields: &[
            ("replicas", Shape::Int32),
            ("selector", Shape::String),
        ],
    },
    // 111: io.k8s.api.autoscaling.v2.ContainerResourceMetricSource
    Struct {
        name: "ContainerResourceMetricSource",
        fields: &[
            ("container", Shape::String),
            ("name", Shape::String),
            ("target", Shape::Struct(126)),
        ],
    },
    // 112: io.k8s.api.autoscaling.v2.ContainerResourceMetricStatus
    Struct {
        name: "ContainerResourceMetricStatus",
        fields: &[
            ("container", Shape::String),
            ("current", Shape::Struct(127)),
            ("name", Shape::String),
        ],
    },
    // 113: io.k8s.api.autoscaling.v2.CrossVersionObjectReference
    Struct {
        name: "CrossVersionObjectReference",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("name", Shape::String),
        ],
    },
    // 114: io.k8s.api.autoscaling.v2.ExternalMetricSource
    Struct {
        name: "ExternalMetricSource",
        fields: &[
            ("metric", Shape::Struct(123)),
            ("target", Shape::Struct(126)),
        ],
    },
    // 115: io.k8s.api.autoscaling.v2.ExternalMetricStatus
    Struct {
        name: "ExternalMetricStatus",
        fields: &[
            ("current", Shape::Struct(127)),
            ("metric", Shape::Struct(123)),
        ],
    },
    // 116: io.k8s.api.autoscaling.v2.HPAScalingPolicy
    Struct {
        name: "HPAScalingPolicy",
        fields: &[
            ("periodSeconds", Shape::Int32),
            ("type", Shape::String),
            ("value", Shape::Int32),
        ],
    },
    // 117: io.k8s.api.autoscaling.v2.HPAScalingRules
    Struct {
        name: "HPAScalingRules",
        fields: &[
            ("policies", Shape::List(&Shape::Struct(116))),
            ("selectPolicy", Shape::String),
            ("stabilizationWindowSeconds", Shape::Int32),
            ("tolerance", Shape::Quantity),
        ],
    },
    // 118: io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler
    Struct {
        name: "HorizontalPodAutoscaler",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(121)),
            ("status", Shape::Struct(122)),
        ],
    },
    // 119: io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerBehavior
    Struct {
        name: "HorizontalPodAutoscalerBehavior",
        fields: &[
            ("scaleDown", Shape::Struct(117)),
            ("scaleUp", Shape::Struct(117)),
        ],
    },
    // 120: io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition
    Struct {
        name: "HorizontalPodAutoscalerCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 121: io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec
    Struct {
        name: "HorizontalPodAutoscalerSpec",
        fields: &[
            ("behavior", Shape::Struct(119)),
            ("maxReplicas", Shape::Int32),
            ("metrics", Shape::List(&Shape::Struct(124))),
            ("minReplicas", Shape::Int32),
            ("scaleTargetRef", Shape::Struct(113)),
        ],
    },
    // 122: io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus
    Struct {
        name: "HorizontalPodAutoscalerStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(120))),
            ("currentMetrics", Shape::List(&Shape::Struct(125))),
            ("currentReplicas", Shape::Int32),
            ("desiredReplicas", Shape::Int32),
            ("lastScaleTime", Shape::String),
            ("observedGeneration", Shape::Int64),
        ],
    },
    // 123: io.k8s.api.autoscaling.v2.MetricIdentifier
    Struct {
        name: "MetricIdentifier",
        fields: &[
            ("name", Shape::String),
            ("selector", Shape::Struct(589)),
        ],
    },
    // 124: io.k8s.api.autoscaling.v2.MetricSpec
    Struct {
        name: "MetricSpec",
        fields: &[
            ("containerResource", Shape::Struct(111)),
            ("external", Shape::Struct(114)),
            ("object", Shape::Struct(128)),
            ("pods", Shape::Struct(130)),
            ("resource", Shape::Struct(132)),
            ("type", Shape::String),
        ],
    },
    // 125: io.k8s.api.autoscaling.v2.MetricStatus
    Struct {
        name: "MetricStatus",
        fields: &[
            ("containerResource", Shape::Struct(112)),
            ("external", Shape::Struct(115)),
            ("object", Shape::Struct(129)),
            ("pods", Shape::Struct(131)),
            ("resource", Shape::Struct(133)),
            ("type", Shape::String),
        ],
    },
    // 126: io.k8s.api.autoscaling.v2.MetricTarget
    Struct {
        name: "MetricTarget",
        fields: &[
            ("averageUtilization", Shape::Int32),
            ("averageValue", Shape::Quantity),
            ("type", Shape::String),
            ("value", Shape::Quantity),
        ],
    },
    // 127: io.k8s.api.autoscaling.v2.MetricValueStatus
    Struct {
        name: "MetricValueStatus",
        fields: &[
            ("averageUtilization", Shape::Int32),
            ("averageValue", Shape::Quantity),
            ("value", Shape::Quantity),
        ],
    },
    // 128: io.k8s.api.autoscaling.v2.ObjectMetricSource
    Struct {
        name: "ObjectMetricSource",
        fields: &[
            ("describedObject", Shape::Struct(113)),
            ("metric", Shape::Struct(123)),
            ("target", Shape::Struct(126)),
        ],
    },
    // 129: io.k8s.api.autoscaling.v2.ObjectMetricStatus
    Struct {
        name: "ObjectMetricStatus",
        fields: &[
            ("current", Shape::Struct(127)),
            ("describedObject", Shape::Struct(113)),
            ("metric", Shape::Struct(123)),
        ],
    },
    // 130: io.k8s.api.autoscaling.v2.PodsMetricSource
    Struct {
        name: "PodsMetricSource",
        fields: &[
            ("metric", Shape::Struct(123)),
            ("target", Shape::Struct(126)),
        ],
    },
    // 131: io.k8s.api.autoscaling.v2.PodsMetricStatus
    Struct {
        name: "PodsMetricStatus",
        fields: &[
            ("current", Shape::Struct(127)),
            ("metric", Shape::Struct(123)),
        ],
    },
    // 132: io.k8s.api.autoscaling.v2.ResourceMetricSource
    Struct {
        name: "ResourceMetricSource",
        fields: &[
            ("name", Shape::String),
            ("target", Shape::Struct(126)),
        ],
    },
    // 133: io.k8s.api.autoscaling.v2.ResourceMetricStatus
    Struct {
        name: "ResourceMetricStatus",
        fields: &[
            ("current", Shape::Struct(127)),
            ("name", Shape::String),
        ],
    },
    // 134: io.k8s.api.batch.v1.CronJob
    Struct {
        name: "CronJob",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(135)),
            ("status", Shape::Struct(136)),
        ],
    },
    // 135: io.k8s.api.batch.v1.CronJobSpec
    Struct {
        name: "CronJobSpec",
        fields: &[
            ("concurrencyPolicy", Shape::String),
            ("failedJobsHistoryLimit", Shape::Int32),
            ("jobTemplate", Shape::Struct(141)),
            ("schedule", Shape::String),
            ("startingDeadlineSeconds", Shape::Int64),
            ("successfulJobsHistoryLimit", Shape::Int32),
            ("suspend", Shape::Bool),
            ("timeZone", Shape::String),
        ],
    },
    // 136: io.k8s.api.batch.v1.CronJobStatus
    Struct {
        name: "CronJobStatus",
        fields: &[
            ("active", Shape::List(&Shape::Struct(268))),
            ("lastScheduleTime", Shape::String),
            ("lastSuccessfulTime", Shape::String),
        ],
    },
    // 137: io.k8s.api.batch.v1.Job
    Struct {
        name: "Job",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(139)),
            ("status", Shape::Struct(140)),
        ],
    },
    // 138: io.k8s.api.batch.v1.JobCondition
    Struct {
        name: "JobCondition",
        fields: &[
            ("lastProbeTime", Shape::String),
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 139: io.k8s.api.batch.v1.JobSpec
    Struct {
        name: "JobSpec",
        fields: &[
            ("activeDeadlineSeconds", Shape::Int64),
            ("backoffLimit", Shape::Int32),
            ("backoffLimitPerIndex", Shape::Int32),
            ("completionMode", Shape::String),
            ("completions", Shape::Int32),
            ("managedBy", Shape::String),
            ("manualSelector", Shape::Bool),
            ("maxFailedIndexes", Shape::Int32),
            ("parallelism", Shape::Int32),
            ("podFailurePolicy", Shape::Struct(142)),
            ("podReplacementPolicy", Shape::String),
            ("selector", Shape::Struct(589)),
            ("successPolicy", Shape::Struct(146)),
            ("suspend", Shape::Bool),
            ("template", Shape::Struct(296)),
            ("ttlSecondsAfterFinished", Shape::Int32),
        ],
    },
    // 140: io.k8s.api.batch.v1.JobStatus
    Struct {
        name: "JobStatus",
        fields: &[
            ("active", Shape::Int32),
            ("completedIndexes", Shape::String),
            ("completionTime", Shape::String),
            ("conditions", Shape::List(&Shape::Struct(138))),
            ("failed", Shape::Int32),
            ("failedIndexes", Shape::String),
            ("ready", Shape::Int32),
            ("startTime", Shape::String),
            ("succeeded", Shape::Int32),
            ("terminating", Shape::Int32),
            ("uncountedTerminatedPods", Shape::Struct(148)),
        ],
    },
    // 141: io.k8s.api.batch.v1.JobTemplateSpec
    Struct {
        name: "JobTemplateSpec",
        fields: &[
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(139)),
        ],
    },
    // 142: io.k8s.api.batch.v1.PodFailurePolicy
    Struct {
        name: "PodFailurePolicy",
        fields: &[
            ("rules", Shape::List(&Shape::Struct(145))),
        ],
    },
    // 143: io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement
    Struct {
        name: "PodFailurePolicyOnExitCodesRequirement",
        fields: &[
            ("containerName", Shape::String),
            ("operator", Shape::String),
            ("values", Shape::List(&Shape::Int32)),
        ],
    },
    // 144: io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern
    Struct {
        name: "PodFailurePolicyOnPodConditionsPattern",
        fields: &[
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 145: io.k8s.api.batch.v1.PodFailurePolicyRule
    Struct {
        name: "PodFailurePolicyRule",
        fields: &[
            ("action", Shape::String),
            ("onExitCodes", Shape::Struct(143)),
            ("onPodConditions", Shape::List(&Shape::Struct(144))),
        ],
    },
    // 146: io.k8s.api.batch.v1.SuccessPolicy
    Struct {
        name: "SuccessPolicy",
        fields: &[
            ("rules", Shape::List(&Shape::Struct(147))),
        ],
    },
    // 147: io.k8s.api.batch.v1.SuccessPolicyRule
    Struct {
        name: "SuccessPolicyRule",
        fields: &[
            ("succeededCount", Shape::Int32),
            ("succeededIndexes", Shape::String),
        ],
    },
    // 148: io.k8s.api.batch.v1.UncountedTerminatedPods
    Struct {
        name: "UncountedTerminatedPods",
        fields: &[
            ("failed", Shape::List(&Shape::String)),
            ("succeeded", Shape::List(&Shape::String)),
        ],
    },
    // 149: io.k8s.api.certificates.v1.CertificateSigningRequest
    Struct {
        name: "CertificateSigningRequest",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(151)),
            ("status", Shape::Struct(152)),
        ],
    },
    // 150: io.k8s.api.certificates.v1.CertificateSigningRequestCondition
    Struct {
        name: "CertificateSigningRequestCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("lastUpdateTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 151: io.k8s.api.certificates.v1.CertificateSigningRequestSpec
    Struct {
        name: "CertificateSigningRequestSpec",
        fields: &[
            ("expirationSeconds", Shape::Int32),
            ("extra", Shape::Map(&Shape::List(&Shape::String))),
            ("groups", Shape::List(&Shape::String)),
            ("request", Shape::Bytes),
            ("signerName", Shape::String),
            ("uid", Shape::String),
            ("usages", Shape::List(&Shape::String)),
            ("username", Shape::String),
        ],
    },
    // 152: io.k8s.api.certificates.v1.CertificateSigningRequestStatus
    Struct {
        name: "CertificateSigningRequestStatus",
        fields: &[
            ("certificate", Shape::Bytes),
            ("conditions", Shape::List(&Shape::Struct(150))),
        ],
    },
    // 153: io.k8s.api.certificates.v1alpha1.ClusterTrustBundle
    Struct {
        name: "ClusterTrustBundle",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(154)),
        ],
    },
    // 154: io.k8s.api.certificates.v1alpha1.ClusterTrustBundleSpec
    Struct {
        name: "ClusterTrustBundleSpec",
        fields: &[
            ("signerName", Shape::String),
            ("trustBundle", Shape::String),
        ],
    },
    // 155: io.k8s.api.certificates.v1beta1.ClusterTrustBundle
    Struct {
        name: "ClusterTrustBundle",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(156)),
        ],
    },
    // 156: io.k8s.api.certificates.v1beta1.ClusterTrustBundleSpec
    Struct {
        name: "ClusterTrustBundleSpec",
        fields: &[
            ("signerName", Shape::String),
            ("trustBundle", Shape::String),
        ],
    },
    // 157: io.k8s.api.coordination.v1.Lease
    Struct {
        name: "Lease",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(158)),
        ],
    },
    // 158: io.k8s.api.coordination.v1.LeaseSpec
    Struct {
        name: "LeaseSpec",
        fields: &[
            ("acquireTime", Shape::String),
            ("holderIdentity", Shape::String),
            ("leaseDurationSeconds", Shape::Int32),
            ("leaseTransitions", Shape::Int32),
            ("preferredHolder", Shape::String),
            ("renewTime", Shape::String),
            ("strategy", Shape::String),
        ],
    },
    // 159: io.k8s.api.coordination.v1alpha2.LeaseCandidate
    Struct {
        name: "LeaseCandidate",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(160)),
        ],
    },
    // 160: io.k8s.api.coordination.v1alpha2.LeaseCandidateSpec
    Struct {
        name: "LeaseCandidateSpec",
        fields: &[
            ("binaryVersion", Shape::String),
            ("emulationVersion", Shape::String),
            ("leaseName", Shape::String),
            ("pingTime", Shape::String),
            ("renewTime", Shape::String),
            ("strategy", Shape::String),
        ],
    },
    // 161: io.k8s.api.coordination.v1beta1.LeaseCandidate
    Struct {
        name: "LeaseCandidate",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(162)),
        ],
    },
    // 162: io.k8s.api.coordination.v1beta1.LeaseCandidateSpec
    Struct {
        name: "LeaseCandidateSpec",
        fields: &[
            ("binaryVersion", Shape::String),
            ("emulationVersion", Shape::String),
            ("leaseName", Shape::String),
            ("pingTime", Shape::String),
            ("renewTime", Shape::String),
            ("strategy", Shape::String),
        ],
    },
    // 163: io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource
    Struct {
        name: "AWSElasticBlockStoreVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("partition", Shape::Int32),
            ("readOnly", Shape::Bool),
            ("volumeID", Shape::String),
        ],
    },
    // 164: io.k8s.api.core.v1.Affinity
    Struct {
        name: "Affinity",
        fields: &[
            ("nodeAffinity", Shape::Struct(252)),
            ("podAffinity", Shape::Struct(280)),
            ("podAntiAffinity", Shape::Struct(282)),
        ],
    },
    // 165: io.k8s.api.core.v1.AppArmorProfile
    Struct {
        name: "AppArmorProfile",
        fields: &[
            ("localhostProfile", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 166: io.k8s.api.core.v1.AttachedVolume
    Struct {
        name: "AttachedVolume",
        fields: &[
            ("devicePath", Shape::String),
            ("name", Shape::String),
        ],
    },
    // 167: io.k8s.api.core.v1.AzureDiskVolumeSource
    Struct {
        name: "AzureDiskVolumeSource",
        fields: &[
            ("cachingMode", Shape::String),
            ("diskName", Shape::String),
            ("diskURI", Shape::String),
            ("fsType", Shape::String),
            ("kind", Shape::String),
            ("readOnly", Shape::Bool),
        ],
    },
    // 168: io.k8s.api.core.v1.AzureFilePersistentVolumeSource
    Struct {
        name: "AzureFilePersistentVolumeSource",
        fields: &[
            ("readOnly", Shape::Bool),
            ("secretName", Shape::String),
            ("secretNamespace", Shape::String),
            ("shareName", Shape::String),
        ],
    },
    // 169: io.k8s.api.core.v1.AzureFileVolumeSource
    Struct {
        name: "AzureFileVolumeSource",
        fields: &[
            ("readOnly", Shape::Bool),
            ("secretName", Shape::String),
            ("shareName", Shape::String),
        ],
    },
    // 170: io.k8s.api.core.v1.Binding
    Struct {
        name: "Binding",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("target", Shape::Struct(268)),
        ],
    },
    // 171: io.k8s.api.core.v1.CSIPersistentVolumeSource
    Struct {
        name: "CSIPersistentVolumeSource",
        fields: &[
            ("controllerExpandSecretRef", Shape::Struct(327)),
            ("controllerPublishSecretRef", Shape::Struct(327)),
            ("driver", Shape::String),
            ("fsType", Shape::String),
            ("nodeExpandSecretRef", Shape::Struct(327)),
            ("nodePublishSecretRef", Shape::Struct(327)),
            ("nodeStageSecretRef", Shape::Struct(327)),
            ("readOnly", Shape::Bool),
            ("volumeAttributes", Shape::Map(&Shape::String)),
            ("volumeHandle", Shape::String),
        ],
    },
    // 172: io.k8s.api.core.v1.CSIVolumeSource
    Struct {
        name: "CSIVolumeSource",
        fields: &[
            ("driver", Shape::String),
            ("fsType", Shape::String),
            ("nodePublishSecretRef", Shape::Struct(242)),
            ("readOnly", Shape::Bool),
            ("volumeAttributes", Shape::Map(&Shape::String)),
        ],
    },
    // 173: io.k8s.api.core.v1.Capabilities
    Struct {
        name: "Capabilities",
        fields: &[
            ("add", Shape::List(&Shape::String)),
            ("drop", Shape::List(&Shape::String)),
        ],
    },
    // 174: io.k8s.api.core.v1.CephFSPersistentVolumeSource
    Struct {
        name: "CephFSPersistentVolumeSource",
        fields: &[
            ("monitors", Shape::List(&Shape::String)),
            ("path", Shape::String),
            ("readOnly", Shape::Bool),
            ("secretFile", Shape::String),
            ("secretRef", Shape::Struct(327)),
            ("user", Shape::String),
        ],
    },
    // 175: io.k8s.api.core.v1.CephFSVolumeSource
    Struct {
        name: "CephFSVolumeSource",
        fields: &[
            ("monitors", Shape::List(&Shape::String)),
            ("path", Shape::String),
            ("readOnly", Shape::Bool),
            ("secretFile", Shape::String),
            ("secretRef", Shape::Struct(242)),
            ("user", Shape::String),
        ],
    },
    // 176: io.k8s.api.core.v1.CinderPersistentVolumeSource
    Struct {
        name: "CinderPersistentVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("readOnly", Shape::Bool),
            ("secretRef", Shape::Struct(327)),
            ("volumeID", Shape::String),
        ],
    },
    // 177: io.k8s.api.core.v1.CinderVolumeSource
    Struct {
        name: "CinderVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("readOnly", Shape::Bool),
            ("secretRef", Shape::Struct(242)),
            ("volumeID", Shape::String),
        ],
    },
    // 178: io.k8s.api.core.v1.ClientIPConfig
    Struct {
        name: "ClientIPConfig",
        fields: &[
            ("timeoutSeconds", Shape::Int32),
        ],
    },
    // 179: io.k8s.api.core.v1.ClusterTrustBundleProjection
    Struct {
        name: "ClusterTrustBundleProjection",
        fields: &[
            ("labelSelector", Shape::Struct(589)),
            ("name", Shape::String),
            ("optional", Shape::Bool),
            ("path", Shape::String),
            ("signerName", Shape::String),
        ],
    },
    // 180: io.k8s.api.core.v1.ComponentCondition
    Struct {
        name: "ComponentCondition",
        fields: &[
            ("error", Shape::String),
            ("message", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 181: io.k8s.api.core.v1.ComponentStatus
    Struct {
        name: "ComponentStatus",
        fields: &[
            ("apiVersion", Shape::String),
            ("conditions", Shape::List(&Shape::Struct(180))),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
        ],
    },
    // 182: io.k8s.api.core.v1.ConfigMap
    Struct {
        name: "ConfigMap",
        fields: &[
            ("apiVersion", Shape::String),
            ("binaryData", Shape::Map(&Shape::Bytes)),
            ("data", Shape::Map(&Shape::String)),
            ("immutable", Shape::Bool),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
        ],
    },
    // 183: io.k8s.api.core.v1.ConfigMapEnvSource
    Struct {
        name: "ConfigMapEnvSource",
        fields: &[
            ("name", Shape::String),
            ("optional", Shape::Bool),
        ],
    },
    // 184: io.k8s.api.core.v1.ConfigMapKeySelector
    Struct {
        name: "ConfigMapKeySelector",
        fields: &[
            ("key", Shape::String),
            ("name", Shape::String),
            ("optional", Shape::Bool),
        ],
    },
    // 185: io.k8s.api.core.v1.ConfigMapNodeConfigSource
    Struct {
        name: "ConfigMapNodeConfigSource",
        fields: &[
            ("kubeletConfigKey", Shape::String),
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("resourceVersion", Shape::String),
            ("uid", Shape::String),
        ],
    },
    // 186: io.k8s.api.core.v1.ConfigMapProjection
    Struct {
        name: "ConfigMapProjection",
        fields: &[
            ("items", Shape::List(&Shape::Struct(233))),
            ("name", Shape::String),
            ("optional", Shape::Bool),
        ],
    },
    // 187: io.k8s.api.core.v1.ConfigMapVolumeSource
    Struct {
        name: "ConfigMapVolumeSource",
        fields: &[
            ("defaultMode", Shape::Int32),
            ("items", Shape::List(&Shape::Struct(233))),
            ("name", Shape::String),
            ("optional", Shape::Bool),
        ],
    },
    // 188: io.k8s.api.core.v1.Container
    Struct {
        name: "Container",
        fields: &[
            ("args", Shape::List(&Shape::String)),
            ("command", Shape::List(&Shape::String)),
            ("env", Shape::List(&Shape::Struct(208))),
            ("envFrom", Shape::List(&Shape::Struct(207))),
            ("image", Shape::String),
            ("imagePullPolicy", Shape::String),
            ("lifecycle", Shape::Struct(234)),
            ("livenessProbe", Shape::Struct(300)),
            ("name", Shape::String),
            ("ports", Shape::List(&Shape::Struct(190))),
            ("readinessProbe", Shape::Struct(300)),
            ("resizePolicy", Shape::List(&Shape::Struct(191))),
            ("resources", Shape::Struct(315)),
            ("restartPolicy", Shape::String),
            ("securityContext", Shape::Struct(329)),
            ("startupProbe", Shape::Struct(300)),
            ("stdin", Shape::Bool),
            ("stdinOnce", Shape::Bool),
            ("terminationMessagePath", Shape::String),
            ("terminationMessagePolicy", Shape::String),
            ("tty", Shape::Bool),
            ("volumeDevices", Shape::List(&Shape::Struct(350))),
            ("volumeMounts", Shape::List(&Shape::Struct(351))),
            ("workingDir", Shape::String),
        ],
    },
    // 189: io.k8s.api.core.v1.ContainerImage
    Struct {
        name: "ContainerImage",
        fields: &[
            ("names", Shape::List(&Shape::String)),
            ("sizeBytes", Shape::Int64),
        ],
    },
    // 190: io.k8s.api.core.v1.ContainerPort
    Struct {
        name: "ContainerPort",
        fields: &[
            ("containerPort", Shape::Int32),
            ("hostIP", Shape::String),
            ("hostPort", Shape::Int32),
            ("name", Shape::String),
            ("protocol", Shape::String),
        ],
    },
    // 191: io.k8s.api.core.v1.ContainerResizePolicy
    Struct {
        name: "ContainerResizePolicy",
        fields: &[
            ("resourceName", Shape::String),
            ("restartPolicy", Shape::String),
        ],
    },
    // 192: io.k8s.api.core.v1.ContainerState
    Struct {
        name: "ContainerState",
        fields: &[
            ("running", Shape::Struct(193)),
            ("terminated", Shape::Struct(194)),
            ("waiting", Shape::Struct(195)),
        ],
    },
    // 193: io.k8s.api.core.v1.ContainerStateRunning
    Struct {
        name: "ContainerStateRunning",
        fields: &[
            ("startedAt", Shape::String),
        ],
    },
    // 194: io.k8s.api.core.v1.ContainerStateTerminated
    Struct {
        name: "ContainerStateTerminated",
        fields: &[
            ("containerID", Shape::String),
            ("exitCode", Shape::Int32),
            ("finishedAt", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("signal", Shape::Int32),
            ("startedAt", Shape::String),
        ],
    },
    // 195: io.k8s.api.core.v1.ContainerStateWaiting
    Struct {
        name: "ContainerStateWaiting",
        fields: &[
            ("message", Shape::String),
            ("reason", Shape::String),
        ],
    },
    // 196: io.k8s.api.core.v1.ContainerStatus
    Struct {
        name: "ContainerStatus",
        fields: &[
            ("allocatedResources", Shape::Map(&Shape::Quantity)),
            ("allocatedResourcesStatus", Shape::List(&Shape::Struct(316))),
            ("containerID", Shape::String),
            ("image", Shape::String),
            ("imageID", Shape::String),
            ("lastState", Shape::Struct(192)),
            ("name", Shape::String),
            ("ready", Shape::Bool),
            ("resources", Shape::Struct(315)),
            ("restartCount", Shape::Int32),
            ("started", Shape::Bool),
            ("state", Shape::Struct(192)),
            ("stopSignal", Shape::String),
            ("user", Shape::Struct(197)),
            ("volumeMounts", Shape::List(&Shape::Struct(352))),
        ],
    },
    // 197: io.k8s.api.core.v1.ContainerUser
    Struct {
        name: "ContainerUser",
        fields: &[
            ("linux", Shape::Struct(239)),
        ],
    },
    // 198: io.k8s.api.core.v1.DaemonEndpoint
    Struct {
        name: "DaemonEndpoint",
        fields: &[
            ("Port", Shape::Int32),
        ],
    },
    // 199: io.k8s.api.core.v1.DownwardAPIProjection
    Struct {
        name: "DownwardAPIProjection",
        fields: &[
            ("items", Shape::List(&Shape::Struct(200))),
        ],
    },
    // 200: io.k8s.api.core.v1.DownwardAPIVolumeFile
    Struct {
        name: "DownwardAPIVolumeFile",
        fields: &[
            ("fieldRef", Shape::Struct(267)),
            ("mode", Shape::Int32),
            ("path", Shape::String),
            ("resourceFieldRef", Shape::Struct(310)),
        ],
    },
    // 201: io.k8s.api.core.v1.DownwardAPIVolumeSource
    Struct {
        name: "DownwardAPIVolumeSource",
        fields: &[
            ("defaultMode", Shape::Int32),
            ("items", Shape::List(&Shape::Struct(200))),
        ],
    },
    // 202: io.k8s.api.core.v1.EmptyDirVolumeSource
    Struct {
        name: "EmptyDirVolumeSource",
        fields: &[
            ("medium", Shape::String),
            ("sizeLimit", Shape::Quantity),
        ],
    },
    // 203: io.k8s.api.core.v1.EndpointAddress
    Struct {
        name: "EndpointAddress",
        fields: &[
            ("hostname", Shape::String),
            ("ip", Shape::String),
            ("nodeName", Shape::String),
            ("targetRef", Shape::Struct(268)),
        ],
    },
    // 204: io.k8s.api.core.v1.EndpointPort
    Struct {
        name: "EndpointPort",
        fields: &[
            ("appProtocol", Shape::String),
            ("name", Shape::String),
            ("port", Shape::Int32),
            ("protocol", Shape::String),
        ],
    },
    // 205: io.k8s.api.core.v1.EndpointSubset
    Struct {
        name: "EndpointSubset",
        fields: &[
            ("addresses", Shape::List(&Shape::Struct(203))),
            ("notReadyAddresses", Shape::List(&Shape::Struct(203))),
            ("ports", Shape::List(&Shape::Struct(204))),
        ],
    },
    // 206: io.k8s.api.core.v1.Endpoints
    Struct {
        name: "Endpoints",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("subsets", Shape::List(&Shape::Struct(205))),
        ],
    },
    // 207: io.k8s.api.core.v1.EnvFromSource
    Struct {
        name: "EnvFromSource",
        fields: &[
            ("configMapRef", Shape::Struct(183)),
            ("prefix", Shape::String),
            ("secretRef", Shape::Struct(324)),
        ],
    },
    // 208: io.k8s.api.core.v1.EnvVar
    Struct {
        name: "EnvVar",
        fields: &[
            ("name", Shape::String),
            ("value", Shape::String),
            ("valueFrom", Shape::Struct(209)),
        ],
    },
    // 209: io.k8s.api.core.v1.EnvVarSource
    Struct {
        name: "EnvVarSource",
        fields: &[
            ("configMapKeyRef", Shape::Struct(184)),
            ("fieldRef", Shape::Struct(267)),
            ("resourceFieldRef", Shape::Struct(310)),
            ("secretKeyRef", Shape::Struct(325)),
        ],
    },
    // 210: io.k8s.api.core.v1.EphemeralContainer
    Struct {
        name: "EphemeralContainer",
        fields: &[
            ("args", Shape::List(&Shape::String)),
            ("command", Shape::List(&Shape::String)),
            ("env", Shape::List(&Shape::Struct(208))),
            ("envFrom", Shape::List(&Shape::Struct(207))),
            ("image", Shape::String),
            ("imagePullPolicy", Shape::String),
            ("lifecycle", Shape::Struct(234)),
            ("livenessProbe", Shape::Struct(300)),
            ("name", Shape::String),
            ("ports", Shape::List(&Shape::Struct(190))),
            ("readinessProbe", Shape::Struct(300)),
            ("resizePolicy", Shape::List(&Shape::Struct(191))),
            ("resources", Shape::Struct(315)),
            ("restartPolicy", Shape::String),
            ("securityContext", Shape::Struct(329)),
            ("startupProbe", Shape::Struct(300)),
            ("stdin", Shape::Bool),
            ("stdinOnce", Shape::Bool),
            ("targetContainerName", Shape::String),
            ("terminationMessagePath", Shape::String),
            ("terminationMessagePolicy", Shape::String),
            ("tty", Shape::Bool),
            ("volumeDevices", Shape::List(&Shape::Struct(350))),
            ("volumeMounts", Shape::List(&Shape::Struct(351))),
            ("workingDir", Shape::String),
        ],
    },
    // 211: io.k8s.api.core.v1.EphemeralVolumeSource
    Struct {
        name: "EphemeralVolumeSource",
        fields: &[
            ("volumeClaimTemplate", Shape::Struct(274)),
        ],
    },
    // 212: io.k8s.api.core.v1.Event
    Struct {
        name: "Event",
        fields: &[
            ("action", Shape::String),
            ("apiVersion", Shape::String),
            ("count", Shape::Int32),
            ("eventTime", Shape::String),
            ("firstTimestamp", Shape::String),
            ("involvedObject", Shape::Struct(268)),
            ("kind", Shape::String),
            ("lastTimestamp", Shape::String),
            ("message", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("reason", Shape::String),
            ("related", Shape::Struct(268)),
            ("reportingComponent", Shape::String),
            ("reportingInstance", Shape::String),
            ("series", Shape::Struct(213)),
            ("source", Shape::Struct(214)),
            ("type", Shape::String),
        ],
    },
    // 213: io.k8s.api.core.v1.EventSeries
    Struct {
        name: "EventSeries",
        fields: &[
            ("count", Shape::Int32),
            ("lastObservedTime", Shape::String),
        ],
    },
    // 214: io.k8s.api.core.v1.EventSource
    Struct {
        name: "EventSource",
        fields: &[
            ("component", Shape::String),
            ("host", Shape::String),
        ],
    },
    // 215: io.k8s.api.core.v1.ExecAction
    Struct {
        name: "ExecAction",
        fields: &[
            ("command", Shape::List(&Shape::String)),
        ],
    },
    // 216: io.k8s.api.core.v1.FCVolumeSource
    Struct {
        name: "FCVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("lun", Shape::Int32),
            ("readOnly", Shape::Bool),
            ("targetWWNs", Shape::List(&Shape::String)),
            ("wwids", Shape::List(&Shape::String)),
        ],
    },
    // 217: io.k8s.api.core.v1.FlexPersistentVolumeSource
    Struct {
        name: "FlexPersistentVolumeSource",
        fields: &[
            ("driver", Shape::String),
            ("fsType", Shape::String),
            ("options", Shape::Map(&Shape::String)),
            ("readOnly", Shape::Bool),
            ("secretRef", Shape::Struct(327)),
        ],
    },
    // 218: io.k8s.api.core.v1.FlexVolumeSource
    Struct {
        name: "FlexVolumeSource",
        fields: &[
            ("driver", Shape::String),
            ("fsType", Shape::String),
            ("options", Shape::Map(&Shape::String)),
            ("readOnly", Shape::Bool),
            ("secretRef", Shape::Struct(242)),
        ],
    },
    // 219: io.k8s.api.core.v1.FlockerVolumeSource
    Struct {
        name: "FlockerVolumeSource",
        fields: &[
            ("datasetName", Shape::String),
            ("datasetUUID", Shape::String),
        ],
    },
    // 220: io.k8s.api.core.v1.GCEPersistentDiskVolumeSource
    Struct {
        name: "GCEPersistentDiskVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("partition", Shape::Int32),
            ("pdName", Shape::String),
            ("readOnly", Shape::Bool),
        ],
    },
    // 221: io.k8s.api.core.v1.GRPCAction
    Struct {
        name: "GRPCAction",
        fields: &[
            ("port", Shape::Int32),
            ("service", Shape::String),
        ],
    },
    // 222: io.k8s.api.core.v1.GitRepoVolumeSource
    Struct {
        name: "GitRepoVolumeSource",
        fields: &[
            ("directory", Shape::String),
            ("repository", Shape::String),
            ("revision", Shape::String),
        ],
    },
    // 223: io.k8s.api.core.v1.GlusterfsPersistentVolumeSource
    Struct {
        name: "GlusterfsPersistentVolumeSource",
        fields: &[
            ("endpoints", Shape::String),
            ("endpointsNamespace", Shape::String),
            ("path", Shape::String),
            ("readOnly", Shape::Bool),
        ],
    },
    // 224: io.k8s.api.core.v1.GlusterfsVolumeSource
    Struct {
        name: "GlusterfsVolumeSource",
        fields: &[
            ("endpoints", Shape::String),
            ("path", Shape::String),
            ("readOnly", Shape::Bool),
        ],
    },
    // 225: io.k8s.api.core.v1.HTTPGetAction
    Struct {
        name: "HTTPGetAction",
        fields: &[
            ("host", Shape::String),
            ("httpHeaders", Shape::List(&Shape::Struct(226))),
            ("path", Shape::String),
            ("port", Shape::IntOrString),
            ("scheme", Shape::String),
        ],
    },
    // 226: io.k8s.api.core.v1.HTTPHeader
    Struct {
        name: "HTTPHeader",
        fields: &[
            ("name", Shape::String),
            ("value", Shape::String),
        ],
    },
    // 227: io.k8s.api.core.v1.HostAlias
    Struct {
        name: "HostAlias",
        fields: &[
            ("hostnames", Shape::List(&Shape::String)),
            ("ip", Shape::String),
        ],
    },
    // 228: io.k8s.api.core.v1.HostIP
    Struct {
        name: "HostIP",
        fields: &[
            ("ip", Shape::String),
        ],
    },
    // 229: io.k8s.api.core.v1.HostPathVolumeSource
    Struct {
        name: "HostPathVolumeSource",
        fields: &[
            ("path", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 230: io.k8s.api.core.v1.ISCSIPersistentVolumeSource
    Struct {
        name: "ISCSIPersistentVolumeSource",
        fields: &[
            ("chapAuthDiscovery", Shape::Bool),
            ("chapAuthSession", Shape::Bool),
            ("fsType", Shape::String),
            ("initiatorName", Shape::String),
            ("iqn", Shape::String),
            ("iscsiInterface", Shape::String),
            ("lun", Shape::Int32),
            ("portals", Shape::List(&Shape::String)),
            ("readOnly", Shape::Bool),
            ("secretRef", Shape::Struct(327)),
            ("targetPortal", Shape::String),
        ],
    },
    // 231: io.k8s.api.core.v1.ISCSIVolumeSource
    Struct {
        name: "ISCSIVolumeSource",
        fields: &[
            ("chapAuthDiscovery", Shape::Bool),
            ("chapAuthSession", Shape::Bool),
            ("fsType", Shape::String),
            ("initiatorName", Shape::String),
            ("iqn", Shape::String),
            ("iscsiInterface", Shape::String),
            ("lun", Shape::Int32),
            ("portals", Shape::List(&Shape::String)),
            ("readOnly", Shape::Bool),
            ("secretRef", Shape::Struct(242)),
            ("targetPortal", Shape::String),
        ],
    },
    // 232: io.k8s.api.core.v1.ImageVolumeSource
    Struct {
        name: "ImageVolumeSource",
        fields: &[
            ("pullPolicy", Shape::String),
            ("reference", Shape::String),
        ],
    },
    // 233: io.k8s.api.core.v1.KeyToPath
    Struct {
        name: "KeyToPath",
        fields: &[
            ("key", Shape::String),
            ("mode", Shape::Int32),
            ("path", Shape::String),
        ],
    },
    // 234: io.k8s.api.core.v1.Lifecycle
    Struct {
        name: "Lifecycle",
        fields: &[
            ("postStart", Shape::Struct(235)),
            ("preStop", Shape::Struct(235)),
            ("stopSignal", Shape::String),
        ],
    },
    // 235: io.k8s.api.core.v1.LifecycleHandler
    Struct {
        name: "LifecycleHandler",
        fields: &[
            ("exec", Shape::Struct(215)),
            ("httpGet", Shape::Struct(225)),
            ("sleep", Shape::Struct(337)),
            ("tcpSocket", Shape::Struct(341)),
        ],
    },
    // 236: io.k8s.api.core.v1.LimitRange
    Struct {
        name: "LimitRange",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(238)),
        ],
    },
    // 237: io.k8s.api.core.v1.LimitRangeItem
    Struct {
        name: "LimitRangeItem",
        fields: &[
            ("default", Shape::Map(&Shape::Quantity)),
            ("defaultRequest", Shape::Map(&Shape::Quantity)),
            ("max", Shape::Map(&Shape::Quantity)),
            ("maxLimitRequestRatio", Shape::Map(&Shape::Quantity)),
            ("min", Shape::Map(&Shape::Quantity)),
            ("type", Shape::String),
        ],
    },
    // 238: io.k8s.api.core.v1.LimitRangeSpec
    Struct {
        name: "LimitRangeSpec",
        fields: &[
            ("limits", Shape::List(&Shape::Struct(237))),
        ],
    },
    // 239: io.k8s.api.core.v1.LinuxContainerUser
    Struct {
        name: "LinuxContainerUser",
        fields: &[
            ("gid", Shape::Int64),
            ("supplementalGroups", Shape::List(&Shape::Int64)),
            ("uid", Shape::Int64),
        ],
    },
    // 240: io.k8s.api.core.v1.LoadBalancerIngress
    Struct {
        name: "LoadBalancerIngress",
        fields: &[
            ("hostname", Shape::String),
            ("ip", Shape::String),
            ("ipMode", Shape::String),
            ("ports", Shape::List(&Shape::Struct(297))),
        ],
    },
    // 241: io.k8s.api.core.v1.LoadBalancerStatus
    Struct {
        name: "LoadBalancerStatus",
        fields: &[
            ("ingress", Shape::List(&Shape::Struct(240))),
        ],
    },
    // 242: io.k8s.api.core.v1.LocalObjectReference
    Struct {
        name: "LocalObjectReference",
        fields: &[
            ("name", Shape::String),
        ],
    },
    // 243: io.k8s.api.core.v1.LocalVolumeSource
    Struct {
        name: "LocalVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("path", Shape::String),
        ],
    },
    // 244: io.k8s.api.core.v1.ModifyVolumeStatus
    Struct {
        name: "ModifyVolumeStatus",
        fields: &[
            ("status", Shape::String),
            ("targetVolumeAttributesClassName", Shape::String),
        ],
    },
    // 245: io.k8s.api.core.v1.NFSVolumeSource
    Struct {
        name: "NFSVolumeSource",
        fields: &[
            ("path", Shape::String),
            ("readOnly", Shape::Bool),
            ("server", Shape::String),
        ],
    },
    // 246: io.k8s.api.core.v1.Namespace
    Struct {
        name: "Namespace",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(248)),
            ("status", Shape::Struct(249)),
        ],
    },
    // 247: io.k8s.api.core.v1.NamespaceCondition
    Struct {
        name: "NamespaceCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 248: io.k8s.api.core.v1.NamespaceSpec
    Struct {
        name: "NamespaceSpec",
        fields: &[
            ("finalizers", Shape::List(&Shape::String)),
        ],
    },
    // 249: io.k8s.api.core.v1.NamespaceStatus
    Struct {
        name: "NamespaceStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(247))),
            ("phase", Shape::String),
        ],
    },
    // 250: io.k8s.api.core.v1.Node
    Struct {
        name: "Node",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(263)),
            ("status", Shape::Struct(264)),
        ],
    },
    // 251: io.k8s.api.core.v1.NodeAddress
    Struct {
        name: "NodeAddress",
        fields: &[
            ("address", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 252: io.k8s.api.core.v1.NodeAffinity
    Struct {
        name: "NodeAffinity",
        fields: &[
            ("preferredDuringSchedulingIgnoredDuringExecution", Shape::List(&Shape::Struct(299))),
            ("requiredDuringSchedulingIgnoredDuringExecution", Shape::Struct(260)),
        ],
    },
    // 253: io.k8s.api.core.v1.NodeCondition
    Struct {
        name: "NodeCondition",
        fields: &[
            ("lastHeartbeatTime", Shape::String),
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 254: io.k8s.api.core.v1.NodeConfigSource
    Struct {
        name: "NodeConfigSource",
        fields: &[
            ("configMap", Shape::Struct(185)),
        ],
    },
    // 255: io.k8s.api.core.v1.NodeConfigStatus
    Struct {
        name: "NodeConfigStatus",
        fields: &[
            ("active", Shape::Struct(254)),
            ("assigned", Shape::Struct(254)),
            ("error", Shape::String),
            ("lastKnownGood", Shape::Struct(254)),
        ],
    },
    // 256: io.k8s.api.core.v1.NodeDaemonEndpoints
    Struct {
        name: "NodeDaemonEndpoints",
        fields: &[
            ("kubeletEndpoint", Shape::Struct(198)),
        ],
    },
    // 257: io.k8s.api.core.v1.NodeFeatures
    Struct {
        name: "NodeFeatures",
        fields: &[
            ("supplementalGroupsPolicy", Shape::Bool),
        ],
    },
    // 258: io.k8s.api.core.v1.NodeRuntimeHandler
    Struct {
        name: "NodeRuntimeHandler",
        fields: &[
            ("features", Shape::Struct(259)),
            ("name", Shape::String),
        ],
    },
    // 259: io.k8s.api.core.v1.NodeRuntimeHandlerFeatures
    Struct {
        name: "NodeRuntimeHandlerFeatures",
        fields: &[
            ("recursiveReadOnlyMounts", Shape::Bool),
            ("userNamespaces", Shape::Bool),
        ],
    },
    // 260: io.k8s.api.core.v1.NodeSelector
    Struct {
        name: "NodeSelector",
        fields: &[
            ("nodeSelectorTerms", Shape::List(&Shape::Struct(262))),
        ],
    },
    // 261: io.k8s.api.core.v1.NodeSelectorRequirement
    Struct {
        name: "NodeSelectorRequirement",
        fields: &[
            ("key", Shape::String),
            ("operator", Shape::String),
            ("values", Shape::List(&Shape::String)),
        ],
    },
    // 262: io.k8s.api.core.v1.NodeSelectorTerm
    Struct {
        name: "NodeSelectorTerm",
        fields: &[
            ("matchExpressions", Shape::List(&Shape::Struct(261))),
            ("matchFields", Shape::List(&Shape::Struct(261))),
        ],
    },
    // 263: io.k8s.api.core.v1.NodeSpec
    Struct {
        name: "NodeSpec",
        fields: &[
            ("configSource", Shape::Struct(254)),
            ("externalID", Shape::String),
            ("podCIDR", Shape::String),
            ("podCIDRs", Shape::List(&Shape::String)),
            ("providerID", Shape::String),
            ("taints", Shape::List(&Shape::Struct(342))),
            ("unschedulable", Shape::Bool),
        ],
    },
    // 264: io.k8s.api.core.v1.NodeStatus
    Struct {
        name: "NodeStatus",
        fields: &[
            ("addresses", Shape::List(&Shape::Struct(251))),
            ("allocatable", Shape::Map(&Shape::Quantity)),
            ("capacity", Shape::Map(&Shape::Quantity)),
            ("conditions", Shape::List(&Shape::Struct(253))),
            ("config", Shape::Struct(255)),
            ("daemonEndpoints", Shape::Struct(256)),
            ("features", Shape::Struct(257)),
            ("images", Shape::List(&Shape::Struct(189))),
            ("nodeInfo", Shape::Struct(266)),
            ("phase", Shape::String),
            ("runtimeHandlers", Shape::List(&Shape::Struct(258))),
            ("volumesAttached", Shape::List(&Shape::Struct(166))),
            ("volumesInUse", Shape::List(&Shape::String)),
        ],
    },
    // 265: io.k8s.api.core.v1.NodeSwapStatus
    Struct {
        name: "NodeSwapStatus",
        fields: &[
            ("capacity", Shape::Int64),
        ],
    },
    // 266: io.k8s.api.core.v1.NodeSystemInfo
    Struct {
        name: "NodeSystemInfo",
        fields: &[
            ("architecture", Shape::String),
            ("bootID", Shape::String),
            ("containerRuntimeVersion", Shape::String),
            ("kernelVersion", Shape::String),
            ("kubeProxyVersion", Shape::String),
            ("kubeletVersion", Shape::String),
            ("machineID", Shape::String),
            ("operatingSystem", Shape::String),
            ("osImage", Shape::String),
            ("swap", Shape::Struct(265)),
            ("systemUUID", Shape::String),
        ],
    },
    // 267: io.k8s.api.core.v1.ObjectFieldSelector
    Struct {
        name: "ObjectFieldSelector",
        fields: &[
            ("apiVersion", Shape::String),
            ("fieldPath", Shape::String),
        ],
    },
    // 268: io.k8s.api.core.v1.ObjectReference
    Struct {
        name: "ObjectReference",
        fields: &[
            ("apiVersion", Shape::String),
            ("fieldPath", Shape::String),
            ("kind", Shape::String),
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("resourceVersion", Shape::String),
            ("uid", Shape::String),
        ],
    },
    // 269: io.k8s.api.core.v1.PersistentVolume
    Struct {
        name: "PersistentVolume",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(276)),
            ("status", Shape::Struct(277)),
        ],
    },
    // 270: io.k8s.api.core.v1.PersistentVolumeClaim
    Struct {
        name: "PersistentVolumeClaim",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(272)),
            ("status", Shape::Struct(273)),
        ],
    },
    // 271: io.k8s.api.core.v1.PersistentVolumeClaimCondition
    Struct {
        name: "PersistentVolumeClaimCondition",
        fields: &[
            ("lastProbeTime", Shape::String),
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 272: io.k8s.api.core.v1.PersistentVolumeClaimSpec
    Struct {
        name: "PersistentVolumeClaimSpec",
        fields: &[
            ("accessModes", Shape::List(&Shape::String)),
            ("dataSource", Shape::Struct(347)),
            ("dataSourceRef", Shape::Struct(348)),
            ("resources", Shape::Struct(355)),
            ("selector", Shape::Struct(589)),
            ("storageClassName", Shape::String),
            ("volumeAttributesClassName", Shape::String),
            ("volumeMode", Shape::String),
            ("volumeName", Shape::String),
        ],
    },
    // 273: io.k8s.api.core.v1.PersistentVolumeClaimStatus
    Struct {
        name: "PersistentVolumeClaimStatus",
        fields: &[
            ("accessModes", Shape::List(&Shape::String)),
            ("allocatedResourceStatuses", Shape::Map(&Shape::String)),
            ("allocatedResources", Shape::Map(&Shape::Quantity)),
            ("capacity", Shape::Map(&Shape::Quantity)),
            ("conditions", Shape::List(&Shape::Struct(271))),
            ("currentVolumeAttributesClassName", Shape::String),
            ("modifyVolumeStatus", Shape::Struct(244)),
            ("phase", Shape::String),
        ],
    },
    // 274: io.k8s.api.core.v1.PersistentVolumeClaimTemplate
    Struct {
        name: "PersistentVolumeClaimTemplate",
        fields: &[
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(272)),
        ],
    },
    // 275: io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource
    Struct {
        name: "PersistentVolumeClaimVolumeSource",
        fields: &[
            ("claimName", Shape::String),
            ("readOnly", Shape::Bool),
        ],
    },
    // 276: io.k8s.api.core.v1.PersistentVolumeSpec
    Struct {
        name: "PersistentVolumeSpec",
        fields: &[
            ("accessModes", Shape::List(&Shape::String)),
            ("awsElasticBlockStore", Shape::Struct(163)),
            ("azureDisk", Shape::Struct(167)),
            ("azureFile", Shape::Struct(168)),
            ("capacity", Shape::Map(&Shape::Quantity)),
            ("cephfs", Shape::Struct(174)),
            ("cinder", Shape::Struct(176)),
            ("claimRef", Shape::Struct(268)),
            ("csi", Shape::Struct(171)),
            ("fc", Shape::Struct(216)),
            ("flexVolume", Shape::Struct(217)),
            ("flocker", Shape::Struct(219)),
            ("gcePersistentDisk", Shape::Struct(220)),
            ("glusterfs", Shape::Struct(223)),
            ("hostPath", Shape::Struct(229)),
            ("iscsi", Shape::Struct(230)),
            ("local", Shape::Struct(243)),
            ("mountOptions", Shape::List(&Shape::String)),
            ("nfs", Shape::Struct(245)),
            ("nodeAffinity", Shape::Struct(353)),
            ("persistentVolumeReclaimPolicy", Shape::String),
            ("photonPersistentDisk", Shape::Struct(278)),
            ("portworxVolume", Shape::Struct(298)),
            ("quobyte", Shape::Struct(302)),
            ("rbd", Shape::Struct(303)),
            ("scaleIO", Shape::Struct(318)),
            ("storageClassName", Shape::String),
            ("storageos", Shape::Struct(338)),
            ("volumeAttributesClassName", Shape::String),
            ("volumeMode", Shape::String),
            ("vsphereVolume", Shape::Struct(356)),
        ],
    },
    // 277: io.k8s.api.core.v1.PersistentVolumeStatus
    Struct {
        name: "PersistentVolumeStatus",
        fields: &[
            ("lastPhaseTransitionTime", Shape::String),
            ("message", Shape::String),
            ("phase", Shape::String),
            ("reason", Shape::String),
        ],
    },
    // 278: io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource
    Struct {
        name: "PhotonPersistentDiskVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("pdID", Shape::String),
        ],
    },
    // 279: io.k8s.api.core.v1.Pod
    Struct {
        name: "Pod",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(293)),
            ("status", Shape::Struct(294)),
        ],
    },
    // 280: io.k8s.api.core.v1.PodAffinity
    Struct {
        name: "PodAffinity",
        fields: &[
            ("preferredDuringSchedulingIgnoredDuringExecution", Shape::List(&Shape::Struct(357))),
            ("requiredDuringSchedulingIgnoredDuringExecution", Shape::List(&Shape::Struct(281))),
        ],
    },
    // 281: io.k8s.api.core.v1.PodAffinityTerm
    Struct {
        name: "PodAffinityTerm",
        fields: &[
            ("labelSelector", Shape::Struct(589)),
            ("matchLabelKeys", Shape::List(&Shape::String)),
            ("mismatchLabelKeys", Shape::List(&Shape::String)),
            ("namespaceSelector", Shape::Struct(589)),
            ("namespaces", Shape::List(&Shape::String)),
            ("topologyKey", Shape::String),
        ],
    },
    // 282: io.k8s.api.core.v1.PodAntiAffinity
    Struct {
        name: "PodAntiAffinity",
        fields: &[
            ("preferredDuringSchedulingIgnoredDuringExecution", Shape::List(&Shape::Struct(357))),
            ("requiredDuringSchedulingIgnoredDuringExecution", Shape::List(&Shape::Struct(281))),
        ],
    },
    // 283: io.k8s.api.core.v1.PodCondition
    Struct {
        name: "PodCondition",
        fields: &[
            ("lastProbeTime", Shape::String),
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("observedGeneration", Shape::Int64),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 284: io.k8s.api.core.v1.PodDNSConfig
    Struct {
        name: "PodDNSConfig",
        fields: &[
            ("nameservers", Shape::List(&Shape::String)),
            ("options", Shape::List(&Shape::Struct(285))),
            ("searches", Shape::List(&Shape::String)),
        ],
    },
    // 285: io.k8s.api.core.v1.PodDNSConfigOption
    Struct {
        name: "PodDNSConfigOption",
        fields: &[
            ("name", Shape::String),
            ("value", Shape::String),
        ],
    },
    // 286: io.k8s.api.core.v1.PodIP
    Struct {
        name: "PodIP",
        fields: &[
            ("ip", Shape::String),
        ],
    },
    // 287: io.k8s.api.core.v1.PodOS
    Struct {
        name: "PodOS",
        fields: &[
            ("name", Shape::String),
        ],
    },
    // 288: io.k8s.api.core.v1.PodReadinessGate
    Struct {
        name: "PodReadinessGate",
        fields: &[
            ("conditionType", Shape::String),
        ],
    },
    // 289: io.k8s.api.core.v1.PodResourceClaim
    Struct {
        name: "PodResourceClaim",
        fields: &[
            ("name", Shape::String),
            ("resourceClaimName", Shape::String),
            ("resourceClaimTemplateName", Shape::String),
        ],
    },
    // 290: io.k8s.api.core.v1.PodResourceClaimStatus
    Struct {
        name: "PodResourceClaimStatus",
        fields: &[
            ("name", Shape::String),
            ("resourceClaimName", Shape::String),
        ],
    },
    // 291: io.k8s.api.core.v1.PodSchedulingGate
    Struct {
        name: "PodSchedulingGate",
        fields: &[
            ("name", Shape::String),
        ],
    },
    // 292: io.k8s.api.core.v1.PodSecurityContext
    Struct {
        name: "PodSecurityContext",
        fields: &[
            ("appArmorProfile", Shape::Struct(165)),
            ("fsGroup", Shape::Int64),
            ("fsGroupChangePolicy", Shape::String),
            ("runAsGroup", Shape::Int64),
            ("runAsNonRoot", Shape::Bool),
            ("runAsUser", Shape::Int64),
            ("seLinuxChangePolicy", Shape::String),
            ("seLinuxOptions", Shape::Struct(317)),
            ("seccompProfile", Shape::Struct(322)),
            ("supplementalGroups", Shape::List(&Shape::Int64)),
            ("supplementalGroupsPolicy", Shape::String),
            ("sysctls", Shape::List(&Shape::Struct(340))),
            ("windowsOptions", Shape::Struct(358)),
        ],
    },
    // 293: io.k8s.api.core.v1.PodSpec
    Struct {
        name: "PodSpec",
        fields: &[
            ("activeDeadlineSeconds", Shape::Int64),
            ("affinity", Shape::Struct(164)),
            ("automountServiceAccountToken", Shape::Bool),
            ("containers", Shape::List(&Shape::Struct(188))),
            ("dnsConfig", Shape::Struct(284)),
            ("dnsPolicy", Shape::String),
            ("enableServiceLinks", Shape::Bool),
            ("ephemeralContainers", Shape::List(&Shape::Struct(210))),
            ("hostAliases", Shape::List(&Shape::Struct(227))),
            ("hostIPC", Shape::Bool),
            ("hostNetwork", Shape::Bool),
            ("hostPID", Shape::Bool),
            ("hostUsers", Shape::Bool),
            ("hostname", Shape::String),
            ("imagePullSecrets", Shape::List(&Shape::Struct(242))),
            ("initContainers", Shape::List(&Shape::Struct(188))),
            ("nodeName", Shape::String),
            ("nodeSelector", Shape::Map(&Shape::String)),
            ("os", Shape::Struct(287)),
            ("overhead", Shape::Map(&Shape::Quantity)),
            ("preemptionPolicy", Shape::String),
            ("priority", Shape::Int32),
            ("priorityClassName", Shape::String),
            ("readinessGates", Shape::List(&Shape::Struct(288))),
            ("resourceClaims", Shape::List(&Shape::Struct(289))),
            ("resources", Shape::Struct(315)),
            ("restartPolicy", Shape::String),
            ("runtimeClassName", Shape::String),
            ("schedulerName", Shape::String),
            ("schedulingGates", Shape::List(&Shape::Struct(291))),
            ("securityContext", Shape::Struct(292)),
            ("serviceAccount", Shape::String),
            ("serviceAccountName", Shape::String),
            ("setHostnameAsFQDN", Shape::Bool),
            ("shareProcessNamespace", Shape::Bool),
            ("subdomain", Shape::String),
            ("terminationGracePeriodSeconds", Shape::Int64),
            ("tolerations", Shape::List(&Shape::Struct(343))),
            ("topologySpreadConstraints", Shape::List(&Shape::Struct(346))),
            ("volumes", Shape::List(&Shape::Struct(349))),
        ],
    },
    // 294: io.k8s.api.core.v1.PodStatus
    Struct {
        name: "PodStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(283))),
            ("containerStatuses", Shape::List(&Shape::Struct(196))),
            ("ephemeralContainerStatuses", Shape::List(&Shape::Struct(196))),
            ("hostIP", Shape::String),
            ("hostIPs", Shape::List(&Shape::Struct(228))),
            ("initContainerStatuses", Shape::List(&Shape::Struct(196))),
            ("message", Shape::String),
            ("nominatedNodeName", Shape::String),
            ("observedGeneration", Shape::Int64),
            ("phase", Shape::String),
            ("podIP", Shape::String),
            ("podIPs", Shape::List(&Shape::Struct(286))),
            ("qosClass", Shape::String),
            ("reason", Shape::String),
            ("resize", Shape::String),
            ("resourceClaimStatuses", Shape::List(&Shape::Struct(290))),
            ("startTime", Shape::String),
        ],
    },
    // 295: io.k8s.api.core.v1.PodTemplate
    Struct {
        name: "PodTemplate",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("template", Shape::Struct(296)),
        ],
    },
    // 296: io.k8s.api.core.v1.PodTemplateSpec
    Struct {
        name: "PodTemplateSpec",
        fields: &[
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(293)),
        ],
    },
    // 297: io.k8s.api.core.v1.PortStatus
    Struct {
        name: "PortStatus",
        fields: &[
            ("error", Shape::String),
            ("port", Shape::Int32),
            ("protocol", Shape::String),
        ],
    },
    // 298: io.k8s.api.core.v1.PortworxVolumeSource
    Struct {
        name: "PortworxVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("readOnly", Shape::Bool),
            ("volumeID", Shape::String),
        ],
    },
    // 299: io.k8s.api.core.v1.PreferredSchedulingTerm
    Struct {
        name: "PreferredSchedulingTerm",
        fields: &[
            ("preference", Shape::Struct(262)),
            ("weight", Shape::Int32),
        ],
    },
    // 300: io.k8s.api.core.v1.Probe
    Struct {
        name: "Probe",
        fields: &[
            ("exec", Shape::Struct(215)),
            ("failureThreshold", Shape::Int32),
            ("grpc", Shape::Struct(221)),
            ("httpGet", Shape::Struct(225)),
            ("initialDelaySeconds", Shape::Int32),
            ("periodSeconds", Shape::Int32),
            ("successThreshold", Shape::Int32),
            ("tcpSocket", Shape::Struct(341)),
            ("terminationGracePeriodSeconds", Shape::Int64),
            ("timeoutSeconds", Shape::Int32),
        ],
    },
    // 301: io.k8s.api.core.v1.ProjectedVolumeSource
    Struct {
        name: "ProjectedVolumeSource",
        fields: &[
            ("defaultMode", Shape::Int32),
            ("sources", Shape::List(&Shape::Struct(354))),
        ],
    },
    // 302: io.k8s.api.core.v1.QuobyteVolumeSource
    Struct {
        name: "QuobyteVolumeSource",
        fields: &[
            ("group", Shape::String),
            ("readOnly", Shape::Bool),
            ("registry", Shape::String),
            ("tenant", Shape::String),
            ("user", Shape::String),
            ("volume", Shape::String),
        ],
    },
    // 303: io.k8s.api.core.v1.RBDPersistentVolumeSource
    Struct {
        name: "RBDPersistentVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("image", Shape::String),
            ("keyring", Shape::String),
            ("monitors", Shape::List(&Shape::String)),
            ("pool", Shape::String),
            ("readOnly", Shape::Bool),
            ("secretRef", Shape::Struct(327)),
            ("user", Shape::String),
        ],
    },
    // 304: io.k8s.api.core.v1.RBDVolumeSource
    Struct {
        name: "RBDVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("image", Shape::String),
            ("keyring", Shape::String),
            ("monitors", Shape::List(&Shape::String)),
            ("pool", Shape::String),
            ("readOnly", Shape::Bool),
            ("secretRef", Shape::Struct(242)),
            ("user", Shape::String),
        ],
    },
    // 305: io.k8s.api.core.v1.ReplicationController
    Struct {
        name: "ReplicationController",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(307)),
            ("status", Shape::Struct(308)),
        ],
    },
    // 306: io.k8s.api.core.v1.ReplicationControllerCondition
    Struct {
        name: "ReplicationControllerCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 307: io.k8s.api.core.v1.ReplicationControllerSpec
    Struct {
        name: "ReplicationControllerSpec",
        fields: &[
            ("minReadySeconds", Shape::Int32),
            ("replicas", Shape::Int32),
            ("selector", Shape::Map(&Shape::String)),
            ("template", Shape::Struct(296)),
        ],
    },
    // 308: io.k8s.api.core.v1.ReplicationControllerStatus
    Struct {
        name: "ReplicationControllerStatus",
        fields: &[
            ("availableReplicas", Shape::Int32),
            ("conditions", Shape::List(&Shape::Struct(306))),
            ("fullyLabeledReplicas", Shape::Int32),
            ("observedGeneration", Shape::Int64),
            ("readyReplicas", Shape::Int32),
            ("replicas", Shape::Int32),
        ],
    },
    // 309: io.k8s.api.core.v1.ResourceClaim
    Struct {
        name: "ResourceClaim",
        fields: &[
            ("name", Shape::String),
            ("request", Shape::String),
        ],
    },
    // 310: io.k8s.api.core.v1.ResourceFieldSelector
    Struct {
        name: "ResourceFieldSelector",
        fields: &[
            ("containerName", Shape::String),
            ("divisor", Shape::Quantity),
            ("resource", Shape::String),
        ],
    },
    // 311: io.k8s.api.core.v1.ResourceHealth
    Struct {
        name: "ResourceHealth",
        fields: &[
            ("health", Shape::String),
            ("resourceID", Shape::String),
        ],
    },
    // 312: io.k8s.api.core.v1.ResourceQuota
    Struct {
        name: "ResourceQuota",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(313)),
            ("status", Shape::Struct(314)),
        ],
    },
    // 313: io.k8s.api.core.v1.ResourceQuotaSpec
    Struct {
        name: "ResourceQuotaSpec",
        fields: &[
            ("hard", Shape::Map(&Shape::Quantity)),
            ("scopeSelector", Shape::Struct(320)),
            ("scopes", Shape::List(&Shape::String)),
        ],
    },
    // 314: io.k8s.api.core.v1.ResourceQuotaStatus
    Struct {
        name: "ResourceQuotaStatus",
        fields: &[
            ("hard", Shape::Map(&Shape::Quantity)),
            ("used", Shape::Map(&Shape::Quantity)),
        ],
    },
    // 315: io.k8s.api.core.v1.ResourceRequirements
    Struct {
        name: "ResourceRequirements",
        fields: &[
            ("claims", Shape::List(&Shape::Struct(309))),
            ("limits", Shape::Map(&Shape::Quantity)),
            ("requests", Shape::Map(&Shape::Quantity)),
        ],
    },
    // 316: io.k8s.api.core.v1.ResourceStatus
    Struct {
        name: "ResourceStatus",
        fields: &[
            ("name", Shape::String),
            ("resources", Shape::List(&Shape::Struct(311))),
        ],
    },
    // 317: io.k8s.api.core.v1.SELinuxOptions
    Struct {
        name: "SELinuxOptions",
        fields: &[
            ("level", Shape::String),
            ("role", Shape::String),
            ("type", Shape::String),
            ("user", Shape::String),
        ],
    },
    // 318: io.k8s.api.core.v1.ScaleIOPersistentVolumeSource
    Struct {
        name: "ScaleIOPersistentVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("gateway", Shape::String),
            ("protectionDomain", Shape::String),
            ("readOnly", Shape::Bool),
            ("secretRef", Shape::Struct(327)),
            ("sslEnabled", Shape::Bool),
            ("storageMode", Shape::String),
            ("storagePool", Shape::String),
            ("system", Shape::String),
            ("volumeName", Shape::String),
        ],
    },
    // 319: io.k8s.api.core.v1.ScaleIOVolumeSource
    Struct {
        name: "ScaleIOVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("gateway", Shape::String),
            ("protectionDomain", Shape::String),
            ("readOnly", Shape::Bool),
            ("secretRef", Shape::Struct(242)),
            ("sslEnabled", Shape::Bool),
            ("storageMode", Shape::String),
            ("storagePool", Shape::String),
            ("system", Shape::String),
            ("volumeName", Shape::String),
        ],
    },
    // 320: io.k8s.api.core.v1.ScopeSelector
    Struct {
        name: "ScopeSelector",
        fields: &[
            ("matchExpressions", Shape::List(&Shape::Struct(321))),
        ],
    },
    // 321: io.k8s.api.core.v1.ScopedResourceSelectorRequirement
    Struct {
        name: "ScopedResourceSelectorRequirement",
        fields: &[
            ("operator", Shape::String),
            ("scopeName", Shape::String),
            ("values", Shape::List(&Shape::String)),
        ],
    },
    // 322: io.k8s.api.core.v1.SeccompProfile
    Struct {
        name: "SeccompProfile",
        fields: &[
            ("localhostProfile", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 323: io.k8s.api.core.v1.Secret
    Struct {
        name: "Secret",
        fields: &[
            ("apiVersion", Shape::String),
            ("data", Shape::Map(&Shape::Bytes)),
            ("immutable", Shape::Bool),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("stringData", Shape::Map(&Shape::String)),
            ("type", Shape::String),
        ],
    },
    // 324: io.k8s.api.core.v1.SecretEnvSource
    Struct {
        name: "SecretEnvSource",
        fields: &[
            ("name", Shape::String),
            ("optional", Shape::Bool),
        ],
    },
    // 325: io.k8s.api.core.v1.SecretKeySelector
    Struct {
        name: "SecretKeySelector",
        fields: &[
            ("key", Shape::String),
            ("name", Shape::String),
            ("optional", Shape::Bool),
        ],
    },
    // 326: io.k8s.api.core.v1.SecretProjection
    Struct {
        name: "SecretProjection",
        fields: &[
            ("items", Shape::List(&Shape::Struct(233))),
            ("name", Shape::String),
            ("optional", Shape::Bool),
        ],
    },
    // 327: io.k8s.api.core.v1.SecretReference
    Struct {
        name: "SecretReference",
        fields: &[
            ("name", Shape::String),
            ("namespace", Shape::String),
        ],
    },
    // 328: io.k8s.api.core.v1.SecretVolumeSource
    Struct {
        name: "SecretVolumeSource",
        fields: &[
            ("defaultMode", Shape::Int32),
            ("items", Shape::List(&Shape::Struct(233))),
            ("optional", Shape::Bool),
            ("secretName", Shape::String),
        ],
    },
    // 329: io.k8s.api.core.v1.SecurityContext
    Struct {
        name: "SecurityContext",
        fields: &[
            ("allowPrivilegeEscalation", Shape::Bool),
            ("appArmorProfile", Shape::Struct(165)),
            ("capabilities", Shape::Struct(173)),
            ("privileged", Shape::Bool),
            ("procMount", Shape::String),
            ("readOnlyRootFilesystem", Shape::Bool),
            ("runAsGroup", Shape::Int64),
            ("runAsNonRoot", Shape::Bool),
            ("runAsUser", Shape::Int64),
            ("seLinuxOptions", Shape::Struct(317)),
            ("seccompProfile", Shape::Struct(322)),
            ("windowsOptions", Shape::Struct(358)),
        ],
    },
    // 330: io.k8s.api.core.v1.Service
    Struct {
        name: "Service",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(334)),
            ("status", Shape::Struct(335)),
        ],
    },
    // 331: io.k8s.api.core.v1.ServiceAccount
    Struct {
        name: "ServiceAccount",
        fields: &[
            ("apiVersion", Shape::String),
            ("automountServiceAccountToken", Shape::Bool),
            ("imagePullSecrets", Shape::List(&Shape::Struct(242))),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("secrets", Shape::List(&Shape::Struct(268))),
        ],
    },
    // 332: io.k8s.api.core.v1.ServiceAccountTokenProjection
    Struct {
        name: "ServiceAccountTokenProjection",
        fields: &[
            ("audience", Shape::String),
            ("expirationSeconds", Shape::Int64),
            ("path", Shape::String),
        ],
    },
    // 333: io.k8s.api.core.v1.ServicePort
    Struct {
        name: "ServicePort",
        fields: &[
            ("appProtocol", Shape::String),
            ("name", Shape::String),
            ("nodePort", Shape::Int32),
            ("port", Shape::Int32),
            ("protocol", Shape::String),
            ("targetPort", Shape::IntOrString),
        ],
    },
    // 334: io.k8s.api.core.v1.ServiceSpec
    Struct {
        name: "ServiceSpec",
        fields: &[
            ("allocateLoadBalancerNodePorts", Shape::Bool),
            ("clusterIP", Shape::String),
            ("clusterIPs", Shape::List(&Shape::String)),
            ("externalIPs", Shape::List(&Shape::String)),
            ("externalName", Shape::String),
            ("externalTrafficPolicy", Shape::String),
            ("healthCheckNodePort", Shape::Int32),
            ("internalTrafficPolicy", Shape::String),
            ("ipFamilies", Shape::List(&Shape::String)),
            ("ipFamilyPolicy", Shape::String),
            ("loadBalancerClass", Shape::String),
            ("loadBalancerIP", Shape::String),
            ("loadBalancerSourceRanges", Shape::List(&Shape::String)),
            ("ports", Shape::List(&Shape::Struct(333))),
            ("publishNotReadyAddresses", Shape::Bool),
            ("selector", Shape::Map(&Shape::String)),
            ("sessionAffinity", Shape::String),
            ("sessionAffinityConfig", Shape::Struct(336)),
            ("trafficDistribution", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 335: io.k8s.api.core.v1.ServiceStatus
    Struct {
        name: "ServiceStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(586))),
            ("loadBalancer", Shape::Struct(241)),
        ],
    },
    // 336: io.k8s.api.core.v1.SessionAffinityConfig
    Struct {
        name: "SessionAffinityConfig",
        fields: &[
            ("clientIP", Shape::Struct(178)),
        ],
    },
    // 337: io.k8s.api.core.v1.SleepAction
    Struct {
        name: "SleepAction",
        fields: &[
            ("seconds", Shape::Int64),
        ],
    },
    // 338: io.k8s.api.core.v1.StorageOSPersistentVolumeSource
    Struct {
        name: "StorageOSPersistentVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("readOnly", Shape::Bool),
            ("secretRef", Shape::Struct(268)),
            ("volumeName", Shape::String),
            ("volumeNamespace", Shape::String),
        ],
    },
    // 339: io.k8s.api.core.v1.StorageOSVolumeSource
    Struct {
        name: "StorageOSVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("readOnly", Shape::Bool),
            ("secretRef", Shape::Struct(242)),
            ("volumeName", Shape::String),
            ("volumeNamespace", Shape::String),
        ],
    },
    // 340: io.k8s.api.core.v1.Sysctl
    Struct {
        name: "Sysctl",
        fields: &[
            ("name", Shape::String),
            ("value", Shape::String),
        ],
    },
    // 341: io.k8s.api.core.v1.TCPSocketAction
    Struct {
        name: "TCPSocketAction",
        fields: &[
            ("host", Shape::String),
            ("port", Shape::IntOrString),
        ],
    },
    // 342: io.k8s.api.core.v1.Taint
    Struct {
        name: "Taint",
        fields: &[
            ("effect", Shape::String),
            ("key", Shape::String),
            ("timeAdded", Shape::String),
            ("value", Shape::String),
        ],
    },
    // 343: io.k8s.api.core.v1.Toleration
    Struct {
        name: "Toleration",
        fields: &[
            ("effect", Shape::String),
            ("key", Shape::String),
            ("operator", Shape::String),
            ("tolerationSeconds", Shape::Int64),
            ("value", Shape::String),
        ],
    },
    // 344: io.k8s.api.core.v1.TopologySelectorLabelRequirement
    Struct {
        name: "TopologySelectorLabelRequirement",
        fields: &[
            ("key", Shape::String),
            ("values", Shape::List(&Shape::String)),
        ],
    },
    // 345: io.k8s.api.core.v1.TopologySelectorTerm
    Struct {
        name: "TopologySelectorTerm",
        fields: &[
            ("matchLabelExpressions", Shape::List(&Shape::Struct(344))),
        ],
    },
    // 346: io.k8s.api.core.v1.TopologySpreadConstraint
    Struct {
        name: "TopologySpreadConstraint",
        fields: &[
            ("labelSelector", Shape::Struct(589)),
            ("matchLabelKeys", Shape::List(&Shape::String)),
            ("maxSkew", Shape::Int32),
            ("minDomains", Shape::Int32),
            ("nodeAffinityPolicy", Shape::String),
            ("nodeTaintsPolicy", Shape::String),
            ("topologyKey", Shape::String),
            ("whenUnsatisfiable", Shape::String),
        ],
    },
    // 347: io.k8s.api.core.v1.TypedLocalObjectReference
    Struct {
        name: "TypedLocalObjectReference",
        fields: &[
            ("apiGroup", Shape::String),
            ("kind", Shape::String),
            ("name", Shape::String),
        ],
    },
    // 348: io.k8s.api.core.v1.TypedObjectReference
    Struct {
        name: "TypedObjectReference",
        fields: &[
            ("apiGroup", Shape::String),
            ("kind", Shape::String),
            ("name", Shape::String),
            ("namespace", Shape::String),
        ],
    },
    // 349: io.k8s.api.core.v1.Volume
    Struct {
        name: "Volume",
        fields: &[
            ("awsElasticBlockStore", Shape::Struct(163)),
            ("azureDisk", Shape::Struct(167)),
            ("azureFile", Shape::Struct(169)),
            ("cephfs", Shape::Struct(175)),
            ("cinder", Shape::Struct(177)),
            ("configMap", Shape::Struct(187)),
            ("csi", Shape::Struct(172)),
            ("downwardAPI", Shape::Struct(201)),
            ("emptyDir", Shape::Struct(202)),
            ("ephemeral", Shape::Struct(211)),
            ("fc", Shape::Struct(216)),
            ("flexVolume", Shape::Struct(218)),
            ("flocker", Shape::Struct(219)),
            ("gcePersistentDisk", Shape::Struct(220)),
            ("gitRepo", Shape::Struct(222)),
            ("glusterfs", Shape::Struct(224)),
            ("hostPath", Shape::Struct(229)),
            ("image", Shape::Struct(232)),
            ("iscsi", Shape::Struct(231)),
            ("name", Shape::String),
            ("nfs", Shape::Struct(245)),
            ("persistentVolumeClaim", Shape::Struct(275)),
            ("photonPersistentDisk", Shape::Struct(278)),
            ("portworxVolume", Shape::Struct(298)),
            ("projected", Shape::Struct(301)),
            ("quobyte", Shape::Struct(302)),
            ("rbd", Shape::Struct(304)),
            ("scaleIO", Shape::Struct(319)),
            ("secret", Shape::Struct(328)),
            ("storageos", Shape::Struct(339)),
            ("vsphereVolume", Shape::Struct(356)),
        ],
    },
    // 350: io.k8s.api.core.v1.VolumeDevice
    Struct {
        name: "VolumeDevice",
        fields: &[
            ("devicePath", Shape::String),
            ("name", Shape::String),
        ],
    },
    // 351: io.k8s.api.core.v1.VolumeMount
    Struct {
        name: "VolumeMount",
        fields: &[
            ("mountPath", Shape::String),
            ("mountPropagation", Shape::String),
            ("name", Shape::String),
            ("readOnly", Shape::Bool),
            ("recursiveReadOnly", Shape::String),
            ("subPath", Shape::String),
            ("subPathExpr", Shape::String),
        ],
    },
    // 352: io.k8s.api.core.v1.VolumeMountStatus
    Struct {
        name: "VolumeMountStatus",
        fields: &[
            ("mountPath", Shape::String),
            ("name", Shape::String),
            ("readOnly", Shape::Bool),
            ("recursiveReadOnly", Shape::String),
        ],
    },
    // 353: io.k8s.api.core.v1.VolumeNodeAffinity
    Struct {
        name: "VolumeNodeAffinity",
        fields: &[
            ("required", Shape::Struct(260)),
        ],
    },
    // 354: io.k8s.api.core.v1.VolumeProjection
    Struct {
        name: "VolumeProjection",
        fields: &[
            ("clusterTrustBundle", Shape::Struct(179)),
            ("configMap", Shape::Struct(186)),
            ("downwardAPI", Shape::Struct(199)),
            ("secret", Shape::Struct(326)),
            ("serviceAccountToken", Shape::Struct(332)),
        ],
    },
    // 355: io.k8s.api.core.v1.VolumeResourceRequirements
    Struct {
        name: "VolumeResourceRequirements",
        fields: &[
            ("limits", Shape::Map(&Shape::Quantity)),
            ("requests", Shape::Map(&Shape::Quantity)),
        ],
    },
    // 356: io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource
    Struct {
        name: "VsphereVirtualDiskVolumeSource",
        fields: &[
            ("fsType", Shape::String),
            ("storagePolicyID", Shape::String),
            ("storagePolicyName", Shape::String),
            ("volumePath", Shape::String),
        ],
    },
    // 357: io.k8s.api.core.v1.WeightedPodAffinityTerm
    Struct {
        name: "WeightedPodAffinityTerm",
        fields: &[
            ("podAffinityTerm", Shape::Struct(281)),
            ("weight", Shape::Int32),
        ],
    },
    // 358: io.k8s.api.core.v1.WindowsSecurityContextOptions
    Struct {
        name: "WindowsSecurityContextOptions",
        fields: &[
            ("gmsaCredentialSpec", Shape::String),
            ("gmsaCredentialSpecName", Shape::String),
            ("hostProcess", Shape::Bool),
            ("runAsUserName", Shape::String),
        ],
    },
    // 359: io.k8s.api.discovery.v1.Endpoint
    Struct {
        name: "Endpoint",
        fields: &[
            ("addresses", Shape::List(&Shape::String)),
            ("conditions", Shape::Struct(360)),
            ("deprecatedTopology", Shape::Map(&Shape::String)),
            ("hints", Shape::Struct(361)),
            ("hostname", Shape::String),
            ("nodeName", Shape::String),
            ("targetRef", Shape::Struct(268)),
            ("zone", Shape::String),
        ],
    },
    // 360: io.k8s.api.discovery.v1.EndpointConditions
    Struct {
        name: "EndpointConditions",
        fields: &[
            ("ready", Shape::Bool),
            ("serving", Shape::Bool),
            ("terminating", Shape::Bool),
        ],
    },
    // 361: io.k8s.api.discovery.v1.EndpointHints
    Struct {
        name: "EndpointHints",
        fields: &[
            ("forNodes", Shape::List(&Shape::Struct(364))),
            ("forZones", Shape::List(&Shape::Struct(365))),
        ],
    },
    // 362: io.k8s.api.discovery.v1.EndpointPort
    Struct {
        name: "EndpointPort",
        fields: &[
            ("appProtocol", Shape::String),
            ("name", Shape::String),
            ("port", Shape::Int32),
            ("protocol", Shape::String),
        ],
    },
    // 363: io.k8s.api.discovery.v1.EndpointSlice
    Struct {
        name: "EndpointSlice",
        fields: &[
            ("addressType", Shape::String),
            ("apiVersion", Shape::String),
            ("endpoints", Shape::List(&Shape::Struct(359))),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("ports", Shape::List(&Shape::Struct(362))),
        ],
    },
    // 364: io.k8s.api.discovery.v1.ForNode
    Struct {
        name: "ForNode",
        fields: &[
            ("name", Shape::String),
        ],
    },
    // 365: io.k8s.api.discovery.v1.ForZone
    Struct {
        name: "ForZone",
        fields: &[
            ("name", Shape::String),
        ],
    },
    // 366: io.k8s.api.events.v1.Event
    Struct {
        name: "Event",
        fields: &[
            ("action", Shape::String),
            ("apiVersion", Shape::String),
            ("deprecatedCount", Shape::Int32),
            ("deprecatedFirstTimestamp", Shape::String),
            ("deprecatedLastTimestamp", Shape::String),
            ("deprecatedSource", Shape::Struct(214)),
            ("eventTime", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("note", Shape::String),
            ("reason", Shape::String),
            ("regarding", Shape::Struct(268)),
            ("related", Shape::Struct(268)),
            ("reportingController", Shape::String),
            ("reportingInstance", Shape::String),
            ("series", Shape::Struct(367)),
            ("type", Shape::String),
        ],
    },
    // 367: io.k8s.api.events.v1.EventSeries
    Struct {
        name: "EventSeries",
        fields: &[
            ("count", Shape::Int32),
            ("lastObservedTime", Shape::String),
        ],
    },
    // 368: io.k8s.api.flowcontrol.v1.ExemptPriorityLevelConfiguration
    Struct {
        name: "ExemptPriorityLevelConfiguration",
        fields: &[
            ("lendablePercent", Shape::Int32),
            ("nominalConcurrencyShares", Shape::Int32),
        ],
    },
    // 369: io.k8s.api.flowcontrol.v1.FlowDistinguisherMethod
    Struct {
        name: "FlowDistinguisherMethod",
        fields: &[
            ("type", Shape::String),
        ],
    },
    // 370: io.k8s.api.flowcontrol.v1.FlowSchema
    Struct {
        name: "FlowSchema",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(372)),
            ("status", Shape::Struct(373)),
        ],
    },
    // 371: io.k8s.api.flowcontrol.v1.FlowSchemaCondition
    Struct {
        name: "FlowSchemaCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 372: io.k8s.api.flowcontrol.v1.FlowSchemaSpec
    Struct {
        name: "FlowSchemaSpec",
        fields: &[
            ("distinguisherMethod", Shape::Struct(369)),
            ("matchingPrecedence", Shape::Int32),
            ("priorityLevelConfiguration", Shape::Struct(381)),
            ("rules", Shape::List(&Shape::Struct(378))),
        ],
    },
    // 373: io.k8s.api.flowcontrol.v1.FlowSchemaStatus
    Struct {
        name: "FlowSchemaStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(371))),
        ],
    },
    // 374: io.k8s.api.flowcontrol.v1.GroupSubject
    Struct {
        name: "GroupSubject",
        fields: &[
            ("name", Shape::String),
        ],
    },
    // 375: io.k8s.api.flowcontrol.v1.LimitResponse
    Struct {
        name: "LimitResponse",
        fields: &[
            ("queuing", Shape::Struct(384)),
            ("type", Shape::String),
        ],
    },
    // 376: io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration
    Struct {
        name: "LimitedPriorityLevelConfiguration",
        fields: &[
            ("borrowingLimitPercent", Shape::Int32),
            ("lendablePercent", Shape::Int32),
            ("limitResponse", Shape::Struct(375)),
            ("nominalConcurrencyShares", Shape::Int32),
        ],
    },
    // 377: io.k8s.api.flowcontrol.v1.NonResourcePolicyRule
    Struct {
        name: "NonResourcePolicyRule",
        fields: &[
            ("nonResourceURLs", Shape::List(&Shape::String)),
            ("verbs", Shape::List(&Shape::String)),
        ],
    },
    // 378: io.k8s.api.flowcontrol.v1.PolicyRulesWithSubjects
    Struct {
        name: "PolicyRulesWithSubjects",
        fields: &[
            ("nonResourceRules", Shape::List(&Shape::Struct(377))),
            ("resourceRules", Shape::List(&Shape::Struct(385))),
            ("subjects", Shape::List(&Shape::Struct(387))),
        ],
    },
    // 379: io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration
    Struct {
        name: "PriorityLevelConfiguration",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(382)),
            ("status", Shape::Struct(383)),
        ],
    },
    // 380: io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationCondition
    Struct {
        name: "PriorityLevelConfigurationCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 381: io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationReference
    Struct {
        name: "PriorityLevelConfigurationReference",
        fields: &[
            ("name", Shape::String),
        ],
    },
    // 382: io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationSpec
    Struct {
        name: "PriorityLevelConfigurationSpec",
        fields: &[
            ("exempt", Shape::Struct(368)),
            ("limited", Shape::Struct(376)),
            ("type", Shape::String),
        ],
    },
    // 383: io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationStatus
    Struct {
        name: "PriorityLevelConfigurationStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(380))),
        ],
    },
    // 384: io.k8s.api.flowcontrol.v1.QueuingConfiguration
    Struct {
        name: "QueuingConfiguration",
        fields: &[
            ("handSize", Shape::Int32),
            ("queueLengthLimit", Shape::Int32),
            ("queues", Shape::Int32),
        ],
    },
    // 385: io.k8s.api.flowcontrol.v1.ResourcePolicyRule
    Struct {
        name: "ResourcePolicyRule",
        fields: &[
            ("apiGroups", Shape::List(&Shape::String)),
            ("clusterScope", Shape::Bool),
            ("namespaces", Shape::List(&Shape::String)),
            ("resources", Shape::List(&Shape::String)),
            ("verbs", Shape::List(&Shape::String)),
        ],
    },
    // 386: io.k8s.api.flowcontrol.v1.ServiceAccountSubject
    Struct {
        name: "ServiceAccountSubject",
        fields: &[
            ("name", Shape::String),
            ("namespace", Shape::String),
        ],
    },
    // 387: io.k8s.api.flowcontrol.v1.Subject
    Struct {
        name: "Subject",
        fields: &[
            ("group", Shape::Struct(374)),
            ("kind", Shape::String),
            ("serviceAccount", Shape::Struct(386)),
            ("user", Shape::Struct(388)),
        ],
    },
    // 388: io.k8s.api.flowcontrol.v1.UserSubject
    Struct {
        name: "UserSubject",
        fields: &[
            ("name", Shape::String),
        ],
    },
    // 389: io.k8s.api.networking.v1.HTTPIngressPath
    Struct {
        name: "HTTPIngressPath",
        fields: &[
            ("backend", Shape::Struct(395)),
            ("path", Shape::String),
            ("pathType", Shape::String),
        ],
    },
    // 390: io.k8s.api.networking.v1.HTTPIngressRuleValue
    Struct {
        name: "HTTPIngressRuleValue",
        fields: &[
            ("paths", Shape::List(&Shape::Struct(389))),
        ],
    },
    // 391: io.k8s.api.networking.v1.IPAddress
    Struct {
        name: "IPAddress",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(392)),
        ],
    },
    // 392: io.k8s.api.networking.v1.IPAddressSpec
    Struct {
        name: "IPAddressSpec",
        fields: &[
            ("parentRef", Shape::Struct(413)),
        ],
    },
    // 393: io.k8s.api.networking.v1.IPBlock
    Struct {
        name: "IPBlock",
        fields: &[
            ("cidr", Shape::String),
            ("except", Shape::List(&Shape::String)),
        ],
    },
    // 394: io.k8s.api.networking.v1.Ingress
    Struct {
        name: "Ingress",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(404)),
            ("status", Shape::Struct(405)),
        ],
    },
    // 395: io.k8s.api.networking.v1.IngressBackend
    Struct {
        name: "IngressBackend",
        fields: &[
            ("resource", Shape::Struct(347)),
            ("service", Shape::Struct(403)),
        ],
    },
    // 396: io.k8s.api.networking.v1.IngressClass
    Struct {
        name: "IngressClass",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(398)),
        ],
    },
    // 397: io.k8s.api.networking.v1.IngressClassParametersReference
    Struct {
        name: "IngressClassParametersReference",
        fields: &[
            ("apiGroup", Shape::String),
            ("kind", Shape::String),
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("scope", Shape::String),
        ],
    },
    // 398: io.k8s.api.networking.v1.IngressClassSpec
    Struct {
        name: "IngressClassSpec",
        fields: &[
            ("controller", Shape::String),
            ("parameters", Shape::Struct(397)),
        ],
    },
    // 399: io.k8s.api.networking.v1.IngressLoadBalancerIngress
    Struct {
        name: "IngressLoadBalancerIngress",
        fields: &[
            ("hostname", Shape::String),
            ("ip", Shape::String),
            ("ports", Shape::List(&Shape::Struct(401))),
        ],
    },
    // 400: io.k8s.api.networking.v1.IngressLoadBalancerStatus
    Struct {
        name: "IngressLoadBalancerStatus",
        fields: &[
            ("ingress", Shape::List(&Shape::Struct(399))),
        ],
    },
    // 401: io.k8s.api.networking.v1.IngressPortStatus
    Struct {
        name: "IngressPortStatus",
        fields: &[
            ("error", Shape::String),
            ("port", Shape::Int32),
            ("protocol", Shape::String),
        ],
    },
    // 402: io.k8s.api.networking.v1.IngressRule
    Struct {
        name: "IngressRule",
        fields: &[
            ("host", Shape::String),
            ("http", Shape::Struct(390)),
        ],
    },
    // 403: io.k8s.api.networking.v1.IngressServiceBackend
    Struct {
        name: "IngressServiceBackend",
        fields: &[
            ("name", Shape::String),
            ("port", Shape::Struct(414)),
        ],
    },
    // 404: io.k8s.api.networking.v1.IngressSpec
    Struct {
        name: "IngressSpec",
        fields: &[
            ("defaultBackend", Shape::Struct(395)),
            ("ingressClassName", Shape::String),
            ("rules", Shape::List(&Shape::Struct(402))),
            ("tls", Shape::List(&Shape::Struct(406))),
        ],
    },
    // 405: io.k8s.api.networking.v1.IngressStatus
    Struct {
        name: "IngressStatus",
        fields: &[
            ("loadBalancer", Shape::Struct(400)),
        ],
    },
    // 406: io.k8s.api.networking.v1.IngressTLS
    Struct {
        name: "IngressTLS",
        fields: &[
            ("hosts", Shape::List(&Shape::String)),
            ("secretName", Shape::String),
        ],
    },
    // 407: io.k8s.api.networking.v1.NetworkPolicy
    Struct {
        name: "NetworkPolicy",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(412)),
        ],
    },
    // 408: io.k8s.api.networking.v1.NetworkPolicyEgressRule
    Struct {
        name: "NetworkPolicyEgressRule",
        fields: &[
            ("ports", Shape::List(&Shape::Struct(411))),
            ("to", Shape::List(&Shape::Struct(410))),
        ],
    },
    // 409: io.k8s.api.networking.v1.NetworkPolicyIngressRule
    Struct {
        name: "NetworkPolicyIngressRule",
        fields: &[
            ("from", Shape::List(&Shape::Struct(410))),
            ("ports", Shape::List(&Shape::Struct(411))),
        ],
    },
    // 410: io.k8s.api.networking.v1.NetworkPolicyPeer
    Struct {
        name: "NetworkPolicyPeer",
        fields: &[
            ("ipBlock", Shape::Struct(393)),
            ("namespaceSelector", Shape::Struct(589)),
            ("podSelector", Shape::Struct(589)),
        ],
    },
    // 411: io.k8s.api.networking.v1.NetworkPolicyPort
    Struct {
        name: "NetworkPolicyPort",
        fields: &[
            ("endPort", Shape::Int32),
            ("port", Shape::IntOrString),
            ("protocol", Shape::String),
        ],
    },
    // 412: io.k8s.api.networking.v1.NetworkPolicySpec
    Struct {
        name: "NetworkPolicySpec",
        fields: &[
            ("egress", Shape::List(&Shape::Struct(408))),
            ("ingress", Shape::List(&Shape::Struct(409))),
            ("podSelector", Shape::Struct(589)),
            ("policyTypes", Shape::List(&Shape::String)),
        ],
    },
    // 413: io.k8s.api.networking.v1.ParentReference
    Struct {
        name: "ParentReference",
        fields: &[
            ("group", Shape::String),
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("resource", Shape::String),
        ],
    },
    // 414: io.k8s.api.networking.v1.ServiceBackendPort
    Struct {
        name: "ServiceBackendPort",
        fields: &[
            ("name", Shape::String),
            ("number", Shape::Int32),
        ],
    },
    // 415: io.k8s.api.networking.v1.ServiceCIDR
    Struct {
        name: "ServiceCIDR",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(416)),
            ("status", Shape::Struct(417)),
        ],
    },
    // 416: io.k8s.api.networking.v1.ServiceCIDRSpec
    Struct {
        name: "ServiceCIDRSpec",
        fields: &[
            ("cidrs", Shape::List(&Shape::String)),
        ],
    },
    // 417: io.k8s.api.networking.v1.ServiceCIDRStatus
    Struct {
        name: "ServiceCIDRStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(586))),
        ],
    },
    // 418: io.k8s.api.networking.v1beta1.IPAddress
    Struct {
        name: "IPAddress",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(419)),
        ],
    },
    // 419: io.k8s.api.networking.v1beta1.IPAddressSpec
    Struct {
        name: "IPAddressSpec",
        fields: &[
            ("parentRef", Shape::Struct(420)),
        ],
    },
    // 420: io.k8s.api.networking.v1beta1.ParentReference
    Struct {
        name: "ParentReference",
        fields: &[
            ("group", Shape::String),
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("resource", Shape::String),
        ],
    },
    // 421: io.k8s.api.networking.v1beta1.ServiceCIDR
    Struct {
        name: "ServiceCIDR",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(422)),
            ("status", Shape::Struct(423)),
        ],
    },
    // 422: io.k8s.api.networking.v1beta1.ServiceCIDRSpec
    Struct {
        name: "ServiceCIDRSpec",
        fields: &[
            ("cidrs", Shape::List(&Shape::String)),
        ],
    },
    // 423: io.k8s.api.networking.v1beta1.ServiceCIDRStatus
    Struct {
        name: "ServiceCIDRStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(586))),
        ],
    },
    // 424: io.k8s.api.node.v1.Overhead
    Struct {
        name: "Overhead",
        fields: &[
            ("podFixed", Shape::Map(&Shape::Quantity)),
        ],
    },
    // 425: io.k8s.api.node.v1.RuntimeClass
    Struct {
        name: "RuntimeClass",
        fields: &[
            ("apiVersion", Shape::String),
            ("handler", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("overhead", Shape::Struct(424)),
            ("scheduling", Shape::Struct(426)),
        ],
    },
    // 426: io.k8s.api.node.v1.Scheduling
    Struct {
        name: "Scheduling",
        fields: &[
            ("nodeSelector", Shape::Map(&Shape::String)),
            ("tolerations", Shape::List(&Shape::Struct(343))),
        ],
    },
    // 427: io.k8s.api.policy.v1.Eviction
    Struct {
        name: "Eviction",
        fields: &[
            ("apiVersion", Shape::String),
            ("deleteOptions", Shape::Struct(587)),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
        ],
    },
    // 428: io.k8s.api.policy.v1.PodDisruptionBudget
    Struct {
        name: "PodDisruptionBudget",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(429)),
            ("status", Shape::Struct(430)),
        ],
    },
    // 429: io.k8s.api.policy.v1.PodDisruptionBudgetSpec
    Struct {
        name: "PodDisruptionBudgetSpec",
        fields: &[
            ("maxUnavailable", Shape::IntOrString),
            ("minAvailable", Shape::IntOrString),
            ("selector", Shape::Struct(589)),
            ("unhealthyPodEvictionPolicy", Shape::String),
        ],
    },
    // 430: io.k8s.api.policy.v1.PodDisruptionBudgetStatus
    Struct {
        name: "PodDisruptionBudgetStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(586))),
            ("currentHealthy", Shape::Int32),
            ("desiredHealthy", Shape::Int32),
            ("disruptedPods", Shape::Map(&Shape::String)),
            ("disruptionsAllowed", Shape::Int32),
            ("expectedPods", Shape::Int32),
            ("observedGeneration", Shape::Int64),
        ],
    },
    // 431: io.k8s.api.rbac.v1.AggregationRule
    Struct {
        name: "AggregationRule",
        fields: &[
            ("clusterRoleSelectors", Shape::List(&Shape::Struct(589))),
        ],
    },
    // 432: io.k8s.api.rbac.v1.ClusterRole
    Struct {
        name: "ClusterRole",
        fields: &[
            ("aggregationRule", Shape::Struct(431)),
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("rules", Shape::List(&Shape::Struct(434))),
        ],
    },
    // 433: io.k8s.api.rbac.v1.ClusterRoleBinding
    Struct {
        name: "ClusterRoleBinding",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("roleRef", Shape::Struct(437)),
            ("subjects", Shape::List(&Shape::Struct(438))),
        ],
    },
    // 434: io.k8s.api.rbac.v1.PolicyRule
    Struct {
        name: "PolicyRule",
        fields: &[
            ("apiGroups", Shape::List(&Shape::String)),
            ("nonResourceURLs", Shape::List(&Shape::String)),
            ("resourceNames", Shape::List(&Shape::String)),
            ("resources", Shape::List(&Shape::String)),
            ("verbs", Shape::List(&Shape::String)),
        ],
    },
    // 435: io.k8s.api.rbac.v1.Role
    Struct {
        name: "Role",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("rules", Shape::List(&Shape::Struct(434))),
        ],
    },
    // 436: io.k8s.api.rbac.v1.RoleBinding
    Struct {
        name: "RoleBinding",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("roleRef", Shape::Struct(437)),
            ("subjects", Shape::List(&Shape::Struct(438))),
        ],
    },
    // 437: io.k8s.api.rbac.v1.RoleRef
    Struct {
        name: "RoleRef",
        fields: &[
            ("apiGroup", Shape::String),
            ("kind", Shape::String),
            ("name", Shape::String),
        ],
    },
    // 438: io.k8s.api.rbac.v1.Subject
    Struct {
        name: "Subject",
        fields: &[
            ("apiGroup", Shape::String),
            ("kind", Shape::String),
            ("name", Shape::String),
            ("namespace", Shape::String),
        ],
    },
    // 439: io.k8s.api.resource.v1alpha3.AllocatedDeviceStatus
    Struct {
        name: "AllocatedDeviceStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(586))),
            ("data", Shape::Any),
            ("device", Shape::String),
            ("driver", Shape::String),
            ("networkData", Shape::Struct(465)),
            ("pool", Shape::String),
        ],
    },
    // 440: io.k8s.api.resource.v1alpha3.AllocationResult
    Struct {
        name: "AllocationResult",
        fields: &[
            ("devices", Shape::Struct(447)),
            ("nodeSelector", Shape::Struct(260)),
        ],
    },
    // 441: io.k8s.api.resource.v1alpha3.BasicDevice
    Struct {
        name: "BasicDevice",
        fields: &[
            ("allNodes", Shape::Bool),
            ("attributes", Shape::Map(&Shape::Struct(448))),
            ("capacity", Shape::Map(&Shape::Quantity)),
            ("consumesCounters", Shape::List(&Shape::Struct(455))),
            ("nodeName", Shape::String),
            ("nodeSelector", Shape::Struct(260)),
            ("taints", Shape::List(&Shape::Struct(460))),
        ],
    },
    // 442: io.k8s.api.resource.v1alpha3.CELDeviceSelector
    Struct {
        name: "CELDeviceSelector",
        fields: &[
            ("expression", Shape::String),
        ],
    },
    // 443: io.k8s.api.resource.v1alpha3.Counter
    Struct {
        name: "Counter",
        fields: &[
            ("value", Shape::Quantity),
        ],
    },
    // 444: io.k8s.api.resource.v1alpha3.CounterSet
    Struct {
        name: "CounterSet",
        fields: &[
            ("counters", Shape::Map(&Shape::Struct(443))),
            ("name", Shape::String),
        ],
    },
    // 445: io.k8s.api.resource.v1alpha3.Device
    Struct {
        name: "Device",
        fields: &[
            ("basic", Shape::Struct(441)),
            ("name", Shape::String),
        ],
    },
    // 446: io.k8s.api.resource.v1alpha3.DeviceAllocationConfiguration
    Struct {
        name: "DeviceAllocationConfiguration",
        fields: &[
            ("opaque", Shape::Struct(466)),
            ("requests", Shape::List(&Shape::String)),
            ("source", Shape::String),
        ],
    },
    // 447: io.k8s.api.resource.v1alpha3.DeviceAllocationResult
    Struct {
        name: "DeviceAllocationResult",
        fields: &[
            ("config", Shape::List(&Shape::Struct(446))),
            ("results", Shape::List(&Shape::Struct(457))),
        ],
    },
    // 448: io.k8s.api.resource.v1alpha3.DeviceAttribute
    Struct {
        name: "DeviceAttribute",
        fields: &[
            ("bool", Shape::Bool),
            ("int", Shape::Int64),
            ("string", Shape::String),
            ("version", Shape::String),
        ],
    },
    // 449: io.k8s.api.resource.v1alpha3.DeviceClaim
    Struct {
        name: "DeviceClaim",
        fields: &[
            ("config", Shape::List(&Shape::Struct(450))),
            ("constraints", Shape::List(&Shape::Struct(454))),
            ("requests", Shape::List(&Shape::Struct(456))),
        ],
    },
    // 450: io.k8s.api.resource.v1alpha3.DeviceClaimConfiguration
    Struct {
        name: "DeviceClaimConfiguration",
        fields: &[
            ("opaque", Shape::Struct(466)),
            ("requests", Shape::List(&Shape::String)),
        ],
    },
    // 451: io.k8s.api.resource.v1alpha3.DeviceClass
    Struct {
        name: "DeviceClass",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(453)),
        ],
    },
    // 452: io.k8s.api.resource.v1alpha3.DeviceClassConfiguration
    Struct {
        name: "DeviceClassConfiguration",
        fields: &[
            ("opaque", Shape::Struct(466)),
        ],
    },
    // 453: io.k8s.api.resource.v1alpha3.DeviceClassSpec
    Struct {
        name: "DeviceClassSpec",
        fields: &[
            ("config", Shape::List(&Shape::Struct(452))),
            ("selectors", Shape::List(&Shape::Struct(458))),
        ],
    },
    // 454: io.k8s.api.resource.v1alpha3.DeviceConstraint
    Struct {
        name: "DeviceConstraint",
        fields: &[
            ("matchAttribute", Shape::String),
            ("requests", Shape::List(&Shape::String)),
        ],
    },
    // 455: io.k8s.api.resource.v1alpha3.DeviceCounterConsumption
    Struct {
        name: "DeviceCounterConsumption",
        fields: &[
            ("counterSet", Shape::String),
            ("counters", Shape::Map(&Shape::Struct(443))),
        ],
    },
    // 456: io.k8s.api.resource.v1alpha3.DeviceRequest
    Struct {
        name: "DeviceRequest",
        fields: &[
            ("adminAccess", Shape::Bool),
            ("allocationMode", Shape::String),
            ("count", Shape::Int64),
            ("deviceClassName", Shape::String),
            ("firstAvailable", Shape::List(&Shape::Struct(459))),
            ("name", Shape::String),
            ("selectors", Shape::List(&Shape::Struct(458))),
            ("tolerations", Shape::List(&Shape::Struct(464))),
        ],
    },
    // 457: io.k8s.api.resource.v1alpha3.DeviceRequestAllocationResult
    Struct {
        name: "DeviceRequestAllocationResult",
        fields: &[
            ("adminAccess", Shape::Bool),
            ("device", Shape::String),
            ("driver", Shape::String),
            ("pool", Shape::String),
            ("request", Shape::String),
            ("tolerations", Shape::List(&Shape::Struct(464))),
        ],
    },
    // 458: io.k8s.api.resource.v1alpha3.DeviceSelector
    Struct {
        name: "DeviceSelector",
        fields: &[
            ("cel", Shape::Struct(442)),
        ],
    },
    // 459: io.k8s.api.resource.v1alpha3.DeviceSubRequest
    Struct {
        name: "DeviceSubRequest",
        fields: &[
            ("allocationMode", Shape::String),
            ("count", Shape::Int64),
            ("deviceClassName", Shape::String),
            ("name", Shape::String),
            ("selectors", Shape::List(&Shape::Struct(458))),
            ("tolerations", Shape::List(&Shape::Struct(464))),
        ],
    },
    // 460: io.k8s.api.resource.v1alpha3.DeviceTaint
    Struct {
        name: "DeviceTaint",
        fields: &[
            ("effect", Shape::String),
            ("key", Shape::String),
            ("timeAdded", Shape::String),
            ("value", Shape::String),
        ],
    },
    // 461: io.k8s.api.resource.v1alpha3.DeviceTaintRule
    Struct {
        name: "DeviceTaintRule",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(462)),
        ],
    },
    // 462: io.k8s.api.resource.v1alpha3.DeviceTaintRuleSpec
    Struct {
        name: "DeviceTaintRuleSpec",
        fields: &[
            ("deviceSelector", Shape::Struct(463)),
            ("taint", Shape::Struct(460)),
        ],
    },
    // 463: io.k8s.api.resource.v1alpha3.DeviceTaintSelector
    Struct {
        name: "DeviceTaintSelector",
        fields: &[
            ("device", Shape::String),
            ("deviceClassName", Shape::String),
            ("driver", Shape::String),
            ("pool", Shape::String),
            ("selectors", Shape::List(&Shape::Struct(458))),
        ],
    },
    // 464: io.k8s.api.resource.v1alpha3.DeviceToleration
    Struct {
        name: "DeviceToleration",
        fields: &[
            ("effect", Shape::String),
            ("key", Shape::String),
            ("operator", Shape::String),
            ("tolerationSeconds", Shape::Int64),
            ("value", Shape::String),
        ],
    },
    // 465: io.k8s.api.resource.v1alpha3.NetworkDeviceData
    Struct {
        name: "NetworkDeviceData",
        fields: &[
            ("hardwareAddress", Shape::String),
            ("interfaceName", Shape::String),
            ("ips", Shape::List(&Shape::String)),
        ],
    },
    // 466: io.k8s.api.resource.v1alpha3.OpaqueDeviceConfiguration
    Struct {
        name: "OpaqueDeviceConfiguration",
        fields: &[
            ("driver", Shape::String),
            ("parameters", Shape::Any),
        ],
    },
    // 467: io.k8s.api.resource.v1alpha3.ResourceClaim
    Struct {
        name: "ResourceClaim",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(469)),
            ("status", Shape::Struct(470)),
        ],
    },
    // 468: io.k8s.api.resource.v1alpha3.ResourceClaimConsumerReference
    Struct {
        name: "ResourceClaimConsumerReference",
        fields: &[
            ("apiGroup", Shape::String),
            ("name", Shape::String),
            ("resource", Shape::String),
            ("uid", Shape::String),
        ],
    },
    // 469: io.k8s.api.resource.v1alpha3.ResourceClaimSpec
    Struct {
        name: "ResourceClaimSpec",
        fields: &[
            ("devices", Shape::Struct(449)),
        ],
    },
    // 470: io.k8s.api.resource.v1alpha3.ResourceClaimStatus
    Struct {
        name: "ResourceClaimStatus",
        fields: &[
            ("allocation", Shape::Struct(440)),
            ("devices", Shape::List(&Shape::Struct(439))),
            ("reservedFor", Shape::List(&Shape::Struct(468))),
        ],
    },
    // 471: io.k8s.api.resource.v1alpha3.ResourceClaimTemplate
    Struct {
        name: "ResourceClaimTemplate",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(472)),
        ],
    },
    // 472: io.k8s.api.resource.v1alpha3.ResourceClaimTemplateSpec
    Struct {
        name: "ResourceClaimTemplateSpec",
        fields: &[
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(469)),
        ],
    },
    // 473: io.k8s.api.resource.v1alpha3.ResourcePool
    Struct {
        name: "ResourcePool",
        fields: &[
            ("generation", Shape::Int64),
            ("name", Shape::String),
            ("resourceSliceCount", Shape::Int64),
        ],
    },
    // 474: io.k8s.api.resource.v1alpha3.ResourceSlice
    Struct {
        name: "ResourceSlice",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(475)),
        ],
    },
    // 475: io.k8s.api.resource.v1alpha3.ResourceSliceSpec
    Struct {
        name: "ResourceSliceSpec",
        fields: &[
            ("allNodes", Shape::Bool),
            ("devices", Shape::List(&Shape::Struct(445))),
            ("driver", Shape::String),
            ("nodeName", Shape::String),
            ("nodeSelector", Shape::Struct(260)),
            ("perDeviceNodeSelection", Shape::Bool),
            ("pool", Shape::Struct(473)),
            ("sharedCounters", Shape::List(&Shape::Struct(444))),
        ],
    },
    // 476: io.k8s.api.resource.v1beta1.AllocatedDeviceStatus
    Struct {
        name: "AllocatedDeviceStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(586))),
            ("data", Shape::Any),
            ("device", Shape::String),
            ("driver", Shape::String),
            ("networkData", Shape::Struct(500)),
            ("pool", Shape::String),
        ],
    },
    // 477: io.k8s.api.resource.v1beta1.AllocationResult
    Struct {
        name: "AllocationResult",
        fields: &[
            ("devices", Shape::Struct(484)),
            ("nodeSelector", Shape::Struct(260)),
        ],
    },
    // 478: io.k8s.api.resource.v1beta1.BasicDevice
    Struct {
        name: "BasicDevice",
        fields: &[
            ("allNodes", Shape::Bool),
            ("attributes", Shape::Map(&Shape::Struct(485))),
            ("capacity", Shape::Map(&Shape::Struct(486))),
            ("consumesCounters", Shape::List(&Shape::Struct(493))),
            ("nodeName", Shape::String),
            ("nodeSelector", Shape::Struct(260)),
            ("taints", Shape::List(&Shape::Struct(498))),
        ],
    },
    // 479: io.k8s.api.resource.v1beta1.CELDeviceSelector
    Struct {
        name: "CELDeviceSelector",
        fields: &[
            ("expression", Shape::String),
        ],
    },
    // 480: io.k8s.api.resource.v1beta1.Counter
    Struct {
        name: "Counter",
        fields: &[
            ("value", Shape::Quantity),
        ],
    },
    // 481: io.k8s.api.resource.v1beta1.CounterSet
    Struct {
        name: "CounterSet",
        fields: &[
            ("counters", Shape::Map(&Shape::Struct(480))),
            ("name", Shape::String),
        ],
    },
    // 482: io.k8s.api.resource.v1beta1.Device
    Struct {
        name: "Device",
        fields: &[
            ("basic", Shape::Struct(478)),
            ("name", Shape::String),
        ],
    },
    // 483: io.k8s.api.resource.v1beta1.DeviceAllocationConfiguration
    Struct {
        name: "DeviceAllocationConfiguration",
        fields: &[
            ("opaque", Shape::Struct(501)),
            ("requests", Shape::List(&Shape::String)),
            ("source", Shape::String),
        ],
    },
    // 484: io.k8s.api.resource.v1beta1.DeviceAllocationResult
    Struct {
        name: "DeviceAllocationResult",
        fields: &[
            ("config", Shape::List(&Shape::Struct(483))),
            ("results", Shape::List(&Shape::Struct(495))),
        ],
    },
    // 485: io.k8s.api.resource.v1beta1.DeviceAttribute
    Struct {
        name: "DeviceAttribute",
        fields: &[
            ("bool", Shape::Bool),
            ("int", Shape::Int64),
            ("string", Shape::String),
            ("version", Shape::String),
        ],
    },
    // 486: io.k8s.api.resource.v1beta1.DeviceCapacity
    Struct {
        name: "DeviceCapacity",
        fields: &[
            ("value", Shape::Quantity),
        ],
    },
    // 487: io.k8s.api.resource.v1beta1.DeviceClaim
    Struct {
        name: "DeviceClaim",
        fields: &[
            ("config", Shape::List(&Shape::Struct(488))),
            ("constraints", Shape::List(&Shape::Struct(492))),
            ("requests", Shape::List(&Shape::Struct(494))),
        ],
    },
    // 488: io.k8s.api.resource.v1beta1.DeviceClaimConfiguration
    Struct {
        name: "DeviceClaimConfiguration",
        fields: &[
            ("opaque", Shape::Struct(501)),
            ("requests", Shape::List(&Shape::String)),
        ],
    },
    // 489: io.k8s.api.resource.v1beta1.DeviceClass
    Struct {
        name: "DeviceClass",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(491)),
        ],
    },
    // 490: io.k8s.api.resource.v1beta1.DeviceClassConfiguration
    Struct {
        name: "DeviceClassConfiguration",
        fields: &[
            ("opaque", Shape::Struct(501)),
        ],
    },
    // 491: io.k8s.api.resource.v1beta1.DeviceClassSpec
    Struct {
        name: "DeviceClassSpec",
        fields: &[
            ("config", Shape::List(&Shape::Struct(490))),
            ("selectors", Shape::List(&Shape::Struct(496))),
        ],
    },
    // 492: io.k8s.api.resource.v1beta1.DeviceConstraint
    Struct {
        name: "DeviceConstraint",
        fields: &[
            ("matchAttribute", Shape::String),
            ("requests", Shape::List(&Shape::String)),
        ],
    },
    // 493: io.k8s.api.resource.v1beta1.DeviceCounterConsumption
    Struct {
        name: "DeviceCounterConsumption",
        fields: &[
            ("counterSet", Shape::String),
            ("counters", Shape::Map(&Shape::Struct(480))),
        ],
    },
    // 494: io.k8s.api.resource.v1beta1.DeviceRequest
    Struct {
        name: "DeviceRequest",
        fields: &[
            ("adminAccess", Shape::Bool),
            ("allocationMode", Shape::String),
            ("count", Shape::Int64),
            ("deviceClassName", Shape::String),
            ("firstAvailable", Shape::List(&Shape::Struct(497))),
            ("name", Shape::String),
            ("selectors", Shape::List(&Shape::Struct(496))),
            ("tolerations", Shape::List(&Shape::Struct(499))),
        ],
    },
    // 495: io.k8s.api.resource.v1beta1.DeviceRequestAllocationResult
    Struct {
        name: "DeviceRequestAllocationResult",
        fields: &[
            ("adminAccess", Shape::Bool),
            ("device", Shape::String),
            ("driver", Shape::String),
            ("pool", Shape::String),
            ("request", Shape::String),
            ("tolerations", Shape::List(&Shape::Struct(499))),
        ],
    },
    // 496: io.k8s.api.resource.v1beta1.DeviceSelector
    Struct {
        name: "DeviceSelector",
        fields: &[
            ("cel", Shape::Struct(479)),
        ],
    },
    // 497: io.k8s.api.resource.v1beta1.DeviceSubRequest
    Struct {
        name: "DeviceSubRequest",
        fields: &[
            ("allocationMode", Shape::String),
            ("count", Shape::Int64),
            ("deviceClassName", Shape::String),
            ("name", Shape::String),
            ("selectors", Shape::List(&Shape::Struct(496))),
            ("tolerations", Shape::List(&Shape::Struct(499))),
        ],
    },
    // 498: io.k8s.api.resource.v1beta1.DeviceTaint
    Struct {
        name: "DeviceTaint",
        fields: &[
            ("effect", Shape::String),
            ("key", Shape::String),
            ("timeAdded", Shape::String),
            ("value", Shape::String),
        ],
    },
    // 499: io.k8s.api.resource.v1beta1.DeviceToleration
    Struct {
        name: "DeviceToleration",
        fields: &[
            ("effect", Shape::String),
            ("key", Shape::String),
            ("operator", Shape::String),
            ("tolerationSeconds", Shape::Int64),
            ("value", Shape::String),
        ],
    },
    // 500: io.k8s.api.resource.v1beta1.NetworkDeviceData
    Struct {
        name: "NetworkDeviceData",
        fields: &[
            ("hardwareAddress", Shape::String),
            ("interfaceName", Shape::String),
            ("ips", Shape::List(&Shape::String)),
        ],
    },
    // 501: io.k8s.api.resource.v1beta1.OpaqueDeviceConfiguration
    Struct {
        name: "OpaqueDeviceConfiguration",
        fields: &[
            ("driver", Shape::String),
            ("parameters", Shape::Any),
        ],
    },
    // 502: io.k8s.api.resource.v1beta1.ResourceClaim
    Struct {
        name: "ResourceClaim",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(504)),
            ("status", Shape::Struct(505)),
        ],
    },
    // 503: io.k8s.api.resource.v1beta1.ResourceClaimConsumerReference
    Struct {
        name: "ResourceClaimConsumerReference",
        fields: &[
            ("apiGroup", Shape::String),
            ("name", Shape::String),
            ("resource", Shape::String),
            ("uid", Shape::String),
        ],
    },
    // 504: io.k8s.api.resource.v1beta1.ResourceClaimSpec
    Struct {
        name: "ResourceClaimSpec",
        fields: &[
            ("devices", Shape::Struct(487)),
        ],
    },
    // 505: io.k8s.api.resource.v1beta1.ResourceClaimStatus
    Struct {
        name: "ResourceClaimStatus",
        fields: &[
            ("allocation", Shape::Struct(477)),
            ("devices", Shape::List(&Shape::Struct(476))),
            ("reservedFor", Shape::List(&Shape::Struct(503))),
        ],
    },
    // 506: io.k8s.api.resource.v1beta1.ResourceClaimTemplate
    Struct {
        name: "ResourceClaimTemplate",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(507)),
        ],
    },
    // 507: io.k8s.api.resource.v1beta1.ResourceClaimTemplateSpec
    Struct {
        name: "ResourceClaimTemplateSpec",
        fields: &[
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(504)),
        ],
    },
    // 508: io.k8s.api.resource.v1beta1.ResourcePool
    Struct {
        name: "ResourcePool",
        fields: &[
            ("generation", Shape::Int64),
            ("name", Shape::String),
            ("resourceSliceCount", Shape::Int64),
        ],
    },
    // 509: io.k8s.api.resource.v1beta1.ResourceSlice
    Struct {
        name: "ResourceSlice",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(510)),
        ],
    },
    // 510: io.k8s.api.resource.v1beta1.ResourceSliceSpec
    Struct {
        name: "ResourceSliceSpec",
        fields: &[
            ("allNodes", Shape::Bool),
            ("devices", Shape::List(&Shape::Struct(482))),
            ("driver", Shape::String),
            ("nodeName", Shape::String),
            ("nodeSelector", Shape::Struct(260)),
            ("perDeviceNodeSelection", Shape::Bool),
            ("pool", Shape::Struct(508)),
            ("sharedCounters", Shape::List(&Shape::Struct(481))),
        ],
    },
    // 511: io.k8s.api.resource.v1beta2.AllocatedDeviceStatus
    Struct {
        name: "AllocatedDeviceStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(586))),
            ("data", Shape::Any),
            ("device", Shape::String),
            ("driver", Shape::String),
            ("networkData", Shape::Struct(535)),
            ("pool", Shape::String),
        ],
    },
    // 512: io.k8s.api.resource.v1beta2.AllocationResult
    Struct {
        name: "AllocationResult",
        fields: &[
            ("devices", Shape::Struct(518)),
            ("nodeSelector", Shape::Struct(260)),
        ],
    },
    // 513: io.k8s.api.resource.v1beta2.CELDeviceSelector
    Struct {
        name: "CELDeviceSelector",
        fields: &[
            ("expression", Shape::String),
        ],
    },
    // 514: io.k8s.api.resource.v1beta2.Counter
    Struct {
        name: "Counter",
        fields: &[
            ("value", Shape::Quantity),
        ],
    },
    // 515: io.k8s.api.resource.v1beta2.CounterSet
    Struct {
        name: "CounterSet",
        fields: &[
            ("counters", Shape::Map(&Shape::Struct(514))),
            ("name", Shape::String),
        ],
    },
    // 516: io.k8s.api.resource.v1beta2.Device
    Struct {
        name: "Device",
        fields: &[
            ("allNodes", Shape::Bool),
            ("attributes", Shape::Map(&Shape::Struct(519))),
            ("capacity", Shape::Map(&Shape::Struct(520))),
            ("consumesCounters", Shape::List(&Shape::Struct(527))),
            ("name", Shape::String),
            ("nodeName", Shape::String),
            ("nodeSelector", Shape::Struct(260)),
            ("taints", Shape::List(&Shape::Struct(532))),
        ],
    },
    // 517: io.k8s.api.resource.v1beta2.DeviceAllocationConfiguration
    Struct {
        name: "DeviceAllocationConfiguration",
        fields: &[
            ("opaque", Shape::Struct(536)),
            ("requests", Shape::List(&Shape::String)),
            ("source", Shape::String),
        ],
    },
    // 518: io.k8s.api.resource.v1beta2.DeviceAllocationResult
    Struct {
        name: "DeviceAllocationResult",
        fields: &[
            ("config", Shape::List(&Shape::Struct(517))),
            ("results", Shape::List(&Shape::Struct(529))),
        ],
    },
    // 519: io.k8s.api.resource.v1beta2.DeviceAttribute
    Struct {
        name: "DeviceAttribute",
        fields: &[
            ("bool", Shape::Bool),
            ("int", Shape::Int64),
            ("string", Shape::String),
            ("version", Shape::String),
        ],
    },
    // 520: io.k8s.api.resource.v1beta2.DeviceCapacity
    Struct {
        name: "DeviceCapacity",
        fields: &[
            ("value", Shape::Quantity),
        ],
    },
    // 521: io.k8s.api.resource.v1beta2.DeviceClaim
    Struct {
        name: "DeviceClaim",
        fields: &[
            ("config", Shape::List(&Shape::Struct(522))),
            ("constraints", Shape::List(&Shape::Struct(526))),
            ("requests", Shape::List(&Shape::Struct(528))),
        ],
    },
    // 522: io.k8s.api.resource.v1beta2.DeviceClaimConfiguration
    Struct {
        name: "DeviceClaimConfiguration",
        fields: &[
            ("opaque", Shape::Struct(536)),
            ("requests", Shape::List(&Shape::String)),
        ],
    },
    // 523: io.k8s.api.resource.v1beta2.DeviceClass
    Struct {
        name: "DeviceClass",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(525)),
        ],
    },
    // 524: io.k8s.api.resource.v1beta2.DeviceClassConfiguration
    Struct {
        name: "DeviceClassConfiguration",
        fields: &[
            ("opaque", Shape::Struct(536)),
        ],
    },
    // 525: io.k8s.api.resource.v1beta2.DeviceClassSpec
    Struct {
        name: "DeviceClassSpec",
        fields: &[
            ("config", Shape::List(&Shape::Struct(524))),
            ("selectors", Shape::List(&Shape::Struct(530))),
        ],
    },
    // 526: io.k8s.api.resource.v1beta2.DeviceConstraint
    Struct {
        name: "DeviceConstraint",
        fields: &[
            ("matchAttribute", Shape::String),
            ("requests", Shape::List(&Shape::String)),
        ],
    },
    // 527: io.k8s.api.resource.v1beta2.DeviceCounterConsumption
    Struct {
        name: "DeviceCounterConsumption",
        fields: &[
            ("counterSet", Shape::String),
            ("counters", Shape::Map(&Shape::Struct(514))),
        ],
    },
    // 528: io.k8s.api.resource.v1beta2.DeviceRequest
    Struct {
        name: "DeviceRequest",
        fields: &[
            ("exactly", Shape::Struct(534)),
            ("firstAvailable", Shape::List(&Shape::Struct(531))),
            ("name", Shape::String),
        ],
    },
    // 529: io.k8s.api.resource.v1beta2.DeviceRequestAllocationResult
    Struct {
        name: "DeviceRequestAllocationResult",
        fields: &[
            ("adminAccess", Shape::Bool),
            ("device", Shape::String),
            ("driver", Shape::String),
            ("pool", Shape::String),
            ("request", Shape::String),
            ("tolerations", Shape::List(&Shape::Struct(533))),
        ],
    },
    // 530: io.k8s.api.resource.v1beta2.DeviceSelector
    Struct {
        name: "DeviceSelector",
        fields: &[
            ("cel", Shape::Struct(513)),
        ],
    },
    // 531: io.k8s.api.resource.v1beta2.DeviceSubRequest
    Struct {
        name: "DeviceSubRequest",
        fields: &[
            ("allocationMode", Shape::String),
            ("count", Shape::Int64),
            ("deviceClassName", Shape::String),
            ("name", Shape::String),
            ("selectors", Shape::List(&Shape::Struct(530))),
            ("tolerations", Shape::List(&Shape::Struct(533))),
        ],
    },
    // 532: io.k8s.api.resource.v1beta2.DeviceTaint
    Struct {
        name: "DeviceTaint",
        fields: &[
            ("effect", Shape::String),
            ("key", Shape::String),
            ("timeAdded", Shape::String),
            ("value", Shape::String),
        ],
    },
    // 533: io.k8s.api.resource.v1beta2.DeviceToleration
    Struct {
        name: "DeviceToleration",
        fields: &[
            ("effect", Shape::String),
            ("key", Shape::String),
            ("operator", Shape::String),
            ("tolerationSeconds", Shape::Int64),
            ("value", Shape::String),
        ],
    },
    // 534: io.k8s.api.resource.v1beta2.ExactDeviceRequest
    Struct {
        name: "ExactDeviceRequest",
        fields: &[
            ("adminAccess", Shape::Bool),
            ("allocationMode", Shape::String),
            ("count", Shape::Int64),
            ("deviceClassName", Shape::String),
            ("selectors", Shape::List(&Shape::Struct(530))),
            ("tolerations", Shape::List(&Shape::Struct(533))),
        ],
    },
    // 535: io.k8s.api.resource.v1beta2.NetworkDeviceData
    Struct {
        name: "NetworkDeviceData",
        fields: &[
            ("hardwareAddress", Shape::String),
            ("interfaceName", Shape::String),
            ("ips", Shape::List(&Shape::String)),
        ],
    },
    // 536: io.k8s.api.resource.v1beta2.OpaqueDeviceConfiguration
    Struct {
        name: "OpaqueDeviceConfiguration",
        fields: &[
            ("driver", Shape::String),
            ("parameters", Shape::Any),
        ],
    },
    // 537: io.k8s.api.resource.v1beta2.ResourceClaim
    Struct {
        name: "ResourceClaim",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(539)),
            ("status", Shape::Struct(540)),
        ],
    },
    // 538: io.k8s.api.resource.v1beta2.ResourceClaimConsumerReference
    Struct {
        name: "ResourceClaimConsumerReference",
        fields: &[
            ("apiGroup", Shape::String),
            ("name", Shape::String),
            ("resource", Shape::String),
            ("uid", Shape::String),
        ],
    },
    // 539: io.k8s.api.resource.v1beta2.ResourceClaimSpec
    Struct {
        name: "ResourceClaimSpec",
        fields: &[
            ("devices", Shape::Struct(521)),
        ],
    },
    // 540: io.k8s.api.resource.v1beta2.ResourceClaimStatus
    Struct {
        name: "ResourceClaimStatus",
        fields: &[
            ("allocation", Shape::Struct(512)),
            ("devices", Shape::List(&Shape::Struct(511))),
            ("reservedFor", Shape::List(&Shape::Struct(538))),
        ],
    },
    // 541: io.k8s.api.resource.v1beta2.ResourceClaimTemplate
    Struct {
        name: "ResourceClaimTemplate",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(542)),
        ],
    },
    // 542: io.k8s.api.resource.v1beta2.ResourceClaimTemplateSpec
    Struct {
        name: "ResourceClaimTemplateSpec",
        fields: &[
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(539)),
        ],
    },
    // 543: io.k8s.api.resource.v1beta2.ResourcePool
    Struct {
        name: "ResourcePool",
        fields: &[
            ("generation", Shape::Int64),
            ("name", Shape::String),
            ("resourceSliceCount", Shape::Int64),
        ],
    },
    // 544: io.k8s.api.resource.v1beta2.ResourceSlice
    Struct {
        name: "ResourceSlice",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(545)),
        ],
    },
    // 545: io.k8s.api.resource.v1beta2.ResourceSliceSpec
    Struct {
        name: "ResourceSliceSpec",
        fields: &[
            ("allNodes", Shape::Bool),
            ("devices", Shape::List(&Shape::Struct(516))),
            ("driver", Shape::String),
            ("nodeName", Shape::String),
            ("nodeSelector", Shape::Struct(260)),
            ("perDeviceNodeSelection", Shape::Bool),
            ("pool", Shape::Struct(543)),
            ("sharedCounters", Shape::List(&Shape::Struct(515))),
        ],
    },
    // 546: io.k8s.api.scheduling.v1.PriorityClass
    Struct {
        name: "PriorityClass",
        fields: &[
            ("apiVersion", Shape::String),
            ("description", Shape::String),
            ("globalDefault", Shape::Bool),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("preemptionPolicy", Shape::String),
            ("value", Shape::Int32),
        ],
    },
    // 547: io.k8s.api.storage.v1.CSIDriver
    Struct {
        name: "CSIDriver",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(548)),
        ],
    },
    // 548: io.k8s.api.storage.v1.CSIDriverSpec
    Struct {
        name: "CSIDriverSpec",
        fields: &[
            ("attachRequired", Shape::Bool),
            ("fsGroupPolicy", Shape::String),
            ("nodeAllocatableUpdatePeriodSeconds", Shape::Int64),
            ("podInfoOnMount", Shape::Bool),
            ("requiresRepublish", Shape::Bool),
            ("seLinuxMount", Shape::Bool),
            ("storageCapacity", Shape::Bool),
            ("tokenRequests", Shape::List(&Shape::Struct(554))),
            ("volumeLifecycleModes", Shape::List(&Shape::String)),
        ],
    },
    // 549: io.k8s.api.storage.v1.CSINode
    Struct {
        name: "CSINode",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(551)),
        ],
    },
    // 550: io.k8s.api.storage.v1.CSINodeDriver
    Struct {
        name: "CSINodeDriver",
        fields: &[
            ("allocatable", Shape::Struct(560)),
            ("name", Shape::String),
            ("nodeID", Shape::String),
            ("topologyKeys", Shape::List(&Shape::String)),
        ],
    },
    // 551: io.k8s.api.storage.v1.CSINodeSpec
    Struct {
        name: "CSINodeSpec",
        fields: &[
            ("drivers", Shape::List(&Shape::Struct(550))),
        ],
    },
    // 552: io.k8s.api.storage.v1.CSIStorageCapacity
    Struct {
        name: "CSIStorageCapacity",
        fields: &[
            ("apiVersion", Shape::String),
            ("capacity", Shape::Quantity),
            ("kind", Shape::String),
            ("maximumVolumeSize", Shape::Quantity),
            ("metadata", Shape::Struct(592)),
            ("nodeTopology", Shape::Struct(589)),
            ("storageClassName", Shape::String),
        ],
    },
    // 553: io.k8s.api.storage.v1.StorageClass
    Struct {
        name: "StorageClass",
        fields: &[
            ("allowVolumeExpansion", Shape::Bool),
            ("allowedTopologies", Shape::List(&Shape::Struct(345))),
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("mountOptions", Shape::List(&Shape::String)),
            ("parameters", Shape::Map(&Shape::String)),
            ("provisioner", Shape::String),
            ("reclaimPolicy", Shape::String),
            ("volumeBindingMode", Shape::String),
        ],
    },
    // 554: io.k8s.api.storage.v1.TokenRequest
    Struct {
        name: "TokenRequest",
        fields: &[
            ("audience", Shape::String),
            ("expirationSeconds", Shape::Int64),
        ],
    },
    // 555: io.k8s.api.storage.v1.VolumeAttachment
    Struct {
        name: "VolumeAttachment",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(557)),
            ("status", Shape::Struct(558)),
        ],
    },
    // 556: io.k8s.api.storage.v1.VolumeAttachmentSource
    Struct {
        name: "VolumeAttachmentSource",
        fields: &[
            ("inlineVolumeSpec", Shape::Struct(276)),
            ("persistentVolumeName", Shape::String),
        ],
    },
    // 557: io.k8s.api.storage.v1.VolumeAttachmentSpec
    Struct {
        name: "VolumeAttachmentSpec",
        fields: &[
            ("attacher", Shape::String),
            ("nodeName", Shape::String),
            ("source", Shape::Struct(556)),
        ],
    },
    // 558: io.k8s.api.storage.v1.VolumeAttachmentStatus
    Struct {
        name: "VolumeAttachmentStatus",
        fields: &[
            ("attachError", Shape::Struct(559)),
            ("attached", Shape::Bool),
            ("attachmentMetadata", Shape::Map(&Shape::String)),
            ("detachError", Shape::Struct(559)),
        ],
    },
    // 559: io.k8s.api.storage.v1.VolumeError
    Struct {
        name: "VolumeError",
        fields: &[
            ("errorCode", Shape::Int32),
            ("message", Shape::String),
            ("time", Shape::String),
        ],
    },
    // 560: io.k8s.api.storage.v1.VolumeNodeResources
    Struct {
        name: "VolumeNodeResources",
        fields: &[
            ("count", Shape::Int32),
        ],
    },
    // 561: io.k8s.api.storage.v1alpha1.VolumeAttributesClass
    Struct {
        name: "VolumeAttributesClass",
        fields: &[
            ("apiVersion", Shape::String),
            ("driverName", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("parameters", Shape::Map(&Shape::String)),
        ],
    },
    // 562: io.k8s.api.storage.v1beta1.VolumeAttributesClass
    Struct {
        name: "VolumeAttributesClass",
        fields: &[
            ("apiVersion", Shape::String),
            ("driverName", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("parameters", Shape::Map(&Shape::String)),
        ],
    },
    // 563: io.k8s.api.storagemigration.v1alpha1.GroupVersionResource
    Struct {
        name: "GroupVersionResource",
        fields: &[
            ("group", Shape::String),
            ("resource", Shape::String),
            ("version", Shape::String),
        ],
    },
    // 564: io.k8s.api.storagemigration.v1alpha1.MigrationCondition
    Struct {
        name: "MigrationCondition",
        fields: &[
            ("lastUpdateTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 565: io.k8s.api.storagemigration.v1alpha1.StorageVersionMigration
    Struct {
        name: "StorageVersionMigration",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(566)),
            ("status", Shape::Struct(567)),
        ],
    },
    // 566: io.k8s.api.storagemigration.v1alpha1.StorageVersionMigrationSpec
    Struct {
        name: "StorageVersionMigrationSpec",
        fields: &[
            ("continueToken", Shape::String),
            ("resource", Shape::Struct(563)),
        ],
    },
    // 567: io.k8s.api.storagemigration.v1alpha1.StorageVersionMigrationStatus
    Struct {
        name: "StorageVersionMigrationStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(564))),
            ("resourceVersion", Shape::String),
        ],
    },
    // 568: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition
    Struct {
        name: "CustomResourceColumnDefinition",
        fields: &[
            ("description", Shape::String),
            ("format", Shape::String),
            ("jsonPath", Shape::String),
            ("name", Shape::String),
            ("priority", Shape::Int32),
            ("type", Shape::String),
        ],
    },
    // 569: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceConversion
    Struct {
        name: "CustomResourceConversion",
        fields: &[
            ("strategy", Shape::String),
            ("webhook", Shape::Struct(585)),
        ],
    },
    // 570: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition
    Struct {
        name: "CustomResourceDefinition",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(573)),
            ("status", Shape::Struct(574)),
        ],
    },
    // 571: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition
    Struct {
        name: "CustomResourceDefinitionCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 572: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames
    Struct {
        name: "CustomResourceDefinitionNames",
        fields: &[
            ("categories", Shape::List(&Shape::String)),
            ("kind", Shape::String),
            ("listKind", Shape::String),
            ("plural", Shape::String),
            ("shortNames", Shape::List(&Shape::String)),
            ("singular", Shape::String),
        ],
    },
    // 573: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec
    Struct {
        name: "CustomResourceDefinitionSpec",
        fields: &[
            ("conversion", Shape::Struct(569)),
            ("group", Shape::String),
            ("names", Shape::Struct(572)),
            ("preserveUnknownFields", Shape::Bool),
            ("scope", Shape::String),
            ("versions", Shape::List(&Shape::Struct(575))),
        ],
    },
    // 574: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus
    Struct {
        name: "CustomResourceDefinitionStatus",
        fields: &[
            ("acceptedNames", Shape::Struct(572)),
            ("conditions", Shape::List(&Shape::Struct(571))),
            ("storedVersions", Shape::List(&Shape::String)),
        ],
    },
    // 575: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion
    Struct {
        name: "CustomResourceDefinitionVersion",
        fields: &[
            ("additionalPrinterColumns", Shape::List(&Shape::Struct(568))),
            ("deprecated", Shape::Bool),
            ("deprecationWarning", Shape::String),
            ("name", Shape::String),
            ("schema", Shape::Struct(578)),
            ("selectableFields", Shape::List(&Shape::Struct(581))),
            ("served", Shape::Bool),
            ("storage", Shape::Bool),
            ("subresources", Shape::Struct(577)),
        ],
    },
    // 576: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceScale
    Struct {
        name: "CustomResourceSubresourceScale",
        fields: &[
            ("labelSelectorPath", Shape::String),
            ("specReplicasPath", Shape::String),
            ("statusReplicasPath", Shape::String),
        ],
    },
    // 577: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresources
    Struct {
        name: "CustomResourceSubresources",
        fields: &[
            ("scale", Shape::Struct(576)),
            ("status", Shape::Any),
        ],
    },
    // 578: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceValidation
    Struct {
        name: "CustomResourceValidation",
        fields: &[
            ("openAPIV3Schema", Shape::Struct(580)),
        ],
    },
    // 579: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation
    Struct {
        name: "ExternalDocumentation",
        fields: &[
            ("description", Shape::String),
            ("url", Shape::String),
        ],
    },
    // 580: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps
    Struct {
        name: "JSONSchemaProps",
        fields: &[
            ("$ref", Shape::String),
            ("$schema", Shape::String),
            ("additionalItems", Shape::Or(&Shape::Struct(580), &Shape::Bool)),
            ("additionalProperties", Shape::Or(&Shape::Struct(580), &Shape::Bool)),
            ("allOf", Shape::List(&Shape::Struct(580))),
            ("anyOf", Shape::List(&Shape::Struct(580))),
            ("default", Shape::Any),
            ("definitions", Shape::Map(&Shape::Struct(580))),
            ("dependencies", Shape::Map(&Shape::Or(&Shape::Struct(580), &Shape::List(&Shape::String)))),
            ("description", Shape::String),
            ("enum", Shape::List(&Shape::Any)),
            ("example", Shape::Any),
            ("exclusiveMaximum", Shape::Bool),
            ("exclusiveMinimum", Shape::Bool),
            ("externalDocs", Shape::Struct(579)),
            ("format", Shape::String),
            ("id", Shape::String),
            ("items", Shape::Or(&Shape::Struct(580), &Shape::List(&Shape::Struct(580)))),
            ("maxItems", Shape::Int64),
            ("maxLength", Shape::Int64),
            ("maxProperties", Shape::Int64),
            ("maximum", Shape::Number),
            ("minItems", Shape::Int64),
            ("minLength", Shape::Int64),
            ("minProperties", Shape::Int64),
            ("minimum", Shape::Number),
            ("multipleOf", Shape::Number),
            ("not", Shape::Struct(580)),
            ("nullable", Shape::Bool),
            ("oneOf", Shape::List(&Shape::Struct(580))),
            ("pattern", Shape::String),
            ("patternProperties", Shape::Map(&Shape::Struct(580))),
            ("properties", Shape::Map(&Shape::Struct(580))),
            ("required", Shape::List(&Shape::String)),
            ("title", Shape::String),
            ("type", Shape::String),
            ("uniqueItems", Shape::Bool),
            ("x-kubernetes-embedded-resource", Shape::Bool),
            ("x-kubernetes-int-or-string", Shape::Bool),
            ("x-kubernetes-list-map-keys", Shape::List(&Shape::String)),
            ("x-kubernetes-list-type", Shape::String),
            ("x-kubernetes-map-type", Shape::String),
            ("x-kubernetes-preserve-unknown-fields", Shape::Bool),
            ("x-kubernetes-validations", Shape::List(&Shape::Struct(583))),
        ],
    },
    // 581: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.SelectableField
    Struct {
        name: "SelectableField",
        fields: &[
            ("jsonPath", Shape::String),
        ],
    },
    // 582: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference
    Struct {
        name: "ServiceReference",
        fields: &[
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("path", Shape::String),
            ("port", Shape::Int32),
        ],
    },
    // 583: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule
    Struct {
        name: "ValidationRule",
        fields: &[
            ("fieldPath", Shape::String),
            ("message", Shape::String),
            ("messageExpression", Shape::String),
            ("optionalOldSelf", Shape::Bool),
            ("reason", Shape::String),
            ("rule", Shape::String),
        ],
    },
    // 584: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig
    Struct {
        name: "WebhookClientConfig",
        fields: &[
            ("caBundle", Shape::Bytes),
            ("service", Shape::Struct(582)),
            ("url", Shape::String),
        ],
    },
    // 585: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookConversion
    Struct {
        name: "WebhookConversion",
        fields: &[
            ("clientConfig", Shape::Struct(584)),
            ("conversionReviewVersions", Shape::List(&Shape::String)),
        ],
    },
    // 586: io.k8s.apimachinery.pkg.apis.meta.v1.Condition
    Struct {
        name: "Condition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("observedGeneration", Shape::Int64),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 587: io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions
    Struct {
        name: "DeleteOptions",
        fields: &[
            ("apiVersion", Shape::String),
            ("dryRun", Shape::List(&Shape::String)),
            ("gracePeriodSeconds", Shape::Int64),
            ("ignoreStoreReadErrorWithClusterBreakingPotential", Shape::Bool),
            ("kind", Shape::String),
            ("orphanDependents", Shape::Bool),
            ("preconditions", Shape::Struct(594)),
            ("propagationPolicy", Shape::String),
        ],
    },
    // 588: io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement
    Struct {
        name: "FieldSelectorRequirement",
        fields: &[
            ("key", Shape::String),
            ("operator", Shape::String),
            ("values", Shape::List(&Shape::String)),
        ],
    },
    // 589: io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector
    Struct {
        name: "LabelSelector",
        fields: &[
            ("matchExpressions", Shape::List(&Shape::Struct(590))),
            ("matchLabels", Shape::Map(&Shape::String)),
        ],
    },
    // 590: io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement
    Struct {
        name: "LabelSelectorRequirement",
        fields: &[
            ("key", Shape::String),
            ("operator", Shape::String),
            ("values", Shape::List(&Shape::String)),
        ],
    },
    // 591: io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry
    Struct {
        name: "ManagedFieldsEntry",
        fields: &[
            ("apiVersion", Shape::String),
            ("fieldsType", Shape::String),
            ("fieldsV1", Shape::Any),
            ("manager", Shape::String),
            ("operation", Shape::String),
            ("subresource", Shape::String),
            ("time", Shape::String),
        ],
    },
    // 592: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta
    Struct {
        name: "ObjectMeta",
        fields: &[
            ("annotations", Shape::Map(&Shape::String)),
            ("creationTimestamp", Shape::String),
            ("deletionGracePeriodSeconds", Shape::Int64),
            ("deletionTimestamp", Shape::String),
            ("finalizers", Shape::List(&Shape::String)),
            ("generateName", Shape::String),
            ("generation", Shape::Int64),
            ("labels", Shape::Map(&Shape::String)),
            ("managedFields", Shape::List(&Shape::Struct(591))),
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("ownerReferences", Shape::List(&Shape::Struct(593))),
            ("resourceVersion", Shape::String),
            ("selfLink", Shape::String),
            ("uid", Shape::String),
        ],
    },
    // 593: io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference
    Struct {
        name: "OwnerReference",
        fields: &[
            ("apiVersion", Shape::String),
            ("blockOwnerDeletion", Shape::Bool),
            ("controller", Shape::Bool),
            ("kind", Shape::String),
            ("name", Shape::String),
            ("uid", Shape::String),
        ],
    },
    // 594: io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions
    Struct {
        name: "Preconditions",
        fields: &[
            ("resourceVersion", Shape::String),
            ("uid", Shape::String),
        ],
    },
    // 595: io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService
    Struct {
        name: "APIService",
        fields: &[
            ("apiVersion", Shape::String),
            ("kind", Shape::String),
            ("metadata", Shape::Struct(592)),
            ("spec", Shape::Struct(597)),
            ("status", Shape::Struct(598)),
        ],
    },
    // 596: io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceCondition
    Struct {
        name: "APIServiceCondition",
        fields: &[
            ("lastTransitionTime", Shape::String),
            ("message", Shape::String),
            ("reason", Shape::String),
            ("status", Shape::String),
            ("type", Shape::String),
        ],
    },
    // 597: io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec
    Struct {
        name: "APIServiceSpec",
        fields: &[
            ("caBundle", Shape::Bytes),
            ("group", Shape::String),
            ("groupPriorityMinimum", Shape::Int32),
            ("insecureSkipTLSVerify", Shape::Bool),
            ("service", Shape::Struct(599)),
            ("version", Shape::String),
            ("versionPriority", Shape::Int32),
        ],
    },
    // 598: io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceStatus
    Struct {
        name: "APIServiceStatus",
        fields: &[
            ("conditions", Shape::List(&Shape::Struct(596))),
        ],
    },
    // 599: io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference
    Struct {
        name: "ServiceReference",
        fields: &[
            ("name", Shape::String),
            ("namespace", Shape::String),
            ("port", Shape::Int32),
        ],
    },
];
