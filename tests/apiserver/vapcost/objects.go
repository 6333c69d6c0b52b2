package main

import (
	"fmt"
	"strings"

	admv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

type apiservercelDeclType = apiservercel.DeclType

func metav1GVR(g schema.GroupVersionResource) metav1.GroupVersionResource {
	return metav1.GroupVersionResource(g)
}

func metav1GVK(g schema.GroupVersionKind) metav1.GroupVersionKind {
	return metav1.GroupVersionKind(g)
}

// guessGVR names the resource of a built-in kind (lower-case plural), as the policies match it.
func guessGVR(u *unstructured.Unstructured) schema.GroupVersionResource {
	gvk := u.GroupVersionKind()
	kind := strings.ToLower(gvk.Kind)
	switch {
	case strings.HasSuffix(kind, "s"):
		kind += "es"
	case strings.HasSuffix(kind, "y"):
		kind = kind[:len(kind)-1] + "ies"
	default:
		kind += "s"
	}
	return gvk.GroupVersion().WithResource(kind)
}

func matchesResource(p *admv1.ValidatingAdmissionPolicy, o object) bool {
	if p.Spec.MatchConstraints == nil {
		return false
	}
	in := func(list []string, s string) bool {
		for _, x := range list {
			if x == "*" || x == s {
				return true
			}
		}
		return false
	}
	for _, r := range p.Spec.MatchConstraints.ResourceRules {
		if in(r.APIGroups, o.gvr.Group) && in(r.APIVersions, o.gvr.Version) && in(r.Resources, o.gvr.Resource) {
			return true
		}
	}
	return false
}

func obj(m map[string]any) object {
	u := &unstructured.Unstructured{Object: m}
	return object{label: u.GetKind() + "/" + u.GetName(), u: u, gvr: guessGVR(u)}
}

// builtinObjects are those the VAP differential sends for cost (tests/tests/vap_differential.rs):
// ra2_testkit::typical_pod, the large Pod (100 containers and 50 init containers of 100
// environment variables each, 100 volumes) and the network-intensive Deployment of 150
// huge-page containers.
func builtinObjects() []object {
	typical := obj(map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "canary", "namespace": "default"},
		"spec": map[string]any{"containers": []any{map[string]any{
			"name": "c", "image": "registry.example/app:1.0",
			"securityContext": map[string]any{"runAsUser": int64(10001), "runAsGroup": int64(10001), "readOnlyRootFilesystem": true},
			"resources":       map[string]any{"limits": map[string]any{"cpu": "1", "memory": "1Gi"}},
			"livenessProbe":   map[string]any{"tcpSocket": map[string]any{"port": int64(80)}},
			"readinessProbe":  map[string]any{"tcpSocket": map[string]any{"port": int64(80)}},
		}}},
	})
	container := func(prefix string, i int) map[string]any {
		env := []any{}
		for e := 0; e < 100; e++ {
			env = append(env, map[string]any{"name": fmt.Sprintf("VAR_%d", e), "value": fmt.Sprintf("value-%d", e)})
		}
		return map[string]any{
			"name":  fmt.Sprintf("%s%d", prefix, i),
			"image": fmt.Sprintf("registry.example.com/team/app-%d:1.%d.0", i, i),
			"env":   env,
			"securityContext": map[string]any{"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true,
				"runAsUser": int64(10001), "runAsGroup": int64(10001),
				"capabilities": map[string]any{"drop": []any{"ALL"}, "add": []any{"NET_BIND_SERVICE", "CHOWN", "SETUID"}}},
			"resources":    map[string]any{"limits": map[string]any{"cpu": "100m", "memory": "64Mi"}},
			"volumeMounts": []any{map[string]any{"name": fmt.Sprintf("v%d", i), "mountPath": "/data"}},
		}
	}
	var containers, init, volumes []any
	for i := 0; i < 100; i++ {
		c := container("c", i)
		c["livenessProbe"] = map[string]any{"tcpSocket": map[string]any{"port": int64(8080)}}
		c["readinessProbe"] = map[string]any{"httpGet": map[string]any{"path": "/ready", "port": int64(8080)}}
		if i == 99 {
			c["image"] = "registry.example.com/team/app:latest"
		}
		containers = append(containers, c)
		volumes = append(volumes, map[string]any{"name": fmt.Sprintf("v%d", i), "emptyDir": map[string]any{}})
	}
	for i := 0; i < 50; i++ {
		init = append(init, container("init", i))
	}
	labels := map[string]any{"app": "large", "app.kubernetes.io/name": "large", "app.kubernetes.io/version": "1.0", "app.kubernetes.io/part-of": "ra2"}
	large := obj(map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "large", "namespace": "default", "labels": labels},
		"spec":     map[string]any{"hostUsers": false, "containers": containers, "initContainers": init, "volumes": volumes},
	})
	var huge []any
	for i := 0; i < 150; i++ {
		cpu := "1"
		if i%2 == 1 {
			cpu = "250m"
		}
		huge = append(huge, map[string]any{"name": fmt.Sprintf("c%d", i), "image": "registry.example.com/cnf/dp:1.0",
			"resources": map[string]any{"limits": map[string]any{"cpu": cpu, "memory": "1Gi", "hugepages-2Mi": "1Gi"}}})
	}
	pinning := obj(map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "pinning-large", "namespace": "default"},
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "pinning"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "pinning"}},
				"spec": map[string]any{"containers": huge}}},
	})
	return []object{typical, large, pinning}
}
