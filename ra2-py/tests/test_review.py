"""`ra2.review`: AdmissionReview v1 in, the response with the same uid out (DESIGN.md)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import ra2

UID = "705ab4f5-6393-11e8-b7cc-42010a800002"

HARDENED = {
    "securityContext": {"runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}},
    "containers": [
        {
            "name": "amf",
            "image": "registry.example.com/amf:1.0",
            "securityContext": {
                "readOnlyRootFilesystem": True,
                "allowPrivilegeEscalation": False,
                "capabilities": {"drop": ["ALL"]},
            },
            "resources": {"requests": {"cpu": "250m", "memory": "256Mi"}, "limits": {"cpu": "1", "memory": "256Mi"}},
        }
    ],
}


def pod(**spec: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "amf"}, "spec": {**copy.deepcopy(HARDENED), **spec}}


CLEAN = pod()
CONTROL_PLANE = pod(nodeSelector={"node-role.kubernetes.io/control-plane": ""})
HOST_PATH = pod(volumes=[{"name": "logs", "hostPath": {"path": "/var/log/amf"}}])


def admission(operation: str, obj: Any = None, **request: Any) -> dict[str, Any]:
    return {
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": {
            "uid": UID,
            "kind": {"group": "", "version": "v1", "kind": "Pod"},
            "resource": {"group": "", "version": "v1", "resource": "pods"},
            "namespace": "core",
            "operation": operation,
            "object": obj,
            **request,
        },
    }


def test_clean_object_is_allowed() -> None:
    assert ra2.review(admission("CREATE", CLEAN)) == {
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "response": {"uid": UID, "allowed": True},
    }


def test_error_findings_deny_with_403() -> None:
    response = ra2.review(admission("CREATE", CONTROL_PLANE))["response"]
    assert response["uid"] == UID
    assert response["allowed"] is False
    assert response["status"]["code"] == 403
    lines = response["status"]["message"].splitlines()
    assert lines and all(line.startswith("ra2.app.008 /spec/") for line in lines), lines
    assert ": " in lines[0]


def test_findings_below_the_threshold_are_warnings() -> None:
    response = ra2.review(admission("CREATE", HOST_PATH))["response"]
    assert response["allowed"] is True
    assert response["warnings"] == ['ra2.app.007 /spec/volumes/0/hostPath: volume "logs" mounts host path /var/log/amf']
    assert all(len(w.encode()) < 256 for w in response["warnings"])


def test_warnings_are_short() -> None:
    long = pod(volumes=[{"name": "logs", "hostPath": {"path": "/var/" + "x" * 600}}])
    (warning,) = ra2.review(admission("CREATE", long))["response"]["warnings"]
    assert len(warning.encode()) < 256 and warning.endswith("…")


def test_threshold_and_edition_come_from_the_options() -> None:
    assert ra2.review(admission("CREATE", HOST_PATH), config={"fail-on": "warning"})["response"]["allowed"] is False
    assert ra2.review(admission("CREATE", HOST_PATH), edition="latest")["response"]["allowed"] is False
    never = ra2.review(admission("CREATE", CONTROL_PLANE), config={"fail-on": "never"})["response"]
    assert never["allowed"] is True and never["warnings"]
    assert ra2.review(admission("CREATE", CONTROL_PLANE), ignore="ra2.app.008")["response"]["allowed"] is True


def test_exemptions_use_the_request_namespace() -> None:
    config = {"exemptions": [{"rule": "ra2.app.008", "namespace": "core", "reason": "lab"}]}
    assert ra2.review(admission("CREATE", CONTROL_PLANE), config=config)["response"]["allowed"] is True
    other = admission("CREATE", CONTROL_PLANE, namespace="ran")
    assert ra2.review(other, config=config)["response"]["allowed"] is False


@pytest.mark.parametrize("operation", ["DELETE", "CONNECT"])
def test_delete_and_connect_are_allowed(operation: str) -> None:
    review = admission(operation, None, oldObject=CONTROL_PLANE)
    assert ra2.review(review)["response"] == {"uid": UID, "allowed": True}


def test_update_judges_the_new_object() -> None:
    assert ra2.review(admission("UPDATE", CLEAN, oldObject=CONTROL_PLANE))["response"]["allowed"] is True
    assert ra2.review(admission("UPDATE", CONTROL_PLANE, oldObject=CLEAN))["response"]["allowed"] is False


@pytest.mark.parametrize(
    "controller",
    [
        {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "upf"},
            "spec": {
                "selector": {"matchLabels": {"app": "upf"}},
                "template": {"metadata": {"labels": {"app": "upf"}}, "spec": CONTROL_PLANE["spec"]},
            },
        },
        {
            "apiVersion": "batch/v1",
            "kind": "CronJob",
            "metadata": {"name": "sync"},
            "spec": {
                "schedule": "*/5 * * * *",
                "jobTemplate": {"spec": {"template": {"spec": {**CONTROL_PLANE["spec"], "restartPolicy": "Never"}}}},
            },
        },
    ],
    ids=["Deployment", "CronJob"],
)
def test_controllers_are_judged(controller: dict[str, Any]) -> None:
    response = ra2.review(admission("CREATE", controller))["response"]
    assert response["allowed"] is False
    assert "ra2.app.008 /spec/" in response["status"]["message"]


def test_status_updates_are_allowed() -> None:
    review = admission("UPDATE", CONTROL_PLANE, subResource="status")
    assert ra2.review(review)["response"]["allowed"] is True


@pytest.mark.parametrize(
    ("review", "message"),
    [
        ({}, "the AdmissionReview has no request"),
        ({"apiVersion": "admission.k8s.io/v1beta1", "request": {}}, "the admission request has no operation"),
        ({"kind": "Pod", "request": {}}, 'expected kind AdmissionReview, found "Pod"'),
        ({"request": []}, "the AdmissionReview's request is an array, not an object"),
        ({"request": {"operation": "CREATE"}}, "the CREATE request carries no object"),
        ({"request": {"uid": UID}}, "the admission request has no operation"),
        ({"request": {"uid": UID, "operation": "PATCH"}}, 'unknown operation "PATCH" (expected CREATE, UPDATE, DELETE or CONNECT)'),
        ({"request": {"uid": UID, "operation": "CREATE"}}, "the CREATE request carries no object"),
        ({"request": {"uid": UID, "operation": "CREATE", "object": [1]}}, "the CREATE request's object is an array, not an object"),
        ({"request": {"uid": UID, "operation": "CREATE", "object": {"kind": "Pod"}}}, "object has no apiVersion"),
        ({"request": {"uid": UID, "operation": "CREATE", "object": {"x": {1, 2}}}}, "review is not JSON data"),
    ],
)
def test_malformed_requests_raise_value_error(review: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as error:
        ra2.review(review)
    # The same reason a webhook's 400 response gives.
    assert message in str(error.value), str(error.value)


def test_cyclic_review_is_a_value_error() -> None:
    review = admission("CREATE", CLEAN)
    review["request"]["object"]["self"] = review
    with pytest.raises(ValueError, match="review is not JSON data"):
        ra2.review(review)


def test_non_mapping_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="review must be an AdmissionReview dict, found str"):
        ra2.review("{}")  # type: ignore[arg-type]


def test_input_is_not_modified() -> None:
    review = admission("CREATE", CONTROL_PLANE)
    before = copy.deepcopy(review)
    ra2.review(review)
    assert review == before


def test_strict_is_refused_not_ignored() -> None:
    with pytest.raises(ValueError, match="strict mode does not apply to review"):
        ra2.review(admission("CREATE", CLEAN), config={"strict": True})
