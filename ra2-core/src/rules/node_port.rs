//! ra2.app.036: Services do not expose node ports: no `type: NodePort` and no explicit
//! `ports[].nodePort`.

use crate::model::Object;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    object: Some(check),
    ..Checks::NONE
};

fn check(object: &Object<'_>, cx: &mut Context<'_>) {
    if !object.is("", "Service") {
        return;
    }
    let Some(spec) = object.root.get("spec") else { return };
    let service = object.name.unwrap_or("?");
    if let Some(kind) = spec.get("type").filter(|t| t.as_str() == Some("NodePort")) {
        cx.report(
            "node-port-type",
            &kind,
            format!("service {service:?} has type NodePort, which opens its ports on every node"),
        );
    }
    let Some(ports) = spec.get("ports") else { return };
    for port in ports.items() {
        // 0 or null asks for nothing: the API server allocates (or omits) the node port.
        let Some(node_port) = port.get("nodePort").filter(|p| !p.is_null() && p.as_int() != Some(0)) else {
            continue;
        };
        let name = match (port.str_at("name"), port.get("port")) {
            (Some(name), _) => format!("port {name:?}"),
            (None, Some(number)) => format!("port {}", number.source_text()),
            (None, None) => "a port".to_owned(),
        };
        cx.report(
            "node-port",
            &node_port,
            format!(
                "{name} of service {service:?} asks for node port {}",
                node_port.source_text()
            ),
        );
    }
}
