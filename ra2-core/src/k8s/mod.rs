//! Kubernetes semantics the rules rely on, written to agree with the API server, the kubelet and
//! the scheduler: names and formats ([`names`]), quantities ([`quantity`]), effective resources
//! and QoS ([`resources`]), volumes and claims ([`storage`]), extended resources ([`devices`]),
//! API versions ([`api_versions`]) and feature gates ([`feature_gates`]).

pub(crate) mod api_versions;
pub mod devices;
pub(crate) mod feature_gates;
pub mod names;
pub mod quantity;
pub mod resources;
pub(crate) mod storage;
