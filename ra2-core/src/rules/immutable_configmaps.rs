//! ra2.app.037: ConfigMaps are immutable (`immutable: true`).

use crate::model::Object;
use crate::rules::{Checks, Context, with_article};

pub(super) static RULE: Checks = Checks {
    object: Some(check),
    ..Checks::NONE
};

/// Only a real boolean true counts (YAML 1.1 `yes` and `on` included); the string `"true"`
/// is rejected by the API server, so it does not make the ConfigMap immutable (ra2-rules.md §5.11).
fn check(object: &Object<'_>, cx: &mut Context<'_>) {
    if !object.is("", "ConfigMap") {
        return;
    }
    let name = object.name.unwrap_or("?");
    let fix = || crate::report::fix::set(&object.root, &["immutable"], true.into());
    match object.root.get("immutable") {
        Some(value) if value.is_true() => {}
        Some(value) if value.as_bool() == Some(false) => cx.report_fixable(
            "not-immutable",
            &value,
            format!("config map {name:?} sets immutable to false"),
            None,
            fix(),
        ),
        Some(value) if value.is_null() => cx.report_fixable(
            "not-immutable",
            &value,
            format!("config map {name:?} leaves immutable empty, so it stays mutable"),
            None,
            fix(),
        ),
        Some(value) => cx.report_fixable(
            "not-immutable",
            &value,
            format!(
                "config map {name:?} sets immutable to {} {}, not the boolean true",
                with_article(value.type_name()),
                value.source_text()
            ),
            Some(
                "Write immutable: true without quotes; the API server rejects any value that is not a boolean."
                    .to_owned(),
            ),
            fix(),
        ),
        None => {
            let at = object.root.get("kind").unwrap_or_else(|| object.root.clone());
            cx.report_fixable(
                "not-immutable",
                &at,
                format!("config map {name:?} is not immutable"),
                None,
                fix(),
            );
        }
    }
}
