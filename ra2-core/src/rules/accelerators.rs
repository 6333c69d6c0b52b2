//! ra2.app.009 (to be written).

use crate::rules::Rule;

pub static RULE: Rule = Rule::new("ra2.app.009");
