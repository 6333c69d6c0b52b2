//! The telco extensions RA2 relies on: the CNI multiplexers' pod annotations ([`multus`],
//! [`danm`]), NetworkAttachmentDefinitions and their CNI configuration ([`nad`]), and Node Feature
//! Discovery labels ([`nfd`]).

pub(crate) mod danm;
pub(crate) mod multus;
pub(crate) mod nad;
pub(crate) mod nfd;
