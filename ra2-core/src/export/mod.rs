//! ra2's checks for other enforcement engines: data out, no I/O.
//!
//! [`vap`]: Kubernetes ValidatingAdmissionPolicies (CEL run by the API server itself), for the
//! checks CEL can decide from the one object under admission.

pub mod vap;
