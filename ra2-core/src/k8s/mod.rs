//! Kubernetes semantics the rules rely on, written to agree with the API server, the kubelet and
//! the scheduler: names and formats ([`names`]), quantities ([`quantity`]), extended resources
//! ([`devices`]), API versions ([`api_versions`]) and feature gates ([`feature_gates`]). What
//! reads objects (effective resources and QoS, volumes and claims) is in [`crate::model`].

pub(crate) mod api_versions;
pub mod devices;
pub(crate) mod feature_gates;
pub mod names;
pub(crate) mod openapi;
pub mod quantity;
