//! The kinds strict mode knows: every resource type of k8s-openapi's Kubernetes 1.33 API that
//! one writes in manifests (the discovery and status types of `meta/v1` are left out). Read by
//! the build script, which writes their prepared schemas for `src/kinds.rs`.
//! Regenerate with `grep -rn "impl crate::Resource for" src/v1_33` in the k8s-openapi sources.

use k8s_openapi::Resource;

/// A kind with a built-in schema.
#[derive(Debug)]
pub(crate) struct Builtin {
    pub api_version: &'static str,
    pub kind: &'static str,
    /// Generates the kind's JSON Schema (draft 2020-12, definitions under `$defs`).
    pub schema: fn() -> serde_json::Value,
}

fn schema_of<T: schemars::JsonSchema>() -> serde_json::Value {
    schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

macro_rules! kinds {
    ($($ty:path),* $(,)?) => {
        pub(crate) static KINDS: &[Builtin] = &[$(
            Builtin {
                api_version: <$ty as Resource>::API_VERSION,
                kind: <$ty as Resource>::KIND,
                schema: schema_of::<$ty>,
            }
        ),*];
    };
}

kinds![
    k8s_openapi::api::admissionregistration::v1::MutatingWebhookConfiguration,
    k8s_openapi::api::admissionregistration::v1::ValidatingAdmissionPolicy,
    k8s_openapi::api::admissionregistration::v1::ValidatingAdmissionPolicyBinding,
    k8s_openapi::api::admissionregistration::v1::ValidatingWebhookConfiguration,
    k8s_openapi::api::admissionregistration::v1alpha1::MutatingAdmissionPolicy,
    k8s_openapi::api::admissionregistration::v1alpha1::MutatingAdmissionPolicyBinding,
    k8s_openapi::api::admissionregistration::v1beta1::ValidatingAdmissionPolicy,
    k8s_openapi::api::admissionregistration::v1beta1::ValidatingAdmissionPolicyBinding,
    k8s_openapi::api::apiserverinternal::v1alpha1::StorageVersion,
    k8s_openapi::api::apps::v1::ControllerRevision,
    k8s_openapi::api::apps::v1::DaemonSet,
    k8s_openapi::api::apps::v1::Deployment,
    k8s_openapi::api::apps::v1::ReplicaSet,
    k8s_openapi::api::apps::v1::StatefulSet,
    k8s_openapi::api::authentication::v1::SelfSubjectReview,
    k8s_openapi::api::authentication::v1::TokenRequest,
    k8s_openapi::api::authentication::v1::TokenReview,
    k8s_openapi::api::authorization::v1::LocalSubjectAccessReview,
    k8s_openapi::api::authorization::v1::SelfSubjectAccessReview,
    k8s_openapi::api::authorization::v1::SelfSubjectRulesReview,
    k8s_openapi::api::authorization::v1::SubjectAccessReview,
    k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
    k8s_openapi::api::autoscaling::v1::Scale,
    k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
    k8s_openapi::api::batch::v1::CronJob,
    k8s_openapi::api::batch::v1::Job,
    k8s_openapi::api::certificates::v1::CertificateSigningRequest,
    k8s_openapi::api::certificates::v1alpha1::ClusterTrustBundle,
    k8s_openapi::api::certificates::v1beta1::ClusterTrustBundle,
    k8s_openapi::api::coordination::v1::Lease,
    k8s_openapi::api::coordination::v1alpha2::LeaseCandidate,
    k8s_openapi::api::coordination::v1beta1::LeaseCandidate,
    k8s_openapi::api::core::v1::Binding,
    k8s_openapi::api::core::v1::ComponentStatus,
    k8s_openapi::api::core::v1::ConfigMap,
    k8s_openapi::api::core::v1::Endpoints,
    k8s_openapi::api::core::v1::Event,
    k8s_openapi::api::core::v1::LimitRange,
    k8s_openapi::api::core::v1::Namespace,
    k8s_openapi::api::core::v1::Node,
    k8s_openapi::api::core::v1::PersistentVolume,
    k8s_openapi::api::core::v1::PersistentVolumeClaim,
    k8s_openapi::api::core::v1::Pod,
    k8s_openapi::api::core::v1::PodTemplate,
    k8s_openapi::api::core::v1::ReplicationController,
    k8s_openapi::api::core::v1::ResourceQuota,
    k8s_openapi::api::core::v1::Secret,
    k8s_openapi::api::core::v1::Service,
    k8s_openapi::api::core::v1::ServiceAccount,
    k8s_openapi::api::discovery::v1::EndpointSlice,
    k8s_openapi::api::events::v1::Event,
    k8s_openapi::api::flowcontrol::v1::FlowSchema,
    k8s_openapi::api::flowcontrol::v1::PriorityLevelConfiguration,
    k8s_openapi::api::networking::v1::IPAddress,
    k8s_openapi::api::networking::v1::Ingress,
    k8s_openapi::api::networking::v1::IngressClass,
    k8s_openapi::api::networking::v1::NetworkPolicy,
    k8s_openapi::api::networking::v1::ServiceCIDR,
    k8s_openapi::api::networking::v1beta1::IPAddress,
    k8s_openapi::api::networking::v1beta1::ServiceCIDR,
    k8s_openapi::api::node::v1::RuntimeClass,
    k8s_openapi::api::policy::v1::Eviction,
    k8s_openapi::api::policy::v1::PodDisruptionBudget,
    k8s_openapi::api::rbac::v1::ClusterRole,
    k8s_openapi::api::rbac::v1::ClusterRoleBinding,
    k8s_openapi::api::rbac::v1::Role,
    k8s_openapi::api::rbac::v1::RoleBinding,
    k8s_openapi::api::resource::v1alpha3::DeviceClass,
    k8s_openapi::api::resource::v1alpha3::DeviceTaintRule,
    k8s_openapi::api::resource::v1alpha3::ResourceClaim,
    k8s_openapi::api::resource::v1alpha3::ResourceClaimTemplate,
    k8s_openapi::api::resource::v1alpha3::ResourceSlice,
    k8s_openapi::api::resource::v1beta1::DeviceClass,
    k8s_openapi::api::resource::v1beta1::ResourceClaim,
    k8s_openapi::api::resource::v1beta1::ResourceClaimTemplate,
    k8s_openapi::api::resource::v1beta1::ResourceSlice,
    k8s_openapi::api::resource::v1beta2::DeviceClass,
    k8s_openapi::api::resource::v1beta2::ResourceClaim,
    k8s_openapi::api::resource::v1beta2::ResourceClaimTemplate,
    k8s_openapi::api::resource::v1beta2::ResourceSlice,
    k8s_openapi::api::scheduling::v1::PriorityClass,
    k8s_openapi::api::storage::v1::CSIDriver,
    k8s_openapi::api::storage::v1::CSINode,
    k8s_openapi::api::storage::v1::CSIStorageCapacity,
    k8s_openapi::api::storage::v1::StorageClass,
    k8s_openapi::api::storage::v1::VolumeAttachment,
    k8s_openapi::api::storage::v1alpha1::VolumeAttributesClass,
    k8s_openapi::api::storage::v1beta1::VolumeAttributesClass,
    k8s_openapi::api::storagemigration::v1alpha1::StorageVersionMigration,
    k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    k8s_openapi::kube_aggregator::pkg::apis::apiregistration::v1::APIService,
];
