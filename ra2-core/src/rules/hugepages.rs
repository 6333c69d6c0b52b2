//! ra2.ch.001: huge pages are requested the way the API server, the kubelet and RA2 nodes
//! accept them (ra2-rules.md §1.2, §2.4).

use crate::k8s::names::{ResourceName, classify_resource_name};
use crate::k8s::quantity::Quantity;
use crate::model::{Amount, Container, PodSpec, ResourcePair, Resources};
use crate::parse::view::Located;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    ..Checks::NONE
};

/// The page sizes RA2 nodes expose: 2Mi and 1Gi.
const RA2_PAGE_SIZES: [i128; 2] = [2 << 20, 1 << 30];

fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for container in pod.workload_containers() {
        for pair in &container.resources.pairs {
            hugepage_pair(container.describe(), pair, cx);
        }
        needs_cpu_or_memory(container, cx);
    }
    let pod_resources = pod_level(pod, cx);
    if let Some(resources) = &pod_resources {
        for pair in &resources.pairs {
            hugepage_pair("the pod", pair, cx);
        }
    }
    emptydir_media(pod, pod_resources.as_ref(), cx);
}

/// Pod-level `spec.resources`, when the target Kubernetes version honours them.
fn pod_level<'d>(pod: &PodSpec<'d>, cx: &Context<'_>) -> Option<Resources<'d>> {
    cx.config().pod_level_resources().then(|| pod.pod_resources()).flatten()
}

/// The checks on one `hugepages-<size>` entry of a container's (or the pod's) resources.
fn hugepage_pair(who: &str, pair: &ResourcePair<'_>, cx: &mut Context<'_>) {
    let ResourceName::HugePages { size } = classify_resource_name(pair.name) else {
        return;
    };
    let Some(shown_at) = pair.limit.as_ref().or(pair.request.as_ref()) else {
        return;
    };
    let name = pair.name;
    let page = page_size(&size);
    match &page {
        Err(why) => cx.report(
            "page-size-name",
            &shown_at.node,
            format!("{who} requests {name}, {why}"),
        ),
        Ok(page) if page.to_string() != size => cx.report(
            "page-size-name",
            &shown_at.node,
            format!(
                "{who} requests {name}, but nodes advertise that page size as hugepages-{page}, so it never matches"
            ),
        ),
        Ok(page) if !RA2_PAGE_SIZES.contains(&page.value()) => cx.report(
            "size-policy",
            &shown_at.node,
            format!("{who} requests huge pages of {page}; RA2 nodes offer only 2Mi and 1Gi pages"),
        ),
        Ok(_) => {}
    }
    request_limit(who, pair, cx);
    if let Ok(page) = &page {
        for (noun, amount) in [("request", written_request(pair)), ("limit", pair.limit.as_ref())] {
            if let Some(amount) = amount {
                multiple(who, name, noun, amount, page, cx);
            }
        }
    }
}

/// The page size a `hugepages-<size>` name (or `HugePages-<size>` medium) stands for.
fn page_size(size: &str) -> Result<Quantity, String> {
    match Quantity::parse(size) {
        Err(_) => Err(format!("whose page size {size:?} is not a quantity")),
        Ok(q) if q.is_negative() || q.is_zero() || !q.is_integer() => Err(format!(
            "whose page size {size} is not a positive whole number of bytes"
        )),
        Ok(q) => Ok(q),
    }
}

/// request-limit: huge pages cannot be overcommitted, so a written request needs an equal limit.
fn request_limit(who: &str, pair: &ResourcePair<'_>, cx: &mut Context<'_>) {
    let Some(request) = written_request(pair) else {
        return;
    };
    let name = pair.name;
    match &pair.limit {
        None => cx.report(
            "request-limit",
            &request.node,
            format!(
                "{who} requests {name} without a limit; huge pages cannot be overcommitted, so the limit is required"
            ),
        ),
        Some(limit)
            if request.quantity().is_some() && limit.quantity().is_some() && request.quantity() != limit.quantity() =>
        {
            cx.report(
                "request-limit",
                &request.node,
                format!(
                    "{who} requests {} {name} but limits it to {}; huge pages need the request to equal the limit",
                    request.shown(),
                    limit.shown()
                ),
            );
        }
        Some(_) => {}
    }
}

/// multiple: an amount of huge pages is a whole number of pages.
fn multiple(who: &str, name: &str, noun: &str, amount: &Amount<'_>, page: &Quantity, cx: &mut Context<'_>) {
    let problem = if amount.templated {
        Some(", an unrendered template: run `helm template` first".to_owned())
    } else {
        match &amount.quantity {
            Err(_) => Some(", which is not a quantity".to_owned()),
            Ok(q) if q.is_negative() => Some(", but amounts cannot be negative".to_owned()),
            Ok(q) if !q.hugepage_divisible(page) => Some(format!(", which is not a whole number of {page} pages")),
            Ok(_) => None,
        }
    };
    if let Some(problem) = problem {
        cx.report(
            "multiple",
            &amount.node,
            format!("{who} has {noun} {} for {name}{problem}", amount.shown()),
        );
    }
}

/// needs-cpu-or-memory: the API server refuses huge pages in a container that requests or
/// limits neither cpu nor memory.
fn needs_cpu_or_memory(container: &Container<'_>, cx: &mut Context<'_>) {
    let resources = &container.resources;
    let has = |wanted: &dyn Fn(&ResourceName) -> bool| {
        resources.pairs.iter().any(|p| wanted(&classify_resource_name(p.name)))
    };
    if !has(&|n| matches!(n, ResourceName::HugePages { .. }))
        || has(&|n| matches!(n, ResourceName::Cpu | ResourceName::Memory))
    {
        return;
    }
    let at = resources.node.clone().unwrap_or_else(|| container.node.clone());
    cx.report(
        "needs-cpu-or-memory",
        &at,
        format!(
            "{} requests huge pages but neither cpu nor memory; the API server requires one of them alongside huge pages",
            container.describe()
        ),
    );
}

/// emptydir-medium: a `HugePages` medium needs exactly one requested page size; a
/// `HugePages-<size>` medium needs a request of that size (numerically, as the kubelet compares).
fn emptydir_media(pod: &PodSpec<'_>, pod_resources: Option<&Resources<'_>>, cx: &mut Context<'_>) {
    let mut sizes: Vec<Quantity> = Vec::new();
    let pairs = pod
        .workload_containers()
        .flat_map(|c| c.resources.pairs.iter())
        .chain(pod_resources.into_iter().flat_map(|r| r.pairs.iter()));
    for pair in pairs.filter(|p| p.request.is_some()) {
        if let ResourceName::HugePages { size } = classify_resource_name(pair.name) {
            if let Ok(q) = page_size(&size) {
                if !sizes.contains(&q) {
                    sizes.push(q);
                }
            }
        }
    }
    for volume in pod.volumes() {
        let Some(medium) = volume.path(&["emptyDir", "medium"]) else {
            continue;
        };
        let Some(text) = medium.as_str() else { continue };
        let name = volume.str_at("name").unwrap_or("?");
        if let Some(problem) = medium_problem(text, &sizes) {
            report_medium(&medium, name, &problem, cx);
        }
    }
}

/// What is wrong with an emptyDir medium, given the page sizes the pod requests.
fn medium_problem(medium: &str, sizes: &[Quantity]) -> Option<String> {
    if medium == "HugePages" {
        return match sizes {
            [] => Some("no container requests huge pages".to_owned()),
            [_] => None,
            _ => Some(format!(
                "the pod requests more than one page size ({})",
                sizes.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
            )),
        };
    }
    let size = medium.strip_prefix("HugePages-")?;
    match page_size(size) {
        Err(why) => Some(why),
        Ok(page) if !sizes.contains(&page) => Some(format!("no container requests hugepages-{page}")),
        Ok(_) => None,
    }
}

fn report_medium(medium: &Located<'_>, volume: &str, problem: &str, cx: &mut Context<'_>) {
    let text = medium.as_str().unwrap_or_default();
    cx.report(
        "emptydir-medium",
        medium,
        format!("volume {volume:?} has medium {text}, but {problem}, so the kubelet cannot mount it"),
    );
}

/// The request as written in the manifest (not the one defaulted from the limit).
fn written_request<'p, 'd>(pair: &'p ResourcePair<'d>) -> Option<&'p Amount<'d>> {
    pair.request.as_ref().filter(|r| !r.defaulted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap()
    }

    #[test]
    fn page_sizes_parse_and_must_be_positive_and_whole() {
        assert_eq!(page_size("2Mi").unwrap(), q("2048Ki"));
        assert_eq!(page_size("2048Ki").unwrap().to_string(), "2Mi");
        assert!(page_size("2MB").is_err());
        assert!(page_size("0").is_err());
        assert!(page_size("500m").is_err());
    }

    #[test]
    fn media_match_requested_sizes_numerically() {
        let two = [q("2Mi")];
        assert_eq!(medium_problem("HugePages", &two), None);
        assert_eq!(medium_problem("HugePages-2Mi", &two), None);
        assert_eq!(medium_problem("HugePages-2048Ki", &two), None);
        assert!(medium_problem("HugePages-1Gi", &two).is_some());
        assert!(medium_problem("HugePages", &[]).is_some());
        assert!(medium_problem("HugePages", &[q("2Mi"), q("1Gi")]).is_some());
        assert!(medium_problem("HugePages-2X", &two).is_some());
        assert_eq!(medium_problem("Memory", &[]), None);
    }
}
