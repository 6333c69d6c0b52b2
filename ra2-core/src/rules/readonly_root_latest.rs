//! ra2.app.033: every container has a read-only root filesystem (the newer RA2's successor of
//! ra2.app.001, with the same check).

use crate::rules::Rule;

pub(super) static RULE: Rule = Rule {
    pod: Some(super::readonly_root::check_pod),
    ..Rule::new("ra2.app.033")
};
