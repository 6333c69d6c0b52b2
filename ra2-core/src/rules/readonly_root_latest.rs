//! ra2.app.033: every container has a read-only root filesystem (the newer RA2's successor of
//! ra2.app.001, with the same check).

use crate::rules::Checks;

pub(super) static RULE: Checks = Checks {
    pod: Some(super::readonly_root::check_pod),
    ..Checks::NONE
};
